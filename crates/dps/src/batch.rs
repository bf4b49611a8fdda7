//! Outer-loop vectorisation of a fold over independent work (the DPS loop
//! rule `batch-lanes`, table [`crate::peel::RULES`]). A sequential sum over
//! points whose per-point work is itself loops and folds (GMM's objective:
//! for each point, for each component, a triangular matrix-vector product
//! and its squared norm, then a log-sum-exp),
//!
//! ```text
//! (o) = fold (acc) = (init) for i < n { work(i); let s = acc + v; yield s }
//! ```
//!
//! runs [`LANES`] points at a time, the points the inner loop of every
//! statement of the work: each value of the work that depends on `i` (a
//! *varying* value) gets a lane array of [`LANES`] elements, each buffer
//! the work fills, a lane column, each fold of varying values an
//! accumulator per lane; the statements of the work run in their order,
//! each straight-line run of varying statements as one loop over the lanes
//! (which the C compiler vectorises: it is the same operation on
//! consecutive elements), values that do not depend on `i` once per batch.
//! The sum itself then adds the batch's values in order:
//!
//! ```text
//! (o1) = fold (acc) = (init) for i0 < max 0 (n - 7) { if i0 % 8 == 0 {
//!   work'(i0 .. i0 + 7);
//!   (c) = fold (a) = (acc) for p < 8 { let s = a + v[p]; yield s }; yield c } else { yield acc } }
//! (o) = fold (acc) = (o1) for i < n { if i >= n - n % 8 { work(i); … } else { yield acc } }
//! ```
//!
//! Every lane runs the work's operations on its own values in their order,
//! and the sum adds the points in order: the result is bit for bit the
//! same. It applies where the order of errors cannot change: no varying
//! statement can fail (reads proved in range; values that do not depend on
//! `i` may fail, at the same point of every lane), the work does not read
//! the accumulator, every buffer it writes is filled over its whole length
//! before it is read in the same iteration and is used by this fold only,
//! loop bounds do not depend on `i`, and no branch does.

use crate::interchange::{Sizes, atom_key, can_fail, dim_key};
use crate::ir::*;
use crate::peel::{int, let_i64};
use std::collections::{HashMap, HashSet};

/// Points per batch: eight `f64` lanes (one 512-bit or two 256-bit vectors).
pub const LANES: i64 = 8;
/// The largest work batched, in statements (nested ones included).
pub const MAX_WORK: usize = 600;

pub(crate) fn batch_lanes(f: &mut Fun) -> bool {
    let mut taken: HashSet<Name> = crate::rename::binders(&f.body.stmts).into_iter().collect();
    taken.extend(f.params.iter().map(|p| p.name.clone()));
    taken.extend(f.dests.iter().map(|d| d.name.clone()));
    let mut fresh = |base: &str| {
        let base = base.split("_bt").next().unwrap_or(base);
        let mut k = 1;
        loop {
            let n = format!("{base}_bt{k}");
            if taken.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    };
    let mut sizes = Sizes::default();
    sizes.learn_entry_dests(f);
    let whole = f.body.stmts.clone();
    walk(&mut f.body.stmts, &sizes, &whole, &mut fresh)
}

fn walk(
    stmts: &mut Vec<Stmt>,
    outer: &Sizes,
    whole: &[Stmt],
    fresh: &mut dyn FnMut(&str) -> Name,
) -> bool {
    let mut sizes = outer.clone();
    let mut changed = false;
    let mut k = 0;
    while k < stmts.len() {
        let new = rewrite(&stmts[k], &sizes, whole, fresh)
            .or_else(|| rewrite_map(&stmts[k], &sizes, whole, fresh));
        if let Some(new) = new {
            let len = new.len();
            stmts.splice(k..k + 1, new);
            k += len;
            changed = true;
            continue;
        }
        sizes.learn(&stmts[k]);
        for b in nested_blocks_mut(&mut stmts[k]) {
            changed |= walk(b, &sizes, whole, fresh);
        }
        k += 1;
    }
    changed
}

/// Uses of each name in `stmts`, nested statements and block results
/// included.
fn count_uses(stmts: &[Stmt], out: &mut HashMap<Name, usize>) {
    for s in stmts {
        for u in stmt_uses(s) {
            *out.entry(u.clone()).or_insert(0) += 1;
        }
        for b in nested_blocks(s) {
            count_uses(b, out);
        }
    }
}

fn size(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| 1 + nested_blocks(s).iter().map(|b| size(b)).sum::<usize>())
        .sum()
}

fn deep_mentions(s: &Stmt, names: &HashSet<Name>) -> bool {
    stmt_uses(s).iter().any(|u| names.contains(*u))
        || nested_blocks(s)
            .iter()
            .any(|b| b.iter().any(|x| deep_mentions(x, names)))
}

fn rewrite(
    s: &Stmt,
    sizes: &Sizes,
    whole: &[Stmt],
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let Stmt::Fold {
        outs,
        acc,
        init,
        i,
        n,
        body,
    } = s
    else {
        return None;
    };
    let ([(accn, accty)], [res]) = (acc.as_slice(), body.results.as_slice()) else {
        return None;
    };
    // the work, then the statements that combine its values with the
    // accumulator (the statements that do not depend on it move before
    // those that do: these are lets that cannot fail, so no error moves)
    let mut dep: HashSet<Name> = HashSet::from([accn.clone()]);
    let (mut work, mut combine) = (Vec::new(), Vec::new());
    for st in &body.stmts {
        if deep_mentions(st, &dep) {
            dep.extend(crate::rename::binders(std::slice::from_ref(st)));
            combine.push(st.clone());
        } else {
            work.push(st.clone());
        }
    }
    let (work, combine) = (work.as_slice(), combine.as_slice());
    let pure_let = |st: &Stmt| {
        matches!(st, Stmt::Let { exp, .. } if !matches!(exp, SExp::Load(..) | SExp::LoadOr0(..)))
            && !stmt_can_fail(st)
    };
    if !combine.iter().all(pure_let) || work.is_empty() || size(work) > MAX_WORK {
        return None;
    }
    // worth it: the work has loops
    if !work.iter().any(|w| {
        matches!(
            w,
            Stmt::For { .. } | Stmt::Fold { .. } | Stmt::Reduce { .. }
        )
    }) {
        return None;
    }
    if matches!(n, Atom::Var(v) if v == i) {
        return None;
    }
    // which values depend on `i`, which buffers get a lane column
    let mut lanes = Lanes::classify(i, work, whole, s, fresh)?;
    // no varying statement can fail; loop bounds and branches are uniform
    let mut inner = sizes.clone();
    let mut bounds = vec![(i.clone(), n.clone())];
    if !lanes.check(work, &mut inner, &mut bounds) {
        return None;
    }
    let mut uses = HashMap::new();
    count_uses(&body.stmts, &mut uses);
    // (the fold's result is a use too: a value of the work it names is
    // kept in a lane array; fuzz seed 1135, program 240)
    for r in &body.results {
        if let Atom::Var(v) = r {
            *uses.entry(v.clone()).or_insert(0) += 1;
        }
    }
    lanes.uses = uses;

    // the batches
    let (i0, p) = ((lanes.fresh)("i0"), (lanes.fresh)("p"));
    lanes.base = i0.clone();
    let work2 = lanes.expand(work)?;
    let (mut out, nb, nfull) = batch_bounds(n, &mut *lanes.fresh);
    // the sum of a batch's values, in order
    let a = (lanes.fresh)(accn);
    // (the result through a let, so that a value of the work it names is
    // loaded from its lane array: `yield o` of a fold that ignores its
    // accumulator)
    let rv = (lanes.fresh)("res");
    let mut comb = combine.to_vec();
    comb.push(Stmt::Let {
        var: rv.clone(),
        ty: *accty,
        exp: SExp::Atom(res.clone()),
        span: Span::default(),
    });
    crate::rename::rename(&mut comb, &HashMap::from([(accn.clone(), a.clone())]));
    let (comb, map) = lanes.lane_body(&comb, &p, &[]);
    let res2 = Atom::Var(map.get(&rv).cloned().unwrap_or(rv));
    let c = (lanes.fresh)("c");
    let acc_b = (lanes.fresh)(accn);
    let mut then = work2;
    then.push(Stmt::Fold {
        outs: vec![(c.clone(), *accty)],
        acc: vec![(a, *accty)],
        init: vec![Atom::Var(acc_b.clone())],
        i: p,
        n: int(LANES),
        body: Block {
            stmts: comb,
            results: vec![res2],
        },
    });
    let (bm, st, rb, ob) = (
        (lanes.fresh)("bm"),
        (lanes.fresh)("bstart"),
        (lanes.fresh)("r"),
        (lanes.fresh)("o"),
    );
    let batched = Stmt::Fold {
        outs: vec![(ob.clone(), *accty)],
        acc: vec![(acc_b.clone(), *accty)],
        init: init.clone(),
        i: i0.clone(),
        n: Atom::Var(nb),
        body: Block {
            stmts: vec![
                let_i64(&bm, SExp::Bin(BinOp::Rem, Atom::Var(i0), int(LANES))),
                Stmt::Let {
                    var: st.clone(),
                    ty: PrimType::Bool,
                    exp: SExp::Bin(BinOp::Eq, Atom::Var(bm), int(0)),
                    span: Span::default(),
                },
                Stmt::If {
                    outs: vec![(rb.clone(), *accty)],
                    cond: Atom::Var(st),
                    then: Block {
                        stmts: then,
                        results: vec![Atom::Var(c)],
                    },
                    els: Block {
                        stmts: vec![],
                        results: vec![Atom::Var(acc_b)],
                    },
                },
            ],
            results: vec![Atom::Var(rb)],
        },
    };
    let ob2 = (lanes.fresh)("o");
    out.push(Stmt::Alloc {
        outs: vec![(ob2.clone(), *accty)],
        bufs: lanes.bufs.clone(),
        body: Block {
            stmts: vec![batched],
            results: vec![Atom::Var(ob)],
        },
    });
    // the points after the last whole batch, as before
    let (ir, past, r2) = ((lanes.fresh)(i), (lanes.fresh)("past"), (lanes.fresh)("r"));
    let acc_r = (lanes.fresh)(accn);
    let rest = Stmt::If {
        outs: vec![(r2.clone(), *accty)],
        cond: Atom::Var(past.clone()),
        then: body.clone(),
        els: Block {
            stmts: vec![],
            results: vec![Atom::Var(accn.clone())],
        },
    };
    let rest = crate::rename::fresh_copy(
        &[rest],
        &HashMap::from([(i.clone(), ir.clone()), (accn.clone(), acc_r.clone())]),
        &mut *lanes.fresh,
    );
    let r2 = match rest.first() {
        Some(Stmt::If { outs, .. }) => outs.first().map(|o| o.0.clone()).unwrap_or(r2),
        _ => r2,
    };
    out.push(Stmt::Fold {
        outs: outs.clone(),
        acc: vec![(acc_r, *accty)],
        init: vec![Atom::Var(ob2)],
        i: ir.clone(),
        n: n.clone(),
        body: Block {
            stmts: [
                vec![Stmt::Let {
                    var: past,
                    ty: PrimType::Bool,
                    exp: SExp::Bin(BinOp::Ge, Atom::Var(ir), Atom::Var(nfull)),
                    span: Span::default(),
                }],
                rest,
            ]
            .concat(),
            results: vec![Atom::Var(r2)],
        },
    });
    Some(out)
}

/// A map whose element is strict reductions: `for j < n { work(j); r[j]
/// := v }` (what `interchange-fold` leaves as it is: a dot product of two
/// rows, `a · aᵀ`), the elements batched as the points of a sum are, the
/// batch's values stored lane by lane. Only where the work has a `fold`
/// (one dependent chain of operations per element, which the lanes run
/// side by side) and no `reduce` (which the C backend already vectorises
/// along its own loop), the store cannot fail, and the work neither reads
/// nor writes `r`.
fn rewrite_map(
    s: &Stmt,
    sizes: &Sizes,
    whole: &[Stmt],
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let Stmt::For { i, n, body } = s else {
        return None;
    };
    let [work @ .., store @ Stmt::Store { dest: r, idx, .. }] = body.as_slice() else {
        return None;
    };
    if idx.as_slice() != [Atom::Var(i.clone())]
        || crate::rename::binders(body).contains(r)
        || work
            .iter()
            .any(|w| deep_mentions(w, &HashSet::from([r.clone()])))
        || work.is_empty()
        || size(work) > MAX_WORK
        || matches!(n, Atom::Var(v) if v == i)
    {
        return None;
    }
    fn has(stmts: &[Stmt], fold: bool) -> bool {
        stmts.iter().any(|s| {
            (if fold {
                matches!(s, Stmt::Fold { .. })
            } else {
                matches!(s, Stmt::Reduce { .. })
            }) || nested_blocks(s).iter().any(|b| has(b, fold))
        })
    }
    if !has(work, true) || has(work, false) {
        return None;
    }
    let bounds0 = vec![(i.clone(), n.clone())];
    let mut lanes = Lanes::classify(i, work, whole, s, fresh)?;
    if !in_bounds(sizes, &bounds0, &lanes.defs, r, 0, &Atom::Var(i.clone())) {
        return None;
    }
    let mut inner = sizes.clone();
    let mut bounds = bounds0;
    if !lanes.check(work, &mut inner, &mut bounds) {
        return None;
    }
    // the cost model: the lanes read the rows of eight elements, a gather
    // each; one per step of a fold pays (a · aᵀ, syrk: twice as fast), two
    // do not (syr2k: 1.6 times slower than one chain per element)
    if max_gathers(work, &lanes) > 1 {
        return None;
    }
    let mut uses = HashMap::new();
    count_uses(body, &mut uses);
    lanes.uses = uses;
    let i0 = (lanes.fresh)("i0");
    lanes.base = i0.clone();
    let mut then = lanes.expand(work)?;
    let (st_loop, _) = lanes.lane_loop(std::slice::from_ref(store), &[]);
    then.push(st_loop);
    let (mut out, nb, nfull) = batch_bounds(n, &mut *lanes.fresh);
    let (bm, bst) = ((lanes.fresh)("bm"), (lanes.fresh)("bstart"));
    let batched = Stmt::For {
        i: i0.clone(),
        n: Atom::Var(nb),
        body: vec![
            let_i64(&bm, SExp::Bin(BinOp::Rem, Atom::Var(i0), int(LANES))),
            Stmt::Let {
                var: bst.clone(),
                ty: PrimType::Bool,
                exp: SExp::Bin(BinOp::Eq, Atom::Var(bm), int(0)),
                span: Span::default(),
            },
            Stmt::If {
                outs: vec![],
                cond: Atom::Var(bst),
                then: Block {
                    stmts: then,
                    results: vec![],
                },
                els: Block {
                    stmts: vec![],
                    results: vec![],
                },
            },
        ],
    };
    out.push(Stmt::Alloc {
        outs: vec![],
        bufs: lanes.bufs.clone(),
        body: Block {
            stmts: vec![batched],
            results: vec![],
        },
    });
    // the elements after the last whole batch, as before
    let (ir, past) = ((lanes.fresh)(i), (lanes.fresh)("past"));
    let rest = Stmt::If {
        outs: vec![],
        cond: Atom::Var(past.clone()),
        then: Block {
            stmts: body.clone(),
            results: vec![],
        },
        els: Block {
            stmts: vec![],
            results: vec![],
        },
    };
    let rest = crate::rename::fresh_copy(
        &[rest],
        &HashMap::from([(i.clone(), ir.clone())]),
        &mut *lanes.fresh,
    );
    out.push(Stmt::For {
        i: ir.clone(),
        n: n.clone(),
        body: [
            vec![Stmt::Let {
                var: past,
                ty: PrimType::Bool,
                exp: SExp::Bin(BinOp::Ge, Atom::Var(ir), Atom::Var(nfull)),
                span: Span::default(),
            }],
            rest,
        ]
        .concat(),
    });
    Some(out)
}

/// `let nb = max 0 (n - 7); let nfull = n - n % 8`: the bound of the
/// batches' counter (a batch starts at each multiple of [`LANES`] below
/// it, every index of the batch below `n`) and the first point left over;
/// the lets, `nb` and `nfull`. Shared by the sum and the map.
fn batch_bounds(n: &Atom, fresh: &mut dyn FnMut(&str) -> Name) -> (Vec<Stmt>, Name, Name) {
    let (t_nb, nb, nrem, nfull) = (fresh("nbt"), fresh("nb"), fresh("nrem"), fresh("nfull"));
    let lets = vec![
        let_i64(&t_nb, SExp::Bin(BinOp::Sub, n.clone(), int(LANES - 1))),
        let_i64(&nb, SExp::Math(MathFn::Max, vec![int(0), Atom::Var(t_nb)])),
        let_i64(&nrem, SExp::Bin(BinOp::Rem, n.clone(), int(LANES))),
        let_i64(&nfull, SExp::Bin(BinOp::Sub, n.clone(), Atom::Var(nrem))),
    ];
    (lets, nb, nfull)
}

/// The most reads of varying views (rows of the lane's element: a gather
/// across the lanes) in the body of one fold of `stmts`.
fn max_gathers(stmts: &[Stmt], lanes: &Lanes) -> usize {
    let mut most = 0;
    for s in stmts {
        if let Stmt::Fold { body, .. } = s {
            let here = body
                .stmts
                .iter()
                .filter(|x| {
                    matches!(x, Stmt::Let { exp: SExp::Load(a, _), .. }
                    if lanes.varying.contains(a))
                })
                .count();
            most = most.max(here);
        }
        for b in nested_blocks(s) {
            most = most.max(max_gathers(b, lanes));
        }
    }
    most
}

/// The batching of one fold's work.
struct Lanes<'f> {
    /// The fold's counter.
    i: Name,
    /// The first point of the batch.
    base: Name,
    /// Values and views that depend on `i`.
    varying: HashSet<Name>,
    /// The varying views, taken again in each lane loop that uses them.
    views: HashMap<Name, Stmt>,
    /// Varying values kept across lane loops: their lane arrays.
    lane: HashMap<Name, (Name, PrimType)>,
    /// Buffers the work fills: their lane columns.
    expanded: HashMap<Name, Name>,
    /// The lane arrays and columns, allocated around the batched fold.
    bufs: Vec<Buf>,
    /// Uses of each name in the fold's body.
    uses: HashMap<Name, usize>,
    /// The views the work takes.
    all_views: HashMap<Name, View>,
    /// The function's scalar lets.
    defs: HashMap<Name, SExp>,
    fresh: &'f mut dyn FnMut(&str) -> Name,
}

impl<'f> Lanes<'f> {
    fn classify(
        i: &Name,
        work: &[Stmt],
        whole: &[Stmt],
        fold: &Stmt,
        fresh: &'f mut dyn FnMut(&str) -> Name,
    ) -> Option<Lanes<'f>> {
        let mut varying: HashSet<Name> = HashSet::from([i.clone()]);
        let mut written: HashSet<Name> = HashSet::new();
        loop {
            let before = varying.len() + written.len();
            mark(work, &mut varying, &mut written);
            if varying.len() + written.len() == before {
                break;
            }
        }
        let mut lanes = Lanes {
            i: i.clone(),
            base: i.clone(),
            varying,
            views: HashMap::new(),
            lane: HashMap::new(),
            expanded: HashMap::new(),
            bufs: Vec::new(),
            uses: HashMap::new(),
            all_views: HashMap::new(),
            defs: HashMap::new(),
            fresh,
        };
        scalar_lets(whole, &mut lanes.defs);
        collect_views(work, &mut lanes.all_views);
        // each buffer filled: an `alloc` buffer of rank 1 used by this fold
        // only, whose first use fills it
        let mut fold_uses = HashMap::new();
        count_uses(std::slice::from_ref(fold), &mut fold_uses);
        let mut all_uses = HashMap::new();
        count_uses(whole, &mut all_uses);
        // (in the order the buffers are declared: the C's out-of-memory
        // checks, and the output, must not depend on a hash order)
        let mut order = Vec::new();
        buf_names(whole, &mut order);
        let mut written: Vec<Name> = written.into_iter().collect();
        written.sort_by_key(|b| (order.iter().position(|x| x == b), b.clone()));
        for b in &written {
            let buf = find_buf(whole, b)?;
            let [len] = buf.dims.as_slice() else {
                return None;
            };
            if buf.grown || all_uses.get(b) != fold_uses.get(b) || !filled_first(work, b, len) {
                return None;
            }
            let bx = (lanes.fresh)(b);
            lanes.bufs.push(Buf {
                var: bx.clone(),
                elem: buf.elem,
                dims: vec![len.clone(), int(LANES)],
                span: buf.span,
                when: vec![],
                grown: false,
            });
            lanes.expanded.insert(b.clone(), bx);
        }
        Some(lanes)
    }

    fn is_varying(&self, s: &Stmt) -> bool {
        let mut names = self.varying.clone();
        names.extend(self.expanded.keys().cloned());
        deep_mentions(s, &names)
    }

    /// No varying statement can fail; loops over uniform bounds; no varying
    /// branch or other statement.
    fn check(&self, stmts: &[Stmt], sizes: &mut Sizes, bounds: &mut Vec<(Name, Atom)>) -> bool {
        for s in stmts {
            let varying = self.is_varying(s);
            let uniform_bound = |n: &Atom| !matches!(n, Atom::Var(v) if self.varying.contains(v));
            let ok = match s {
                _ if !varying => true,
                Stmt::For { i, n, body } => {
                    uniform_bound(n) && {
                        bounds.push((i.clone(), n.clone()));
                        let ok = self.check(body, &mut sizes.clone(), bounds);
                        bounds.pop();
                        ok
                    }
                }
                Stmt::Fold { i, n, body, .. } => {
                    uniform_bound(n) && {
                        bounds.push((i.clone(), n.clone()));
                        let ok = self.check(&body.stmts, &mut sizes.clone(), bounds);
                        bounds.pop();
                        ok
                    }
                }
                Stmt::Reduce { i, n, elem, op, .. } => {
                    uniform_bound(n)
                        && op
                            .body
                            .stmts
                            .iter()
                            .all(|x| matches!(x, Stmt::Let { .. }) && !stmt_can_fail(x))
                        && {
                            bounds.push((i.clone(), n.clone()));
                            let ok = self.check(&elem.stmts, &mut sizes.clone(), bounds);
                            bounds.pop();
                            ok
                        }
                }
                Stmt::Store { dest, idx, .. } => {
                    self.expanded.contains_key(dest)
                        && idx
                            .iter()
                            .enumerate()
                            .all(|(k, x)| in_bounds(sizes, bounds, &self.defs, dest, k, x))
                }
                Stmt::View { view, .. } => {
                    !self.expanded.contains_key(view.source()) && {
                        let bs: Vec<(&Name, &Atom)> = bounds.iter().map(|(a, b)| (a, b)).collect();
                        !can_fail(s, sizes, &bs)
                            || matches!(view, View::Row(a, x)
                                if in_bounds(sizes, bounds, &self.defs, a, 0, x))
                    }
                }
                Stmt::Let {
                    exp: SExp::Load(a, idx),
                    ..
                } => {
                    let bs: Vec<(&Name, &Atom)> = bounds.iter().map(|(a, b)| (a, b)).collect();
                    idx.iter()
                        .enumerate()
                        .all(|(k, x)| in_bounds(sizes, bounds, &self.defs, a, k, x))
                        || !can_fail(s, sizes, &bs)
                        // (a check that fails in every lane or in none: at
                        // lane 0 first, where the point-by-point order has it)
                        || (idx.iter().all(|x| !matches!(x, Atom::Var(v) if self.varying.contains(v)))
                            && self.uniform_dims(a))
                }
                Stmt::Let { .. } => !stmt_can_fail(s),
                _ => false,
            };
            if !ok {
                return false;
            }
            sizes.learn(s);
        }
        true
    }

    /// Are the dims of array `a` the same in every lane: an array that does
    /// not depend on the point, a filled buffer (its lane column has its
    /// dims), or a row of one?
    fn uniform_dims(&self, a: &Name) -> bool {
        let mut a = a.clone();
        for _ in 0..16 {
            if !self.varying.contains(&a) || self.expanded.contains_key(&a) {
                return true;
            }
            match self.all_views.get(&a) {
                Some(View::Row(src, _)) => a = src.clone(),
                _ => return false,
            }
        }
        false
    }

    /// The batched statements of `stmts`.
    fn expand(&mut self, stmts: &[Stmt]) -> Option<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut group: Vec<Stmt> = Vec::new();
        for s in stmts {
            if !self.is_varying(s) {
                // uniform: once per batch (it reads nothing the group defines)
                out.push(s.clone());
                continue;
            }
            match s {
                Stmt::View { var, .. } => {
                    self.views.insert(var.clone(), s.clone());
                }
                Stmt::Let { .. } | Stmt::Store { .. } => group.push(s.clone()),
                Stmt::For { i, n, body } => {
                    self.flush(&mut group, &mut out);
                    let body = self.expand(body)?;
                    out.push(Stmt::For {
                        i: i.clone(),
                        n: n.clone(),
                        body,
                    });
                }
                Stmt::Fold {
                    outs,
                    acc,
                    init,
                    i,
                    n,
                    body,
                } => {
                    self.flush(&mut group, &mut out);
                    let mut post = Vec::new();
                    let mut las = Vec::new();
                    for ((a, ty), x) in acc.iter().zip(init) {
                        let la = self.lane_array(a, *ty);
                        post.push((la.clone(), x.clone()));
                        las.push(la);
                    }
                    let (init_loop, _) = self.lane_loop(&[], &post);
                    out.push(init_loop);
                    // a result defined by a let of the body, after which the
                    // body reads no accumulator, is stored straight into the
                    // accumulator's lane array (each lane reads its
                    // accumulator before, in the same loop over the lanes)
                    let accs: HashSet<Name> = acc.iter().map(|a| a.0.clone()).collect();
                    let mut copies = Vec::new();
                    for (la, r) in las.iter().zip(&body.results) {
                        let direct = match r {
                            Atom::Var(y) if !accs.contains(y) && !self.lane.contains_key(y) => body
                                .stmts
                                .iter()
                                .position(|st| matches!(st, Stmt::Let { var, .. } if var == y))
                                .filter(|k| {
                                    !body.stmts[k + 1..]
                                        .iter()
                                        .any(|st| deep_mentions(st, &accs))
                                })
                                .and_then(|k| match &body.stmts[k] {
                                    Stmt::Let { ty, .. } => Some(*ty),
                                    _ => None,
                                }),
                            _ => None,
                        };
                        match (direct, r) {
                            (Some(ty), Atom::Var(y)) => {
                                self.lane.insert(y.clone(), (la.clone(), ty));
                            }
                            _ => copies.push((la.clone(), r.clone())),
                        }
                    }
                    let mut b = self.expand(&body.stmts)?;
                    if !copies.is_empty() {
                        let (copy, _) = self.lane_loop(&[], &copies);
                        b.push(copy);
                    }
                    out.push(Stmt::For {
                        i: i.clone(),
                        n: n.clone(),
                        body: b,
                    });
                    for ((o, ty), la) in outs.iter().zip(&las) {
                        self.lane.insert(o.clone(), (la.clone(), *ty));
                    }
                }
                Stmt::Reduce {
                    outs,
                    ne,
                    i,
                    n,
                    elem,
                    op,
                } => {
                    self.flush(&mut group, &mut out);
                    let mut post = Vec::new();
                    let mut las = Vec::new();
                    for ((o, ty), x) in outs.iter().zip(ne) {
                        let la = self.lane_array(o, *ty);
                        post.push((la.clone(), x.clone()));
                        las.push((la, *ty));
                    }
                    let (init_loop, _) = self.lane_loop(&[], &post);
                    out.push(init_loop);
                    let mut b = self.expand(&elem.stmts)?;
                    // acc = op acc elem, lane by lane
                    for (a, (la, ty)) in op.a.iter().zip(&las) {
                        self.lane.insert(a.clone(), (la.clone(), *ty));
                    }
                    let mut step: Vec<Stmt> =
                        op.b.iter()
                            .zip(&elem.results)
                            .zip(&las)
                            .map(|((bn, e), (_, ty))| Stmt::Let {
                                var: bn.clone(),
                                ty: *ty,
                                exp: SExp::Atom(e.clone()),
                                span: Span::default(),
                            })
                            .collect();
                    step.extend(op.body.stmts.iter().cloned());
                    let post: Vec<(Name, Atom)> = las
                        .iter()
                        .map(|(la, _)| la.clone())
                        .zip(op.body.results.iter().cloned())
                        .collect();
                    let (l, _) = self.lane_loop(&step, &post);
                    b.push(l);
                    out.push(Stmt::For {
                        i: i.clone(),
                        n: n.clone(),
                        body: b,
                    });
                    for ((o, ty), (la, _)) in outs.iter().zip(&las) {
                        self.lane.insert(o.clone(), (la.clone(), *ty));
                    }
                }
                _ => return None,
            }
        }
        self.flush(&mut group, &mut out);
        Some(out)
    }

    /// A lane array for the varying value `v`.
    fn lane_array(&mut self, v: &Name, ty: PrimType) -> Name {
        if let Some((la, _)) = self.lane.get(v) {
            return la.clone();
        }
        let la = (self.fresh)(&format!("{v}_ln"));
        self.bufs.push(Buf {
            var: la.clone(),
            elem: ty,
            dims: vec![int(LANES)],
            span: Span::default(),
            when: vec![],
            grown: false,
        });
        self.lane.insert(v.clone(), (la.clone(), ty));
        la
    }

    /// The group of straight-line varying statements as one loop over the
    /// lanes.
    fn flush(&mut self, group: &mut Vec<Stmt>, out: &mut Vec<Stmt>) {
        if group.is_empty() {
            return;
        }
        let g = std::mem::take(group);
        let (l, _) = self.lane_loop(&g, &[]);
        out.push(l);
    }

    /// `for p < LANES { … }` running `stmts` for lane `p`, then storing
    /// each `(lane array, value)` of `post`; values defined by `stmts` and
    /// used elsewhere are stored in lane arrays too.
    fn lane_loop(&mut self, stmts: &[Stmt], post: &[(Name, Atom)]) -> (Stmt, HashMap<Name, Name>) {
        let p = (self.fresh)("p");
        let (mut body, map) = self.lane_body(stmts, &p, post);
        // values needed after the loop
        let mut inside = HashMap::new();
        count_uses(stmts, &mut inside);
        for st in stmts {
            if let Stmt::Let { var, ty, .. } = st {
                let total = self.uses.get(var).copied().unwrap_or(0);
                let here = inside.get(var).copied().unwrap_or(0);
                if total > here {
                    let la = self.lane_array(var, *ty);
                    let v = map.get(var).cloned().unwrap_or_else(|| var.clone());
                    body.push(Stmt::Store {
                        dest: la,
                        idx: vec![Atom::Var(p.clone())],
                        val: Atom::Var(v),
                        span: Span::default(),
                    });
                }
            }
        }
        (
            Stmt::For {
                i: p,
                n: int(LANES),
                body,
            },
            map,
        )
    }

    /// The statements of one lane `p`: the varying values `stmts` use
    /// loaded from their lane arrays, the varying views taken for the
    /// lane's point, `stmts` with fresh names (the filled buffers' columns
    /// in place of the buffers), then the stores of `post`.
    fn lane_body(
        &mut self,
        stmts: &[Stmt],
        p: &Name,
        post: &[(Name, Atom)],
    ) -> (Vec<Stmt>, HashMap<Name, Name>) {
        let mut map: HashMap<Name, Name> = HashMap::new();
        let mut pre = Vec::new();
        let defined: HashSet<Name> = crate::rename::binders(stmts).into_iter().collect();
        let mut used: Vec<Name> = Vec::new();
        for s in stmts {
            used.extend(stmt_uses(s).into_iter().cloned());
        }
        used.extend(post.iter().filter_map(|(_, a)| match a {
            Atom::Var(v) => Some(v.clone()),
            _ => None,
        }));
        for u in used {
            if !defined.contains(&u) {
                self.need(&u, p, &mut map, &mut pre);
            }
        }
        for d in &defined {
            let f = (self.fresh)(d);
            map.insert(d.clone(), f);
        }
        let mut body = stmts.to_vec();
        crate::rename::rename(&mut body, &map);
        for st in &mut body {
            match st {
                Stmt::Let {
                    exp: SExp::Load(a, idx),
                    ..
                } if self.expanded.contains_key(a) => {
                    *a = self.expanded[a].clone();
                    idx.push(Atom::Var(p.clone()));
                }
                Stmt::Store { dest, idx, .. } if self.expanded.contains_key(dest) => {
                    *dest = self.expanded[dest].clone();
                    idx.push(Atom::Var(p.clone()));
                }
                _ => {}
            }
        }
        pre.extend(body);
        for (la, a) in post {
            let val = match a {
                Atom::Var(v) => Atom::Var(map.get(v).cloned().unwrap_or_else(|| v.clone())),
                c => c.clone(),
            };
            pre.push(Stmt::Store {
                dest: la.clone(),
                idx: vec![Atom::Var(p.clone())],
                val,
                span: Span::default(),
            });
        }
        (pre, map)
    }

    /// Make the varying name `u` available in lane `p`'s loop.
    fn need(&mut self, u: &Name, p: &Name, map: &mut HashMap<Name, Name>, pre: &mut Vec<Stmt>) {
        if map.contains_key(u) {
            return;
        }
        if *u == self.i {
            let ip = (self.fresh)(u);
            pre.push(let_i64(
                &ip,
                SExp::Bin(
                    BinOp::Add,
                    Atom::Var(self.base.clone()),
                    Atom::Var(p.clone()),
                ),
            ));
            map.insert(u.clone(), ip);
        } else if let Some((la, ty)) = self.lane.get(u).cloned() {
            let x = (self.fresh)(u);
            pre.push(Stmt::Let {
                var: x.clone(),
                ty,
                exp: SExp::Load(la, vec![Atom::Var(p.clone())]),
                span: Span::default(),
            });
            map.insert(u.clone(), x);
        } else if let Some(v) = self.views.get(u).cloned() {
            for w in stmt_uses(&v) {
                let w = w.clone();
                self.need(&w, p, map, pre);
            }
            let x = (self.fresh)(u);
            let mut v = vec![v];
            let mut m = map.clone();
            m.insert(u.clone(), x.clone());
            crate::rename::rename(&mut v, &m);
            pre.extend(v);
            map.insert(u.clone(), x);
        }
    }
}

/// Mark the values that depend on the varying ones, and the buffers
/// written with them.
fn mark(stmts: &[Stmt], varying: &mut HashSet<Name>, written: &mut HashSet<Name>) {
    for s in stmts {
        let mut names = varying.clone();
        names.extend(written.iter().cloned());
        let direct = stmt_uses(s).iter().any(|u| names.contains(*u));
        let deep = deep_mentions(s, &names);
        match s {
            Stmt::Let { var, .. } | Stmt::View { var, .. } if direct => {
                varying.insert(var.clone());
            }
            Stmt::Store { dest, .. } if direct => {
                written.insert(dest.clone());
            }
            Stmt::Fold { outs, acc, .. } if deep => {
                varying.extend(outs.iter().map(|o| o.0.clone()));
                varying.extend(acc.iter().map(|o| o.0.clone()));
            }
            Stmt::Reduce { outs, op, .. } if deep => {
                varying.extend(outs.iter().map(|o| o.0.clone()));
                varying.extend(op.a.iter().cloned());
                varying.extend(op.b.iter().cloned());
            }
            Stmt::If { outs, .. } | Stmt::Alloc { outs, .. } if deep => {
                varying.extend(outs.iter().map(|o| o.0.clone()));
            }
            _ => {}
        }
        for b in nested_blocks(s) {
            mark(b, varying, written);
        }
    }
}

fn scalar_lets(stmts: &[Stmt], out: &mut HashMap<Name, SExp>) {
    for s in stmts {
        if let Stmt::Let { var, exp, .. } = s {
            out.insert(var.clone(), exp.clone());
        }
        for b in nested_blocks(s) {
            scalar_lets(b, out);
        }
    }
}

fn collect_views(stmts: &[Stmt], out: &mut HashMap<Name, View>) {
    for s in stmts {
        if let Stmt::View { var, view, .. } = s {
            out.insert(var.clone(), view.clone());
        }
        for b in nested_blocks(s) {
            collect_views(b, out);
        }
    }
}

/// The `alloc` buffer `b` in `stmts`.
/// The buffers of every `alloc` in `stmts`, nested ones included, in order.
fn buf_names(stmts: &[Stmt], out: &mut Vec<Name>) {
    for s in stmts {
        if let Stmt::Alloc { bufs, .. } = s {
            out.extend(bufs.iter().map(|x| x.var.clone()));
        }
        for blk in nested_blocks(s) {
            buf_names(blk, out);
        }
    }
}

fn find_buf<'a>(stmts: &'a [Stmt], b: &Name) -> Option<&'a Buf> {
    for s in stmts {
        if let Stmt::Alloc { bufs, .. } = s
            && let Some(x) = bufs.iter().find(|x| x.var == *b)
        {
            return Some(x);
        }
        for blk in nested_blocks(s) {
            if let Some(x) = find_buf(blk, b) {
                return Some(x);
            }
        }
    }
    None
}

/// Is the first statement of `stmts` (in order, nested ones included) that
/// names `b` a loop over `b`'s whole length `len` that stores `b[j]` and
/// reads no `b`?
fn filled_first(stmts: &[Stmt], b: &Name, len: &Atom) -> bool {
    let one = HashSet::from([b.clone()]);
    for s in stmts {
        if !deep_mentions(s, &one) {
            continue;
        }
        if let Stmt::For { i, n, body } = s
            && n == len
        {
            let jv = [Atom::Var(i.clone())];
            let stores = body.iter().any(
                |x| matches!(x, Stmt::Store { dest, idx, .. } if dest == b && idx.as_slice() == jv),
            );
            let reads = body.iter().any(|x| match x {
                Stmt::Store { dest, .. } if dest == b => false,
                _ => deep_mentions(x, &one),
            });
            return stores && !reads;
        }
        // the first use is inside a loop or branch: look there
        return match s {
            Stmt::For { body, .. } => filled_first(body, b, len),
            Stmt::Fold { body, .. } => filled_first(&body.stmts, b, len),
            _ => false,
        };
    }
    false
}

/// Is `x` a counter in `bounds` whose bound (or the bound of a counter it
/// is below) is known equal to dim `k` of `a`, or at most it: a bound `min
/// y z` is at most each operand, `max 0 y` at most `y` where the loop runs
/// (`defs`: the function's scalar lets)?
fn in_bounds(
    sizes: &Sizes,
    bounds: &[(Name, Atom)],
    defs: &HashMap<Name, SExp>,
    a: &Name,
    k: usize,
    x: &Atom,
) -> bool {
    let Atom::Var(c) = x else {
        return false;
    };
    let Some((_, n)) = bounds.iter().rev().find(|(b, _)| b == c) else {
        return false;
    };
    below(sizes, bounds, defs, a, k, n, 8)
}

/// Is every counter below `n` below dim `k` of `a` ([`in_bounds`])?
fn below(
    sizes: &Sizes,
    bounds: &[(Name, Atom)],
    defs: &HashMap<Name, SExp>,
    a: &Name,
    k: usize,
    n: &Atom,
    fuel: usize,
) -> bool {
    if fuel == 0 {
        return false;
    }
    if atom_key(n).is_some_and(|nk| sizes.same(&nk, &dim_key(a, k))) {
        return true;
    }
    let Atom::Var(v) = n else {
        return false;
    };
    // a counter: what bounds it
    if let Some((_, m)) = bounds.iter().rev().find(|(b, _)| b == v) {
        return below(sizes, bounds, defs, a, k, m, fuel - 1);
    }
    match defs.get(v) {
        Some(SExp::Math(MathFn::Min, xs)) => xs
            .iter()
            .any(|y| below(sizes, bounds, defs, a, k, y, fuel - 1)),
        Some(SExp::Math(MathFn::Max, xs)) => match xs.as_slice() {
            [Atom::Const(Const::I64(0)), y] | [y, Atom::Const(Const::I64(0))] => {
                below(sizes, bounds, defs, a, k, y, fuel - 1)
            }
            _ => false,
        },
        Some(SExp::Atom(y)) => below(sizes, bounds, defs, a, k, y, fuel - 1),
        _ => false,
    }
}
