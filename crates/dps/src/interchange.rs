//! Loop interchange of a fold inside a map (the DPS loop rule
//! `interchange-fold`, table [`crate::peel::RULES`]): a `for j < nj` whose
//! body computes an element with a sequential `fold` over `k` and stores it
//! at `r[j]`,
//!
//! ```text
//! for j < nj { pre; (o) = fold (acc) = (init) for k < nk { body }; r[j] := o }
//! ```
//!
//! becomes the `i-k-j` order, the accumulator expanded into the row `r`:
//!
//! ```text
//! for j < nj { pre; r[j] := init }
//! for k < nk { for j' < nj { let acc = r[j']; body[j := j']; r[j'] := result } }
//! ```
//!
//! A `reduce` is taken as the fold computing it left to right (its
//! operator's first operand the accumulator, from the neutral element: the
//! interpreter's order). Values computed from `o` before the store (`post`,
//! lets that cannot fail: `beta * c[i, j] + alpha * o`) finish each element
//! in a third loop, `for j { pre needed again; let o = r[j]; post; r[j] :=
//! v }`.
//!
//! Every element gets the same operations in the same order (its `init`,
//! then `k = 0, 1, …`), so the result is bit for bit the same; the inner
//! loop runs along rows (`b[k][j']`, `r[j']`) and vectorises across `j'`,
//! where the fold was one dependent chain per element with a column stride.
//!
//! It applies only where the order of errors cannot change: the fold's body
//! cannot fail (its reads are proved in range: an index that is `j` or `k`
//! against a dim known equal to that loop's bound, by lets, `dim`s and size
//! checks; no integer division), so the only errors are those of `pre` and
//! of the store, which keep their order. And where the new order reads no
//! partial sum: `pre` is lets and views (it writes nothing the body could
//! read), the body reads no array stored in the same memory as `r`
//! (`r`'s storage is an `alloc` buffer of the function or an entry point's
//! result, which the entry checks is disjoint from its arguments; the arrays
//! read are views of other roots), and uses nothing `pre` binds.

use crate::ir::*;
use std::collections::HashMap;

/// Sizes known equal: a union-find over keys (`i64` names, `dim a k`).
#[derive(Clone, Default)]
pub(crate) struct Sizes {
    parent: HashMap<String, String>,
    /// The counters of the loops around the statement and their bounds
    /// (`i < n` holds in their bodies).
    counters: Vec<(Name, Atom)>,
}

pub(crate) fn dim_key(a: &str, k: usize) -> String {
    format!("dim {a} {k}")
}

pub(crate) fn atom_key(a: &Atom) -> Option<String> {
    match a {
        Atom::Var(v) => Some(v.clone()),
        Atom::Const(Const::I64(c)) => Some(format!("{c}i64")),
        Atom::Const(_) => None,
    }
}

impl Sizes {
    fn find(&self, k: &str) -> String {
        let mut k = k.to_string();
        for _ in 0..64 {
            match self.parent.get(&k) {
                Some(p) if *p != k => k = p.clone(),
                _ => break,
            }
        }
        k
    }

    fn union(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
        }
    }

    pub(crate) fn same(&self, a: &str, b: &str) -> bool {
        self.find(a) == self.find(b)
    }

    /// The dims of an entry point's results: the entry checks its caller's
    /// destinations have exactly the dims of its shape (a result of
    /// existential size only in its inner dims).
    pub(crate) fn learn_entry_dests(&mut self, f: &Fun) {
        if !f.entry {
            return;
        }
        for d in &f.dests {
            for (k, dim) in d.shape.iter().enumerate() {
                if d.unbounded && k == 0 {
                    continue;
                }
                let key = match dim {
                    weir_shape::Dim::DimOf(a, j) => dim_key(a, *j),
                    weir_shape::Dim::Var(v) => v.clone(),
                    weir_shape::Dim::Const(c) => format!("{c}i64"),
                    _ => continue,
                };
                self.union(&key, &dim_key(&d.name, k));
            }
        }
    }

    /// What a statement tells of sizes, for the statements after it.
    pub(crate) fn learn(&mut self, s: &Stmt) {
        match s {
            Stmt::Let {
                var,
                ty: PrimType::I64,
                exp,
                ..
            } => match exp {
                SExp::Atom(a) => {
                    if let Some(k) = atom_key(a) {
                        self.union(&k, var);
                    }
                }
                SExp::Dim(a, k) => self.union(&dim_key(a, *k), var),
                _ => {}
            },
            Stmt::Check { check, .. } => {
                if let (Some(a), Some(b)) = (atom_key(&check.got), atom_key(&check.want)) {
                    self.union(&a, &b);
                }
            }
            Stmt::View {
                var, view, rank, ..
            } => {
                let (src, skip) = match view {
                    View::Row(x, _) => (x, 1),
                    View::Alias(x) => (x, 0),
                    // (a slice's rows are `hi - lo`, the same for two
                    // slices of one `lo` and `hi`; its inner dims are the
                    // array's)
                    View::Slice(x, lo, hi) => {
                        if let (Some(l), Some(h)) = (atom_key(lo), atom_key(hi)) {
                            self.union(&format!("rows {l} {h}"), &dim_key(var, 0));
                        }
                        for k in 1..*rank {
                            self.union(&dim_key(x, k), &dim_key(var, k));
                        }
                        return;
                    }
                    _ => return,
                };
                for k in 0..*rank {
                    self.union(&dim_key(src, k + skip), &dim_key(var, k));
                }
            }
            Stmt::Alloc { bufs, .. } => {
                for b in bufs {
                    for (k, d) in b.dims.iter().enumerate() {
                        if let Some(dk) = atom_key(d) {
                            self.union(&dk, &dim_key(&b.var, k));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Where the statements of a function are: what binds each array (to find
/// the storage a view is of).
pub(crate) struct Ctx {
    pub(crate) f_dests: Vec<Name>,
    pub(crate) entry: bool,
    pub(crate) views: HashMap<Name, Name>,
    pub(crate) bufs: Vec<Name>,
}

impl Ctx {
    /// The array a chain of views starts from.
    pub(crate) fn root(&self, a: &str) -> Name {
        let mut a = a.to_string();
        for _ in 0..64 {
            match self.views.get(&a) {
                Some(s) => a = s.clone(),
                None => break,
            }
        }
        a
    }

    /// Storage no argument of the function shares: an `alloc` buffer of
    /// it, or an entry point's result.
    pub(crate) fn fresh_storage(&self, root: &str) -> bool {
        self.bufs.iter().any(|b| b == root)
            || (self.entry && self.f_dests.iter().any(|d| d == root))
    }
}

pub(crate) fn collect_views(stmts: &[Stmt], views: &mut HashMap<Name, Name>, bufs: &mut Vec<Name>) {
    for s in stmts {
        match s {
            Stmt::View { var, view, .. } => {
                let src = match view {
                    View::Placed { root, .. } => root,
                    v => v.source(),
                };
                views.insert(var.clone(), src.clone());
            }
            Stmt::Alloc { bufs: bs, .. } => bufs.extend(bs.iter().map(|b| b.var.clone())),
            _ => {}
        }
        for b in nested_blocks(s) {
            collect_views(b, views, bufs);
        }
    }
}

pub(crate) fn interchange_fold(f: &mut Fun) -> bool {
    apply_nest_rule(f, "_ix", Sizes::default(), rewrite)
}

/// A loop-nest rewrite: the statement, the sizes known before it, where the
/// function's arrays live, and fresh names; the statements replacing it.
pub(crate) type NestRewrite =
    fn(&Stmt, &Sizes, &Ctx, &mut dyn FnMut(&str) -> Name) -> Option<Vec<Stmt>>;

/// Apply `rewrite` to every statement of `f`, outermost first (a rewritten
/// statement is not visited again), with the sizes known at each statement
/// (from `sizes` and the statements before it) and fresh names ending in
/// `suffix` and a number. Shared by `interchange-fold` and
/// `tile-accumulate`.
pub(crate) fn apply_nest_rule(
    f: &mut Fun,
    suffix: &str,
    sizes: Sizes,
    rewrite: NestRewrite,
) -> bool {
    let mut views = HashMap::new();
    let mut bufs = Vec::new();
    collect_views(&f.body.stmts, &mut views, &mut bufs);
    let ctx = Ctx {
        f_dests: f.dests.iter().map(|d| d.name.clone()).collect(),
        entry: f.entry,
        views,
        bufs,
    };
    let mut taken: std::collections::HashSet<Name> =
        crate::rename::binders(&f.body.stmts).into_iter().collect();
    taken.extend(f.params.iter().map(|p| p.name.clone()));
    taken.extend(f.dests.iter().map(|d| d.name.clone()));
    let mut fresh = |base: &str| {
        let base = base.split(suffix).next().unwrap_or(base);
        let mut k = 1;
        loop {
            let n = format!("{base}{suffix}{k}");
            if taken.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    };
    walk(&mut f.body.stmts, &sizes, &ctx, rewrite, &mut fresh)
}

fn walk(
    stmts: &mut Vec<Stmt>,
    outer: &Sizes,
    ctx: &Ctx,
    rewrite: NestRewrite,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> bool {
    let mut sizes = outer.clone();
    let mut changed = false;
    let mut k = 0;
    while k < stmts.len() {
        if let Some(new) = rewrite(&stmts[k], &sizes, ctx, fresh) {
            let len = new.len();
            stmts.splice(k..k + 1, new);
            k += len;
            changed = true;
            continue;
        }
        // (a loop body or branch sees what holds before it; an `alloc`
        // body, its buffers' dims)
        sizes.learn(&stmts[k]);
        let mut inside = sizes.clone();
        if let Stmt::For { i, n, .. } = &stmts[k] {
            inside.counters.push((i.clone(), n.clone()));
        }
        for b in nested_blocks_mut(&mut stmts[k]) {
            changed |= walk(b, &inside, ctx, rewrite, fresh);
        }
        k += 1;
    }
    changed
}

/// Can this statement of a fold's body fail? Reads must be proved in range
/// (`bounds`: the loop counters in scope and their bounds).
pub(crate) fn can_fail(s: &Stmt, sizes: &Sizes, bounds: &[(&Name, &Atom)]) -> bool {
    let in_range = |a: &Name, k: usize, idx: &Atom| {
        let Atom::Var(i) = idx else {
            return false;
        };
        let within = |n: &Atom| atom_key(n).is_some_and(|nk| sizes.same(&nk, &dim_key(a, k)));
        bounds.iter().any(|(c, n)| *c == i && within(n))
            || sizes.counters.iter().any(|(c, n)| c == i && within(n))
    };
    match s {
        Stmt::Let {
            exp: SExp::Load(a, idx),
            ..
        } => !idx.iter().enumerate().all(|(k, i)| in_range(a, k, i)),
        Stmt::View {
            view: View::Row(a, i),
            ..
        } => !in_range(a, 0, i),
        // (a float division never fails)
        Stmt::Let {
            ty: PrimType::F64 | PrimType::F32,
            exp: SExp::Bin(BinOp::Div | BinOp::Rem | BinOp::Pow, ..),
            ..
        } => false,
        Stmt::Let { .. } | Stmt::View { .. } => stmt_can_fail(s),
        _ => true,
    }
}

/// The arrays a statement list reads (loads and the sources of views).
pub(crate) fn reads(stmts: &[Stmt]) -> Vec<Name> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Let {
                exp: SExp::Load(a, _) | SExp::LoadOr0(a, _) | SExp::Dim(a, _),
                ..
            } => out.push(a.clone()),
            Stmt::View { view, .. } => out.push(view.source().clone()),
            _ => {}
        }
    }
    out
}

/// The parts of `for j < nj { pre; (o) = fold (a) = (init) for k < nk {
/// body }; post; r[j] := val }` (a `reduce` taken as its fold).
struct Nest<'s> {
    j: &'s Name,
    nj: &'s Atom,
    pre: &'s [Stmt],
    post: &'s [Stmt],
    o: Name,
    ty: PrimType,
    a: Name,
    init: Atom,
    k: Name,
    nk: Atom,
    body: Block,
    res: Atom,
    r: &'s Name,
    idx: &'s [Atom],
    val: &'s Atom,
    span: Span,
}

impl<'s> Nest<'s> {
    fn of(s: &'s Stmt) -> Option<Nest<'s>> {
        let Stmt::For { i: j, n: nj, body } = s else {
            return None;
        };
        let [rest @ .., store] = body.as_slice() else {
            return None;
        };
        // the fold (or reduction, in the fold's order), then values
        // computed from its result (`post`), then the store
        let at = rest
            .iter()
            .rposition(|t| matches!(t, Stmt::Fold { .. } | Stmt::Reduce { .. }))?;
        let (pre, fold, post) = (&rest[..at], &rest[at], &rest[at + 1..]);
        let fold = match fold {
            Stmt::Reduce { .. } => reduce_as_fold(fold)?,
            f => f.clone(),
        };
        let Stmt::Fold {
            outs,
            acc,
            init,
            i: k,
            n: nk,
            body: fbody,
        } = fold
        else {
            return None;
        };
        let Stmt::Store {
            dest: r,
            idx,
            val,
            span,
        } = store
        else {
            return None;
        };
        let ([(o, ty)], [(a, aty)], [init], [res]) = (
            outs.as_slice(),
            acc.as_slice(),
            init.as_slice(),
            fbody.results.as_slice(),
        ) else {
            return None;
        };
        if ty != aty
            || idx.as_slice() != [Atom::Var(j.clone())]
            || (post.is_empty() && *val != Atom::Var(o.clone()))
            || fbody.stmts.is_empty()
        {
            return None;
        }
        Some(Nest {
            j,
            nj,
            pre,
            post,
            o: o.clone(),
            ty: *ty,
            a: a.clone(),
            init: init.clone(),
            k,
            nk,
            res: res.clone(),
            body: fbody,
            r,
            idx,
            val,
            span: *span,
        })
    }

    /// The order of errors cannot change: `post` is lets that cannot fail
    /// (run again after the steps), `pre` lets and views (no store the
    /// fold might read), the fold's body lets and views none of which can
    /// fail.
    fn cannot_fail(&self, sizes: &Sizes) -> bool {
        if !self.post.iter().all(|p| matches!(p, Stmt::Let { .. }))
            || !self
                .pre
                .iter()
                .all(|p| matches!(p, Stmt::Let { .. } | Stmt::View { .. }))
        {
            return false;
        }
        let mut at = sizes.clone();
        for p in self.pre {
            at.learn(p);
        }
        let mut at_post = at.clone();
        for p in self.post {
            if can_fail(p, &at_post, &[(self.j, self.nj)]) {
                return false;
            }
            at_post.learn(p);
        }
        let bounds = [(self.j, self.nj), (&self.k, &self.nk)];
        for t in &self.body.stmts {
            if can_fail(t, &at, &bounds) {
                return false;
            }
            at.learn(t);
        }
        true
    }

    /// What of `pre` the steps use: the statements that do not depend on
    /// `j` (slices of a column below the diagonal, `a[i+1:, i]`, and the
    /// fold's bound, their length), computed once before the steps, and
    /// those that do (a value of the column, such as `b[j]` hoisted out of
    /// the fold), computed again in the inner loop, which must not fail
    /// (they ran before, in the same order, for the same column) and must
    /// not be views (a row view of column `j`, as in `a · aᵀ`: the fold
    /// reads along that row, and turned inside out the inner loop would
    /// read down a column). `None` where the nest must stay as written.
    fn uses_of_pre(&self, sizes: &Sizes) -> Option<(Vec<usize>, Vec<usize>)> {
        let (pre, j) = (self.pre, self.j);
        let mut dep: std::collections::HashSet<Name> = std::collections::HashSet::from([j.clone()]);
        let mut invariant = vec![false; pre.len()];
        for (at, p) in pre.iter().enumerate() {
            let names: Vec<Name> = dep.iter().cloned().collect();
            if names.iter().any(|d| mentions(std::slice::from_ref(p), d)) {
                dep.extend(crate::rename::binders(std::slice::from_ref(p)));
            } else {
                invariant[at] = true;
            }
        }
        let pre_binds = crate::rename::binders(pre);
        let bound_in_pre = |x: &Atom| matches!(x, Atom::Var(v) if pre_binds.contains(v));
        let nk_dep = matches!(&self.nk, Atom::Var(v) if dep.contains(v));
        if nk_dep
            || bound_in_pre(&self.res)
            || pre_binds.contains(self.r)
            || mentions(&self.body.stmts, &self.o)
        {
            return None;
        }
        let mut uses_of: Vec<Stmt> = self.body.stmts.clone();
        if let Atom::Var(v) = &self.nk {
            uses_of.push(Stmt::Let {
                var: v.clone(),
                ty: PrimType::I64,
                exp: SExp::Atom(Atom::Var(v.clone())),
                span: self.span,
            });
        }
        let needed = needed_by(pre, uses_of);
        let (hoisted, needed): (Vec<usize>, Vec<usize>) =
            needed.into_iter().partition(|&at| invariant[at]);
        if needed
            .iter()
            .any(|&at| matches!(pre[at], Stmt::View { .. }))
        {
            return None;
        }
        // (nor where the fold's body itself takes row `j` of an array, or
        // indexes one by `j` before its last dimension: the same stride)
        let jv = Atom::Var(j.clone());
        if self.body.stmts.iter().any(|t| match t {
            Stmt::View {
                view: View::Row(_, x),
                ..
            } => *x == jv,
            Stmt::Let {
                exp: SExp::Load(_, idx),
                ..
            } => idx.split_last().is_some_and(|(_, init)| init.contains(&jv)),
            _ => false,
        }) {
            return None;
        }
        let mut before = sizes.clone();
        for (at, p) in pre.iter().enumerate() {
            if needed.contains(&at) && can_fail(p, &before, &[(j, self.nj)]) {
                return None;
            }
            before.learn(p);
        }
        Some((hoisted, needed))
    }
}

fn rewrite(
    s: &Stmt,
    sizes: &Sizes,
    ctx: &Ctx,
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Vec<Stmt>> {
    let n = Nest::of(s)?;
    if !n.cannot_fail(sizes) {
        return None;
    }
    let (hoisted, needed) = n.uses_of_pre(sizes)?;
    // the row is storage of its own; the body reads other storage
    let root = ctx.root(n.r);
    if !ctx.fresh_storage(&root) || reads(&n.body.stmts).iter().any(|x| ctx.root(x) == root) {
        return None;
    }
    let (pre, j, nj, r, span) = (n.pre, n.j, n.nj, n.r, n.span);
    let j2 = fresh(j);
    let mut inner = vec![Stmt::Let {
        var: n.a.clone(),
        ty: n.ty,
        exp: SExp::Load(r.clone(), vec![Atom::Var(j2.clone())]),
        span,
    }];
    // the invariant statements, computed again once (they ran, without
    // failing, for the first column: the steps run only where there is one)
    let hoisted: Vec<Stmt> = hoisted.iter().map(|&at| pre[at].clone()).collect();
    let once = crate::rename::fresh_copy(&hoisted, &HashMap::new(), fresh);
    let mut map: HashMap<Name, Name> = crate::rename::binders(&hoisted)
        .into_iter()
        .zip(crate::rename::binders(&once))
        .collect();
    let nk = match &n.nk {
        Atom::Var(v) => Atom::Var(map.get(v).cloned().unwrap_or_else(|| v.clone())),
        x => x.clone(),
    };
    let recomputed: Vec<Stmt> = needed.iter().map(|&at| pre[at].clone()).collect();
    map.insert(j.clone(), j2.clone());
    let copy = crate::rename::fresh_copy(&recomputed, &map, fresh);
    map.extend(
        crate::rename::binders(&recomputed)
            .into_iter()
            .zip(crate::rename::binders(&copy)),
    );
    inner.extend(copy);
    let mut moved = n.body.stmts.clone();
    crate::rename::rename(&mut moved, &map);
    inner.extend(moved);
    let res = match &n.res {
        Atom::Var(v) if v == j => Atom::Var(j2.clone()),
        x => x.clone(),
    };
    inner.push(Stmt::Store {
        dest: r.clone(),
        idx: vec![Atom::Var(j2.clone())],
        val: res,
        span,
    });
    let mut first = pre.to_vec();
    first.push(Stmt::Store {
        dest: r.clone(),
        idx: n.idx.to_vec(),
        val: n.init.clone(),
        span,
    });
    let steps = Stmt::For {
        i: n.k.clone(),
        n: nk,
        body: vec![Stmt::For {
            i: j2,
            n: nj.clone(),
            body: inner,
        }],
    };
    let mut out = vec![Stmt::For {
        i: j.clone(),
        n: nj.clone(),
        body: first,
    }];
    if once.is_empty() {
        out.push(steps);
    } else {
        let any = fresh("any");
        out.push(Stmt::Let {
            var: any.clone(),
            ty: PrimType::Bool,
            exp: SExp::Bin(BinOp::Lt, Atom::Const(Const::I64(0)), nj.clone()),
            span,
        });
        let mut body = once;
        body.push(steps);
        out.push(Stmt::If {
            outs: vec![],
            cond: Atom::Var(any),
            then: Block {
                stmts: body,
                results: vec![],
            },
            els: Block {
                stmts: vec![],
                results: vec![],
            },
        });
    }
    if !n.post.is_empty() {
        out.push(after(
            pre,
            n.post,
            (j, nj),
            (&n.o, n.ty),
            (r, n.val, span),
            fresh,
        )?);
    }
    Some(out)
}

/// The loop finishing each column after the fold's loop: what of `pre`
/// `post` uses, computed again (it cannot fail: it ran before, in the same
/// order, for the same column), the fold's result read back from the row,
/// `post`, and the store of its value.
fn after(
    pre: &[Stmt],
    post: &[Stmt],
    (j, nj): (&Name, &Atom),
    (o, ty): (&Name, PrimType),
    (r, val, span): (&Name, &Atom, Span),
    fresh: &mut dyn FnMut(&str) -> Name,
) -> Option<Stmt> {
    let needed = needed_by(pre, post.to_vec());
    let j3 = fresh(j);
    let mut stmts: Vec<Stmt> = needed.iter().map(|&at| pre[at].clone()).collect();
    stmts.push(Stmt::Let {
        var: o.clone(),
        ty,
        exp: SExp::Load(r.clone(), vec![Atom::Var(j.clone())]),
        span,
    });
    stmts.extend(post.iter().cloned());
    stmts.push(Stmt::Store {
        dest: r.clone(),
        idx: vec![Atom::Var(j.clone())],
        val: val.clone(),
        span,
    });
    let map = HashMap::from([(j.clone(), j3.clone())]);
    let body = crate::rename::fresh_copy(&stmts, &map, fresh);
    Some(Stmt::For {
        i: j3,
        n: nj.clone(),
        body,
    })
}

/// The positions, in order, of the statements of `pre` that `uses` needs,
/// directly or through other statements of `pre`.
fn needed_by(pre: &[Stmt], mut uses: Vec<Stmt>) -> Vec<usize> {
    let mut needed = Vec::new();
    for (at, p) in pre.iter().enumerate().rev() {
        if crate::rename::binders(std::slice::from_ref(p))
            .iter()
            .any(|b| mentions(&uses, b))
        {
            needed.push(at);
            uses.push(p.clone());
        }
    }
    needed.reverse();
    needed
}

/// A reduction as the fold computing it in order: the accumulator is the
/// operator's first operand, starting from the neutral element; each step
/// binds the element to the second operand (`reduce` leaves the order open,
/// docs/language.md §5: this is the interpreter's, left to right).
fn reduce_as_fold(s: &Stmt) -> Option<Stmt> {
    let Stmt::Reduce {
        outs,
        ne,
        i,
        n,
        elem,
        op,
    } = s
    else {
        return None;
    };
    let ([(_, ty)], [a], [b], [x], [_]) = (
        outs.as_slice(),
        op.a.as_slice(),
        op.b.as_slice(),
        elem.results.as_slice(),
        op.body.results.as_slice(),
    ) else {
        return None;
    };
    let mut stmts = elem.stmts.clone();
    stmts.push(Stmt::Let {
        var: b.clone(),
        ty: *ty,
        exp: SExp::Atom(x.clone()),
        span: Span::default(),
    });
    stmts.extend(op.body.stmts.iter().cloned());
    Some(Stmt::Fold {
        outs: outs.clone(),
        acc: vec![(a.clone(), *ty)],
        init: ne.clone(),
        i: i.clone(),
        n: n.clone(),
        body: Block {
            stmts,
            results: op.body.results.clone(),
        },
    })
}
