//! Uniqueness types (Futhark's, for in-place updates): which arrays a
//! definition may consume, and the check that no consumed array is used
//! again.
//!
//! `*` marks a parameter the definition may consume (update in place) and a
//! result that aliases none of the non-unique parameters. The marks are
//! stripped from the definitions before elaboration ([`strip`]): the core IR
//! has no uniqueness, and the check runs on each elaborated definition
//! ([`check`]).

use std::collections::{BTreeSet, HashMap};
use weir_ir::{
    Arg, Atom, Body, Exp, Fun, FunDef, Lambda, LoopForm, Name, Prim, Size, Stmt, Type, display_name,
};
use weir_syntax::{Diagnostic, Span, ast};

/// What a definition's signature says about uniqueness.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Uniq {
    /// For each parameter: declared unique (`*`, at its top or in a tuple
    /// component), with the span of the mark.
    pub params: Vec<Option<Span>>,
    /// For each parameter: which of its tuple components are declared unique
    /// (one entry for a parameter that is not a tuple, or whose whole type
    /// is marked).
    pub param_comps: Vec<Vec<bool>>,
    /// For the result, or each component of a tuple result: declared unique.
    pub ret: Vec<bool>,
    /// The span of each mark of `ret` (the marked type).
    pub ret_spans: Vec<Option<Span>>,
}

/// The definition without its `*` marks (where they are allowed: at the top
/// of a parameter's type or of one of its tuple components, and of the
/// result's type or of one of its tuple components), and what they said. A
/// mark anywhere else stays, for the elaborator to report (E0420).
pub fn strip(d: &ast::Def) -> (ast::Def, Uniq) {
    fn top(t: &ast::TypeExp) -> (ast::TypeExp, Option<Span>) {
        match t {
            ast::TypeExp::Unique(inner, sp) => (top(inner).0, Some(*sp)),
            _ => (t.clone(), None),
        }
    }
    fn comps(t: &ast::TypeExp) -> (ast::TypeExp, Vec<Option<Span>>) {
        match t {
            ast::TypeExp::Tuple(ts, sp) => {
                let (ts, us): (Vec<_>, Vec<_>) = ts.iter().map(top).unzip();
                (ast::TypeExp::Tuple(ts, *sp), us)
            }
            _ => {
                let (t, u) = top(t);
                (t, vec![u])
            }
        }
    }
    let mut d = d.clone();
    let mut uniq = Uniq::default();
    for p in &mut d.params {
        let (t, us) = comps(&p.ty);
        p.ty = t;
        uniq.param_comps
            .push(us.iter().map(|u| u.is_some()).collect());
        uniq.params.push(us.into_iter().flatten().next());
    }
    if let Some(r) = &d.ret {
        let (t, us) = comps(r);
        d.ret = Some(t);
        uniq.ret = us.iter().map(|u| u.is_some()).collect();
        uniq.ret_spans = us;
    }
    (d, uniq)
}

/// Check one elaborated definition: no consumed array is used again, only
/// what may be consumed is, and a unique result aliases no non-unique
/// parameter. `sigs` are the uniqueness of the definitions it may call.
///
/// The check follows the statements in order and knows, for every array (or
/// tuple of arrays) bound so far, the *roots* it may share memory with: the
/// parameters, and the statements that make arrays of their own (`build`,
/// `map`, literals, `copy`, updates, ...). Views and rearrangements
/// (`a[i]`, `a[s:e]`, `transpose`, `zip`, ...) share their operand's roots.
/// An update consumes the roots of the array it updates, a call those of the
/// arguments at its unique parameters, and a loop (`loop`, `ifold`, `fold`)
/// whose body consumes its state those of its initial value; a consumed root
/// may not be used again (`dim` and `length` excepted: sizes do not change).
pub fn check(def: &FunDef, uniq: &Uniq, sigs: &HashMap<String, Uniq>) -> Vec<Diagnostic> {
    let mut ck = Ck {
        sigs,
        roots: Vec::new(),
        env: HashMap::new(),
        bound_at: HashMap::new(),
        barriers: Vec::new(),
        log: Vec::new(),
        uses: Vec::new(),
        watching: 0,
        result_span: None,
        diags: Vec::new(),
    };
    for (p, (name, ty)) in def.params.iter().enumerate() {
        let marked = uniq.params.get(p).is_some_and(|m| m.is_some());
        let comps = uniq
            .param_comps
            .get(p)
            .cloned()
            .unwrap_or_else(|| vec![marked]);
        let al = match ty {
            Type::Tuple(ts) if comps.len() > 1 && comps.len() == ts.len() => Al::Tup(
                ts.iter()
                    .zip(&comps)
                    .map(|(t, &unique)| {
                        let kind = Kind::Param {
                            unique,
                            ty: surface_type(t),
                        };
                        ck.conform(Al::empty(), t, &kind, name, None)
                    })
                    .collect(),
            ),
            _ => {
                let unique = marked || comps.iter().any(|&u| u);
                let kind = Kind::Param {
                    unique,
                    ty: surface_type(ty),
                };
                ck.conform(Al::empty(), ty, &kind, name, None)
            }
        };
        ck.env.insert(name.clone(), al);
    }
    let res = ck.walk_body(&def.body, def.span);
    let res = ck.conform(res, &def.ret, &Kind::Fresh, "result", None);
    ck.unique_result(def, uniq, &res);
    ck.diags
}

type RootId = usize;
type Set = BTreeSet<RootId>;

/// What a value may share memory with: a set of roots, or one per tuple
/// component.
#[derive(Clone, Debug, PartialEq)]
enum Al {
    Set(Set),
    Tup(Vec<Al>),
}

impl Al {
    fn empty() -> Al {
        Al::Set(Set::new())
    }
    fn flat(&self) -> Set {
        let mut s = Set::new();
        self.flat_into(&mut s);
        s
    }
    fn flat_into(&self, out: &mut Set) {
        match self {
            Al::Set(s) => out.extend(s.iter().copied()),
            Al::Tup(cs) => cs.iter().for_each(|c| c.flat_into(out)),
        }
    }
    fn union(self, other: Al) -> Al {
        match (self, other) {
            (Al::Tup(a), Al::Tup(b)) if a.len() == b.len() => {
                Al::Tup(a.into_iter().zip(b).map(|(x, y)| x.union(y)).collect())
            }
            (a, b) => {
                let mut s = a.flat();
                b.flat_into(&mut s);
                Al::Set(s)
            }
        }
    }
    fn proj(&self, i: usize) -> Al {
        match self {
            Al::Tup(cs) => cs.get(i).cloned().unwrap_or_else(|| Al::Set(self.flat())),
            Al::Set(s) => Al::Set(s.clone()),
        }
    }
    /// The sets of the leaves, in order.
    fn leaves(&self) -> Vec<Set> {
        let mut out = Vec::new();
        fn go(a: &Al, out: &mut Vec<Set>) {
            match a {
                Al::Set(s) => out.push(s.clone()),
                Al::Tup(cs) => cs.iter().for_each(|c| go(c, out)),
            }
        }
        go(self, &mut out);
        out
    }
    /// This shape with the leaves replaced, in order.
    fn with_leaves(&self, leaves: &mut impl Iterator<Item = Set>) -> Al {
        match self {
            Al::Set(_) => Al::Set(leaves.next().unwrap_or_default()),
            Al::Tup(cs) => Al::Tup(cs.iter().map(|c| c.with_leaves(leaves)).collect()),
        }
    }
}

/// Where a root comes from, which says whether it may be consumed.
#[derive(Clone, Debug)]
enum Kind {
    /// A parameter of the definition (consumable when declared unique).
    Param { unique: bool, ty: String },
    /// An array the program makes (consumable).
    Fresh,
    /// The state of a loop, or the accumulator of an `ifold`/`fold`, inside
    /// its body (consumable: the loop then consumes its initial value).
    State,
    /// A parameter of a lambda: an element or row of the arrays `of` (never
    /// consumable: the lambda may run many times).
    Row { of: Set },
    /// The result of calling a function parameter: it may share memory with
    /// the caller's arrays (never consumable).
    Opaque { fun: String },
}

#[derive(Clone, Debug)]
enum How {
    Update,
    Call(String),
    /// `loop`, `ifold` or `fold`
    Loop(&'static str),
}

#[derive(Clone, Debug)]
struct Consumed {
    span: Span,
    how: How,
}

#[derive(Debug)]
struct Root {
    kind: Kind,
    /// The core name of the variable that introduced it.
    name: String,
    /// The statement that made it (none for parameters).
    span: Option<Span>,
    /// The number of lambdas and loop bodies around it.
    level: usize,
    consumed: Option<Consumed>,
    /// A use after its consumption was reported (one report per root).
    reported: bool,
}

struct Ck<'a> {
    sigs: &'a HashMap<String, Uniq>,
    roots: Vec<Root>,
    env: HashMap<Name, Al>,
    bound_at: HashMap<Name, Span>,
    /// The lambdas and loop bodies around the statement checked (`"lambda"`,
    /// `"loop body"`), innermost last.
    barriers: Vec<&'static str>,
    /// The roots consumed, in order (undone between the branches of an `if`).
    log: Vec<RootId>,
    /// The roots used inside loop bodies, with the use's span.
    uses: Vec<(RootId, Span)>,
    watching: usize,
    /// Set while the result of a body is checked (its use has no statement).
    result_span: Option<Span>,
    diags: Vec<Diagnostic>,
}

fn show(core: &str) -> &str {
    display_name(core)
}

/// The source name of a variable, or none for a temporary of the
/// elaborator (`t_12`: a value written inline).
fn named(core: &str) -> Option<&str> {
    match show(core) {
        "t" => None,
        x => Some(x),
    }
}

/// `[n]f64` for a core type (`[n_1]f64`).
fn surface_type(t: &Type) -> String {
    match t {
        Type::Prim(p) => p.name().to_string(),
        Type::Array(s, e) => {
            let size = match s {
                Size::Const(k) => k.to_string(),
                Size::Var(v) => show(v).to_string(),
                Size::Unknown | Size::Infer(_) => String::new(),
            };
            format!("[{size}]{}", surface_type(e))
        }
        Type::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(surface_type).collect();
            format!("({})", parts.join(", "))
        }
        Type::Record(fs) => {
            let parts: Vec<String> = fs
                .iter()
                .map(|(n, t)| format!("{n}: {}", surface_type(t)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Type::Fun(..) | Type::Infer(_) => "[n]f64".to_string(),
    }
}

fn atom_name(a: &Atom) -> &str {
    match a {
        Atom::Var(v) => v,
        Atom::Const(_) => "value",
    }
}

impl Ck<'_> {
    fn level(&self) -> usize {
        self.barriers.len()
    }

    fn new_root(&mut self, kind: Kind, name: &str, span: Option<Span>) -> RootId {
        self.roots.push(Root {
            kind,
            name: name.to_string(),
            span,
            level: self.level(),
            consumed: None,
            reported: false,
        });
        self.roots.len() - 1
    }

    /// `al` shaped as a value of type `ty`: no roots for a scalar, one set
    /// for an array, one part per tuple component; an array with no roots
    /// gets a new root of kind `kind`.
    fn conform(&mut self, al: Al, ty: &Type, kind: &Kind, name: &str, span: Option<Span>) -> Al {
        match ty {
            Type::Array(..) => {
                let mut s = al.flat();
                if s.is_empty() {
                    s.insert(self.new_root(kind.clone(), name, span));
                }
                Al::Set(s)
            }
            Type::Tuple(ts) => match al {
                Al::Tup(cs) if cs.len() == ts.len() => Al::Tup(
                    cs.into_iter()
                        .zip(ts)
                        .map(|(c, t)| self.conform(c, t, kind, name, span))
                        .collect(),
                ),
                other => Al::Tup(
                    ts.iter()
                        .map(|t| self.conform(other.clone(), t, kind, name, span))
                        .collect(),
                ),
            },
            _ => Al::empty(),
        }
    }

    /// The value of statement `st`, sharing memory with `al` (a new root
    /// where it shares none).
    fn result(&mut self, st: &Stmt, al: Al) -> Al {
        self.conform(al, &st.ty, &Kind::Fresh, &st.var, Some(st.span))
    }

    fn atom_al(&self, a: &Atom) -> Al {
        match a {
            Atom::Var(v) => self.env.get(v).cloned().unwrap_or_else(Al::empty),
            Atom::Const(_) => Al::empty(),
        }
    }

    fn walk_body(&mut self, b: &Body, result_span: Span) -> Al {
        for st in &b.stmts {
            let al = self.stmt(st);
            self.env.insert(st.var.clone(), al);
            self.bound_at.insert(st.var.clone(), st.span);
        }
        self.result_span = Some(result_span);
        self.use_atom(&b.result, result_span);
        self.result_span = None;
        self.atom_al(&b.result)
    }

    /// A use of `a` at `span`: E0501 if it may share memory with a consumed
    /// array.
    fn use_atom(&mut self, a: &Atom, span: Span) {
        let Atom::Var(x) = a else { return };
        let Some(al) = self.env.get(x) else { return };
        let roots = al.flat();
        if self.watching > 0 {
            self.uses.extend(roots.iter().map(|&r| (r, span)));
        }
        for r in roots {
            let Some(root) = self.roots.get(r) else {
                continue;
            };
            let (Some(c), false) = (&root.consumed, root.reported) else {
                continue;
            };
            let label = if self.result_span == Some(span) {
                "returned here"
            } else {
                "used here"
            };
            let d = use_after_consume(x, &root.name, span, c).with_label(label);
            self.diags.push(d);
            if let Some(root) = self.roots.get_mut(r) {
                root.reported = true;
            }
            break;
        }
    }

    fn stmt(&mut self, st: &Stmt) -> Al {
        let sp = st.span;
        match &st.exp {
            Exp::Atom(a) => {
                self.use_atom(a, sp);
                let al = self.atom_al(a);
                self.result(st, al)
            }
            Exp::Bin(_, a, b) => {
                self.use_atom(a, sp);
                self.use_atom(b, sp);
                Al::empty()
            }
            Exp::Un(_, a) | Exp::Convert(_, a) => {
                self.use_atom(a, sp);
                Al::empty()
            }
            Exp::Math(_, xs) => {
                xs.iter().for_each(|a| self.use_atom(a, sp));
                Al::empty()
            }
            Exp::Tuple(xs) => {
                xs.iter().for_each(|a| self.use_atom(a, sp));
                let al = Al::Tup(xs.iter().map(|a| self.atom_al(a)).collect());
                self.result(st, al)
            }
            Exp::Proj(a, i) => {
                self.use_atom(a, sp);
                let al = self.atom_al(a).proj(*i);
                self.result(st, al)
            }
            Exp::ArrayLit(xs) => {
                xs.iter().for_each(|a| self.use_atom(a, sp));
                self.result(st, Al::empty())
            }
            Exp::Index(a, i) => {
                self.use_atom(a, sp);
                self.use_atom(i, sp);
                let al = self.atom_al(a);
                self.result(st, al)
            }
            Exp::Slice(a, s, e) => {
                self.use_atom(a, sp);
                self.use_atom(s, sp);
                self.use_atom(e, sp);
                let al = self.atom_al(a);
                self.result(st, al)
            }
            Exp::If(c, t, f) => self.if_(st, c, t, f),
            Exp::Call(name, args) => self.call(st, name, args),
            Exp::Apply(f, xs) => {
                xs.iter().for_each(|a| self.use_atom(a, sp));
                let mut s = Set::new();
                xs.iter().for_each(|a| self.atom_al(a).flat_into(&mut s));
                s.insert(self.new_root(Kind::Opaque { fun: f.clone() }, &st.var, Some(sp)));
                self.result(st, Al::Set(s))
            }
            Exp::Prim(p) => self.prim(st, p),
            Exp::Dim(..) => Al::empty(),
            Exp::CheckSize(c) => {
                self.use_atom(&c.got, sp);
                self.use_atom(&c.want, sp);
                let al = self.atom_al(&c.got);
                self.result(st, al)
            }
            Exp::Check(c) => {
                c.args.iter().for_each(|a| self.use_atom(a, sp));
                let al = c
                    .args
                    .first()
                    .map(|a| self.atom_al(a))
                    .unwrap_or_else(Al::empty);
                self.result(st, al)
            }
            Exp::Loop {
                state,
                init,
                form,
                body,
            } => {
                self.use_atom(init, sp);
                let cond = match form {
                    LoopForm::For(_, n) => {
                        self.use_atom(n, sp);
                        None
                    }
                    LoopForm::While(c) => Some(c),
                };
                let it = Iter {
                    word: "loop",
                    init,
                    state,
                    rows: &[],
                    row_of: Set::new(),
                    cond,
                    body,
                };
                self.iterate(st, it)
            }
        }
    }

    /// Both branches from the same state; afterwards, what either consumed
    /// is consumed. The result shares memory with either branch's; what a
    /// branch made, or consumed, is a new root of the `if`.
    fn if_(&mut self, st: &Stmt, c: &Atom, t: &Body, f: &Body) -> Al {
        self.use_atom(c, st.span);
        let mark = self.roots.len();
        let lmark = self.log.len();
        let ta = self.walk_body(t, st.span);
        let undo: Vec<RootId> = self.log.drain(lmark..).collect();
        let mut then_consumed = Vec::new();
        for r in undo {
            if let Some(c) = self.roots.get_mut(r).and_then(|root| root.consumed.take()) {
                then_consumed.push((r, c));
            }
        }
        let ea = self.walk_body(f, st.span);
        let mut newly: Set = self
            .log
            .get(lmark..)
            .unwrap_or_default()
            .iter()
            .copied()
            .collect();
        for (r, c) in then_consumed {
            newly.insert(r);
            if let Some(root) = self.roots.get_mut(r)
                && root.consumed.is_none()
            {
                root.consumed = Some(c);
                self.log.push(r);
            }
        }
        let al = ta.union(ea);
        let al = self.result(st, al);
        self.lift(st, al, mark, &newly)
    }

    /// Replace, in each leaf, the roots made after `mark` or in `gone` by
    /// one new root of `st`.
    fn lift(&mut self, st: &Stmt, al: Al, mark: RootId, gone: &Set) -> Al {
        match al {
            Al::Tup(cs) => Al::Tup(
                cs.into_iter()
                    .map(|c| self.lift(st, c, mark, gone))
                    .collect(),
            ),
            Al::Set(s) => {
                if s.iter().any(|r| *r >= mark || gone.contains(r)) {
                    let mut keep: Set = s
                        .into_iter()
                        .filter(|r| *r < mark && !gone.contains(r))
                        .collect();
                    keep.insert(self.new_root(Kind::Fresh, &st.var, Some(st.span)));
                    Al::Set(keep)
                } else {
                    Al::Set(s)
                }
            }
        }
    }

    /// A lambda (of a builtin or a call, not the body of an `ifold`/`fold`):
    /// its array parameters are rows of `of`, and it may run many times.
    fn lambda(&mut self, l: &Lambda, of: &Set, span: Span) {
        self.barriers.push("lambda");
        for (n, t) in &l.params {
            let al = self.conform(Al::empty(), t, &Kind::Row { of: of.clone() }, n, None);
            self.env.insert(n.clone(), al);
        }
        self.walk_body(&l.body, span);
        self.barriers.pop();
    }

    fn prim(&mut self, st: &Stmt, p: &Prim) -> Al {
        if let Prim::Length { .. } = p {
            return Al::empty();
        }
        for a in p.atoms() {
            self.use_atom(a, st.span);
        }
        if let Some((a, _, _, v)) = p.update_parts() {
            return self.update(st, a, v);
        }
        match p {
            Prim::Fold {
                op: Fun::Lambda(l),
                init,
                a,
            } if !l.params.is_empty() => {
                let row_of = self.atom_al(a).flat();
                let it = Iter {
                    word: "fold",
                    init,
                    state: &l.params[0],
                    rows: &l.params[1..],
                    row_of,
                    cond: None,
                    body: &l.body,
                };
                return self.iterate(st, it);
            }
            Prim::IFold {
                f: Fun::Lambda(l),
                init,
                ..
            } if !l.params.is_empty() => {
                let it = Iter {
                    word: "ifold",
                    init,
                    state: &l.params[0],
                    rows: &l.params[1..],
                    row_of: Set::new(),
                    cond: None,
                    body: &l.body,
                };
                return self.iterate(st, it);
            }
            _ => {}
        }
        let mut of = Set::new();
        for a in p.atoms() {
            self.atom_al(a).flat_into(&mut of);
        }
        for l in p.lambdas() {
            self.lambda(l, &of, st.span);
        }
        let al = match p {
            Prim::Transpose { a }
            | Prim::Reverse { a }
            | Prim::Flatten { a }
            | Prim::Unflatten { a, .. }
            | Prim::Split { a, .. }
            | Prim::Slide { a, .. }
            | Prim::Stride { a, .. }
            | Prim::Rotate { a, .. }
            | Prim::Unzip { a }
            | Prim::Unzip3 { a } => self.atom_al(a),
            Prim::Replicate { x, .. } => self.atom_al(x),
            Prim::Zip { a, b } => self.atom_al(a).union(self.atom_al(b)),
            Prim::Zip3 { a, b, c } => self
                .atom_al(a)
                .union(self.atom_al(b))
                .union(self.atom_al(c)),
            // a function parameter as the operator: the result may be the
            // initial value, an element, or what the function returns
            Prim::Fold {
                op: Fun::Var(f),
                init,
                a,
            } => {
                let mut s = self.atom_al(init).flat();
                self.atom_al(a).flat_into(&mut s);
                s.insert(self.new_root(Kind::Opaque { fun: f.clone() }, &st.var, Some(st.span)));
                Al::Set(s)
            }
            Prim::IFold {
                f: Fun::Var(f),
                init,
                ..
            } => {
                let mut s = self.atom_al(init).flat();
                s.insert(self.new_root(Kind::Opaque { fun: f.clone() }, &st.var, Some(st.span)));
                Al::Set(s)
            }
            _ => Al::empty(),
        };
        self.result(st, al)
    }

    /// `a with [..] = v`: consumes `a`; the result is a new root.
    fn update(&mut self, st: &Stmt, a: &Atom, v: &Atom) -> Al {
        let arr = self.atom_al(a).flat();
        let val = self.atom_al(v).flat();
        if !arr.is_disjoint(&val) {
            let an = show(atom_name(a));
            // a temporary (`a[0:2]` written inline) has no name of its own
            let (vn, copied) = match named(atom_name(v)) {
                None => ("the value".to_string(), "copy (...)".to_string()),
                Some(x) => (format!("`{x}`"), format!("copy {x}")),
            };
            let mut d = Diagnostic::new(
                "E0504",
                st.span,
                format!("the value written into `{an}` shares memory with `{an}` itself"),
            )
            .with_label(format!("`{an}` is updated in place here"));
            if let Some(sp) = self.bound_at.get(atom_name(v)) {
                d = d.with_secondary(*sp, format!("{vn} is part of `{an}` (or a view of it)"));
            }
            self.diags.push(d.with_help(format!(
                "write a copy of the value, `{an} with [..] = {copied}`: writing `{an}` in place would change the value while it is read"
            )));
        }
        self.consume(atom_name(a), &arr, st.span, How::Update);
        let r = self.new_root(Kind::Fresh, &st.var, Some(st.span));
        self.result(st, Al::Set(Set::from([r])))
    }

    fn call(&mut self, st: &Stmt, name: &str, args: &[Arg]) -> Al {
        let atoms: Vec<(usize, &Atom)> = args
            .iter()
            .enumerate()
            .filter_map(|(p, a)| match a {
                Arg::Atom(x) => Some((p, x)),
                Arg::Fun(_) => None,
            })
            .collect();
        for (_, a) in &atoms {
            self.use_atom(a, st.span);
        }
        let mut of = Set::new();
        for (_, a) in &atoms {
            self.atom_al(a).flat_into(&mut of);
        }
        for a in args {
            if let Arg::Fun(Fun::Lambda(l)) = a {
                self.lambda(l, &of, st.span);
            }
        }
        let sig = self.sigs.get(name);
        // the arguments the call consumes, with their roots
        let mut targets: Vec<(usize, &Atom, Set)> = Vec::new();
        if let Some(u) = sig {
            for (p, a) in &atoms {
                if !u.params.get(*p).is_some_and(|m| m.is_some()) {
                    continue;
                }
                let al = self.atom_al(a);
                let set = match (u.param_comps.get(*p), &al) {
                    (Some(cs), Al::Tup(parts)) if cs.len() > 1 && cs.len() == parts.len() => {
                        let mut s = Set::new();
                        for (part, &unique) in parts.iter().zip(cs) {
                            if unique {
                                part.flat_into(&mut s);
                            }
                        }
                        s
                    }
                    _ => al.flat(),
                };
                targets.push((*p, a, set));
            }
        }
        let mut consumed_all = Set::new();
        for (p, a, set) in &targets {
            consumed_all.extend(set.iter().copied());
            let other = atoms
                .iter()
                .find(|(q, b)| q != p && !self.atom_al(b).flat().is_disjoint(set));
            if let Some((_, b)) = other {
                let (an, bn) = (show(atom_name(a)), show(atom_name(b)));
                let what = if an == bn {
                    format!("`{an}` is passed to `{name}` twice")
                } else {
                    format!("`{bn}` shares memory with `{an}`, and both are passed to `{name}`")
                };
                self.diags.push(
                    Diagnostic::new(
                        "E0501",
                        st.span,
                        format!("{what}, which consumes `{an}` (its parameter is unique)"),
                    )
                    .with_label(format!(
                        "`{an}` is consumed by this call and `{bn}` used by it"
                    ))
                    .with_help(format!("pass a copy to one of them: `copy {an}`")),
                );
                return self.result(st, Al::empty());
            }
        }
        for (_, a, set) in &targets {
            self.consume(atom_name(a), set, st.span, How::Call(name.to_string()));
        }
        // a result not declared unique shares memory with the arguments the
        // call does not consume
        let mut shared = Set::new();
        for (_, a) in &atoms {
            shared.extend(
                self.atom_al(a)
                    .flat()
                    .into_iter()
                    .filter(|r| !consumed_all.contains(r)),
            );
        }
        let ret = sig.map(|u| u.ret.clone()).unwrap_or_default();
        let al = match (&st.ty, ret.as_slice()) {
            (_, [true]) => Al::empty(),
            (Type::Tuple(ts), _) if ts.len() == ret.len() && ts.len() > 1 => Al::Tup(
                ts.iter()
                    .zip(&ret)
                    .map(|(t, &unique)| {
                        if unique {
                            self.conform(Al::empty(), t, &Kind::Fresh, &st.var, Some(st.span))
                        } else {
                            Al::Set(shared.clone())
                        }
                    })
                    .collect(),
            ),
            _ => Al::Set(shared),
        };
        self.result(st, al)
    }

    /// A loop, `ifold` or `fold`: its body is checked once with a root of
    /// its own for the state; if it consumes the state, the loop consumes
    /// its initial value (which the body may then not use) and its result
    /// is new; otherwise the result shares memory with the initial value and
    /// with what the body's result shares from outside.
    fn iterate(&mut self, st: &Stmt, it: Iter<'_>) -> Al {
        let sty = &it.state.1;
        let init_al = self.atom_al(it.init);
        let init_al = self.conform(init_al, sty, &Kind::Fresh, &st.var, Some(st.span));
        self.barriers.push(if it.word == "loop" {
            "loop body"
        } else {
            "lambda"
        });
        self.watching += 1;
        let mark = self.roots.len();
        let umark = self.uses.len();
        let state_al = self.conform(Al::empty(), sty, &Kind::State, &it.state.0, None);
        self.env.insert(it.state.0.clone(), state_al.clone());
        for (n, t) in it.rows {
            let al = self.conform(
                Al::empty(),
                t,
                &Kind::Row {
                    of: it.row_of.clone(),
                },
                n,
                None,
            );
            self.env.insert(n.clone(), al);
        }
        if let Some(c) = it.cond {
            self.walk_body(c, st.span);
        }
        let res = self.walk_body(it.body, st.span);
        let res = self.conform(res, sty, &Kind::Fresh, &st.var, Some(st.span));
        self.watching -= 1;
        self.barriers.pop();

        let init_leaves = init_al.leaves();
        let state_leaves: Vec<Option<RootId>> = state_al
            .leaves()
            .into_iter()
            .map(|s| s.iter().next().copied())
            .collect();
        let body_leaves = res.leaves();
        let n = state_leaves.len();
        let state_index: HashMap<RootId, usize> = state_leaves
            .iter()
            .enumerate()
            .filter_map(|(j, r)| r.map(|r| (r, j)))
            .collect();
        let consumed: Vec<bool> = state_leaves
            .iter()
            .map(|r| {
                r.and_then(|r| self.roots.get(r))
                    .is_some_and(|r| r.consumed.is_some())
            })
            .collect();
        // what each leaf of the body's result shares from outside the loop
        let outer_of = |ck: &Ck, r: RootId| -> Option<Set> {
            if r < mark {
                return Some(Set::from([r]));
            }
            match ck.roots.get(r).map(|x| &x.kind) {
                Some(Kind::Row { of }) => Some(of.clone()),
                _ => None,
            }
        };
        let empty = Set::new();
        let body_leaf = |j: usize| body_leaves.get(j).unwrap_or(&empty);
        let mut shared: Vec<Set> = (0..n)
            .map(|j| {
                let mut s = init_leaves.get(j).cloned().unwrap_or_default();
                for &r in body_leaf(j) {
                    if let Some(o) = outer_of(self, r) {
                        s.extend(o);
                    }
                }
                s
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for j in 0..n {
                for r in body_leaf(j) {
                    if let Some(&k) = state_index.get(r)
                        && k != j
                    {
                        let add: Vec<RootId> = shared
                            .get(k)
                            .map(|s| s.iter().copied().collect())
                            .unwrap_or_default();
                        if let Some(sj) = shared.get_mut(j) {
                            for x in add {
                                changed |= sj.insert(x);
                            }
                        }
                    }
                }
            }
        }
        // E0506: the next iteration would update what the body returns
        for j in (0..n).filter(|&j| consumed.get(j) == Some(&true)) {
            let bad = body_leaf(j).iter().find_map(|&r| {
                if let Some(&k) = state_index.get(&r) {
                    return (k != j).then_some(r);
                }
                outer_of(self, r).map(|_| r)
            });
            if let Some(r) = bad {
                self.diags
                    .push(self.state_aliases_outer(st, it.word, r, it.body));
            }
        }
        // the loop consumes the initial value of each part of the state the
        // body consumes, which the body may then not use
        let mut gone = Set::new();
        for j in (0..n).filter(|&j| consumed.get(j) == Some(&true)) {
            let set = init_leaves.get(j).cloned().unwrap_or_default();
            if self.consume(atom_name(it.init), &set, st.span, How::Loop(it.word)) {
                gone.extend(set);
            }
        }
        if let Some(&(r, span)) = self
            .uses
            .get(umark..)
            .unwrap_or_default()
            .iter()
            .find(|(r, _)| gone.contains(r))
        {
            let name = self
                .roots
                .get(r)
                .map(|x| x.name.clone())
                .unwrap_or_default();
            let rn = show(&name).to_string();
            let start = match named(atom_name(it.init)) {
                Some(x) if x == rn => format!("`{rn}`"),
                Some(x) => format!("`{x}`, which shares memory with it"),
                None => "a value that holds it".to_string(),
            };
            let word = it.word;
            // (a loop whose use has the loop's own span is the loop nest of
            // an update of a block, `a with [1:n, 1:n] = v`: its value is
            // what shares memory with `a`)
            let d = if span == st.span {
                Diagnostic::new(
                    "E0504",
                    st.span,
                    format!("the value written into `{rn}` shares memory with `{rn}` itself"),
                )
                .with_label(format!("`{rn}` is updated in place here"))
                .with_help(format!(
                    "write a copy of the value, `{rn} with [..] = copy (...)`: writing `{rn}` in place would change the value while it is read"
                ))
            } else {
                Diagnostic::new(
                "E0501",
                span,
                format!(
                    "`{rn}` is used inside a {word} that consumes it: the {word} updates its state in place, starting from {start}"
                ),
            )
            .with_label("used here")
            .with_secondary(st.span, format!("the {word} consumes `{rn}` here"))
            .with_help(format!(
                "read the {word}'s state instead, or start the {word} from a copy: `copy {rn}`"
            ))
            };
            if let Some(root) = self.roots.get_mut(r) {
                root.reported = true;
            }
            self.diags.push(d);
        }
        // the result: new where the body consumed the state, else what the
        // initial value and the body's result share
        let mut leaves = Vec::with_capacity(n);
        for (j, (state, &eaten)) in state_leaves.iter().zip(&consumed).enumerate() {
            if state.is_none() {
                // a scalar
                leaves.push(Set::new());
                continue;
            }
            if eaten {
                leaves.push(Set::from([self.new_root(
                    Kind::Fresh,
                    &st.var,
                    Some(st.span),
                )]));
                continue;
            }
            let mut s = shared.get(j).cloned().unwrap_or_default();
            let inner = body_leaf(j).iter().any(|r| {
                *r >= mark && !state_index.contains_key(r) && outer_of(self, *r).is_none()
            });
            if inner || s.is_empty() {
                s.insert(self.new_root(Kind::Fresh, &st.var, Some(st.span)));
            }
            leaves.push(s);
        }
        let al = state_al.with_leaves(&mut leaves.into_iter());
        self.result(st, al)
    }

    fn state_aliases_outer(&self, st: &Stmt, word: &str, r: RootId, body: &Body) -> Diagnostic {
        let root = self.roots.get(r);
        let name = root.map(|x| show(&x.name).to_string()).unwrap_or_default();
        let (what, short) = match root.map(|x| &x.kind) {
            Some(Kind::State) => (
                "another part of its state".to_string(),
                "that part".to_string(),
            ),
            Some(Kind::Row { .. }) => (
                format!("`{name}`, an element of the array it folds over"),
                format!("`{name}`"),
            ),
            _ => (
                format!("`{name}`, which is bound outside it"),
                format!("`{name}`"),
            ),
        };
        let mut d = Diagnostic::new(
            "E0506",
            st.span,
            format!(
                "the body of this {word} updates its state in place, but its result may share memory with {what}"
            ),
        )
        .with_label(format!("the next iteration would update {short} in place"));
        if let Some(sp) = root.and_then(|x| x.span) {
            d = d.with_secondary(sp, format!("`{name}` is bound here, outside the {word}"));
        } else if let Atom::Var(v) = &body.result
            && let Some(sp) = self.bound_at.get(v)
        {
            d = d.with_secondary(*sp, "the body's result is computed here");
        }
        let copied = match root.map(|x| &x.kind) {
            Some(Kind::State) => "a copy".to_string(),
            _ => format!("a copy (`copy {name}`)"),
        };
        d.with_help(format!(
            "return {copied} from the body, so that the next iteration updates storage of its own"
        ))
    }

    /// Consume the roots `roots` of the variable `var` at `span`: E0502 or
    /// E0503 (and nothing consumed) if one may not be; false then.
    fn consume(&mut self, var: &str, roots: &Set, span: Span, how: How) -> bool {
        let level = self.level();
        let barrier = self.barriers.last().copied().unwrap_or("lambda");
        // a temporary (`copy a with ..`, a tuple of initial values) has no
        // name of its own
        let named = named(var);
        let subject = match (named, &how) {
            (Some(x), _) => format!("`{x}`"),
            (None, How::Loop(w)) => format!("the initial value of this {w}"),
            (None, _) => "this value".to_string(),
        };
        let doing = match &how {
            How::Update => "updated in place here".to_string(),
            How::Call(f) => format!("passed to `{f}`, which consumes it (its parameter is unique)"),
            How::Loop(w) => {
                format!("consumed by this {w}: its body updates its state in place")
            }
        };
        for &r in roots {
            let Some(root) = self.roots.get(r) else {
                continue;
            };
            if root.consumed.is_some() {
                continue;
            }
            let rn = show(&root.name).to_string();
            let same = named == Some(rn.as_str());
            let x = named.unwrap_or(&rn);
            let copy_help = match &how {
                How::Update => format!("update a copy: `copy {x} with [i] = v`"),
                How::Call(_) => format!("pass a copy: `copy {x}`"),
                How::Loop(w) => format!("start the {w} from a copy: `copy {x}`"),
            };
            let alias = |what: &str| -> String {
                if same {
                    format!("{subject} is consumed here, but it is {what}")
                } else {
                    format!(
                        "{subject} is consumed here, but it shares memory with `{rn}`, which is {what}"
                    )
                }
            };
            let d = match &root.kind {
                Kind::Param { unique: false, ty } => Some(
                    Diagnostic::new("E0502", span, alias("a parameter not declared unique"))
                        .with_label(doing.clone())
                        .with_help(format!(
                            "declare the parameter unique if callers may give it up, `({rn}: *{ty})`, or {copy_help}"
                        )),
                ),
                Kind::Opaque { fun } => Some(
                    Diagnostic::new(
                        "E0502",
                        span,
                        alias(&format!(
                            "the result of the function parameter `{}`, which may share memory with its caller's arrays",
                            show(fun)
                        )),
                    )
                    .with_label(doing.clone())
                    .with_help(copy_help),
                ),
                Kind::Row { .. } => Some(
                    Diagnostic::new(
                        "E0503",
                        span,
                        alias("a parameter of a lambda, an element of the array it is applied to (the lambda may run many times)"),
                    )
                    .with_label(doing.clone())
                    .with_help(format!(
                        "update a copy of the element: `copy {rn} with [..] = v`"
                    )),
                ),
                _ if root.level < level => {
                    let whose = if same {
                        "it is".to_string()
                    } else {
                        format!("it shares memory with `{rn}`, which is")
                    };
                    let mut d = Diagnostic::new(
                        "E0503",
                        span,
                        format!(
                            "{subject} is consumed inside a {barrier}, which may run many times, but {whose} bound outside it"
                        ),
                    )
                    .with_label(doing.clone());
                    if let Some(sp) = root.span {
                        d = d.with_secondary(
                            sp,
                            format!("`{rn}` is bound here, outside the {barrier}"),
                        );
                    }
                    Some(d.with_help(format!(
                        "{copy_help} inside the {barrier}, or carry `{rn}` as the state of a loop (`loop {rn} for i < n do ...`) and update that"
                    )))
                }
                _ => None,
            };
            if let Some(mut d) = d {
                if !same
                    && let Some(v) = named
                    && let Some(sp) = self.bound_at.get(var)
                    && d.labels.is_empty()
                {
                    d = d.with_secondary(*sp, format!("`{v}` shares memory with `{rn}` from here"));
                }
                self.diags.push(d);
                return false;
            }
        }
        for &r in roots {
            if let Some(root) = self.roots.get_mut(r)
                && root.consumed.is_none()
            {
                root.consumed = Some(Consumed {
                    span,
                    how: how.clone(),
                });
                self.log.push(r);
            }
        }
        true
    }

    /// E0505: a result declared unique shares memory with a parameter not
    /// declared unique (or with another unique result).
    fn unique_result(&mut self, def: &FunDef, uniq: &Uniq, res: &Al) {
        let parts: Vec<(Set, Option<Span>)> = match (uniq.ret.as_slice(), res, &def.ret) {
            ([true], _, _) => vec![(res.flat(), uniq.ret_spans.first().copied().flatten())],
            (ret, Al::Tup(cs), Type::Tuple(ts))
                if ret.len() == cs.len() && ret.len() == ts.len() =>
            {
                ret.iter()
                    .zip(cs)
                    .enumerate()
                    .filter(|(_, (u, _))| **u)
                    .map(|(k, (_, c))| (c.flat(), uniq.ret_spans.get(k).copied().flatten()))
                    .collect()
            }
            _ => return,
        };
        let computed = match &def.body.result {
            Atom::Var(v) => self.bound_at.get(v).copied(),
            Atom::Const(_) => None,
        };
        for (k, (set, mark)) in parts.iter().enumerate() {
            let span = mark.unwrap_or(def.span);
            let bad = set.iter().find_map(|&r| {
                let root = self.roots.get(r)?;
                match &root.kind {
                    Kind::Param { unique: false, ty } => {
                        let name = show(&root.name);
                        Some((
                            format!("the parameter `{name}`, which is not declared unique"),
                            format!(
                                "return a copy, `copy {name}`, or declare the parameter unique: `({name}: *{ty})`"
                            ),
                        ))
                    }
                    Kind::Opaque { fun } => Some((
                        format!("the result of the function parameter `{}`", show(fun)),
                        format!("return a copy: `copy {}`", show(&root.name)),
                    )),
                    _ => None,
                }
            });
            let other = parts
                .iter()
                .enumerate()
                .skip(k + 1)
                .find(|(_, (s, _))| !s.is_disjoint(set))
                .map(|(l, _)| l);
            let (msg, help) = match (bad, other) {
                (Some((what, help)), _) => (
                    format!("the result is declared unique, but it may share memory with {what}"),
                    help,
                ),
                (None, Some(_)) => (
                    "two results declared unique may share memory with each other".to_string(),
                    "return a copy of one of them (`copy`)".to_string(),
                ),
                (None, None) => continue,
            };
            let mut d = Diagnostic::new("E0505", span, msg)
                .with_label("declared unique here")
                .with_help(help);
            if let Some(sp) = computed {
                d = d.with_secondary(sp, "the result is computed here");
            }
            self.diags.push(d);
        }
    }
}

/// A loop-like construct for [`Ck::iterate`].
struct Iter<'b> {
    /// `loop`, `ifold`, `fold`
    word: &'static str,
    init: &'b Atom,
    state: &'b (Name, Type),
    /// Other parameters of the body (a `fold`'s element, an `ifold`'s index).
    rows: &'b [(Name, Type)],
    /// What the rows are elements of.
    row_of: Set,
    cond: Option<&'b Body>,
    body: &'b Body,
}

fn use_after_consume(x: &str, root: &str, span: Span, c: &Consumed) -> Diagnostic {
    let rn = show(root);
    let msg = match named(x) {
        Some(xn) if xn == rn => format!("`{xn}` is used after it was consumed"),
        Some(xn) => {
            format!("`{xn}` is used after `{rn}`, which it shares memory with, was consumed")
        }
        None => format!("a value that shares memory with `{rn}` is used after `{rn}` was consumed"),
    };
    let (consumed, help) = match &c.how {
        How::Update => (
            format!("`{rn}` is consumed here (updated in place)"),
            format!("use the updated array instead, or update a copy: `copy {rn} with [i] = v`"),
        ),
        How::Call(f) => (
            format!("`{rn}` is consumed here: `{f}` takes it as a unique parameter"),
            format!("pass a copy to `{f}` to keep using `{rn}`: `{f} (copy {rn})`"),
        ),
        How::Loop(w) => (
            format!(
                "`{rn}` is consumed here: the {w} updates its state in place, starting from it"
            ),
            format!("use the {w}'s result instead, or start the {w} from a copy: `copy {rn}`"),
        ),
    };
    Diagnostic::new("E0501", span, msg)
        .with_label("used here")
        .with_secondary(c.span, consumed)
        .with_help(help)
}

#[cfg(test)]
mod tests {
    use weir_syntax::{Diagnostic, FileId};

    fn check(src: &str) -> Vec<Diagnostic> {
        let (ast, perr) = weir_syntax::parse_file(FileId(0), src);
        assert!(perr.is_empty(), "parse errors: {perr:?}");
        crate::check_program(&ast).1
    }

    fn accepts(src: &str) {
        let d = check(src);
        assert!(d.is_empty(), "unexpected errors: {d:#?}");
    }

    /// The one error of `src`: its code, the text at its primary span, and
    /// the text at each secondary span.
    fn rejects(src: &str, code: &str) -> (String, Vec<String>) {
        let d = check(src);
        assert!(
            d.iter().any(|x| x.code == code),
            "expected {code}, got {d:#?}"
        );
        let d = d.into_iter().find(|x| x.code == code).unwrap();
        assert!(d.help.is_some(), "{code} without help");
        let text = |s: weir_syntax::Span| src[s.start as usize..s.end as usize].to_string();
        (
            text(d.span),
            d.labels.iter().map(|l| text(l.span)).collect(),
        )
    }

    #[test]
    fn no_update_no_error() {
        accepts(
            "def f [n] (a: [n]f64) : [n]f64 = map (\\x -> x + 1.0) (reverse a)\n\
             entry g [n] (a: [n]f64) : f64 = let b = loop b = a for i < n do map (\\x -> x * 2.0) b in reduce (+) 0.0 (f b)",
        );
    }

    #[test]
    fn loop_in_place() {
        accepts(
            "def prefix [n] (xs: [n]f64) : [n]f64 =\n\
               loop acc = copy xs for i < n - 1 do acc with [i + 1] = acc[i] + acc[i + 1]\n\
             entry smooth [n] (a: *[n]f64) : [n]f64 =\n\
               loop a for i < n - 1 do let v = a[i] + a[i + 1] in a with [i] = v",
        );
    }

    #[test]
    fn nested_loops_and_branches() {
        accepts(
            "def lu [n] (a: *[n][n]f64) : *[n][n]f64 =\n\
               loop a for k < n do\n\
                 loop a for ii < n - k - 1 do\n\
                   let i = k + 1 + ii in\n\
                   let l = a[i][k] / a[k][k] in\n\
                   let a[i][k] = l in\n\
                   loop a for jj < n - k - 1 do\n\
                     let j = k + 1 + jj in\n\
                     if a[i][j] > 0.0 then a with [i][j] = a[i][j] - l * a[k][j] else a",
        );
    }

    #[test]
    fn let_update_chains() {
        accepts(
            "entry f (n: i64) : []i64 =\n\
               let a = replicate n 0\n\
               let a[0] = 1\n\
               let a[1] = 2\n\
               let a[1:3] = [5, 6] in\n\
               a with [0] = a[2]",
        );
    }

    #[test]
    fn fresh_arrays_update() {
        accepts(
            "def f [n] (a: [n]f64) : [n]f64 =\n\
               let (p, q) = partition (\\x -> x > 0.0) a in\n\
               let p[0] = 1.0 in\n\
               let m = map (\\x -> x) a in\n\
               let m[0] = q[0] in\n\
               m ++ p",
        );
    }

    #[test]
    fn unique_param_consumed_and_unique_result() {
        accepts(
            "def set0 [n] (a: *[n]f64) (v: f64) : *[n]f64 = a with [0] = v\n\
             def pair [n] (a: *[n]f64) (b: [n]f64) : (*[n]f64, [n]f64) = (a with [0] = b[0], b)\n\
             entry f [n] (a: *[n]f64) (b: [n]f64) : [n]f64 =\n\
               let c = set0 a 1.0 in\n\
               let c[1] = 2.0 in\n\
               let (x, y) = pair (copy b) b in\n\
               let x[1] = y[0] in\n\
               let d = set0 x 3.0 in\n\
               map2 (+) c d",
        );
    }

    #[test]
    fn update_inside_a_loop_body_of_a_local_array() {
        accepts(
            "def f [n] (xs: [n]f64) : f64 =\n\
               loop s = 0.0 for i < n do\n\
                 let b = replicate 3 s in\n\
                 let b[1] = xs[i] in\n\
                 s + b[1]\n\
             def g [n][m] (a: [n][m]f64) : [n][m]f64 =\n\
               map (\\r -> let s = copy r in let s[0] = 1.0 in s) a\n\
             def h [n] (a: [n]f64) : [n]f64 =\n\
               ifold (\\acc i -> acc with [i] = acc[i] * 2.0) (copy a) n\n\
             def k [n] (a: [n]f64) : f64 =\n\
               let z = fold (\\acc x -> acc with [0] = acc[0] + x) (replicate 1 0.0) a in z[0]",
        );
    }

    #[test]
    fn copy_makes_a_parameter_updatable() {
        accepts(
            "def f [n] (a: [n]f64) : [n]f64 = copy a with [0] = a[1]\n\
             def g [n] (a: [n]f64) : [n]f64 = loop b = copy a for i < n do b with [i] = a[i] * 2.0",
        );
    }

    #[test]
    fn update_in_one_branch() {
        accepts(
            "def f [n] (a: *[n]f64) (c: bool) : [n]f64 =\n\
               let b = if c then a with [0] = 1.0 else a in\n\
               let l = length a in\n\
               b with [1] = f64 l",
        );
    }

    #[test]
    fn e0501_use_after_update() {
        let (p, s) = rejects(
            "def f [n] (a: *[n]f64) : f64 =\n  let b = a with [0] = 1.0 in\n  let x = (reverse a)[1] in\n  b[0] + x",
            "E0501",
        );
        assert_eq!(p, "(reverse a)");
        assert_eq!(s, ["a with [0] = 1.0"]);
    }

    #[test]
    fn e0501_use_of_an_alias_after_a_branch_consumed() {
        let (p, s) = rejects(
            "def f [n] (a: *[n]f64) (c: bool) : f64 =\n  let v = a[1:3] in\n  let b = if c then a with [0] = 1.0 else copy a in\n  b[0] + v[0]",
            "E0501",
        );
        assert_eq!(p, "v[0]");
        assert_eq!(s, ["a with [0] = 1.0"]);
    }

    #[test]
    fn e0501_use_after_call_and_in_consuming_loop() {
        let (p, s) = rejects(
            "def set0 [n] (a: *[n]f64) : *[n]f64 = a with [0] = 0.0\n\
             def f [n] (xs: *[n]f64) : [n]f64 = let ys = set0 xs in map2 (+) xs ys",
            "E0501",
        );
        assert_eq!(p, "map2 (+) xs ys");
        assert_eq!(s, ["set0 xs"]);
        let (p, s) = rejects(
            "def f [n] (a: *[n]f64) : [n]f64 = loop s = a for i < n do s with [i] = a[0]",
            "E0501",
        );
        assert_eq!(p, "a[0]");
        assert_eq!(s.len(), 1);
        rejects(
            "def pair [n] (a: *[n]f64) (b: [n]f64) : [n]f64 = a with [0] = b[0]\n\
             def f [n] (a: *[n]f64) : [n]f64 = pair a (reverse a)",
            "E0501",
        );
    }

    #[test]
    fn e0502_consuming_a_non_unique_parameter() {
        let (p, _) = rejects("def f [n] (a: [n]f64) : [n]f64 = a with [0] = 1.0", "E0502");
        assert_eq!(p, "a with [0] = 1.0");
        let (p, s) = rejects(
            "def f [n] (a: [n]f64) : [n]f64 = let b = reverse a in b with [0] = 1.0",
            "E0502",
        );
        assert_eq!(p, "b with [0] = 1.0");
        assert_eq!(s, ["reverse a"]);
        rejects(
            "def set0 [n] (a: *[n]f64) : *[n]f64 = a with [0] = 0.0\n\
             def f [n] (a: [n]f64) : [n]f64 = set0 a",
            "E0502",
        );
        rejects(
            "def f [n] (a: [n]f64) : [n]f64 = loop a for i < n do a with [i] = 0.0",
            "E0502",
        );
    }

    #[test]
    fn e0503_consuming_inside_lambdas_and_loops() {
        let (p, s) = rejects(
            "def f [n] (xs: [n]f64) : [n]f64 =\n  let a = copy xs in\n  map (\\x -> let b = a with [0] = x in b[0]) xs",
            "E0503",
        );
        assert_eq!(p, "a with [0] = x");
        assert_eq!(s, ["copy xs"]);
        rejects(
            "def f [n] (a: [n][n]f64) : [n][n]f64 = map (\\r -> r with [0] = 1.0) a",
            "E0503",
        );
        rejects(
            "def f [n] (xs: [n]f64) : f64 =\n  let a = copy xs in\n  loop s = 0.0 for i < n do let b = a with [i] = s in s + b[i]",
            "E0503",
        );
    }

    #[test]
    fn e0504_value_aliases_the_array() {
        let (p, s) = rejects(
            "def f [n] (a: *[n]f64) : [n]f64 = a with [1:3] = a[0:2]",
            "E0504",
        );
        assert_eq!(p, "a with [1:3] = a[0:2]");
        assert_eq!(s, ["a[0:2]"]);
        rejects(
            "def f [n] (a: *[n][n]f64) : [n][n]f64 = let r = a[1] in a with [0] = r",
            "E0504",
        );
    }

    #[test]
    fn e0505_unique_result_aliases_a_parameter() {
        let (p, s) = rejects(
            "def f [n] (a: [n]f64) : *[n]f64 = let r = reverse a in r",
            "E0505",
        );
        assert_eq!(p, "*[n]f64");
        assert_eq!(s, ["reverse a"]);
        rejects(
            "def f [n] (a: [n]f64) (b: [n]f64) : ([n]f64, *[n]f64) = (a, b)",
            "E0505",
        );
        accepts("def f [n] (a: [n]f64) (b: *[n]f64) : ([n]f64, *[n]f64) = (a, b)");
    }

    #[test]
    fn e0506_loop_state_aliases_outer() {
        let (p, s) = rejects(
            "def f [n] (xs: [n]f64) : [n]f64 =\n  let b = copy xs in\n  loop a = copy xs for i < n do let a[i] = 0.0 in b",
            "E0506",
        );
        assert!(p.starts_with("loop a"), "{p}");
        assert_eq!(s, ["copy xs"]);
        rejects(
            "def f [n] (a: [n][n]f64) : [n]f64 = fold (\\acc x -> let acc[0] = 1.0 in x) (copy a[0]) a",
            "E0506",
        );
    }

    #[test]
    fn tuple_components_are_separate() {
        accepts(
            "def f [n] (a: [n]f64) : ([n]f64, [n]f64) =\n\
               loop (x, y) = (copy a, a) for i < n do (x with [i] = y[i], y)\n\
             def g [n] (p: (*[n]f64, [n]f64)) : [n]f64 = let (a, b) = p in a with [0] = b[0]",
        );
        rejects(
            "def g [n] (p: (*[n]f64, [n]f64)) : [n]f64 = let (a, b) = p in b with [0] = a[0]",
            "E0502",
        );
    }
}
