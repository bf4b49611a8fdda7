//! Fusion: reads of a generated array are replaced by the computation of the element
//! read, so the array need not exist. After lowering, every producer is a `build`
//! and every consumer reads elements by index (`map`, `zip`, `sum`, `fold`, ... were
//! lowered to `build`/`ifold`/`ireduce` over indices), so two rules cover map∘map,
//! zip of builds, fold/ifold/reduce/sum of build or map, and indexing through
//! transposes; `length (build n f) = n` is the simplifier's `dim-of-build`.
//!
//! The rule table is [`RULES`]. `index-build` rewrites `y = b[x]`, where
//! `b = build n (\i -> e)`, to `e[i := x]`, but only when that never duplicates work
//! (see docs/ARCHITECTURE.md, "The fusion guard"):
//!
//! * **single read, same level**: `b` is read once, outside any loop that `b` is not
//!   also in — the element is computed once instead of `n` of them;
//! * **single read, element-wise**: `b` is read once, as `b[i]` directly inside a loop
//!   over `i` (a `build`, `ifold`, `ireduce` or `loop` body) one level below `b` — each
//!   element is computed once, in the loop that consumes it;
//! * **cheap element**: computing an element costs at most [`CHEAP_COST`] loads and
//!   arithmetic operations (no calls, loops, branches or math functions, nested
//!   builds only if cheap themselves), the read is at most one loop level below `b`,
//!   and the value read is a scalar or an array itself only read by index (so no
//!   row is rebuilt). A cheap array read deeper in a loop nest (the transpose in a
//!   matrix product) stays materialised: it is computed once, not per element;
//! * **index arithmetic**: an element computed from the index and scalars by
//!   at most [`CHEAP_COST`] arithmetic operations and no load (a range,
//!   `map (+ 1) (iota n)`, shared by the maps of a 3-d stencil) is recomputed
//!   wherever it is read, at any depth: it costs no more than loading it;
//! * **view element**: an element that is a row or slice of another array
//!   (`build k (\j -> a[j][s:e])`, the rows of `transpose a[:i, s:]`) is
//!   address arithmetic, no load, so it too is recomputed wherever it is read.
//!
//! `index-slice` rewrites `s[x]`, with `s = b[lo:hi]` and `b` a build, to `b[lo + x]`
//! so that the read can fuse.
//!
//! Both keep the check of the read they replace: `index-build` puts
//! `assert_index x n` before the fused element (the read `b[x]` checked `x`
//! against `b`'s length), `index-slice` puts `assert_index x (hi - lo)`; `dce`
//! removes the ones it proves (the usual `b[i]` in a loop over `b`'s indices). The
//! checks of the elements that are no longer computed stay too: `b`, once
//! unused, leaves its residue (`dce`).

use crate::facts::Facts;
use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::visit::use_counts;
use weir_ir::*;

/// The most loads and arithmetic operations an element may cost to be recomputed.
pub const CHEAP_COST: usize = 6;

/// The fusion rules, by name.
pub const RULES: &[(&str, &str)] = &[
    (
        "index-build",
        "(build n f)[x] => f x, when the fusion guard allows (single read at the same level, single element-wise read in a loop, a cheap element read at most one loop below, or an element of index arithmetic or a view read anywhere)",
    ),
    (
        "index-slice",
        "(b[lo:hi])[x] => b[lo + x] when b is a build (so the read can fuse)",
    ),
    (
        "index-stride",
        "(stride k b)[x] => b[x * k] when b is a build (so the read can fuse)",
    ),
];

pub fn run(prog: &mut Program) -> bool {
    let mut changed = false;
    let safe = crate::dce::infallible_defs(prog);
    for d in &mut prog.defs {
        let uses = use_counts(d);
        let mut sites = HashMap::new();
        collect_sites(&d.body, 0, &mut sites);
        let mut f = Fuse {
            uses,
            sites,
            defs: HashMap::new(),
            depth: HashMap::new(),
            types: type_env(d),
            fresh: Fresh::for_fun(d),
            consumed: HashMap::new(),
            changed: false,
        };
        for (p, _) in &d.params {
            f.depth.insert(p.clone(), 0);
        }
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = f.body(body, 0, None);
        changed |= f.changed;
        if !f.consumed.is_empty() {
            let facts = Facts::for_fun(d);
            let mut io = InOrder {
                consumed: &f.consumed,
                judge: crate::dce::Judge { safe: &safe },
                fresh: &mut f.fresh,
            };
            io.body(&mut d.body, facts);
        }
    }
    changed
}

/// A build whose only read was fused element-wise into a loop: the names of the
/// statements the fused element became (the read's check included).
type Consumed = HashMap<Name, HashSet<Name>>;

/// After fusion: a build `b = build n f` whose elements were all fused, in order,
/// into a loop over the same `0..n` need not leave the loop of its elements'
/// checks behind — the loop makes them, in the same order — when nothing
/// between `b` and the loop, and nothing else in the loop, can fail (so the first
/// error is the same). Such a `b` is replaced by `assert_nonneg n build` here
/// (the count's check); any other unused build leaves its full residue (`dce`).
struct InOrder<'a> {
    consumed: &'a Consumed,
    judge: crate::dce::Judge<'a>,
    fresh: &'a mut Fresh,
}

impl InOrder<'_> {
    fn body(&mut self, b: &mut Body, facts: Facts) {
        let mut facts = facts;
        let mut k = 0;
        while k < b.stmts.len() {
            if let Some(fused) = self.consumed.get(&b.stmts[k].var)
                && let Some(repl) = self.replacement(b, k, fused, &facts)
            {
                let n = repl.len();
                b.stmts.splice(k..k + 1, repl);
                for s in &b.stmts[k..k + n] {
                    facts.add(s);
                }
                k += n;
                continue;
            }
            let st = &mut b.stmts[k];
            let inner = facts.enter(&st.exp);
            let mut inner = inner.into_iter();
            weir_ir::visit::for_each_nested_body(&mut st.exp, &mut |nb| {
                let f = inner.next().unwrap_or_else(|| facts.clone());
                self.body(nb, f);
            });
            facts.add(&b.stmts[k]);
            k += 1;
        }
    }

    /// The statements that replace `b.stmts[k]` (a consumed build), if its
    /// elements' checks are made in order by its consumer.
    fn replacement(
        &mut self,
        b: &Body,
        k: usize,
        fused: &HashSet<Name>,
        facts: &Facts,
    ) -> Option<Vec<Stmt>> {
        let st = &b.stmts[k];
        let Exp::Prim(Prim::Build {
            n,
            f: Fun::Lambda(l),
        }) = &st.exp
        else {
            return None;
        };
        if !rows_regular(l) {
            return None;
        }
        let mut f = facts.clone();
        f.add(st);
        for c in &b.stmts[k + 1..] {
            if let Some((count, body, bf, others_ok)) = loop_body(c, &f)
                && body.stmts.iter().any(|s| fused.contains(&s.var))
            {
                if !others_ok || !f.prove_eq(&count, n) {
                    return None;
                }
                // nothing else in the loop's body can fail
                let mut g = bf;
                for s in &body.stmts {
                    if !fused.contains(&s.var) && self.judge.fallible(s, &g) {
                        return None;
                    }
                    g.add(s);
                }
                let mut out = Vec::new();
                if !f.prove_nonneg(n) {
                    out.push(stmt(
                        self.fresh.name("chk"),
                        Type::I64,
                        Exp::Check(Box::new(Check::new(
                            CheckKind::NonNeg,
                            vec![n.clone()],
                            "build",
                        ))),
                        st.span,
                    ));
                }
                return Some(out);
            }
            // a statement between the build and its consumer that could fail
            if self.judge.fallible(c, &f) {
                return None;
            }
            f.add(c);
        }
        None
    }
}

/// The counted loop of a statement: its count, the body that runs once per
/// index, the facts in that body, and whether the loop's other parts (the
/// operator of an `ireduce`) cannot fail.
fn loop_body<'s>(c: &'s Stmt, facts: &Facts) -> Option<(Atom, &'s Body, Facts, bool)> {
    let inner = facts.enter(&c.exp);
    let judge_empty = HashSet::new();
    let judge = crate::dce::Judge { safe: &judge_empty };
    match &c.exp {
        Exp::Prim(Prim::Build {
            n,
            f: Fun::Lambda(l),
        })
        | Exp::Prim(Prim::IFold {
            f: Fun::Lambda(l),
            n,
            ..
        }) => Some((n.clone(), &l.body, inner.first()?.clone(), true)),
        Exp::Prim(Prim::IReduce {
            op: Fun::Lambda(op),
            n,
            f: Fun::Lambda(g),
            ..
        })
        | Exp::Prim(Prim::IReduceByIndex {
            op: Fun::Lambda(op),
            m: n,
            f: Fun::Lambda(g),
            ..
        }) => {
            let op_ok = !judge.body_fallible(&op.body, inner.first()?);
            Some((n.clone(), &g.body, inner.get(1)?.clone(), op_ok))
        }
        Exp::Loop {
            form: LoopForm::For(_, n),
            body,
            ..
        } => Some((n.clone(), body, inner.first()?.clone(), true)),
        _ => None,
    }
}

/// How a variable is used.
#[derive(Clone, Debug)]
enum Site {
    /// `r = v[_]` at the given loop depth.
    Index(Name, usize),
    /// `dim v _` / `length v`.
    Dim,
    Other,
}

fn collect_sites(b: &Body, depth: usize, out: &mut HashMap<Name, Vec<Site>>) {
    let add = |a: &Atom, s: Site, out: &mut HashMap<Name, Vec<Site>>| {
        if let Atom::Var(v) = a {
            out.entry(v.clone()).or_default().push(s);
        }
    };
    for st in &b.stmts {
        match &st.exp {
            Exp::Index(a, i) => {
                add(a, Site::Index(st.var.clone(), depth), out);
                add(i, Site::Other, out);
            }
            Exp::Dim(a, _) => add(a, Site::Dim, out),
            Exp::Prim(Prim::Length { a }) => add(a, Site::Dim, out),
            e => {
                let mut c = weir_ir::visit::UseCounter::default();
                // only the atoms at this level; nested bodies are visited below
                let shallow = shallow_copy(e);
                weir_ir::visit::walk_exp_mut(&mut c, &mut shallow.clone());
                for v in c.counts.keys() {
                    out.entry(v.clone()).or_default().push(Site::Other);
                }
                match e {
                    Exp::If(_, t, f) => {
                        collect_sites(t, depth, out);
                        collect_sites(f, depth, out);
                    }
                    Exp::Prim(p) => {
                        for l in p.lambdas() {
                            collect_sites(&l.body, depth + 1, out);
                        }
                    }
                    Exp::Call(_, args) => {
                        for a in args {
                            if let Arg::Fun(Fun::Lambda(l)) = a {
                                collect_sites(&l.body, depth + 1, out);
                            }
                        }
                    }
                    Exp::Loop { form, body, .. } => {
                        if let LoopForm::While(c) = form {
                            collect_sites(c, depth + 1, out);
                        }
                        collect_sites(body, depth + 1, out);
                    }
                    _ => {}
                }
            }
        }
    }
    add(&b.result, Site::Other, out);
}

/// The expression with nested bodies emptied (their uses are collected separately).
fn shallow_copy(e: &Exp) -> Exp {
    let mut e = e.clone();
    match &mut e {
        Exp::If(_, t, f) => {
            *t = empty_body();
            *f = empty_body();
        }
        Exp::Prim(_) | Exp::Call(..) => {
            weir_ir::visit::for_each_nested_body(&mut e, &mut |b| *b = empty_body());
        }
        Exp::Loop { form, body, .. } => {
            if let LoopForm::While(c) = form {
                *c = empty_body();
            }
            *body = empty_body();
        }
        _ => {}
    }
    e
}

struct Fuse {
    uses: HashMap<Name, usize>,
    sites: HashMap<Name, Vec<Site>>,
    defs: HashMap<Name, Exp>,
    depth: HashMap<Name, usize>,
    types: HashMap<Name, Type>,
    fresh: Fresh,
    /// Builds whose one read was fused element-wise (see [`InOrder`]).
    consumed: Consumed,
    changed: bool,
}

/// The cost of computing a body, if it is cheap (loads and arithmetic only).
fn cost(b: &Body) -> Option<usize> {
    let mut c = 0usize;
    for st in &b.stmts {
        c += match &st.exp {
            Exp::Atom(_) | Exp::Tuple(_) | Exp::Proj(..) | Exp::Dim(..) => 0,
            Exp::Bin(op, _, _) if !matches!(op, BinOp::Div | BinOp::Rem) => 1,
            Exp::Un(..) | Exp::Convert(..) | Exp::Index(..) => 1,
            Exp::Prim(Prim::Build { f, .. }) => match f {
                Fun::Lambda(l) => 1 + cost(&l.body)?,
                Fun::Var(_) => return None,
            },
            _ => return None,
        };
    }
    Some(c)
}

/// Is a body scalar arithmetic only (no loads, divisions, calls, loops or
/// branches), at most [`CHEAP_COST`] operations: the element of
/// `map (+ 1) (iota n)`, a range's?
fn index_arithmetic(b: &Body) -> bool {
    b.stmts.len() <= CHEAP_COST
        && b.stmts.iter().all(|st| match &st.exp {
            Exp::Atom(_) => true,
            Exp::Bin(op, _, _) => !matches!(op, BinOp::Div | BinOp::Rem),
            Exp::Un(..) | Exp::Convert(..) => !matches!(st.ty, Type::Array(..)),
            _ => false,
        })
}

/// Is a body only views of arrays defined outside it (rows, slices,
/// aliases and sizes: no load, no arithmetic), ending in one: the element of
/// a build of rows of slices, which a reader may recompute anywhere?
fn view_only(b: &Body) -> bool {
    b.stmts.len() <= CHEAP_COST
        && matches!(b.result, Atom::Var(_))
        && b.stmts.iter().all(|st| match &st.exp {
            Exp::Index(..) => matches!(st.ty, Type::Array(..)),
            Exp::Slice(..) | Exp::Atom(_) | Exp::Dim(..) => true,
            _ => false,
        })
}

/// Does a body compute a row by a reduction per element (a row of a matrix
/// product: a `build` whose elements each fold or reduce)?
fn row_of_product(b: &Body) -> bool {
    b.stmts.iter().any(|st| match &st.exp {
        Exp::Prim(Prim::Build {
            f: Fun::Lambda(l), ..
        }) => l.body.stmts.iter().any(|t| {
            matches!(
                t.exp,
                Exp::Prim(Prim::IReduce { .. } | Prim::IFold { .. }) | Exp::Loop { .. }
            )
        }),
        _ => false,
    })
}

impl Fuse {
    /// Is the row `y` read two or more loop levels below `depth` (each of
    /// its elements read again for every element of an inner loop: the left
    /// operand of another product)? A row of a product read so stays
    /// materialised: each product is then a loop nest of its own, which the
    /// C backend interchanges and tiles (natural 2mm, `matmul (matmul a b)
    /// c` with a scaling between: fused, every row of the result streamed
    /// all of `b` and `c` from memory, 2.8x PolyBench's C at LARGE).
    fn reread(&self, y: &str, depth: usize) -> bool {
        self.sites.get(y).is_some_and(|sites| {
            sites
                .iter()
                .any(|s| matches!(s, Site::Index(_, d) if *d >= depth + 2))
        })
    }

    /// Is every use of `y` a read by index at most one loop below `depth` (recursively
    /// for rows), or a size query?
    fn only_indexed(&self, y: &str, depth: usize, fuel: usize) -> bool {
        if fuel == 0 {
            return false;
        }
        let Some(sites) = self.sites.get(y) else {
            return true;
        };
        sites.iter().all(|s| match s {
            Site::Dim => true,
            Site::Other => false,
            Site::Index(r, d) => {
                *d <= depth + 1
                    && (!matches!(self.types.get(r), Some(Type::Array(..)))
                        || self.only_indexed(r, *d, fuel - 1))
            }
        })
    }

    fn body(&mut self, b: Body, depth: usize, index: Option<&str>) -> Body {
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            self.nested(&mut st.exp, depth);
            if let Some(stmts) = self.index_build(&st, depth, index) {
                out.extend(stmts.stmts);
                st.exp = Exp::Atom(stmts.result);
                self.changed = true;
            } else if let Some(e) = self.index_slice(&mut out, &st) {
                st.exp = e;
                self.changed = true;
            } else if let Some(e) = self.index_stride(&mut out, &st) {
                st.exp = e;
                self.changed = true;
            }
            self.depth.insert(st.var.clone(), depth);
            self.defs.insert(st.var.clone(), st.exp.clone());
            self.types.insert(st.var.clone(), st.ty.clone());
            out.push(st);
        }
        Body {
            stmts: out,
            result: b.result,
        }
    }

    fn nested(&mut self, e: &mut Exp, depth: usize) {
        match e {
            Exp::If(_, t, f) => {
                *t = self.body(std::mem::replace(t, empty_body()), depth, None);
                *f = self.body(std::mem::replace(f, empty_body()), depth, None);
            }
            Exp::Prim(p) => {
                let b = p.builtin();
                for (k, a) in p.args_mut().into_iter().enumerate() {
                    if let ArgMut::Fun(Fun::Lambda(l)) = a {
                        // the index parameter of the loop this lambda is the body of
                        let idx = b
                            .index_loop()
                            .filter(|&(_, lk, _)| lk == k)
                            .and_then(|(_, _, pk)| l.params.get(pk))
                            .map(|x| x.0.clone());
                        for (n, t) in &l.params {
                            self.depth.insert(n.clone(), depth + 1);
                            self.types.insert(n.clone(), t.clone());
                        }
                        l.body = self.body(
                            std::mem::replace(&mut l.body, empty_body()),
                            depth + 1,
                            idx.as_deref(),
                        );
                    }
                }
            }
            Exp::Call(_, args) => {
                for a in args {
                    if let Arg::Fun(Fun::Lambda(l)) = a {
                        l.body = self.body(
                            std::mem::replace(&mut l.body, empty_body()),
                            depth + 1,
                            None,
                        );
                    }
                }
            }
            Exp::Loop {
                state, form, body, ..
            } => {
                self.depth.insert(state.0.clone(), depth + 1);
                let idx = match form {
                    LoopForm::For(i, _) => {
                        self.depth.insert(i.clone(), depth + 1);
                        Some(i.clone())
                    }
                    LoopForm::While(c) => {
                        *c = self.body(std::mem::replace(c, empty_body()), depth + 1, None);
                        None
                    }
                };
                *body = self.body(
                    std::mem::replace(body, empty_body()),
                    depth + 1,
                    idx.as_deref(),
                );
            }
            _ => {}
        }
    }

    /// `index-build`: the fused statements and result for `st = b[x]`, if the guard allows.
    fn index_build(&mut self, st: &Stmt, depth: usize, index: Option<&str>) -> Option<Body> {
        let Exp::Index(Atom::Var(b), x) = &st.exp else {
            return None;
        };
        let Some(Exp::Prim(Prim::Build {
            n,
            f: Fun::Lambda(l),
        })) = self.defs.get(b)
        else {
            return None;
        };
        let bdepth = *self.depth.get(b)?;
        // (a size query, `dim b 1`, computes no element: `b` stays for it,
        // a residue `dim-of-build` answers from the build's shape)
        let dims = self
            .sites
            .get(b)
            .map_or(0, |s| s.iter().filter(|s| matches!(s, Site::Dim)).count());
        let single = self.uses.get(b).copied().unwrap_or(0) == 1 + dims;
        let same_level = single && depth == bdepth;
        let elementwise = single
            && depth == bdepth + 1
            && matches!((x, index), (Atom::Var(v), Some(i)) if v == i)
            && !(row_of_product(&l.body) && self.reread(&st.var, depth));
        let cheap = cost(&l.body).is_some_and(|c| c <= CHEAP_COST)
            && depth <= bdepth + 1
            && (!matches!(st.ty, Type::Array(..)) || self.only_indexed(&st.var, depth, 8));
        // (an element computed from the index alone, `i + 1`, costs no more
        // than the load that would read it, at any depth)
        let from_index = !matches!(st.ty, Type::Array(..)) && index_arithmetic(&l.body);
        // (a row that is a view of another array, `a[k][s:e]`, costs no
        // load either: the rows of `transpose a[:i, i:]` read in a dot)
        let view = matches!(st.ty, Type::Array(..)) && view_only(&l.body);
        if !(same_level || elementwise || cheap || from_index || view) {
            return None;
        }
        let n = n.clone();
        let mut l = l.clone();
        let p = l.params.first()?.0.clone();
        let map = HashMap::from([(p, x.clone())]);
        freshen_body(&mut l.body, &mut self.fresh, &map);
        // the read's own bounds check stays (`dce` drops it where it is proved)
        let in_bounds = matches!((x, &n), (Atom::Const(Const::I64(i)), Atom::Const(Const::I64(m))) if 0 <= *i && i < m);
        if !in_bounds {
            let chk = stmt(
                self.fresh.name("chk"),
                Type::I64,
                Exp::Check(Box::new(Check::new(
                    CheckKind::Index,
                    vec![x.clone(), n],
                    "",
                ))),
                st.span,
            );
            l.body.stmts.insert(0, chk);
        }
        // record what the copied statements define
        for s in &l.body.stmts {
            self.types.insert(s.var.clone(), s.ty.clone());
        }
        // (a build still read for its size stays: it is not consumed, and
        // dce reduces it to its checks once `dim-of-build` has answered the
        // size queries)
        if elementwise && dims == 0 {
            let names = l.body.stmts.iter().map(|s| s.var.clone()).collect();
            self.consumed.insert(b.clone(), names);
        }
        Some(l.body)
    }

    /// `index-stride`: `s[x]` with `s = stride k b`, `b` a build, reads
    /// `b[x * k]`, after the check the read of `s` made: `0 <= x < n / k +
    /// min(n % k, 1)`, `s`'s length (`k >= 1`: `stride`, or what remains of
    /// it, checked it before).
    fn index_stride(&mut self, out: &mut Vec<Stmt>, st: &Stmt) -> Option<Exp> {
        let Exp::Index(Atom::Var(s), x) = &st.exp else {
            return None;
        };
        let Some(Exp::Prim(Prim::Stride { k, a: Atom::Var(b) })) = self.defs.get(s) else {
            return None;
        };
        if !matches!(self.defs.get(b), Some(Exp::Prim(Prim::Build { .. }))) {
            return None;
        }
        let (k, b, x) = (k.clone(), b.clone(), x.clone());
        let mut emit = |f: &mut Self, base: &str, exp: Exp| {
            let v = f.fresh.name(base);
            out.push(stmt(v.clone(), Type::I64, exp, st.span));
            Atom::Var(v)
        };
        let n = emit(self, "n", Exp::Dim(Atom::Var(b.clone()), 0));
        let q = emit(self, "q", Exp::Bin(BinOp::Div, n.clone(), k.clone()));
        let r = emit(self, "r", Exp::Bin(BinOp::Rem, n, k.clone()));
        let one = Atom::Const(Const::I64(1));
        let m = emit(self, "m", Exp::Math(MathFn::Min, vec![r, one]));
        let w = emit(self, "w", Exp::Bin(BinOp::Add, q, m));
        emit(
            self,
            "chk",
            Exp::Check(Box::new(Check::new(
                CheckKind::Index,
                vec![x.clone(), w],
                "",
            ))),
        );
        let j = emit(self, "j", Exp::Bin(BinOp::Mul, x, k));
        Some(Exp::Index(Atom::Var(b), j))
    }

    /// `index-slice`: `s[x]` with `s = b[lo:hi]`, `b` a build, reads `b[lo + x]`.
    fn index_slice(&mut self, out: &mut Vec<Stmt>, st: &Stmt) -> Option<Exp> {
        let Exp::Index(Atom::Var(s), x) = &st.exp else {
            return None;
        };
        let Some(Exp::Slice(Atom::Var(b), lo, hi)) = self.defs.get(s) else {
            return None;
        };
        if !matches!(self.defs.get(b), Some(Exp::Prim(Prim::Build { .. }))) {
            return None;
        }
        let (b, lo, hi) = (b.clone(), lo.clone(), hi.clone());
        // the read of the slice checks `0 <= x < hi - lo` (the slice's length)
        let w = self.fresh.name("w");
        out.push(stmt(
            w.clone(),
            Type::I64,
            Exp::Bin(BinOp::Sub, hi, lo.clone()),
            st.span,
        ));
        out.push(stmt(
            self.fresh.name("chk"),
            Type::I64,
            Exp::Check(Box::new(Check::new(
                CheckKind::Index,
                vec![x.clone(), Atom::Var(w)],
                "",
            ))),
            st.span,
        ));
        let j = self.fresh.name("j");
        out.push(stmt(
            j.clone(),
            Type::I64,
            Exp::Bin(BinOp::Add, lo, x.clone()),
            st.span,
        ));
        Some(Exp::Index(Atom::Var(b), Atom::Var(j)))
    }
}
