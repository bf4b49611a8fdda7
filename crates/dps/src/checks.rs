//! Size assertions (size slicing §5; issue 15, deliverable 6): the run-time
//! size checks the translation made explicit ([`Stmt::Check`], and the core
//! IR's `assert_same`/`assert_nonneg` kept as [`Guard::Core`]) are proved
//! where the sizes are known equal, and shared: a check of a fact an earlier
//! check on every path to it established is dropped, so each invariant is
//! checked once. The rules, as a table applied to a fixed point:
//!
//! | rule | effect |
//! | --- | --- |
//! | `prove-checks` | drop a check whose sides have the same value (by value numbering: copies, `dim` of arrays whose dims are known, arithmetic, `max x 0` of a size) or that an earlier check on the same path already made |
//!
//! Value numbering is scoped: what a check inside a branch, a loop body or a
//! `reduce` operator establishes holds there only (the branch may not be
//! taken, the loop may run no iteration); what a check in an `alloc` scope's
//! body establishes holds after the scope too (the body always runs to its
//! end or fails). Arrays whose dims change as the program runs (storage
//! grown in place, a growing loop state) never get known dims.
//!
//! A dropped check never fails, so dropping it changes no result and no error
//! (the interpreter's error order stays, docs/language.md §6). Moving a check
//! out of a loop, the other half of the paper's assertion distribution,
//! depends on where the C backend places the out-of-memory checks of the
//! buffers the loop writes and which bounds checks it keeps, so it happens
//! in the C lowering (`weir_cgen::lower`, "hoisted size checks").

use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// A rule: name, what it does, and the rewrite of one function (returns
/// whether it changed anything).
pub type Rule = (&'static str, &'static str, fn(&mut Fun) -> bool);

pub const RULES: &[Rule] = &[(
    "prove-checks",
    "drop a size check whose sides are known equal (by value numbering, or by an earlier check)",
    prove_checks,
)];

/// Apply the rules to every function until none changes it; `after` is
/// called after every rule that changed the program (the verifier hooks in).
pub fn run(p: &mut Program, after: &mut dyn FnMut(&Program, &str)) {
    run_rules(p, RULES, after);
}

/// Apply only the given rules.
pub fn run_rules(p: &mut Program, rules: &[Rule], after: &mut dyn FnMut(&Program, &str)) {
    for fi in 0..p.funs.len() {
        // (each rule reaches its fixed point in one application; the
        // bound only guards against a rule that undoes another)
        for _ in 0..8 {
            let mut changed = false;
            for (name, _, rule) in rules {
                if rule(&mut p.funs[fi]) {
                    changed = true;
                    after(p, name);
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// A value-numbered `i64` term: two scalars with the same number (after the
/// unions the checks make) hold the same value wherever both are in scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Term {
    Const(i64),
    /// Dim `k` of an array whose dims are not otherwise known.
    Dim(Name, usize),
    Bin(BinOp, usize, usize),
    Math(MathFn, Vec<usize>),
    DivOr0(usize, usize),
    RemOr0(usize, usize),
}

#[derive(Clone, Default)]
struct Vn {
    /// Union-find over value numbers.
    parent: Vec<usize>,
    /// Per value number (meaningful at its root): known to be `>= 0`.
    nonneg: Vec<bool>,
    terms: HashMap<Term, usize>,
    /// `i64` scalar → its value number.
    scalars: HashMap<Name, usize>,
    /// Array → the value numbers of its dims, where known.
    arrays: HashMap<Name, Vec<usize>>,
}

impl Vn {
    fn fresh(&mut self, nonneg: bool) -> usize {
        let k = self.parent.len();
        self.parent.push(k);
        self.nonneg.push(nonneg);
        k
    }

    fn find(&self, mut k: usize) -> usize {
        // (no path compression: the snapshots are cheap clones, and the
        // chains stay short because unions link roots)
        for _ in 0..self.parent.len() {
            let p = self.parent.get(k).copied().unwrap_or(k);
            if p == k {
                break;
            }
            k = p;
        }
        k
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let nn = self.is_nonneg(ra) || self.is_nonneg(rb);
        if let Some(p) = self.parent.get_mut(rb) {
            *p = ra;
        }
        if let Some(n) = self.nonneg.get_mut(ra) {
            *n = nn;
        }
    }

    /// Record that `k` is `>= 0` (a check of it passed).
    fn set_nonneg(&mut self, k: usize) {
        let r = self.find(k);
        if let Some(x) = self.nonneg.get_mut(r) {
            *x = true;
        }
    }

    fn is_nonneg(&self, k: usize) -> bool {
        self.nonneg.get(self.find(k)).copied().unwrap_or(false)
    }

    fn term(&mut self, t: Term) -> usize {
        if let Some(&k) = self.terms.get(&t) {
            return k;
        }
        let nonneg = match &t {
            Term::Const(c) => *c >= 0,
            Term::Dim(..) => true,
            Term::Math(MathFn::Max, xs) => xs.iter().any(|x| self.is_nonneg(*x)),
            Term::Math(MathFn::Min, xs) => xs.iter().all(|x| self.is_nonneg(*x)),
            _ => false,
        };
        let k = self.fresh(nonneg);
        self.terms.insert(t, k);
        k
    }

    fn atom(&mut self, a: &Atom) -> Option<usize> {
        match a {
            Atom::Const(Const::I64(c)) => Some(self.term(Term::Const(*c))),
            Atom::Const(_) => None,
            Atom::Var(v) => self.scalars.get(v).copied(),
        }
    }

    /// The value number of `a`, a fresh one when it has none.
    fn atom_or_fresh(&mut self, a: &Atom) -> usize {
        match self.atom(a) {
            Some(k) => k,
            None => self.fresh(false),
        }
    }

    fn same(&mut self, a: &Atom, b: &Atom) -> bool {
        match (self.atom(a), self.atom(b)) {
            (Some(x), Some(y)) => self.find(x) == self.find(y),
            _ => false,
        }
    }

    /// The dims of array `a` (known ones, or one `Dim` term per dim).
    fn dims(&mut self, a: &Name, rank: usize, unstable: &HashSet<Name>) -> Vec<usize> {
        if let Some(d) = self.arrays.get(a) {
            return d.clone();
        }
        if unstable.contains(a) {
            return (0..rank).map(|_| self.fresh(true)).collect();
        }
        let d: Vec<usize> = (0..rank)
            .map(|k| self.term(Term::Dim(a.clone(), k)))
            .collect();
        self.arrays.insert(a.clone(), d.clone());
        d
    }

    fn dim(&mut self, a: &Name, k: usize, unstable: &HashSet<Name>) -> usize {
        if unstable.contains(a) && !self.arrays.contains_key(a) {
            return self.fresh(true);
        }
        match self.arrays.get(a).and_then(|d| d.get(k)).copied() {
            Some(x) => x,
            None => self.term(Term::Dim(a.clone(), k)),
        }
    }

    fn set_array(&mut self, a: &Name, dims: &[Atom], unstable: &HashSet<Name>) {
        if unstable.contains(a) {
            return;
        }
        let d: Vec<usize> = dims.iter().map(|x| self.atom_or_fresh(x)).collect();
        self.arrays.insert(a.clone(), d);
    }

    fn bind_scalar(&mut self, v: &Name, ty: PrimType, k: Option<usize>) {
        if ty == PrimType::I64 {
            let k = match k {
                Some(k) => k,
                None => self.fresh(false),
            };
            self.scalars.insert(v.clone(), k);
        } else {
            self.scalars.remove(v);
        }
    }

    fn bind_outs(&mut self, outs: &[(Name, PrimType)]) {
        for (o, t) in outs {
            self.bind_scalar(o, *t, None);
        }
    }

    fn exp(&mut self, exp: &SExp, unstable: &HashSet<Name>) -> Option<usize> {
        Some(match exp {
            SExp::Atom(a) => return self.atom(a),
            SExp::Dim(a, k) => self.dim(a, *k, unstable),
            SExp::Bin(
                op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
                x,
                y,
            ) => {
                let (x, y) = (self.atom(x)?, self.atom(y)?);
                let (x, y) = (self.find(x), self.find(y));
                // (commutative operators in one order)
                let (x, y) = if matches!(op, BinOp::Add | BinOp::Mul) && y < x {
                    (y, x)
                } else {
                    (x, y)
                };
                self.term(Term::Bin(*op, x, y))
            }
            SExp::Math(f @ (MathFn::Max | MathFn::Min), xs) => {
                let mut v = Vec::with_capacity(xs.len());
                for x in xs {
                    let k = self.atom(x)?;
                    v.push(self.find(k));
                }
                // `max x 0` of a size is the size.
                if *f == MathFn::Max
                    && let [a, b] = v[..]
                {
                    let zero = self.term(Term::Const(0));
                    if b == self.find(zero) && self.is_nonneg(a) {
                        return Some(a);
                    }
                    if a == self.find(zero) && self.is_nonneg(b) {
                        return Some(b);
                    }
                }
                v.sort_unstable();
                self.term(Term::Math(*f, v))
            }
            SExp::DivOr0(x, y) => {
                let (x, y) = (self.atom(x)?, self.atom(y)?);
                let t = Term::DivOr0(self.find(x), self.find(y));
                self.term(t)
            }
            SExp::RemOr0(x, y) => {
                let (x, y) = (self.atom(x)?, self.atom(y)?);
                let t = Term::RemOr0(self.find(x), self.find(y));
                self.term(t)
            }
            // (a load reads memory that may be written later; the rest is
            // not size arithmetic)
            _ => return None,
        })
    }
}

/// Arrays whose dims change while they are in scope: storage grown in place
/// and growing loop states (their `var`, `next`, `out` and final storage),
/// and every view of one.
fn unstable_arrays(stmts: &[Stmt], out: &mut HashSet<Name>) {
    for s in stmts {
        match s {
            Stmt::Alloc { bufs, .. } => {
                out.extend(bufs.iter().filter(|b| b.grown).map(|b| b.var.clone()));
            }
            Stmt::Loop { arrays, .. } => {
                for st in arrays.iter().filter(|st| st.grow.is_some()) {
                    out.extend([st.var.clone(), st.next.clone(), st.out.clone()]);
                    out.extend(st.grow.iter().cloned());
                }
            }
            Stmt::Grow { dest, .. } => {
                out.insert(dest.clone());
            }
            _ => {}
        }
        for b in nested_blocks(s) {
            unstable_arrays(b, out);
        }
    }
}

/// Views of unstable arrays are unstable (to a fixed point: views of views).
fn close_over_views(stmts: &[Stmt], set: &mut HashSet<Name>) -> bool {
    let mut changed = false;
    for s in stmts {
        if let Stmt::View { var, view, .. } = s {
            let src = view.source();
            if set.contains(src) && set.insert(var.clone()) {
                changed = true;
            }
        }
        for b in nested_blocks(s) {
            changed |= close_over_views(b, set);
        }
    }
    changed
}

fn prove_checks(f: &mut Fun) -> bool {
    let mut unstable = HashSet::new();
    unstable_arrays(&f.body.stmts, &mut unstable);
    while close_over_views(&f.body.stmts, &mut unstable) {}
    let mut vn = Vn::default();
    for d in &f.dests {
        // (a destination's dims are what the caller passed: for a result of
        // existential size, an upper bound, not the shape)
        vn.dims(&d.name, d.shape.len(), &unstable);
    }
    for p in &f.params {
        match p.ty {
            DType::Scalar(t) => vn.bind_scalar(&p.name, t, None),
            DType::Array(_, r) => {
                vn.dims(&p.name, r, &unstable);
            }
        }
    }
    prove_block(&mut f.body.stmts, &mut vn, &unstable)
}

fn prove_block(stmts: &mut Vec<Stmt>, vn: &mut Vn, unstable: &HashSet<Name>) -> bool {
    let mut changed = false;
    let mut i = 0;
    while i < stmts.len() {
        let mut drop = false;
        match &mut stmts[i] {
            Stmt::Let { var, ty, exp, .. } => {
                let k = if *ty == PrimType::I64 {
                    vn.exp(exp, unstable)
                } else {
                    None
                };
                vn.bind_scalar(var, *ty, k);
            }
            Stmt::Check { check, .. } => {
                if vn.same(&check.got, &check.want) {
                    drop = true;
                } else {
                    let a = vn.atom_or_fresh(&check.got);
                    let b = vn.atom_or_fresh(&check.want);
                    vn.union(a, b);
                }
            }
            Stmt::Guard {
                guard: Guard::Core(c),
                ..
            } => match (c.kind, c.args.as_slice()) {
                (weir_ir::CheckKind::NonNeg, [n]) => {
                    if let Some(k) = vn.atom(n) {
                        if vn.is_nonneg(k) {
                            drop = true;
                        } else {
                            vn.set_nonneg(k);
                        }
                    }
                }
                (weir_ir::CheckKind::Same, [got, want]) => {
                    if vn.same(got, want) {
                        drop = true;
                    } else {
                        let a = vn.atom_or_fresh(got);
                        let b = vn.atom_or_fresh(want);
                        vn.union(a, b);
                    }
                }
                _ => {}
            },
            Stmt::Guard { .. } | Stmt::Store { .. } | Stmt::Copy { .. } | Stmt::Grow { .. } => {}
            Stmt::View {
                var, rank, view, ..
            } => {
                let dims: Option<Vec<usize>> = match view {
                    View::Alias(a) => {
                        let r = *rank;
                        Some(vn.dims(a, r, unstable))
                    }
                    View::Row(a, _) => {
                        let r = *rank + 1;
                        Some(vn.dims(a, r, unstable).into_iter().skip(1).collect())
                    }
                    View::Slice(a, s, e)
                    | View::Placed {
                        part: a,
                        lo: s,
                        hi: e,
                        ..
                    } => {
                        let r = *rank;
                        let inner: Vec<usize> =
                            vn.dims(a, r, unstable).into_iter().skip(1).collect();
                        match (vn.atom(e), vn.atom(s)) {
                            (Some(e), Some(s)) => {
                                let (e, s) = (vn.find(e), vn.find(s));
                                let len = vn.term(Term::Bin(BinOp::Sub, e, s));
                                // (a slice in bounds has a length >= 0)
                                vn.set_nonneg(len);
                                Some(std::iter::once(len).chain(inner).collect())
                            }
                            _ => None,
                        }
                    }
                    View::Reshape(_, ds) => Some(ds.iter().map(|d| vn.atom_or_fresh(d)).collect()),
                    View::Transpose(a) => {
                        let mut d = vn.dims(a, *rank, unstable);
                        if d.len() >= 2 {
                            d.swap(0, 1);
                        }
                        Some(d)
                    }
                    View::Reverse(a) => Some(vn.dims(a, *rank, unstable)),
                    // (a length of its own)
                    View::Stride(..) => None,
                    View::Replicate(n, a) => Some(
                        std::iter::once(vn.atom_or_fresh(n))
                            .chain(vn.dims(a, rank.saturating_sub(1), unstable))
                            .collect(),
                    ),
                };
                match dims {
                    Some(d) if !unstable.contains(var) => {
                        vn.arrays.insert(var.clone(), d);
                    }
                    _ => {
                        vn.arrays.remove(var);
                    }
                }
            }
            Stmt::Alloc { outs, bufs, body } => {
                for b in bufs.iter() {
                    if !b.grown {
                        vn.set_array(&b.var, &b.dims, unstable);
                    }
                }
                // (the body runs to its end or fails: what its checks
                // establish holds after it)
                changed |= prove_block(&mut body.stmts, vn, unstable);
                vn.bind_outs(outs);
            }
            Stmt::For { i: iv, body, .. } => {
                let mut inner = vn.clone();
                let k = inner.fresh(true);
                inner.scalars.insert(iv.clone(), k);
                changed |= prove_block(body, &mut inner, unstable);
            }
            Stmt::If {
                outs, then, els, ..
            } => {
                let mut t = vn.clone();
                changed |= prove_block(&mut then.stmts, &mut t, unstable);
                let mut e = vn.clone();
                changed |= prove_block(&mut els.stmts, &mut e, unstable);
                vn.bind_outs(outs);
            }
            Stmt::Fold {
                outs,
                acc,
                i: iv,
                body,
                ..
            } => {
                let mut inner = vn.clone();
                inner.bind_outs(acc);
                inner.bind_scalar(iv, PrimType::I64, None);
                changed |= prove_block(&mut body.stmts, &mut inner, unstable);
                vn.bind_outs(outs);
            }
            Stmt::Reduce {
                outs,
                i: iv,
                elem,
                op,
                ..
            } => {
                let mut inner = vn.clone();
                inner.bind_scalar(iv, PrimType::I64, None);
                changed |= prove_block(&mut elem.stmts, &mut inner, unstable);
                // (the operator's parameters are opaque)
                let mut o = vn.clone();
                for n in op.a.iter().chain(&op.b) {
                    let k = o.fresh(false);
                    o.scalars.insert(n.clone(), k);
                }
                changed |= prove_block(&mut op.body.stmts, &mut o, unstable);
                vn.bind_outs(outs);
            }
            Stmt::Loop {
                outs,
                scalars,
                arrays,
                form,
                body,
            } => {
                let mut inner = vn.clone();
                for (n, t, _) in scalars.iter() {
                    inner.bind_scalar(n, *t, None);
                }
                for st in arrays.iter() {
                    if st.grow.is_none() {
                        inner.set_array(&st.var, &st.dims, unstable);
                        inner.set_array(&st.next, &st.dims, unstable);
                    } else {
                        inner.arrays.remove(&st.var);
                        inner.arrays.remove(&st.next);
                    }
                }
                match form {
                    LoopForm::For(iv, _) => inner.bind_scalar(iv, PrimType::I64, None),
                    LoopForm::While(c) => {
                        let mut ci = inner.clone();
                        changed |= prove_block(&mut c.stmts, &mut ci, unstable);
                    }
                }
                changed |= prove_block(&mut body.stmts, &mut inner, unstable);
                vn.bind_outs(outs);
                for st in arrays.iter() {
                    if let Some(fin) = &st.grow {
                        vn.arrays.remove(fin);
                    }
                }
            }
            Stmt::Call { outs, .. } => vn.bind_outs(outs),
        }
        if drop {
            stmts.remove(i);
            changed = true;
        } else {
            i += 1;
        }
    }
    changed
}
