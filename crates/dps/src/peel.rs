//! Loop transformations of the DPS IR, as a named rule table
//! ([`RULES`]), applied after the allocation rules:
//!
//! | rule | effect |
//! | --- | --- |
//! | `split-at-bound` | index-set splitting at a symbolic point: a loop testing its counter against an enclosing counter or a dim (`if j <= i`) runs as the iterations before the point and those after, each without the test: see [`crate::split`] |
//! | `interchange-fold` | a map whose element is a sequential fold or a reduction, in the `i-k-j` order: see [`crate::interchange`] |
//! | `distribute-rows` | loop distribution: a row loop whose first half computes a matrix product's row into a one-row buffer and whose second half uses it runs as two loops over the rows, the buffer expanded to the matrix (2mm's `tmp`): see [`crate::distribute`] |
//! | `tile-accumulate` | the row updates of a matrix product in cache tiles, each tile in register blocks: see [`crate::tile`] and [`crate::regblock`] |
//! | `batch-lanes` | outer-loop vectorisation: a fold over points whose work is loops and folds runs a batch of points at a time, each value of the work a lane array, each straight-line run of the work one loop over the lanes: see [`crate::batch`] |
//! | `peel-boundary` | index-set splitting: a `for i < n` whose body branches on a test of `i` against the first or last few indices (`i == 0 \|\| i == n - 1`, `i < 2`, `i >= n - 1`, …) runs as three loops, the first `L` iterations, the `n - L - H` inner ones and the last `H`, in that order; in the inner loop every such test is a constant, so its branch is gone and the reads next to `i` (`a[i - 1]`, `a[i + 1]`) are proved in range by the C backend: the loop vectorises |
//!
//! The iterations keep their order (an error the interpreter meets first
//! stays first) and every element gets the same operations: the result is
//! bit for bit the same.

use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// A rule: name, what it does, and the rewrite of a function (the size
/// assertions' kind of rule).
pub use crate::checks::Rule;

pub const RULES: &[Rule] = &[
    (
        "split-at-bound",
        "split a loop whose body branches on its counter against a value the loop does not change (a triangle: `j <= i`) into the iterations before that point and those after, each without the test",
        crate::split::split_at_bound,
    ),
    (
        "interchange-fold",
        "turn a loop that stores a fold (or a reduction, as its left-to-right fold) per element inside out: initialise the row, then for each step of the fold update the whole row (the same operations per element, in the same order), then finish each element with what the loop computed from the fold's result",
        crate::interchange::interchange_fold,
    ),
    (
        "distribute-rows",
        "split a row loop that computes a matrix product one row at a time into a row buffer and then uses the row, into two loops over the rows of the whole matrix (the buffer expanded back to it), so that each product can be tiled",
        crate::distribute::distribute_rows,
    ),
    (
        "tile-accumulate",
        "run the in-place updates of rows, one per step of a fold, in tiles of columns and steps that stay in cache, every row passing over each tile, and inside a tile blocks of rows and columns kept in local buffers over the tile's steps (the micro-kernel, regblock.rs; each element still gets its steps in order)",
        crate::tile::tile_accumulate,
    ),
    (
        "batch-lanes",
        "run a sum over points whose per-point work is loops and folds eight points at a time, the points the inner loop of every statement of the work (each lane keeps its operations in order; the sum adds the points in order)",
        crate::batch::batch_lanes,
    ),
    (
        "peel-boundary",
        "split a loop whose body branches on its counter being among the first or last few indices into the boundary iterations and an inner loop where the branch is known",
        peel_boundary,
    ),
];

/// The most iterations peeled at either end.
pub const MAX_PEEL: i64 = 8;

/// The largest loop body split (in statements, nested ones included): the
/// body is copied three times.
pub const MAX_BODY: usize = 400;

/// Apply the rules to every function; `after` is called after every rule
/// that changed the program (the verifier hooks in there).
pub fn run(p: &mut Program, after: &mut dyn FnMut(&Program, &str)) {
    run_rules(p, RULES, after);
}

/// Apply only the given rules (each reaches its fixed point in one
/// application).
pub fn run_rules(p: &mut Program, rules: &[Rule], after: &mut dyn FnMut(&Program, &str)) {
    for fi in 0..p.funs.len() {
        for (name, _, rule) in rules {
            if rule(&mut p.funs[fi]) {
                after(p, name);
            }
        }
    }
}

/// Where a boolean is the same on the inner iterations `[lo, n - hi)` of
/// the loop being split: there it is `value`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Known {
    lo: i64,
    hi: i64,
    value: bool,
}

impl Known {
    fn join(a: Known, b: Known, value: bool) -> Option<Known> {
        let k = Known {
            lo: a.lo.max(b.lo),
            hi: a.hi.max(b.hi),
            value,
        };
        (k.lo <= MAX_PEEL && k.hi <= MAX_PEEL).then_some(k)
    }
    fn everywhere(value: bool) -> Known {
        Known {
            lo: 0,
            hi: 0,
            value,
        }
    }
}

/// Names never bound in the function, for the copies of loop bodies.
struct Names {
    taken: HashSet<Name>,
}

impl Names {
    fn of(f: &Fun) -> Names {
        let mut taken: HashSet<Name> = crate::rename::binders(&f.body.stmts).into_iter().collect();
        taken.extend(f.params.iter().map(|p| p.name.clone()));
        taken.extend(f.dests.iter().map(|d| d.name.clone()));
        Names { taken }
    }
    fn fresh(&mut self, base: &str) -> Name {
        let base = base.split("_pl").next().unwrap_or(base);
        let mut k = 1;
        loop {
            let n = format!("{base}_pl{k}");
            if self.taken.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    }
}

fn peel_boundary(f: &mut Fun) -> bool {
    let mut names = Names::of(f);
    let mut defs = HashMap::new();
    lets(&f.body.stmts, &mut defs);
    peel_in(&mut f.body.stmts, &mut defs, &mut names)
}

/// The scalar lets of `stmts`, nested ones included (every name is bound
/// once in a function).
fn lets(stmts: &[Stmt], out: &mut HashMap<Name, SExp>) {
    for s in stmts {
        if let Stmt::Let { var, exp, .. } = s {
            out.insert(var.clone(), exp.clone());
        }
        for b in nested_blocks(s) {
            lets(b, out);
        }
    }
}

fn peel_in(stmts: &mut Vec<Stmt>, defs: &mut HashMap<Name, SExp>, names: &mut Names) -> bool {
    let mut changed = false;
    let mut k = 0;
    while k < stmts.len() {
        if let Stmt::For { i, n, body } = &stmts[k]
            && !short(n, defs)
            && size(body) <= MAX_BODY
            && !grows(body)
            && let Some((lo, hi, known)) = plan(i, n, body, defs)
        {
            let new = split(i, n, body, lo, hi, &known, names);
            lets(&new, defs);
            let len = new.len();
            stmts.splice(k..k + 1, new);
            // (the loops made are split no further; the loops inside them may be)
            for s in &mut stmts[k..k + len] {
                if let Stmt::For { body, .. } = s {
                    peel_in(body, defs, names);
                }
            }
            k += len;
            changed = true;
            continue;
        }
        for b in nested_blocks_mut(&mut stmts[k]) {
            changed |= peel_in(b, defs, names);
        }
        k += 1;
    }
    changed
}

/// A loop of at most [`MAX_PEEL`] iterations (`min k x`, as the boundary
/// loops this rule makes): nothing to split.
fn short(n: &Atom, defs: &HashMap<Name, SExp>) -> bool {
    match n {
        Atom::Const(Const::I64(c)) => *c <= MAX_PEEL,
        Atom::Const(_) => true,
        Atom::Var(v) => matches!(
            defs.get(v),
            Some(SExp::Math(MathFn::Min, xs))
                if xs.iter().any(|x| matches!(x, Atom::Const(Const::I64(c)) if *c <= MAX_PEEL))
        ),
    }
}

/// The name an atom stands for, through lets that rename (`let a = b`).
fn root(a: &Atom, defs: &HashMap<Name, SExp>) -> Atom {
    let mut a = a.clone();
    for _ in 0..32 {
        match &a {
            Atom::Var(v) => match defs.get(v) {
                Some(SExp::Atom(b)) => a = b.clone(),
                _ => break,
            },
            Atom::Const(_) => break,
        }
    }
    a
}

/// A position the counter is compared with: `k` from the start, or `k`
/// before the end (`n - k`).
enum Side {
    Low(i64),
    High(i64),
}

fn side(a: &Atom, n: &Atom, defs: &HashMap<Name, SExp>) -> Option<Side> {
    let a = root(a, defs);
    if a == *n {
        return Some(Side::High(0));
    }
    match &a {
        Atom::Const(Const::I64(k)) => Some(Side::Low(*k)),
        Atom::Var(v) => match defs.get(v) {
            Some(SExp::Bin(BinOp::Sub, x, Atom::Const(Const::I64(k)))) if root(x, defs) == *n => {
                Some(Side::High(*k))
            }
            Some(SExp::Bin(BinOp::Add, x, Atom::Const(Const::I64(k)))) if root(x, defs) == *n => {
                Some(Side::High(k.checked_neg()?))
            }
            _ => None,
        },
        Atom::Const(_) => None,
    }
}

/// What `i op s` is on the inner iterations, for `0 <= i < n`.
fn compare(op: BinOp, s: Side) -> Option<Known> {
    use BinOp::*;
    let k = |lo: i64, hi: i64, value: bool| {
        let (lo, hi) = (lo.max(0), hi.max(0));
        (lo <= MAX_PEEL && hi <= MAX_PEEL).then_some(Known { lo, hi, value })
    };
    match (op, s) {
        // i == c: only at c
        (Eq, Side::Low(c)) => k(c.checked_add(1)?, 0, false),
        (Ne, Side::Low(c)) => k(c.checked_add(1)?, 0, true),
        (Eq, Side::High(c)) => k(0, c, false),
        (Ne, Side::High(c)) => k(0, c, true),
        (Lt, Side::Low(c)) => k(c, 0, false),
        (Le, Side::Low(c)) => k(c.checked_add(1)?, 0, false),
        (Gt, Side::Low(c)) => k(c.checked_add(1)?, 0, true),
        (Ge, Side::Low(c)) => k(c, 0, true),
        // i < n - c: below the last c
        (Lt, Side::High(c)) => k(0, c, true),
        (Le, Side::High(c)) => k(0, c.checked_sub(1)?, true),
        (Gt, Side::High(c)) => k(0, c.checked_sub(1)?, false),
        (Ge, Side::High(c)) => k(0, c, false),
        _ => None,
    }
}

fn flip(op: BinOp) -> Option<BinOp> {
    use BinOp::*;
    Some(match op {
        Eq => Eq,
        Ne => Ne,
        Lt => Gt,
        Le => Ge,
        Gt => Lt,
        Ge => Le,
        _ => return None,
    })
}

/// The booleans of a loop body (`i` its counter, `n` its bound) that are
/// the same on the inner iterations.
struct Analysis<'a> {
    i: &'a Name,
    n: Atom,
    defs: &'a HashMap<Name, SExp>,
    known: HashMap<Name, Known>,
}

impl Analysis<'_> {
    fn atom(&self, a: &Atom) -> Option<Known> {
        match a {
            Atom::Const(Const::Bool(b)) => Some(Known::everywhere(*b)),
            Atom::Var(v) => self.known.get(v).copied(),
            Atom::Const(_) => None,
        }
    }

    fn exp(&self, e: &SExp) -> Option<Known> {
        let counter = |a: &Atom| root(a, self.defs) == Atom::Var(self.i.clone());
        match e {
            SExp::Atom(a) => self.atom(a),
            SExp::Un(UnOp::Not, a) => self.atom(a).map(|k| Known {
                value: !k.value,
                ..k
            }),
            SExp::Bin(BinOp::And, a, b) => self.and_or(a, b, false),
            SExp::Bin(BinOp::Or, a, b) => self.and_or(a, b, true),
            SExp::Bin(op, a, b) if counter(a) => compare(*op, side(b, &self.n, self.defs)?),
            SExp::Bin(op, a, b) if counter(b) => compare(flip(*op)?, side(a, &self.n, self.defs)?),
            _ => None,
        }
    }

    /// `a && b` (`or` false) or `a || b` (`or` true).
    fn and_or(&self, a: &Atom, b: &Atom, or: bool) -> Option<Known> {
        match (self.atom(a), self.atom(b)) {
            (Some(x), Some(y)) => Known::join(
                x,
                y,
                if or {
                    x.value || y.value
                } else {
                    x.value && y.value
                },
            ),
            // one side decides where it is `or`
            (Some(x), None) | (None, Some(x)) if x.value == or => Some(x),
            _ => None,
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::Let {
                    var,
                    ty: PrimType::Bool,
                    exp,
                    ..
                } => {
                    if let Some(k) = self.exp(exp) {
                        self.known.insert(var.clone(), k);
                    }
                }
                Stmt::If {
                    outs,
                    cond,
                    then,
                    els,
                } => {
                    self.stmts(&then.stmts);
                    self.stmts(&els.stmts);
                    let c = self.atom(cond);
                    for (k, (o, ty)) in outs.iter().enumerate() {
                        if *ty != PrimType::Bool {
                            continue;
                        }
                        let t = then.results.get(k).and_then(|t| self.atom(t));
                        let e = els.results.get(k).and_then(|e| self.atom(e));
                        let r = match (c, t, e) {
                            // the taken branch's result
                            (Some(c), _, _) => {
                                let r = if c.value { t } else { e };
                                r.and_then(|r| Known::join(c, r, r.value))
                            }
                            // both branches agree
                            (None, Some(t), Some(e)) if t.value == e.value => {
                                Known::join(t, e, t.value)
                            }
                            _ => None,
                        };
                        if let Some(r) = r {
                            self.known.insert(o.clone(), r);
                        }
                    }
                }
                _ => {
                    for b in nested_blocks(s) {
                        self.stmts(b);
                    }
                }
            }
        }
    }
}

/// The conditions of the `if`s in `stmts` (nested ones included).
fn conds(stmts: &[Stmt], out: &mut Vec<Name>) {
    for s in stmts {
        if let Stmt::If {
            cond: Atom::Var(c), ..
        } = s
        {
            out.push(c.clone());
        }
        for b in nested_blocks(s) {
            conds(b, out);
        }
    }
}

/// How to split `for i < n { body }`: the iterations peeled at the start
/// and at the end, and the booleans known on the inner ones (each known on
/// a range that contains them). `None` when no `if` of the body has a
/// condition known there.
fn plan(
    i: &Name,
    n: &Atom,
    body: &[Stmt],
    defs: &HashMap<Name, SExp>,
) -> Option<(i64, i64, HashMap<Name, bool>)> {
    let mut a = Analysis {
        i,
        n: root(n, defs),
        defs,
        known: HashMap::new(),
    };
    a.stmts(body);
    let mut cs = Vec::new();
    conds(body, &mut cs);
    let (mut lo, mut hi) = (0, 0);
    for c in &cs {
        if let Some(k) = a.known.get(c) {
            lo = lo.max(k.lo);
            hi = hi.max(k.hi);
        }
    }
    if lo + hi == 0 {
        return None;
    }
    let known = a
        .known
        .iter()
        .filter(|(_, k)| k.lo <= lo && k.hi <= hi)
        .map(|(v, k)| (v.clone(), k.value))
        .collect();
    Some((lo, hi, known))
}

pub(crate) fn let_i64(var: &Name, exp: SExp) -> Stmt {
    Stmt::Let {
        var: var.clone(),
        ty: PrimType::I64,
        exp,
        span: Span::default(),
    }
}

pub(crate) fn int(k: i64) -> Atom {
    Atom::Const(Const::I64(k))
}

/// The three loops: `[0, min(lo, n))`, `[lo, n - hi)` with the known
/// booleans as constants, and `[max(lo, n - hi), n)`.
fn split(
    i: &Name,
    n: &Atom,
    body: &[Stmt],
    lo: i64,
    hi: i64,
    known: &HashMap<Name, bool>,
    names: &mut Names,
) -> Vec<Stmt> {
    let mut out = Vec::new();
    let mut fresh = |b: &str| names.fresh(b);
    // the first iterations: i < min lo n
    let lo_n = fresh("lo");
    out.push(let_i64(
        &lo_n,
        SExp::Math(MathFn::Min, vec![int(lo), n.clone()]),
    ));
    let i1 = fresh(i);
    let first =
        crate::rename::fresh_copy(body, &HashMap::from([(i.clone(), i1.clone())]), &mut fresh);
    out.push(Stmt::For {
        i: i1,
        n: Atom::Var(lo_n),
        body: first,
    });
    // the inner ones: i = j + lo for j < max 0 (n - lo - hi)
    let (m1, m) = (fresh("inner"), fresh("inner"));
    out.push(let_i64(&m1, SExp::Bin(BinOp::Sub, n.clone(), int(lo + hi))));
    out.push(let_i64(
        &m,
        SExp::Math(MathFn::Max, vec![int(0), Atom::Var(m1)]),
    ));
    let (j, i2) = (fresh(i), fresh(i));
    let mut inner = vec![let_i64(
        &i2,
        SExp::Bin(BinOp::Add, Atom::Var(j.clone()), int(lo)),
    )];
    let mut copy =
        crate::rename::fresh_copy(body, &HashMap::from([(i.clone(), i2.clone())]), &mut fresh);
    // (the copy's names are new: the known booleans under their new names)
    let renamed: HashMap<Name, bool> = {
        let old = crate::rename::binders(body);
        let new = crate::rename::binders(&copy);
        old.into_iter()
            .zip(new)
            .filter_map(|(o, n)| known.get(&o).map(|v| (n, *v)))
            .collect()
    };
    fold_known(&mut copy, &renamed);
    inner.extend(copy);
    drop_dead_constants(&mut inner);
    out.push(Stmt::For {
        i: j,
        n: Atom::Var(m),
        body: inner,
    });
    // the last ones: i = s + k for k < min hi (n - s), s = max lo (n - hi)
    let (s1, s, c1, c) = (fresh("last"), fresh("last"), fresh("last"), fresh("last"));
    out.push(let_i64(&s1, SExp::Bin(BinOp::Sub, n.clone(), int(hi))));
    out.push(let_i64(
        &s,
        SExp::Math(MathFn::Max, vec![int(lo), Atom::Var(s1)]),
    ));
    out.push(let_i64(
        &c1,
        SExp::Bin(BinOp::Sub, n.clone(), Atom::Var(s.clone())),
    ));
    out.push(let_i64(
        &c,
        SExp::Math(MathFn::Min, vec![int(hi), Atom::Var(c1)]),
    ));
    let (k, i3) = (fresh(i), fresh(i));
    let mut last = vec![let_i64(
        &i3,
        SExp::Bin(BinOp::Add, Atom::Var(s), Atom::Var(k.clone())),
    )];
    last.extend(crate::rename::fresh_copy(
        body,
        &HashMap::from([(i.clone(), i3)]),
        &mut fresh,
    ));
    out.push(Stmt::For {
        i: k,
        n: Atom::Var(c),
        body: last,
    });
    out
}

/// Make the known booleans constants: their lets become the constant, an
/// `if` on a known condition becomes its taken branch (its results bound
/// by lets), and lets of known booleans that nothing reads any more go.
pub(crate) fn fold_known(stmts: &mut Vec<Stmt>, known: &HashMap<Name, bool>) {
    let old = std::mem::take(stmts);
    for s in old {
        match s {
            Stmt::Let {
                var,
                ty: PrimType::Bool,
                span,
                ..
            } if known.contains_key(&var) => {
                let v = known[&var];
                stmts.push(Stmt::Let {
                    var,
                    ty: PrimType::Bool,
                    exp: SExp::Atom(Atom::Const(Const::Bool(v))),
                    span,
                });
            }
            Stmt::If {
                outs,
                cond,
                then,
                els,
            } if constant(&cond, known).is_some() => {
                let taken = constant(&cond, known).unwrap_or(false);
                let mut b = if taken { then } else { els };
                fold_known(&mut b.stmts, known);
                stmts.extend(b.stmts);
                for ((o, ty), r) in outs.into_iter().zip(b.results) {
                    let exp = match known.get(&o) {
                        Some(v) if ty == PrimType::Bool => SExp::Atom(Atom::Const(Const::Bool(*v))),
                        _ => SExp::Atom(r),
                    };
                    stmts.push(Stmt::Let {
                        var: o,
                        ty,
                        exp,
                        span: Span::default(),
                    });
                }
            }
            mut s => {
                for b in nested_blocks_mut(&mut s) {
                    fold_known(b, known);
                }
                stmts.push(s);
            }
        }
    }
}

/// The value of a condition known to be constant.
fn constant(c: &Atom, known: &HashMap<Name, bool>) -> Option<bool> {
    match c {
        Atom::Var(v) => known.get(v).copied(),
        Atom::Const(Const::Bool(b)) => Some(*b),
        Atom::Const(_) => None,
    }
}

/// Drop the lets of constants that no later statement of `stmts` reads
/// (the tests folded away; `stmts` is a loop body, which has no results).
pub(crate) fn drop_dead_constants(stmts: &mut Vec<Stmt>) {
    let mut k = stmts.len();
    while k > 0 {
        k -= 1;
        let dead = matches!(&stmts[k], Stmt::Let { var, exp: SExp::Atom(Atom::Const(_)), .. }
            if !mentions(&stmts[k + 1..], var));
        if dead {
            stmts.remove(k);
        }
    }
}

/// Statements in `stmts`, nested ones included.
pub(crate) fn size(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| 1 + nested_blocks(s).iter().map(|b| size(b)).sum::<usize>())
        .sum()
}

/// Does a statement of `stmts` grow storage (nothing to copy there)?
pub(crate) fn grows(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| {
        matches!(s, Stmt::Grow { .. })
            || matches!(s, Stmt::Loop { arrays, .. } if arrays.iter().any(|a| a.grow.is_some()))
            || matches!(s, Stmt::Alloc { bufs, .. } if bufs.iter().any(|b| b.grown))
            || nested_blocks(s).iter().any(|b| grows(b))
    })
}
