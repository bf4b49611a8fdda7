//! Helpers shared by the passes: fresh names, substitution, renaming, type lookup,
//! and the effect/cost classification of expressions.

use std::collections::HashMap;
use weir_ir::visit::{MutVisitor, map_sizes, walk_body_mut, walk_exp_mut, walk_lambda_mut};
use weir_ir::*;

/// Fresh names for one function: `base_N` with N above every suffix in use.
pub struct Fresh {
    next: usize,
}

struct MaxSuffix(usize);
impl MutVisitor for MaxSuffix {
    fn binder(&mut self, n: &mut Name) {
        if let Some(i) = n.rfind('_')
            && let Ok(k) = n[i + 1..].parse::<usize>()
        {
            self.0 = self.0.max(k);
        }
    }
}

impl Fresh {
    pub fn for_fun(d: &FunDef) -> Fresh {
        let mut m = MaxSuffix(0);
        for (n, _) in &d.params {
            m.binder(&mut n.clone());
        }
        for n in &d.size_params {
            m.binder(&mut n.clone());
        }
        walk_body_mut(&mut m, &mut d.body.clone());
        Fresh { next: m.0 + 1 }
    }
    /// A new name that looks like `base` in messages.
    pub fn name(&mut self, base: &str) -> Name {
        let k = self.next;
        self.next += 1;
        format!("{}_{k}", display_name(base))
    }
}

/// Replace variables by atoms everywhere (atoms, sizes in types, function names).
/// A size naming a variable replaced by a constant `i64` becomes that constant; by
/// another constant, `Unknown`.
pub struct Subst<'a> {
    pub map: &'a HashMap<Name, Atom>,
}

impl MutVisitor for Subst<'_> {
    fn atom(&mut self, a: &mut Atom) {
        if let Atom::Var(v) = a
            && let Some(r) = self.map.get(v)
        {
            *a = r.clone();
        }
    }
    fn ty(&mut self, t: &mut Type) {
        subst_type(t, self.map);
    }
    fn fun_name(&mut self, n: &mut Name) {
        if let Some(Atom::Var(r)) = self.map.get(n) {
            *n = r.clone();
        }
    }
}

pub fn subst_type(t: &mut Type, map: &HashMap<Name, Atom>) {
    map_sizes(t, &mut |s| {
        if let Size::Var(v) = s
            && let Some(r) = map.get(v)
        {
            *s = match r {
                Atom::Var(w) => Size::Var(w.clone()),
                Atom::Const(Const::I64(k)) => Size::Const(*k),
                _ => Size::Unknown,
            };
        }
    });
}

pub fn subst_body(b: &mut Body, map: &HashMap<Name, Atom>) {
    if !map.is_empty() {
        walk_body_mut(&mut Subst { map }, b);
    }
}

pub fn subst_exp(e: &mut Exp, map: &HashMap<Name, Atom>) {
    if !map.is_empty() {
        walk_exp_mut(&mut Subst { map }, e);
    }
}

/// Collect the binders of a body (all nesting levels).
struct Binders(Vec<Name>);
impl MutVisitor for Binders {
    fn binder(&mut self, n: &mut Name) {
        self.0.push(n.clone());
    }
}

/// Rename every binder inside `b` to a fresh name (uses follow), and apply `extra`
/// (e.g. lambda parameters to the actual atoms) at the same time. Used whenever code
/// is copied, so that names stay unique in the function.
pub fn freshen_body(b: &mut Body, fresh: &mut Fresh, extra: &HashMap<Name, Atom>) {
    let mut bs = Binders(Vec::new());
    walk_body_mut(&mut bs, b);
    walk_body_mut(&mut Rename::fresh(bs.0, fresh, extra), b);
}

/// Like [`freshen_body`] for a lambda (its parameters are renamed too).
pub fn freshen_lambda(l: &mut Lambda, fresh: &mut Fresh) {
    let mut bs = Binders(Vec::new());
    walk_lambda_mut(&mut bs, l);
    walk_lambda_mut(&mut Rename::fresh(bs.0, fresh, &HashMap::new()), l);
}

/// Renames binders (`renames`) and substitutes uses (`map`).
struct Rename {
    map: HashMap<Name, Atom>,
    renames: HashMap<Name, Name>,
}

impl Rename {
    /// A fresh name for each binder; uses follow, and `extra` is substituted too.
    fn fresh(binders: Vec<Name>, fresh: &mut Fresh, extra: &HashMap<Name, Atom>) -> Rename {
        let mut map = extra.clone();
        let mut renames = HashMap::new();
        for n in binders {
            let f = fresh.name(&n);
            renames.insert(n.clone(), f.clone());
            map.insert(n, Atom::Var(f));
        }
        Rename { map, renames }
    }
}

impl MutVisitor for Rename {
    fn atom(&mut self, a: &mut Atom) {
        Subst { map: &self.map }.atom(a)
    }
    fn ty(&mut self, t: &mut Type) {
        subst_type(t, &self.map)
    }
    fn fun_name(&mut self, n: &mut Name) {
        Subst { map: &self.map }.fun_name(n)
    }
    fn binder(&mut self, n: &mut Name) {
        if let Some(r) = self.renames.get(n) {
            *n = r.clone();
        }
    }
}

/// The type of every variable bound in a function (names are unique).
pub fn type_env(d: &FunDef) -> HashMap<Name, Type> {
    struct Tys {
        env: HashMap<Name, Type>,
        last_ty: Option<Type>,
    }
    impl MutVisitor for Tys {
        fn ty(&mut self, t: &mut Type) {
            self.last_ty = Some(t.clone());
        }
        fn binder(&mut self, n: &mut Name) {
            // every binder is preceded by its type, except loop counters (i64)
            let t = self.last_ty.take().unwrap_or(Type::I64);
            self.env.insert(n.clone(), t);
        }
    }
    let mut v = Tys {
        env: HashMap::new(),
        last_ty: None,
    };
    for (n, t) in &d.params {
        v.env.insert(n.clone(), t.clone());
    }
    for n in &d.size_params {
        v.env.insert(n.clone(), Type::I64);
    }
    walk_body_mut(&mut v, &mut d.body.clone());
    v.env
}

pub fn atom_type(a: &Atom, env: &HashMap<Name, Type>) -> Type {
    match a {
        Atom::Const(c) => Type::Prim(c.prim()),
        Atom::Var(v) => env.get(v).cloned().unwrap_or(Type::I64),
    }
}

/// Can evaluating this expression fail at run time (bounds, sizes, division by zero,
/// a failing builtin, a call)? Used to decide what may be moved where it might run
/// when it did not before.
pub fn can_fail(e: &Exp) -> bool {
    match e {
        Exp::Atom(_)
        | Exp::Un(..)
        | Exp::Convert(..)
        | Exp::Math(..)
        | Exp::Tuple(_)
        | Exp::Proj(..)
        | Exp::Dim(..) => false,
        Exp::Bin(op, _, b) => {
            matches!(op, BinOp::Div | BinOp::Rem) && !matches!(b, Atom::Const(c) if !is_zero(*c))
        }
        Exp::ArrayLit(_) => true, // irregular nested literals
        Exp::If(_, t, f) => body_can_fail(t) || body_can_fail(f),
        Exp::Prim(Builtin::Length, _) => false,
        Exp::Prim(Builtin::Build | Builtin::IFold | Builtin::IReduce, args) => {
            args.iter().any(|a| match a {
                Arg::Fun(Fun::Lambda(l)) => body_can_fail(&l.body),
                Arg::Fun(Fun::Var(_)) => true,
                // a negative count is an error for build
                Arg::Atom(_) => false,
            }) || matches!(e, Exp::Prim(Builtin::Build, args) if !matches!(args.first(), Some(Arg::Atom(Atom::Const(Const::I64(k)))) if *k >= 0))
        }
        _ => true,
    }
}

pub fn body_can_fail(b: &Body) -> bool {
    b.stmts.iter().any(|s| can_fail(&s.exp))
}

pub fn is_zero(c: Const) -> bool {
    match c {
        Const::I64(v) => v == 0,
        Const::I32(v) => v == 0,
        Const::F64(v) => v == 0.0,
        Const::F32(v) => v == 0.0,
        Const::Bool(_) => false,
    }
}

/// Has the expression an effect that must be kept even when its result is unused?
/// Only explicit checks do; a read that could fail is not kept for its failure
/// (see docs/ARCHITECTURE.md, "what the optimizer preserves").
pub fn has_effect(e: &Exp) -> bool {
    match e {
        Exp::CheckSize(_) => true,
        Exp::If(_, t, f) => body_has_effect(t) || body_has_effect(f),
        Exp::Call(_, args) | Exp::Prim(_, args) => args.iter().any(|a| match a {
            Arg::Fun(Fun::Lambda(l)) => body_has_effect(&l.body),
            _ => false,
        }),
        Exp::Loop { form, body, .. } => {
            body_has_effect(body)
                || matches!(form, LoopForm::While(c) if body_has_effect(c))
                // a while loop may not terminate; keep it
                || matches!(form, LoopForm::While(_))
        }
        _ => false,
    }
}

pub fn body_has_effect(b: &Body) -> bool {
    b.stmts.iter().any(|s| has_effect(&s.exp))
}

/// A placeholder body, for taking a body out of the IR with `std::mem::replace`.
pub fn empty_body() -> Body {
    Body {
        stmts: vec![],
        result: Atom::Const(Const::Bool(false)),
    }
}

/// A statement.
pub fn stmt(var: Name, ty: Type, exp: Exp, span: Span) -> Stmt {
    Stmt { var, ty, exp, span }
}

/// The array type's size at dimension `k`, if the type says.
pub fn size_at(t: &Type, k: usize) -> Option<&Size> {
    match t {
        Type::Array(s, e) => {
            if k == 0 {
                Some(s)
            } else {
                size_at(e, k - 1)
            }
        }
        _ => None,
    }
}

pub fn size_atom(s: &Size) -> Option<Atom> {
    match s {
        Size::Const(k) => Some(Atom::Const(Const::I64(*k))),
        Size::Var(v) => Some(Atom::Var(v.clone())),
        _ => None,
    }
}
