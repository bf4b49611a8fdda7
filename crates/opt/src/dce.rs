//! Dead-code elimination that keeps every check.
//!
//! A statement whose variable is never used (as an atom, a size in a type, or a
//! function) is dead: its *value* is not needed. But a statement that could fail
//! makes a check that the program must still make (docs/language.md §6, docs/
//! ARCHITECTURE.md "What the optimizer preserves"), so a dead statement is:
//!
//! * removed when it cannot fail — proved with [`Facts`] (bounds of reads by
//!   loop counters, lengths made equal by earlier size checks, non-negative counts);
//! * otherwise replaced, at the same place, by its **residue**: the checks it
//!   would make and nothing else. A read `a[i]` leaves `assert_index i n`, a slice
//!   `assert_slice`, an integer division `assert_nonzero d`, `unflatten n m a`
//!   leaves `assert_unflatten n m len`, an array literal of rows leaves
//!   `assert_same` of the rows' lengths, `split` an `assert_slice 0 k n`, a
//!   `build n f` leaves `assert_nonneg n build` and a loop over `0..n` of `f`'s
//!   body with its value dropped (so only the body's own checks remain, which
//!   this pass then reduces the same way), `ireduce` a loop of its element's
//!   checks, an `if` the `if` of its branches' checks;
//! * otherwise kept whole (a call of a function that could fail, an `ifold`,
//!   `scan`, `filter` or `loop` whose body could fail, a `while` loop, rows whose
//!   shapes are not known to agree, ...).
//!
//! The pass repeats until nothing changes. Residues are in the place of the
//! statement, in its order, with its span: the optimized program reports the
//! same first error, at the same location.

use crate::facts::{Facts, Lin};
use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::visit::use_counts;
use weir_ir::*;

/// A bound on the sweeps of one function (each sweep that changes something
/// removes a statement or replaces one by its residue, so this is never reached
/// in practice).
const MAX_SWEEPS: usize = 200;

pub fn run(prog: &mut Program) -> bool {
    let safe = infallible_defs(prog);
    let mut changed = false;
    for d in &mut prog.defs {
        let mut fresh = Fresh::for_fun(d);
        for _ in 0..MAX_SWEEPS {
            let uses = use_counts(d);
            let mut cx = Dce {
                uses: &uses,
                safe: &safe,
                fresh: &mut fresh,
                changed: false,
            };
            let mut facts = Facts::for_fun(d);
            let body = std::mem::replace(&mut d.body, empty_body());
            d.body = cx.body(body, &mut facts);
            if !cx.changed {
                break;
            }
            changed = true;
        }
    }
    changed
}

/// The definitions whose calls cannot fail: no check of the arguments' sizes (no
/// constant size and no size parameter repeated in the parameters, no known size
/// in the result) and a body that cannot fail.
pub(crate) fn infallible_defs(prog: &Program) -> HashSet<Name> {
    let mut safe: HashSet<Name> = HashSet::new();
    for d in &prog.defs {
        let mut seen = HashSet::new();
        let mut ok = true;
        for (_, t) in d.params.iter().filter(|(_, t)| !t.is_fun()) {
            let mut vs = Vec::new();
            weir_ir::visit::type_size_vars(t, &mut vs);
            for v in vs {
                ok &= seen.insert(v.to_string());
            }
            ok &= !has_const_size(t);
        }
        let mut vs = Vec::new();
        weir_ir::visit::type_size_vars(&d.ret, &mut vs);
        ok &= vs.is_empty() && !has_const_size(&d.ret);
        if ok {
            ok = !Judge { safe: &safe }.body_fallible(&d.body, &Facts::for_fun(d));
        }
        if ok {
            safe.insert(d.name.clone());
        }
    }
    safe
}

fn has_const_size(t: &Type) -> bool {
    match t {
        Type::Array(s, e) => matches!(s, Size::Const(_)) || has_const_size(e),
        Type::Tuple(ts) => ts.iter().any(has_const_size),
        _ => false,
    }
}

struct Dce<'a> {
    uses: &'a HashMap<Name, usize>,
    /// Definitions whose calls cannot fail.
    safe: &'a HashSet<Name>,
    fresh: &'a mut Fresh,
    changed: bool,
}

/// Decides whether statements can fail (where given facts hold).
pub(crate) struct Judge<'a> {
    /// Definitions whose calls cannot fail.
    pub(crate) safe: &'a HashSet<Name>,
}

/// What becomes of a dead statement.
enum Residue {
    Drop,
    Keep,
    Replace(Vec<Stmt>),
}

fn is_int(t: &Type) -> bool {
    t.prim().is_some_and(PrimType::is_int)
}

fn is_signed(t: &Type) -> bool {
    t.prim().is_some_and(PrimType::is_signed)
}

/// The lambda of a function operand (`None` for a function variable).
fn lambda(f: &Fun) -> Option<&Lambda> {
    match f {
        Fun::Lambda(l) => Some(l),
        Fun::Var(_) => None,
    }
}

impl Dce<'_> {
    fn body(&mut self, b: Body, facts: &mut Facts) -> Body {
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            if self.uses.get(&st.var).copied().unwrap_or(0) == 0 {
                match self.residue(&st, facts) {
                    Residue::Drop => {
                        self.changed = true;
                        continue;
                    }
                    Residue::Replace(stmts) => {
                        self.changed = true;
                        for s in stmts {
                            facts.add(&s);
                            out.push(s);
                        }
                        continue;
                    }
                    Residue::Keep => {}
                }
            }
            // an `if` whose condition the facts prove: its `then` branch
            if let Exp::If(c, t, _) = &mut st.exp
                && facts.prove_cond(c)
            {
                let t = std::mem::replace(t, empty_body());
                let t = self.body(t, &mut facts.clone());
                for s in t.stmts {
                    facts.add(&s);
                    out.push(s);
                }
                st.exp = Exp::Atom(t.result);
                self.changed = true;
            }
            let inner = facts.enter(&st.exp);
            let mut inner = inner.into_iter();
            weir_ir::visit::for_each_nested_body(&mut st.exp, &mut |nb| {
                let mut f = inner.next().unwrap_or_else(|| facts.clone());
                *nb = self.body(std::mem::replace(nb, empty_body()), &mut f);
            });
            facts.add(&st);
            out.push(st);
        }
        Body {
            stmts: out,
            result: b.result,
        }
    }

    /// An atom for the length of dimension 0 of `a`, with the statement that
    /// computes it if no atom in scope has it.
    fn len0(&mut self, a: &Atom, facts: &Facts, span: Span, out: &mut Vec<Stmt>) -> Atom {
        if let Some(n) = facts.len_atom(a, 0) {
            return n;
        }
        let n = self.fresh.name("n");
        out.push(stmt(n.clone(), Type::I64, Exp::Dim(a.clone(), 0), span));
        Atom::Var(n)
    }

    fn check(
        &mut self,
        kind: CheckKind,
        args: Vec<Atom>,
        what: &str,
        ty: Type,
        span: Span,
    ) -> Stmt {
        stmt(
            self.fresh.name("chk"),
            ty,
            Exp::Check(Box::new(Check::new(kind, args, what))),
            span,
        )
    }

    /// The residue of a dead statement (see the module documentation).
    fn residue(&mut self, st: &Stmt, facts: &Facts) -> Residue {
        let span = st.span;
        let mut out = Vec::new();
        match &st.exp {
            Exp::Atom(_)
            | Exp::Un(..)
            | Exp::Convert(..)
            | Exp::Math(..)
            | Exp::Tuple(_)
            | Exp::Proj(..)
            | Exp::Dim(..) => return Residue::Drop,
            Exp::Bin(op, _, b) => match op {
                BinOp::Div | BinOp::Rem if is_int(&st.ty) => {
                    if facts.prove_nonzero(b) {
                        return Residue::Drop;
                    }
                    let ty = facts.ty(b);
                    out.push(self.check(CheckKind::NonZero, vec![b.clone()], "", ty, span));
                }
                // (an unsigned exponent is never negative)
                BinOp::Pow if is_signed(&st.ty) && !facts.prove_nonneg(b) => {
                    return Residue::Keep;
                }
                _ => return Residue::Drop,
            },
            Exp::ArrayLit(xs) => {
                if !self.literal_fallible(&st.ty, xs, facts) {
                    return Residue::Drop;
                }
                let rows_are_vectors =
                    matches!(st.ty.elem(), Some(Type::Array(_, e)) if e.prim().is_some());
                let (Some(first), true) = (xs.first(), rows_are_vectors) else {
                    return Residue::Keep;
                };
                let want = self.len0(first, facts, span, &mut out);
                for x in &xs[1..] {
                    let (Some(a), Some(b)) = (facts.len(x, 0), facts.len(first, 0)) else {
                        return Residue::Keep;
                    };
                    if facts.prove_eq_lin(&a, &b) {
                        continue;
                    }
                    let got = self.len0(x, facts, span, &mut out);
                    let c = self.check(
                        CheckKind::Same,
                        vec![got, want.clone()],
                        "literal",
                        Type::I64,
                        span,
                    );
                    out.push(c);
                }
            }
            Exp::Index(a, i) => {
                if facts.len(a, 0).is_some_and(|n| facts.prove_index(i, &n)) {
                    return Residue::Drop;
                }
                let n = self.len0(a, facts, span, &mut out);
                out.push(self.check(CheckKind::Index, vec![i.clone(), n], "", Type::I64, span));
            }
            Exp::Slice(a, s, e) => {
                if facts.len(a, 0).is_some_and(|n| facts.prove_slice(s, e, &n)) {
                    return Residue::Drop;
                }
                let n = self.len0(a, facts, span, &mut out);
                let args = vec![s.clone(), e.clone(), n];
                out.push(self.check(CheckKind::Slice, args, "", Type::I64, span));
            }
            Exp::CheckSize(c) => {
                return if facts.prove_eq(&c.got, &c.want) {
                    Residue::Drop
                } else {
                    Residue::Keep
                };
            }
            Exp::Check(c) => {
                return if facts.prove_check(c) {
                    Residue::Drop
                } else {
                    Residue::Keep
                };
            }
            Exp::If(c, t, f) => {
                let inner = facts.enter(&st.exp);
                let fallible =
                    |b: &Body, k: usize| inner.get(k).is_none_or(|fx| self.body_fallible(b, fx));
                if !fallible(t, 0) && !fallible(f, 1) {
                    return Residue::Drop;
                }
                if matches!((&t.result, &f.result), (Atom::Const(_), Atom::Const(_))) {
                    // already a residue: its branches are swept as nested bodies
                    return Residue::Keep;
                }
                let strip = |b: &Body| Body {
                    stmts: b.stmts.clone(),
                    result: Atom::Const(Const::Bool(false)),
                };
                out.push(stmt(
                    st.var.clone(),
                    Type::BOOL,
                    Exp::If(c.clone(), strip(t), strip(f)),
                    span,
                ));
            }
            Exp::Prim(p) => return self.prim_residue(st, p, facts),
            Exp::Call(f, args) => {
                let lambdas_ok = args.iter().all(|a| match a {
                    Arg::Fun(Fun::Lambda(l)) => !self.body_fallible(&l.body, facts),
                    _ => true,
                });
                return if self.safe.contains(f) && lambdas_ok {
                    Residue::Drop
                } else {
                    Residue::Keep
                };
            }
            Exp::Apply(..) => return Residue::Keep,
            Exp::Loop {
                state,
                init,
                form: LoopForm::For(i, n),
                body,
            } => {
                if !self.fallible(st, facts) {
                    return Residue::Drop;
                }
                let inner = facts.enter(&st.exp);
                return match inner.first() {
                    Some(f) if body.result != Atom::Var(state.0.clone()) => {
                        match self
                            .judge()
                            .state_free_residue(st, state, init, i, n, body, f)
                        {
                            Some(r) => Residue::Replace(vec![r]),
                            None => Residue::Keep,
                        }
                    }
                    _ => Residue::Keep,
                };
            }
            Exp::Loop { .. } => return Residue::Keep,
        }
        if out.is_empty() {
            Residue::Drop
        } else {
            Residue::Replace(out)
        }
    }

    fn prim_residue(&mut self, st: &Stmt, p: &Prim, facts: &Facts) -> Residue {
        let span = st.span;
        let mut out = Vec::new();
        match p {
            Prim::Build { n, f } => {
                let Some(l) = lambda(f) else {
                    return Residue::Keep;
                };
                if !rows_regular(l) {
                    return Residue::Keep;
                }
                if !facts.prove_nonneg(n) {
                    out.push(self.check(
                        CheckKind::NonNeg,
                        vec![n.clone()],
                        "build",
                        Type::I64,
                        span,
                    ));
                }
                let inner = facts.enter(&st.exp);
                if inner.first().is_none_or(|f| self.body_fallible(&l.body, f)) {
                    let Some((i, _)) = l.params.first() else {
                        return Residue::Keep;
                    };
                    out.push(self.loop_residue(st, i, n, &l.body));
                }
            }
            // ireduce op ne n g; ireduce_by_index dest op ne m g, whose operator
            // runs only where an index is in bounds (so if it can fail, or the
            // elements are arrays whose shapes it checks, the statement stays)
            Prim::IReduce { op, n, f: g, .. } | Prim::IReduceByIndex { op, m: n, f: g, .. } => {
                let (Some(op), Some(g)) = (lambda(op), lambda(g)) else {
                    return Residue::Keep;
                };
                if matches!(p, Prim::IReduceByIndex { .. })
                    && matches!(st.ty.elem(), Some(t) if has_array(t))
                {
                    return Residue::Keep;
                }
                let inner = facts.enter(&st.exp);
                if inner
                    .first()
                    .is_none_or(|f| self.body_fallible(&op.body, f))
                {
                    return Residue::Keep;
                }
                if inner.get(1).is_none_or(|f| self.body_fallible(&g.body, f)) {
                    let Some((i, _)) = g.params.first() else {
                        return Residue::Keep;
                    };
                    out.push(self.loop_residue(st, i, n, &g.body));
                }
            }
            Prim::IFold { f, init, n } => {
                let Some(f) = lambda(f) else {
                    return Residue::Keep;
                };
                let inner = facts.enter(&st.exp);
                let (Some(fx), Some(acc), Some((i, _))) =
                    (inner.first(), f.params.first(), f.params.get(1))
                else {
                    return Residue::Keep;
                };
                if !self.body_fallible(&f.body, fx) {
                    return Residue::Drop;
                }
                return match self
                    .judge()
                    .state_free_residue(st, acc, init, i, n, &f.body, fx)
                {
                    Some(r) => Residue::Replace(vec![r]),
                    None => Residue::Keep,
                };
            }
            Prim::Split { k, a } => {
                let zero = Atom::Const(Const::I64(0));
                if facts
                    .len(a, 0)
                    .is_some_and(|n| facts.prove_slice(&zero, k, &n))
                {
                    return Residue::Drop;
                }
                let n = self.len0(a, facts, span, &mut out);
                let c = self.check(
                    CheckKind::Slice,
                    vec![zero, k.clone(), n],
                    "",
                    Type::I64,
                    span,
                );
                out.push(c);
            }
            // (what remains of an unused `stride k a`: the check of `k`)
            Prim::Stride { k, .. } => {
                if matches!(k, Atom::Const(Const::I64(c)) if *c >= 1) {
                    return Residue::Drop;
                }
                out.push(stmt(
                    self.fresh.name("chk"),
                    Type::I64,
                    Exp::Check(Box::new(Check::new(CheckKind::Step, vec![k.clone()], ""))),
                    span,
                ));
            }
            Prim::Unflatten { n, m, a } => {
                let len = self.len0(a, facts, span, &mut out);
                let c = Check::new(CheckKind::Unflatten, vec![n.clone(), m.clone(), len], "");
                if facts.prove_check(&c) {
                    return Residue::Drop;
                }
                out.push(stmt(
                    self.fresh.name("chk"),
                    Type::I64,
                    Exp::Check(Box::new(c)),
                    span,
                ));
            }
            _ => {
                return if self.fallible(st, facts) {
                    Residue::Keep
                } else {
                    Residue::Drop
                };
            }
        }
        if out.is_empty() {
            Residue::Drop
        } else {
            Residue::Replace(out)
        }
    }

    /// `loop (s: bool) = false for i < n do { body's statements; in s }`: the
    /// checks of every element, in order, without the elements (the statement's
    /// variable names it).
    fn loop_residue(&mut self, st: &Stmt, i: &Name, n: &Atom, body: &Body) -> Stmt {
        let s = self.fresh.name("ok");
        stmt(
            st.var.clone(),
            Type::BOOL,
            Exp::Loop {
                state: (s.clone(), Type::BOOL),
                init: Atom::Const(Const::Bool(false)),
                form: LoopForm::For(i.clone(), n.clone()),
                body: Body {
                    stmts: body.stmts.clone(),
                    result: Atom::Var(s),
                },
            },
            st.span,
        )
    }

    fn judge(&self) -> Judge<'_> {
        Judge { safe: self.safe }
    }

    fn body_fallible(&self, b: &Body, facts: &Facts) -> bool {
        self.judge().body_fallible(b, facts)
    }

    fn fallible(&self, st: &Stmt, facts: &Facts) -> bool {
        self.judge().fallible(st, facts)
    }

    fn literal_fallible(&self, ty: &Type, xs: &[Atom], facts: &Facts) -> bool {
        self.judge().literal_fallible(ty, xs, facts)
    }
}

impl Judge<'_> {
    /// The residue of a dead sequential loop (`ifold`, `loop ... for`) whose
    /// checks do not depend on its state: a loop that keeps the state at its
    /// initial value (a zero for a scalar state, so the initial value need not be
    /// computed) and drops the body's value, so only the body's checks remain.
    /// `None` when a statement that could fail depends on the state.
    #[allow(clippy::too_many_arguments)]
    fn state_free_residue(
        &self,
        st: &Stmt,
        state: &(Name, Type),
        init: &Atom,
        i: &Name,
        n: &Atom,
        body: &Body,
        facts: &Facts,
    ) -> Option<Stmt> {
        // the statements that depend on the state, transitively
        let mut dep: HashSet<Name> = HashSet::from([state.0.clone()]);
        let mut f = facts.clone();
        for s in &body.stmts {
            let free = crate::licm::free_vars(s);
            if free.iter().any(|v| dep.contains(v)) {
                if self.fallible(s, &f) {
                    return None;
                }
                dep.insert(s.var.clone());
            }
            f.add(s);
        }
        let init = match &state.1 {
            Type::Prim(p) => Atom::Const(Const::zero(*p)),
            _ => init.clone(),
        };
        Some(stmt(
            st.var.clone(),
            state.1.clone(),
            Exp::Loop {
                state: state.clone(),
                init,
                form: LoopForm::For(i.clone(), n.clone()),
                body: Body {
                    stmts: body.stmts.clone(),
                    result: Atom::Var(state.0.clone()),
                },
            },
            st.span,
        ))
    }

    /// Can an array literal fail (rows of different shapes)?
    fn literal_fallible(&self, ty: &Type, xs: &[Atom], facts: &Facts) -> bool {
        // elements without arrays (scalars, tuples of scalars) always agree
        if !ty.elem().is_some_and(has_array) {
            return false;
        }
        let Some(first) = xs.first() else {
            return false;
        };
        let t0 = facts.ty(first);
        if fully_sized(&t0) && xs.iter().all(|x| facts.ty(x) == t0) {
            return false;
        }
        let rows_are_vectors = matches!(ty.elem(), Some(Type::Array(_, e)) if e.prim().is_some());
        !(rows_are_vectors
            && xs.iter().all(|x| {
                matches!((facts.len(x, 0), facts.len(first, 0)), (Some(a), Some(b)) if facts.prove_eq_lin(&a, &b))
            }))
    }

    pub(crate) fn body_fallible(&self, b: &Body, facts: &Facts) -> bool {
        let mut f = facts.clone();
        for st in &b.stmts {
            if self.fallible(st, &f) {
                return true;
            }
            f.add(st);
        }
        false
    }

    /// Can this statement fail where `facts` hold? (Conservative: `true` unless
    /// proved.)
    pub(crate) fn fallible(&self, st: &Stmt, facts: &Facts) -> bool {
        let inner = facts.enter(&st.exp);
        let nested = |b: &Body, k: usize| inner.get(k).is_none_or(|f| self.body_fallible(b, f));
        match &st.exp {
            Exp::Atom(_)
            | Exp::Un(..)
            | Exp::Convert(..)
            | Exp::Math(..)
            | Exp::Tuple(_)
            | Exp::Proj(..)
            | Exp::Dim(..) => false,
            Exp::Bin(op, _, b) => match op {
                BinOp::Div | BinOp::Rem => is_int(&st.ty) && !facts.prove_nonzero(b),
                BinOp::Pow => is_signed(&st.ty) && !facts.prove_nonneg(b),
                _ => false,
            },
            Exp::ArrayLit(xs) => self.literal_fallible(&st.ty, xs, facts),
            Exp::Index(a, i) => !facts.len(a, 0).is_some_and(|n| facts.prove_index(i, &n)),
            Exp::Slice(a, s, e) => !facts.len(a, 0).is_some_and(|n| facts.prove_slice(s, e, &n)),
            Exp::CheckSize(c) => !facts.prove_eq(&c.got, &c.want),
            Exp::Check(c) => !facts.prove_check(c),
            Exp::If(_, t, f) => nested(t, 0) || nested(f, 1),
            Exp::Call(f, args) => {
                !self.safe.contains(f)
                    || args.iter().any(|a| match a {
                        Arg::Fun(Fun::Lambda(l)) => self.body_fallible(&l.body, facts),
                        Arg::Fun(Fun::Var(_)) => true,
                        Arg::Atom(_) => false,
                    })
            }
            Exp::Apply(..) => true,
            Exp::Loop { form, body, .. } => match form {
                // may not terminate: never dropped
                LoopForm::While(_) => true,
                LoopForm::For(..) => nested(body, 0),
            },
            Exp::Prim(p) => {
                let lambdas = |skip: bool| {
                    let mut k = 0;
                    p.args().into_iter().any(|a| match a {
                        ArgRef::Fun(Fun::Lambda(l)) => {
                            let r = nested(&l.body, k);
                            k += 1;
                            r
                        }
                        ArgRef::Fun(Fun::Var(_)) => !skip,
                        ArgRef::Atom(_) => false,
                    })
                };
                let arr_elem = matches!(st.ty.elem(), Some(t) if has_array(t));
                match p {
                    Prim::Length { .. }
                    | Prim::Flatten { .. }
                    | Prim::Rotate { .. }
                    | Prim::Reverse { .. }
                    | Prim::Transpose { .. }
                    | Prim::Unzip { .. }
                    | Prim::Unzip3 { .. } => false,
                    Prim::Build { n, f } => {
                        let regular = matches!(lambda(f), Some(l) if rows_regular(l));
                        !regular || !facts.prove_nonneg(n) || lambdas(false)
                    }
                    Prim::IFold { .. } | Prim::IReduce { .. } | Prim::Filter { .. } => {
                        lambdas(false)
                    }
                    Prim::IReduceByIndex { .. } => arr_elem || lambdas(false),
                    Prim::Scan { .. } => arr_elem || lambdas(false),
                    Prim::Concat { .. } => arr_elem,
                    Prim::Split { k, a } => !facts
                        .len(a, 0)
                        .is_some_and(|n| facts.prove_slice(&Atom::Const(Const::I64(0)), k, &n)),
                    Prim::Unflatten { n, m, a } => match facts.len(a, 0) {
                        Some(len) => match (facts.lin(n), facts.lin(m)) {
                            (Some(x), Some(y)) => match (x.as_const(), y.as_const()) {
                                (Some(x), Some(y)) if x >= 0 && y >= 0 => !x
                                    .checked_mul(y)
                                    .and_then(Lin::constant)
                                    .is_some_and(|p| facts.prove_eq_lin(&p, &len)),
                                _ => true,
                            },
                            _ => true,
                        },
                        None => true,
                    },
                    _ => true,
                }
            }
        }
    }
}

fn has_array(t: &Type) -> bool {
    match t {
        Type::Array(..) => true,
        Type::Tuple(ts) => ts.iter().any(has_array),
        _ => false,
    }
}

/// Every size in the type is known (a constant or a variable).
fn fully_sized(t: &Type) -> bool {
    match t {
        Type::Array(s, e) => matches!(s, Size::Const(_) | Size::Var(_)) && fully_sized(e),
        Type::Tuple(ts) => ts.iter().all(fully_sized),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use weir_ir::parse::parse_program;
    use weir_ir::print::program_to_string;

    /// `dce` on one function in the IR text form; its printed body.
    fn dce(src: &str) -> String {
        let mut p = match parse_program(src) {
            Ok(p) => p,
            Err(e) => panic!("{e}\n{src}"),
        };
        super::run(&mut p);
        if let Err(e) = weir_ir::verify::verify_program(&p) {
            panic!("{e:?}\n{}", program_to_string(&p));
        }
        program_to_string(&p)
    }

    #[test]
    fn a_dead_read_leaves_its_bounds_check() {
        let out = dce(
            "entry f (a_1: []f64) (k_2: i64) : f64 = {\n  let x_3: f64 = a_1[k_2]\n  in 1.0f64\n}\n",
        );
        assert!(
            out.contains("dim a_1 0") && out.contains("assert_index k_2 n_"),
            "{out}"
        );
        assert!(!out.contains("a_1[k_2]"), "{out}");
    }

    #[test]
    fn a_dead_read_that_cannot_fail_goes() {
        let out =
            dce("entry f (a_1: [3]f64) : f64 = {\n  let x_3: f64 = a_1[2i64]\n  in 1.0f64\n}\n");
        assert!(!out.contains("let"), "{out}");
        // a build reading each element of an array of its length
        let out = dce(
            "entry f [n_0] (a_1: [n_0]f64) : f64 = {\n  let b_2: [n_0]f64 = build n_0 (\\(i_3: i64) : f64 -> {\n    let x_4: f64 = a_1[i_3]\n    in x_4\n  })\n  in 1.0f64\n}\n",
        );
        assert!(!out.contains("let"), "{out}");
    }

    #[test]
    fn a_dead_build_leaves_the_checks_of_its_elements() {
        let out = dce(
            "entry f [n_0] (a_1: [n_0]f64) : f64 = {\n  let b_2: [n_0]f64 = build n_0 (\\(i_3: i64) : f64 -> {\n    let j_5: i64 = i_3 + 1i64\n    let x_4: f64 = a_1[j_5]\n    in x_4\n  })\n  in 1.0f64\n}\n",
        );
        assert!(
            out.contains("loop (")
                && out.contains("for i_3 < n_0")
                && out.contains("assert_index j_5 n_0"),
            "{out}"
        );
        // the count of a build over an arbitrary integer is checked
        let out = dce(
            "entry f (k_1: i64) : f64 = {\n  let b_2: [k_1]f64 = build k_1 (\\(i_3: i64) : f64 -> {\n    in 0.0f64\n  })\n  in 1.0f64\n}\n",
        );
        assert!(
            out.contains("assert_nonneg k_1 build") && !out.contains("loop"),
            "{out}"
        );
    }

    #[test]
    fn a_size_check_makes_later_reads_provable() {
        let out = dce(
            "entry f [n_0] (a_1: [n_0]f64) (b_2: []f64) : f64 = {\n  let d_3: i64 = dim b_2 0\n  let c_4: i64 = assert_size d_3 n_0 map2 arg2 n\n  let t_5: [n_0]f64 = build n_0 (\\(i_6: i64) : f64 -> {\n    let x_7: f64 = b_2[i_6]\n    in x_7\n  })\n  in 1.0f64\n}\n",
        );
        assert!(
            out.contains("assert_size") && !out.contains("build"),
            "{out}"
        );
    }

    #[test]
    fn dead_division_unflatten_literal() {
        let out = dce(
            "entry f (a_1: []f64) (k_2: i64) (c_3: [2]f64) : f64 = {\n  let q_4: i64 = 7i64 / k_2\n  let r_5: i64 = 7i64 / 2i64\n  let u_6: [2][2]f64 = unflatten 2i64 2i64 a_1\n  let l_7: [2][]f64 = [a_1, a_1]\n  let m_8: [2][]f64 = [c_3, a_1]\n  in 1.0f64\n}\n",
        );
        assert!(out.contains("assert_nonzero k_2"), "{out}");
        assert!(!out.contains("2i64 / "), "{out}");
        assert!(out.contains("assert_unflatten 2i64 2i64 n_"), "{out}");
        // `[a, a]` is regular; `[c, a]` compares the length of `a` with 2
        assert_eq!(out.matches("assert_same").count(), 1, "{out}");
        assert!(out.contains(" 2i64 literal"), "{out}");
    }
}
