//! Short-circuiting (funmem-lmad §4; dps-views ch. 5, destination views):
//! an array computed into a buffer of its own and then copied, whole, into
//! part of another array is computed straight into that part instead. The
//! buffer and the copy disappear: `concat`, `pad` and the parts of a literal
//! write their operands in place, and a chain of them (`a ++ b ++ c`, a `pad`
//! of a `pad`) writes every piece into the final storage.
//!
//! Two rules of [`crate::simplify::RULES`]:
//!
//! | rule | effect |
//! | --- | --- |
//! | `hoist-size-lets` | a scalar computed at the top of an `alloc` body from names outside it, by arithmetic that cannot fail, moves in front of the scope (so a scope nested further in, sized by it, can merge with this one) |
//! | `short-circuit` | `alloc b { …b written…; view v = D[lo:hi]; copy v := b }` (or a row at a constant index, `view v = D[c]`: the rows of a nested array literal, placed as `D[c:c+1]` reshaped to the row's dims), with `D`, `lo`, `hi` known where `b` is first written (or computed later by size arithmetic on what is: those `let`s move there too), `b`'s dims provably `v`'s, nothing reading `D` before the copy, and `b` dead after it: `b` becomes `placed D[lo:hi] in root` there, and the buffer goes. `D` may be a loop's new state of fixed dims (`next`, which the body writes whole), or that of a state updated in place where nothing reads or writes the state from `b`'s first write to the copy (`loop b .. do b with [s:e] = map f c`), never the state being read nor storage that grows. Applied to a fixed point, and before `hoist-allocation` (which waits until nothing else applies), so that the pieces computed in a loop body are placed before their buffers would leave the loop |
//!
//! A placed view ([`View::Placed`]) is the part where it exists and is in
//! bounds, else storage of its own allocated there, at the buffer's
//! construct: where the storage is missing (an entry result too large for
//! memory, a buffer whose lazy allocation is too large) or the part out of
//! bounds (sizes computed for a construct whose evaluation fails first), the
//! program runs exactly as before. The copy stays, and copies nothing when
//! the piece is in place (source and destination are the same memory); the
//! view it writes through and the copy keep the part's bounds check and the
//! storage's out-of-memory check where they were, so errors keep the
//! interpreter's order.

use crate::ir::*;
use crate::simplify::{Fresh, everywhere, top_binds};
use std::collections::{HashMap, HashSet};
use weir_shape::Dim;

/// `hoist-size-lets`.
pub(crate) fn hoist_size_lets(stmts: &mut Vec<Stmt>, _: &mut Fresh) -> bool {
    everywhere(stmts, &mut |ss| {
        let mut changed = false;
        let mut j = 0;
        while j < ss.len() {
            let mut moved = Vec::new();
            if let Stmt::Alloc { bufs, body, .. } = &mut ss[j] {
                let inner: HashSet<Name> = bufs.iter().map(|b| b.var.clone()).collect();
                // what the statements kept so far bind (one pass, not the
                // prefix again at each statement: a scope of n statements
                // is O(n), not O(n^2))
                let mut bound: HashSet<Name> = HashSet::new();
                let mut kept = Vec::with_capacity(body.stmts.len());
                for st in std::mem::take(&mut body.stmts) {
                    let ok = match &st {
                        Stmt::Let { exp, .. } => {
                            pure_size(exp)
                                && sexp_names(exp)
                                    .iter()
                                    .all(|v| !bound.contains(*v) && !inner.contains(*v))
                        }
                        _ => false,
                    };
                    if ok {
                        moved.push(st);
                    } else {
                        bound.extend(stmt_binds(&st).into_iter().cloned());
                        kept.push(st);
                    }
                }
                body.stmts = kept;
            }
            if moved.is_empty() {
                j += 1;
            } else {
                let n = moved.len();
                let tail = ss.split_off(j);
                ss.extend(moved);
                ss.extend(tail);
                j += n + 1;
                changed = true;
            }
        }
        changed
    })
}

/// Arithmetic that cannot fail and reads no element.
fn pure_size(e: &SExp) -> bool {
    let s = Stmt::Let {
        var: String::new(),
        ty: PrimType::I64,
        exp: e.clone(),
        span: Span::default(),
    };
    !matches!(e, SExp::Load(..) | SExp::LoadOr0(..)) && !stmt_can_fail(&s)
}

fn sexp_names(e: &SExp) -> Vec<&Name> {
    let s = Stmt::Let {
        var: String::new(),
        ty: PrimType::I64,
        exp: e.clone(),
        span: Span::default(),
    };
    // (the names a `let` reads: `stmt_uses`, owned by the statement built
    // here, so collected by name)
    let names: HashSet<Name> = stmt_uses(&s).into_iter().cloned().collect();
    let mut out = Vec::new();
    collect_names(e, &names, &mut out);
    out
}

fn collect_names<'a>(e: &'a SExp, names: &HashSet<Name>, out: &mut Vec<&'a Name>) {
    let mut atom = |a: &'a Atom| {
        if let Atom::Var(v) = a
            && names.contains(v)
        {
            out.push(v);
        }
    };
    match e {
        SExp::Atom(x) | SExp::Un(_, x) | SExp::Convert(_, x) => atom(x),
        SExp::Bin(_, x, y) | SExp::DivOr0(x, y) | SExp::RemOr0(x, y) => {
            atom(x);
            atom(y);
        }
        SExp::Math(_, xs) => xs.iter().for_each(atom),
        SExp::Load(a, idx) | SExp::LoadOr0(a, idx) => {
            out.push(a);
            for i in idx {
                if let Atom::Var(v) = i {
                    out.push(v);
                }
            }
        }
        SExp::Dim(a, _) => out.push(a),
    }
}

/// What the function's statements say about sizes: the `let`s of `i64`
/// arithmetic and the dims of buffers and views, so that two sizes can be
/// compared as linear forms ([`weir_shape::same_dim`]).
struct Sizes {
    lets: HashMap<Name, SExp>,
    arrays: HashMap<Name, ArrDef>,
    /// The function's destinations' shapes, in terms of its parameters.
    dests: HashMap<Name, Vec<Dim>>,
    view_ranks: HashMap<Name, usize>,
    /// The storage every view is of (through views), computed once: a
    /// chain of views (an array updated element by element, each copy
    /// placed in the next) is not walked again at each question.
    roots: HashMap<Name, Name>,
}

#[derive(Clone)]
enum ArrDef {
    Buf(Vec<Atom>),
    View(View),
}

impl Sizes {
    fn of(stmts: &[Stmt]) -> Sizes {
        let mut s = Sizes {
            lets: HashMap::new(),
            arrays: HashMap::new(),
            dests: HashMap::new(),
            view_ranks: HashMap::new(),
            roots: HashMap::new(),
        };
        s.collect(stmts);
        s.find_roots();
        s
    }

    /// Fill `roots`: each view's chain is walked once, every name on it
    /// given the root at its end.
    fn find_roots(&mut self) {
        let mut roots: HashMap<Name, Name> = HashMap::new();
        for start in self.arrays.keys() {
            if roots.contains_key(start) {
                continue;
            }
            let mut path: Vec<&Name> = Vec::new();
            let mut seen: HashSet<&Name> = HashSet::new();
            let mut a = start;
            let root = loop {
                if let Some(r) = roots.get(a) {
                    break r.clone();
                }
                match self.arrays.get(a) {
                    Some(ArrDef::View(v)) if seen.insert(a) => {
                        path.push(a);
                        a = v.source();
                    }
                    _ => break a.clone(),
                }
            };
            for n in path {
                roots.insert(n.clone(), root.clone());
            }
        }
        self.roots = roots;
    }

    fn collect(&mut self, stmts: &[Stmt]) {
        for st in stmts {
            match st {
                Stmt::Let {
                    var,
                    ty: PrimType::I64,
                    exp,
                    ..
                } => {
                    self.lets.insert(var.clone(), exp.clone());
                }
                Stmt::View {
                    var, view, rank, ..
                } => {
                    self.arrays.insert(var.clone(), ArrDef::View(view.clone()));
                    self.view_ranks.insert(var.clone(), *rank);
                }
                Stmt::Alloc { bufs, .. } => {
                    for b in bufs {
                        if !b.grown {
                            self.arrays
                                .insert(b.var.clone(), ArrDef::Buf(b.dims.clone()));
                        }
                    }
                }
                // (the new state of fixed dims: storage of the state's dims)
                Stmt::Loop { arrays, .. } => {
                    for a in arrays.iter().filter(|a| a.grow.is_none()) {
                        self.arrays
                            .insert(a.next.clone(), ArrDef::Buf(a.dims.clone()));
                    }
                }
                _ => {}
            }
            for b in nested_blocks(st) {
                self.collect(b);
            }
        }
    }

    fn atom(&self, a: &Atom, fuel: usize) -> Dim {
        match a {
            Atom::Const(c) => match c {
                Const::I64(k) => Dim::Const(*k),
                _ => Dim::Var(format!("{c:?}")),
            },
            Atom::Var(v) => self.var(v, fuel),
        }
    }

    fn var(&self, v: &Name, fuel: usize) -> Dim {
        let Some(fuel) = fuel.checked_sub(1) else {
            return Dim::Var(v.clone());
        };
        let b = |x: Dim| Box::new(x);
        match self.lets.get(v) {
            Some(SExp::Atom(a)) => self.atom(a, fuel),
            Some(SExp::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), x, y)) => {
                let (x, y) = (self.atom(x, fuel), self.atom(y, fuel));
                match op {
                    BinOp::Add => Dim::Add(b(x), b(y)),
                    BinOp::Sub => Dim::Sub(b(x), b(y)),
                    _ => Dim::Mul(b(x), b(y)),
                }
            }
            Some(SExp::Dim(arr, k)) => self.dim(arr, *k, fuel),
            _ => Dim::Var(v.clone()),
        }
    }

    /// The rank of array `a` (a buffer, a view, a loop's new state, a
    /// destination).
    fn rank(&self, a: &Name) -> Option<usize> {
        match self.arrays.get(a) {
            Some(ArrDef::Buf(dims)) => Some(dims.len()),
            Some(ArrDef::View(_)) => self.view_ranks.get(a).copied(),
            None => self.dests.get(a).map(|ds| ds.len()),
        }
    }

    /// Dim `k` of array `a`.
    fn dim(&self, a: &Name, k: usize, fuel: usize) -> Dim {
        let Some(fuel) = fuel.checked_sub(1) else {
            return Dim::DimOf(a.clone(), k);
        };
        match self.arrays.get(a) {
            Some(ArrDef::Buf(dims)) => match dims.get(k) {
                Some(d) => self.atom(d, fuel),
                None => Dim::DimOf(a.clone(), k),
            },
            Some(ArrDef::View(v)) => match v {
                View::Alias(x) => self.dim(x, k, fuel),
                View::Row(x, _) => self.dim(x, k + 1, fuel),
                View::Slice(_, lo, hi) | View::Placed { lo, hi, .. } if k == 0 => {
                    Dim::Sub(Box::new(self.atom(hi, fuel)), Box::new(self.atom(lo, fuel)))
                }
                View::Slice(x, ..) | View::Placed { part: x, .. } => self.dim(x, k, fuel),
                View::Reshape(_, ds) => match ds.get(k) {
                    Some(d) => self.atom(d, fuel),
                    None => Dim::DimOf(a.clone(), k),
                },
                View::Transpose(x) => self.dim(
                    x,
                    match k {
                        0 => 1,
                        1 => 0,
                        k => k,
                    },
                    fuel,
                ),
                View::Reverse(x) => self.dim(x, k, fuel),
                View::Stride(..) if k == 0 => Dim::DimOf(a.clone(), 0),
                View::Stride(_, x) => self.dim(x, k, fuel),
                View::Replicate(n, _) if k == 0 => self.atom(n, fuel),
                View::Replicate(_, x) => self.dim(x, k - 1, fuel),
            },
            None => match self.dests.get(a).and_then(|ds| ds.get(k)) {
                Some(d) => d.clone(),
                None => Dim::DimOf(a.clone(), k),
            },
        }
    }

    /// The array `a` is a view of, through views, to the storage.
    fn root<'a>(&'a self, a: &'a Name) -> &'a Name {
        self.roots.get(a).unwrap_or(a)
    }
}

const FUEL: usize = 64;

/// `short-circuit`.
pub(crate) fn short_circuit(stmts: &mut Vec<Stmt>, fresh: &mut Fresh) -> bool {
    // (to a fixed point before any other rule runs again: `hoist-allocation`
    // would take the pieces in a loop body out of it, where they can no
    // longer be placed)
    let mut changed = false;
    let size = count_stmts(stmts).max(1);
    for _ in 0..10_000 {
        if fresh.short_circuit_work > crate::simplify::SHORT_CIRCUIT_WORK {
            break;
        }
        fresh.short_circuit_work += size;
        if !short_circuit_once(stmts, fresh) {
            break;
        }
        changed = true;
    }
    changed
}

/// Statements in `stmts`, nested ones included.
fn count_stmts(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|s| {
            1 + nested_blocks(s)
                .iter()
                .map(|b| count_stmts(b))
                .sum::<usize>()
        })
        .sum()
}

fn short_circuit_once(stmts: &mut Vec<Stmt>, fresh: &mut Fresh) -> bool {
    // (once the scopes are merged: what a scope's body used before a piece
    // is then in the body)
    let mut probe = stmts.clone();
    if hoist_size_lets(&mut probe, fresh) || crate::simplify::merge_allocations(&mut probe, fresh) {
        return false;
    }
    let strided = strided_views(stmts);
    // (a destination's dims are its shape template: a piece's dims are
    // proved equal to a part of it)
    let mut sizes = Sizes::of(stmts);
    sizes.dests = fresh.dest_dims.clone();
    let grown: HashSet<Name> = grown_outs(stmts).into_iter().collect();
    let mut loop_arrays = HashSet::new();
    let mut in_place = HashMap::new();
    loop_storage(stmts, &mut loop_arrays, &mut in_place);
    // (one change per application: what `sizes` knows is then stale)
    let mut done = false;
    everywhere(stmts, &mut |ss| {
        if done {
            return false;
        }
        for scope in ss.iter_mut() {
            let Stmt::Alloc { bufs, body, .. } = &*scope else {
                continue;
            };
            let found = bufs.iter().enumerate().find_map(|(bi, b)| {
                plan_for(b, body, &strided, &sizes, &grown, &loop_arrays, &in_place)
                    .filter(|p| {
                        !matches!(&body.stmts[p.copy], Stmt::Copy { span, .. } if fresh.eager.contains(span))
                            && !p.via.is_some_and(|s| fresh.eager.contains(&s))
                    })
                    .map(|p| (bi, p))
            });
            if let Some((bi, plan)) = found {
                apply(scope, bi, plan, fresh);
                done = true;
                return true;
            }
        }
        false
    })
}

/// The arrays loops keep state in, or grow: never short-circuited into,
/// but for the destination `next` of a state of fixed dims, which the body
/// writes whole (a piece of the new state is computed straight into it),
/// and the `next` of a state updated in place (`loop b for .. do b with
/// [s:e] = map ..`: the piece is computed straight into the state where
/// nothing reads the state's storage before the copy; `in_place` maps it
/// to the state and its initial storage, the same memory).
fn loop_storage(stmts: &[Stmt], out: &mut HashSet<Name>, in_place: &mut HashMap<Name, [Name; 2]>) {
    for s in stmts {
        if let Stmt::Loop { arrays, .. } = s {
            for st in arrays {
                out.insert(st.var.clone());
                if st.in_place && st.grow.is_none() {
                    in_place.insert(st.next.clone(), [st.var.clone(), st.out.clone()]);
                } else if st.grow.is_some() || st.in_place {
                    out.insert(st.next.clone());
                }
                // (`out` holds the initial state, copied in before the
                // loop: a piece of it may be placed there; a growing
                // state's is grown storage)
                if st.grow.is_some() {
                    out.insert(st.out.clone());
                }
                out.extend(st.grow.iter().cloned());
            }
        }
        if let Stmt::Grow { dest, .. } = s {
            out.insert(dest.clone());
        }
        for b in nested_blocks(s) {
            loop_storage(b, out, in_place);
        }
    }
}

struct Plan {
    /// Index of the copy in the scope's body (it stays: a copy of an array
    /// onto itself, skipped at run time, where the piece is in place).
    copy: usize,
    /// Index of the first statement that mentions the buffer: where the
    /// view it becomes is made.
    first: usize,
    /// The view the buffer becomes.
    view: View,
    /// The copy is of a reshape of the buffer (a `flatten` or `unflatten`
    /// of it, written in place): the placed view, of the part's rank, is
    /// reshaped back to the buffer's dims. Where the part is all of `d`
    /// (`Some(d)` with `hi` missing), its length `dim d 0` is computed there.
    reshape: Option<(Option<Name>, usize)>,
    /// The span of the reshape copied from (a `flatten`, `unflatten`
    /// computed eagerly under `--views=none` is never short-circuited).
    via: Option<Span>,
    /// Statements to move in front of it: the view of the storage written
    /// into, when it is made in the scope after `first`.
    moves: Vec<usize>,
    /// The part is all of this array (no reshape): its length `dim d 0`
    /// is computed where the view is made.
    whole: Option<Name>,
}

#[allow(clippy::too_many_arguments)]
fn plan_for(
    b: &Buf,
    body: &Block,
    strided: &HashSet<Name>,
    sizes: &Sizes,
    grown: &HashSet<Name>,
    loop_arrays: &HashSet<Name>,
    in_place: &HashMap<Name, [Name; 2]>,
) -> Option<Plan> {
    if b.grown || !b.when.is_empty() || grown.contains(&b.var) || loop_arrays.contains(&b.var) {
        return None;
    }
    // the one copy out of `b` (or out of a reshape of `b`, a `flatten` or an
    // `unflatten` of it), at the top level of the body, after which `b` is
    // dead
    let reshaped: Vec<&Name> = body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::View {
                var,
                view: View::Reshape(x, _),
                ..
            } if *x == b.var => Some(var),
            _ => None,
        })
        .collect();
    let c = body.stmts.iter().position(
        |s| matches!(s, Stmt::Copy { src, .. } if *src == b.var || reshaped.contains(&src)),
    )?;
    let Stmt::Copy { dest: v, src, .. } = &body.stmts[c] else {
        return None;
    };
    let through_reshape = *src != b.var;
    // (and every view of `b` made before the copy: read after it, it would
    // read the part of `D` that `b` has become, which later statements may
    // write — a block update whose value is a block of the array it updates)
    let mut aliases: HashSet<Name> = HashSet::from([b.var.clone(), src.clone()]);
    loop {
        let before = aliases.len();
        for st in &body.stmts[..c] {
            if let Stmt::View { var, view, .. } = st
                && aliases.contains(view.source())
            {
                aliases.insert(var.clone());
            }
        }
        if aliases.len() == before {
            break;
        }
    }
    if aliases.iter().any(|x| {
        mentions(&body.stmts[c + 1..], x)
            || body
                .results
                .iter()
                .any(|r| matches!(r, Atom::Var(y) if y == x))
    }) {
        return None;
    }
    // where `b` is first written: a statement of the body (not a branch of
    // an `if`, which may not run: its out-of-memory error would move)
    let first = body.stmts[..c]
        .iter()
        .position(|s| mentions(std::slice::from_ref(s), &b.var))
        .unwrap_or(c);
    if matches!(body.stmts.get(first), Some(Stmt::If { .. })) {
        return None;
    }
    // `v`: a slice or an alias of storage `d`, or storage from outside the
    // scope itself
    let target = body.stmts[..c]
        .iter()
        .position(|s| matches!(s, Stmt::View { var, .. } if var == v));
    let view = match target {
        Some(t) => match &body.stmts[t] {
            Stmt::View { view, .. } => view.clone(),
            _ => return None,
        },
        None if !top_binds(&body.stmts).contains(v) => View::Alias(v.clone()),
        None => return None,
    };
    // (a row at a constant index, `D[c]`, is the slice `D[c:c+1]` reshaped
    // to the row's dims: a nested array literal's rows written in place)
    // (rows of constant dims only: a reshape of the placed slice to dims
    // that may be negative would fail with a size mismatch before the
    // buffer's own negative-size error, fuzz_found.weir `literal_unknown_rows`
    // under --views=none)
    let const_dims = b
        .dims
        .iter()
        .all(|d| matches!(d, Atom::Const(Const::I64(k)) if *k >= 0));
    let row = match &view {
        View::Row(_, Atom::Const(Const::I64(c))) if *c >= 0 && !through_reshape && const_dims => {
            Some(c.checked_add(1)?)
        }
        _ => None,
    };
    let (d, atoms) = match &view {
        View::Slice(d, lo, hi) => (d, vec![lo, hi]),
        View::Alias(d) => (d, vec![]),
        View::Row(d, i) if row.is_some() => (d, vec![i]),
        _ => return None,
    };
    // (all of `d`: a buffer computed and then copied whole, as the initial
    // state of a loop, or the array a `copy` or an update copies)
    if strided.contains(d) || strided.contains(v) || d == &b.var {
        return None;
    }
    // known at `first`: bound outside the scope or before `first`, or `d`
    // a view made later in the scope of what is (moved to `first`)
    let before = top_binds(&body.stmts[..first]);
    let later: HashSet<Name> = defined_in(&body.stmts)
        .into_iter()
        .filter(|n| !before.contains(n))
        .collect();
    // a bound computed later in the body by size arithmetic on what is
    // known at `first` moves there too (the translation computes a piece
    // before the offsets of its part)
    let lets: HashMap<&Name, usize> = body.stmts[first..c]
        .iter()
        .enumerate()
        .filter_map(|(k, st)| match st {
            Stmt::Let { var, exp, .. } if pure_size(exp) => Some((var, k + first)),
            _ => None,
        })
        .collect();
    let mut size_moves: Vec<usize> = Vec::new();
    let mut known = |a: &Atom| movable(a, &later, &lets, body, &mut size_moves, 0);
    if !atoms.iter().all(|a| known(a)) {
        return None;
    }

    let d_view = if later.contains(d) {
        let k = body.stmts[first..c]
            .iter()
            .position(|s| matches!(s, Stmt::View { var, .. } if var == d))?
            + first;
        let Stmt::View { view: dv, .. } = &body.stmts[k] else {
            return None;
        };
        let ok = match dv {
            View::Slice(x, lo, hi) => !later.contains(x) && known(lo) && known(hi) && x != &b.var,
            View::Alias(x) => !later.contains(x) && x != &b.var,
            _ => false,
        };
        if !ok || strided.contains(dv.source()) {
            return None;
        }
        Some(k)
    } else {
        None
    };
    let root = sizes.root(d).clone();
    if grown.contains(&root) || loop_arrays.contains(&root) || loop_arrays.contains(d) {
        return None;
    }
    // `b`'s dims are `v`'s (through a reshape: as many elements, the
    // product of its dims that of `v`'s, so the reshape back cannot fail)
    let mut via = None;
    if through_reshape {
        let Some(Stmt::View { rank, span, .. }) = body.stmts[..c]
            .iter()
            .find(|s| matches!(s, Stmt::View { var, .. } if var == src))
        else {
            return None;
        };
        let prod = |ds: Vec<Dim>| ds.into_iter().fold(Dim::Const(1), Dim::times);
        let got = prod(b.dims.iter().map(|d| sizes.atom(d, FUEL)).collect());
        let want = prod((0..*rank).map(|k| sizes.dim(v, k, FUEL)).collect());
        if !weir_shape::dim::same_dim(&got, &want) {
            return None;
        }
        via = Some(*span);
    } else {
        for (k, dk) in b.dims.iter().enumerate() {
            let want = sizes.dim(v, k, FUEL);
            let got = sizes.atom(dk, FUEL);
            if !weir_shape::dim::same_dim(&got, &want) {
                return None;
            }
        }
    }
    // nothing before the copy reads `d`'s storage, and nothing between
    // the first write of `b` and the copy writes over the part (a copy of
    // all of an array into `d`, then an update of the part: `copy a with
    // [s:e] = b`)
    for st in &body.stmts[..c] {
        if reads_root(st, &root, sizes) {
            return None;
        }
    }
    // (the new state of a state updated in place is the state's memory:
    // nothing from the piece's first write to the copy reads or writes the
    // state either)
    if let Some(same) = in_place.get(d).or_else(|| in_place.get(&root)) {
        for x in same {
            let r = sizes.root(x).clone();
            if body.stmts[first..c].iter().any(|st| {
                reads_root(st, &r, sizes) || writes_root(st, &r, &View::Alias(x.clone()), sizes)
            }) {
                return None;
            }
        }
    }
    let part_view = match (&view, row) {
        (View::Row(d, i), Some(hi)) => {
            View::Slice(d.clone(), i.clone(), Atom::Const(Const::I64(hi)))
        }
        _ => view.clone(),
    };
    for st in &body.stmts[first..c] {
        if writes_root(st, &root, &part_view, sizes) {
            return None;
        }
    }
    if let (View::Row(d, lo), Some(hi)) = (&view, row) {
        return Some(Plan {
            copy: c,
            first,
            view: View::Placed {
                part: d.clone(),
                lo: lo.clone(),
                hi: Atom::Const(Const::I64(hi)),
                root,
            },
            whole: None,
            reshape: Some((None, sizes.rank(d)?)),
            via: None,
            moves: {
                size_moves.sort_unstable();
                size_moves.dedup();
                size_moves.extend(d_view);
                size_moves
            },
        });
    }
    // the part, as a placed view: `d[lo:hi]`, or all of `d` (`hi` computed
    // where the view is made)
    let (part, lo, hi, whole) = match &view {
        View::Slice(d, lo, hi) => (d.clone(), lo.clone(), hi.clone(), None),
        View::Alias(d) => (
            d.clone(),
            Atom::Const(Const::I64(0)),
            Atom::Const(Const::I64(0)),
            Some(d.clone()),
        ),
        _ => return None,
    };
    let part_rank = sizes.rank(&part);
    Some(Plan {
        copy: c,
        first,
        view: View::Placed { part, lo, hi, root },
        whole: if through_reshape { None } else { whole.clone() },
        reshape: match through_reshape {
            false => None,
            true => Some((whole, part_rank?)),
        },
        via,
        moves: {
            size_moves.sort_unstable();
            size_moves.dedup();
            size_moves.extend(d_view);
            size_moves
        },
    })
}

/// Is `a` known at the statement where a piece is first written: bound
/// before it (not in `later`), or a `let` of size arithmetic among `lets`
/// (the body's, after that statement) whose operands are; such lets are
/// added to `moves`.
fn movable(
    a: &Atom,
    later: &HashSet<Name>,
    lets: &HashMap<&Name, usize>,
    body: &Block,
    moves: &mut Vec<usize>,
    depth: usize,
) -> bool {
    let Atom::Var(x) = a else { return true };
    if !later.contains(x) {
        return true;
    }
    let Some(&k) = lets.get(x) else {
        return false;
    };
    if depth > 32 {
        return false;
    }
    let Stmt::Let { exp, .. } = &body.stmts[k] else {
        return false;
    };
    for n in sexp_names(exp) {
        if !movable(&Atom::Var(n.clone()), later, lets, body, moves, depth + 1) {
            return false;
        }
    }
    moves.push(k);
    true
}

/// Every name bound in `stmts`, nested statements included.
fn defined_in(stmts: &[Stmt]) -> HashSet<Name> {
    let mut out = HashSet::new();
    fn go(stmts: &[Stmt], out: &mut HashSet<Name>) {
        for s in stmts {
            out.extend(stmt_binds(s).into_iter().cloned());
            if let Stmt::Alloc { bufs, .. } = s {
                out.extend(bufs.iter().map(|b| b.var.clone()));
            }
            out.extend(crate::simplify::loop_params(s));
            for b in nested_blocks(s) {
                go(b, out);
            }
        }
    }
    go(stmts, &mut out);
    out
}

/// Is `a` a placed piece ([`View::Placed`]) or a reshape of one?
fn placed(a: &Name, sizes: &Sizes) -> bool {
    match sizes.arrays.get(a) {
        Some(ArrDef::View(View::Placed { .. })) => true,
        Some(ArrDef::View(View::Reshape(x, _))) => {
            matches!(sizes.arrays.get(x), Some(ArrDef::View(View::Placed { .. })))
        }
        _ => false,
    }
}

/// Does `s` (nested included) read, grow or guard storage whose root is
/// `root` (other than through a view, a `dim`, or a write)?
fn reads_root(s: &Stmt, root: &Name, sizes: &Sizes) -> bool {
    let hit = |n: &Name| sizes.root(n) == root;
    let direct = match s {
        Stmt::Let {
            exp: SExp::Load(a, _) | SExp::LoadOr0(a, _),
            ..
        } => hit(a),
        // (a copy from a placed piece, or a reshape of one, reads its own
        // storage, or nothing)
        Stmt::Copy { src, .. } => hit(src) && !placed(src, sizes),
        Stmt::Call { args, .. } => args.iter().any(|a| matches!(a, Atom::Var(x) if hit(x))),
        Stmt::Loop { arrays, .. } => arrays.iter().any(|st| hit(&st.out)),
        Stmt::Grow { dest, .. } => hit(dest),
        _ => false,
    };
    direct
        || nested_blocks(s)
            .iter()
            .any(|b| b.iter().any(|t| reads_root(t, root, sizes)))
}

/// Does `s` write storage `root` where it may overlap `part` (a slice or
/// all of an array of that storage)? A copy from a placed piece writes
/// nothing (it is in place); a write into a slice provably before or after
/// `part` does not overlap it.
fn writes_root(s: &Stmt, root: &Name, part: &View, sizes: &Sizes) -> bool {
    let hit = |n: &Name| {
        if sizes.root(n) != root {
            return false;
        }
        let View::Slice(d, lo, hi) = part else {
            return true;
        };
        let Some((wlo, whi)) = rows_of(n, d, sizes) else {
            return true;
        };
        let at = |a: &Atom| sizes.atom(a, FUEL);
        // (ends that are the same size, or constants in order)
        let le = |x: &Dim, y: &Dim| {
            weir_shape::dim::same_dim(x, y)
                || matches!((x, y), (Dim::Const(a), Dim::Const(b)) if a <= b)
        };
        let before = le(&whi, &at(lo));
        let after = le(&at(hi), &wlo);
        !(before || after)
    };
    let direct = match s {
        Stmt::Store { dest, .. } => hit(dest),
        Stmt::Copy { dest, src, .. } => hit(dest) && !placed(src, sizes),
        Stmt::Call { dests, .. } => dests.iter().any(hit),
        Stmt::Loop { arrays, .. } => arrays.iter().any(|st| hit(&st.out)),
        Stmt::Grow { dest, .. } => hit(dest),
        _ => false,
    };
    direct
        || nested_blocks(s)
            .iter()
            .any(|b| b.iter().any(|t| writes_root(t, root, part, sizes)))
}

/// The rows `lo..hi` of `d` that the view `n` covers (through slices,
/// placed parts and rows of `d`, and any view inside one row), if `n` is
/// such a view of it.
fn rows_of(n: &Name, d: &Name, sizes: &Sizes) -> Option<(Dim, Dim)> {
    rows_in(n, d, sizes, 0).map(|(lo, hi, _)| (lo, hi))
}

/// [`rows_of`], and whether `n`'s first dim is still `d`'s (not inside a
/// row of it).
fn rows_in(n: &Name, d: &Name, sizes: &Sizes, depth: usize) -> Option<(Dim, Dim, bool)> {
    if depth > 64 {
        return None;
    }
    let at = |a: &Atom| sizes.atom(a, FUEL);
    let (x, lo, hi, row) = match sizes.arrays.get(n)? {
        ArrDef::View(
            View::Slice(x, lo, hi)
            | View::Placed {
                part: x, lo, hi, ..
            },
        ) => (x, at(lo), at(hi), false),
        ArrDef::View(View::Row(x, i)) => (x, at(i), Dim::plus(at(i), Dim::Const(1)), true),
        ArrDef::View(View::Alias(x)) if x != d => return rows_in(x, d, sizes, depth + 1),
        // (a reshape is the same memory as its source: its rows, and
        // anything taken from it stays inside them)
        ArrDef::View(View::Reshape(x, _)) => {
            let (l0, h0, _) = rows_in(x, d, sizes, depth + 1)?;
            return Some((l0, h0, false));
        }
        _ => return None,
    };
    if x == d {
        return Some((lo, hi, !row));
    }
    let (l0, h0, outer) = rows_in(x, d, sizes, depth + 1)?;
    if !outer {
        // (inside one row of `d`: the same rows)
        return Some((l0, h0, false));
    }
    Some((Dim::plus(l0.clone(), lo), Dim::plus(l0, hi), !row))
}

fn apply(scope: &mut Stmt, bi: usize, plan: Plan, fresh: &mut Fresh) {
    let Stmt::Alloc { bufs, body, .. } = scope else {
        return;
    };
    let b = bufs.remove(bi);
    let _ = plan.copy;
    let mut front: Vec<Stmt> = plan.moves.iter().map(|&k| body.stmts[k].clone()).collect();
    match plan.reshape {
        None => {
            let mut view = plan.view;
            // (the length of all of `d` is the buffer's, proved equal: not a
            // `dim` of `d`, which would be a use of `d`'s lazy storage where
            // the buffer is first written, moving its out-of-memory error)
            if let (Some(d), View::Placed { hi, .. }) = (plan.whole, &mut view) {
                match b.dims.first() {
                    Some(n0) => *hi = n0.clone(),
                    None => {
                        let n = fresh.name();
                        front.push(Stmt::Let {
                            var: n.clone(),
                            ty: PrimType::I64,
                            exp: SExp::Dim(d, 0),
                            span: b.span,
                        });
                        *hi = Atom::Var(n);
                    }
                }
            }
            front.push(Stmt::View {
                var: b.var.clone(),
                elem: b.elem,
                rank: b.dims.len(),
                view,
                span: b.span,
            })
        }
        Some((whole, part_rank)) => {
            // (the part, of its storage's rank, reshaped to the buffer's dims)
            let mut view = plan.view;
            if let (Some(d), View::Placed { hi, .. }) = (whole, &mut view) {
                let n = fresh.name();
                front.push(Stmt::Let {
                    var: n.clone(),
                    ty: PrimType::I64,
                    exp: SExp::Dim(d, 0),
                    span: b.span,
                });
                *hi = Atom::Var(n);
            }
            let p = fresh.name();
            front.push(Stmt::View {
                var: p.clone(),
                elem: b.elem,
                rank: part_rank,
                view,
                span: b.span,
            });
            front.push(Stmt::View {
                var: b.var.clone(),
                elem: b.elem,
                rank: b.dims.len(),
                view: View::Reshape(p, b.dims.clone()),
                span: b.span,
            });
        }
    }
    let mut kept = Vec::new();
    for (k, s) in std::mem::take(&mut body.stmts).into_iter().enumerate() {
        if k == plan.first {
            kept.append(&mut front);
        }
        if !plan.moves.contains(&k) {
            kept.push(s);
        }
    }
    kept.append(&mut front);
    body.stmts = kept;
}
