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

/// A `build` of at most this many elements (a constant count) is taken never
/// to run out of memory; a larger constant count may (so loop-invariant code
/// motion does not compute it before a loop that may run zero times).
pub const SURELY_ALLOCATABLE: i64 = 1 << 24;

/// Can evaluating this expression fail at run time (bounds, sizes, division by zero,
/// a failing builtin, a call, out of memory for a huge constant count)? Used to decide what may be moved where it might run
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
        Exp::Bin(op, _, b) => match op {
            BinOp::Div | BinOp::Rem => !matches!(b, Atom::Const(c) if !is_zero(*c)),
            // an integer power with a negative exponent is an error
            BinOp::Pow => !matches!(b, Atom::Const(c) if c.as_int().is_none_or(|k| k >= 0)),
            _ => false,
        },
        Exp::ArrayLit(_) => true, // irregular nested literals
        Exp::If(_, t, f) => body_can_fail(t) || body_can_fail(f),
        Exp::Prim(Prim::Length { .. }) => false,
        Exp::Prim(p @ (Prim::Build { .. } | Prim::IFold { .. } | Prim::IReduce { .. })) => {
            let is_build = matches!(p, Prim::Build { .. });
            p.args().into_iter().any(|a| match a {
                ArgRef::Fun(Fun::Lambda(l)) => {
                    body_can_fail(&l.body) || (is_build && !rows_regular(l))
                }
                ArgRef::Fun(Fun::Var(_)) => true,
                // a negative count is an error for build
                ArgRef::Atom(_) => false,
            }) || matches!(p, Prim::Build { n, .. } if !matches!(n, Atom::Const(Const::I64(k)) if (0..=SURELY_ALLOCATABLE).contains(k)))
        }
        _ => true,
    }
}

/// Are the elements a `build`'s lambda returns all of one shape? By their type
/// (every size in the element type is known and none is bound inside the
/// lambda: so `build n (\i -> iota i)` is not), or by how the element is made: a
/// value from outside the lambda, a row of an array from outside, a `build` whose
/// count comes from outside and whose own elements are all of one shape, a tuple
/// of such. Scalars and tuples of scalars are.
pub fn rows_regular(l: &Lambda) -> bool {
    let mut bs = Binders(Vec::new());
    walk_lambda_mut(&mut bs, &mut l.clone());
    let inner: HashSet<Name> = bs.0.into_iter().collect();
    sizes_invariant(&l.ret, &inner) || same_shape_each_time(&l.body.result, &l.body, &inner, 8)
}

/// Does the result type of `l` name every size of its elements from outside
/// the lambda (constants or variables not bound inside it)?
pub fn ret_sizes_invariant(l: &Lambda) -> bool {
    let mut bs = Binders(Vec::new());
    walk_lambda_mut(&mut bs, &mut l.clone());
    let inner: HashSet<Name> = bs.0.into_iter().collect();
    sizes_invariant(&l.ret, &inner)
}

type HashSet<T> = std::collections::HashSet<T>;

fn sizes_invariant(t: &Type, inner: &HashSet<Name>) -> bool {
    match t {
        Type::Array(s, e) => {
            let ok = match s {
                Size::Const(_) => true,
                Size::Var(v) => !inner.contains(v),
                _ => false,
            };
            ok && sizes_invariant(e, inner)
        }
        Type::Tuple(ts) => ts.iter().all(|t| sizes_invariant(t, inner)),
        _ => true,
    }
}

/// Does `a`, the result of `body` (run once per element), have the same shape
/// every time? `inner`: the names bound inside the lambda.
fn same_shape_each_time(a: &Atom, body: &Body, inner: &HashSet<Name>, fuel: usize) -> bool {
    let Atom::Var(v) = a else { return true };
    if !inner.contains(v) {
        return true;
    }
    if fuel == 0 {
        return false;
    }
    let Some(st) = body.stmts.iter().find(|s| &s.var == v) else {
        return false;
    };
    if sizes_invariant(&st.ty, inner) {
        return true;
    }
    let outside = |a: &Atom| !matches!(a, Atom::Var(v) if inner.contains(v));
    match &st.exp {
        Exp::Atom(b) => same_shape_each_time(b, body, inner, fuel - 1),
        Exp::Tuple(xs) => xs
            .iter()
            .all(|x| same_shape_each_time(x, body, inner, fuel - 1)),
        // a row of one array: all rows of an array have one shape
        Exp::Index(arr, _) => outside(arr),
        // a slice with bounds from outside, of rows of one shape: `hi - lo`
        // elements (the rows of a block `a[1:n-1, 1:n-1]`)
        Exp::Slice(arr, lo, hi) => {
            outside(lo) && outside(hi) && same_shape_each_time(arr, body, inner, fuel - 1)
        }
        Exp::Prim(Prim::Build {
            n,
            f: Fun::Lambda(l2),
        }) => {
            // (a count bound inside: the length of a slice with bounds from
            // outside, `map f x[lo:hi]`, is the same each time)
            let slice_len = || {
                let Atom::Var(m) = n else { return false };
                let Some(Exp::Dim(t, 0)) = body.stmts.iter().find(|s| &s.var == m).map(|s| &s.exp)
                else {
                    return false;
                };
                let Atom::Var(t) = t else { return false };
                matches!(
                    body.stmts.iter().find(|s| &s.var == t).map(|s| &s.exp),
                    Some(Exp::Slice(arr, lo, hi))
                        if outside(lo) && outside(hi) && same_shape_each_time(arr, body, inner, fuel - 1)
                )
            };
            (outside(n) || slice_len()) && {
                let mut bs = Binders(Vec::new());
                walk_lambda_mut(&mut bs, &mut l2.clone());
                let mut inner2 = inner.clone();
                inner2.extend(bs.0);
                sizes_invariant(&l2.ret, &inner2)
                    || same_shape_each_time(&l2.body.result, &l2.body, &inner2, fuel - 1)
            }
        }
        _ => false,
    }
}

pub fn body_can_fail(b: &Body) -> bool {
    b.stmts.iter().any(|s| can_fail(&s.exp))
}

pub fn is_zero(c: Const) -> bool {
    c.is_zero()
}

/// Is the expression an explicit check, or does it contain one or a `while` loop?
/// Such statements never move (LICM) and are never merged (CSE). Whether an unused
/// statement may go is decided by `dce` (which keeps every check a statement
/// makes: docs/ARCHITECTURE.md, "What the optimizer preserves").
pub fn has_effect(e: &Exp) -> bool {
    match e {
        Exp::CheckSize(_) | Exp::Check(_) => true,
        Exp::If(_, t, f) => body_has_effect(t) || body_has_effect(f),
        Exp::Call(_, args) => args.iter().any(|a| match a {
            Arg::Fun(Fun::Lambda(l)) => body_has_effect(&l.body),
            _ => false,
        }),
        Exp::Prim(p) => p.lambdas().iter().any(|l| body_has_effect(&l.body)),
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
