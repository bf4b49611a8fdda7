//! Lowering of library builtins to the three fusible forms: `build` (a generated
//! array), `ifold` (a sequential loop) and `ireduce` (an associative reduction over
//! an index space). After this pass, fusion needs rules for those three forms only.
//!
//! The rule table is [`RULES`]: builtin, and the form it becomes. Builtins not in
//! the table (scan, filter, concat, split, flatten, unflatten, slide) stay
//! primitives: they materialise their result (the C backend writes them
//! directly into their destination).
//!
//! Builtins that require equal lengths (`map2`, `zip`, ...) get explicit
//! `assert_size` checks, and `iota`/`replicate` an `assert_nonneg` of their
//! count, so lowering keeps their errors (with their messages).

use crate::util::*;
use std::collections::{HashMap, HashSet};
use weir_ir::*;

/// The lowering table: each builtin and the form it is lowered to.
pub const RULES: &[(&str, Builtin, &str)] = &[
    ("map", Builtin::Map, "build n (\\i -> f a[i])"),
    (
        "map2",
        Builtin::Map2,
        "build n (\\i -> f a[i] b[i]), lengths checked",
    ),
    (
        "map3",
        Builtin::Map3,
        "build n (\\i -> f a[i] b[i] c[i]), lengths checked",
    ),
    (
        "zip",
        Builtin::Zip,
        "build n (\\i -> (a[i], b[i])), lengths checked",
    ),
    (
        "zip3",
        Builtin::Zip3,
        "build n (\\i -> (a[i], b[i], c[i])), lengths checked",
    ),
    (
        "unzip",
        Builtin::Unzip,
        "(build n (\\i -> a[i].0), build n (\\i -> a[i].1))",
    ),
    ("unzip3", Builtin::Unzip3, "three builds of the projections"),
    ("iota", Builtin::Iota, "build n (\\i -> i)"),
    ("replicate", Builtin::Replicate, "build n (\\i -> x)"),
    (
        "transpose",
        Builtin::Transpose,
        "build c (\\j -> build r (\\i -> a[i][j]))",
    ),
    ("reverse", Builtin::Reverse, "build n (\\i -> a[n - 1 - i])"),
    ("gather", Builtin::Gather, "build m (\\i -> a[idx[i]])"),
    ("sum", Builtin::Sum, "ireduce (+) 0 n (\\i -> a[i])"),
    ("product", Builtin::Product, "ireduce (*) 1 n (\\i -> a[i])"),
    (
        "maximum",
        Builtin::Maximum,
        "ireduce max -inf n (\\i -> a[i])",
    ),
    (
        "minimum",
        Builtin::Minimum,
        "ireduce min inf n (\\i -> a[i])",
    ),
    ("reduce", Builtin::Reduce, "ireduce op ne n (\\i -> a[i])"),
    ("fold", Builtin::Fold, "ifold (\\acc i -> f acc a[i]) z n"),
    (
        "argmax",
        Builtin::ArgMax,
        "(ireduce best (0, -1) n (\\i -> (a[i], if a[i] == a[i] then i else -1))).1",
    ),
    (
        "argmin",
        Builtin::ArgMin,
        "(ireduce best (0, -1) n (\\i -> (a[i], if a[i] == a[i] then i else -1))).1",
    ),
    (
        "rotate",
        Builtin::Rotate,
        "used whole: a[r:n] ++ a[0:r] with r = k mod n (a single-use build operand: its function at i + r, then at i); else r = k mod n and s = n - r once, then build n (\\i -> a[if i < s then i + r else i - s])",
    ),
    (
        "reduce_by_index",
        Builtin::ReduceByIndex,
        "ireduce_by_index dest op ne m (\\j -> (is[j], vs[j])), lengths checked; over rows, a loop updating a copy of dest in place (d with [is[j]] = op d[is[j]] vs[j], indices in range)",
    ),
    (
        "pad",
        Builtin::Pad,
        "(build lo (\\_ -> x) ++ a) ++ build hi (\\_ -> x)",
    ),
];

pub fn run(prog: &mut Program) -> bool {
    run_with(prog, crate::Views::default())
}

/// Lower with the given views decision for `transpose` and `reverse`
/// (dps-views ch. 4): [`crate::Views::None`] lowers every one to a `build`
/// (eager: fusion decides as for any `build`); [`crate::Views::All`] keeps
/// every one (a source view in the DPS translation: an index function over
/// its argument's memory, no copy); [`crate::Views::Heuristic`] keeps those
/// used whole somewhere (returned, passed to a call or a loop, concatenated,
/// scanned, ...: uses that copy the array, where a view saves the copy and
/// the temporary), and lowers those only read by index (where fusion
/// computes the elements in place, or materialises the transpose once for
/// contiguous reads in an inner loop, as in a matrix product).
///
/// A statement annotated in the source (`#[view]`, `#[eager]`: an
/// [`Effect`] of `prog`) gets what it asks for whatever the setting. With
/// [`crate::Views::None`], every `++`/`concat`/`pad` not annotated
/// `#[dest]` is recorded [`Effect::Eager`]: its pieces are computed into
/// storage of their own and copied (F-tilde without destination views, the
/// thesis's baseline).
pub fn run_with(prog: &mut Program, views: crate::Views) -> bool {
    let mut changed = false;
    if views == crate::Views::None {
        let mut eager = Vec::new();
        for d in &prog.defs {
            for (span, p) in prims_with_spans(&d.body) {
                if matches!(
                    p,
                    Builtin::Concat | Builtin::Pad | Builtin::Flatten | Builtin::Unflatten
                ) && prog.effect_at(span) != Some(Effect::Dest)
                {
                    eager.push((span, Effect::Eager));
                }
            }
        }
        for e in eager {
            if !prog.effects.contains(&e) {
                prog.effects.push(e);
            }
        }
    }
    let effects = prog.effects.clone();
    let forced = |span: Span| -> Option<bool> {
        match effects.iter().rev().find(|(s, _)| *s == span)?.1 {
            Effect::Source => Some(true),
            Effect::Eager => Some(false),
            Effect::Dest => None,
        }
    };
    for d in &mut prog.defs {
        let env = type_env(d);
        let mut keep: HashSet<Name> = match views {
            crate::Views::None => HashSet::new(),
            crate::Views::All => view_prims(&d.body),
            crate::Views::Heuristic => {
                // (not a `replicate`: its `build` is fused into its readers
                // or written straight into its consumer, row by row, where a
                // view of stride 0 would be copied element by element)
                let (whole, dense) = whole_uses(&d.body);
                let reps: HashSet<Name> = view_prims_spanned(&d.body)
                    .into_iter()
                    .filter(|(_, _, p)| *p == Builtin::Replicate)
                    .map(|(v, ..)| v)
                    .collect();
                view_prims(&d.body)
                    .into_iter()
                    .filter(|v| whole.contains(v) && !dense.contains(v) && !reps.contains(v))
                    .collect()
            }
        };
        // (a `rotate` used whole: its two pieces copied into their places,
        // the union of two LMADs; one read by index stays a `build`, fused
        // into its readers)
        let mut pieces: HashSet<Name> = HashSet::new();
        if views != crate::Views::None {
            let (whole, _) = whole_uses(&d.body);
            pieces.extend(
                rotates_spanned(&d.body)
                    .into_iter()
                    .filter_map(|(v, _)| whole.contains(&v).then_some(v)),
            );
        }
        for (var, span) in rotates_spanned(&d.body) {
            match effects.iter().rev().find(|(s, _)| *s == span).map(|e| e.1) {
                Some(Effect::Dest) => {
                    pieces.insert(var);
                }
                Some(Effect::Eager) => {
                    pieces.remove(&var);
                }
                _ => {}
            }
        }
        for (var, span, _) in view_prims_spanned(&d.body) {
            match forced(span) {
                Some(true) => {
                    keep.insert(var);
                }
                Some(false) => {
                    keep.remove(&var);
                }
                None => {}
            }
        }
        let mut cx = Cx {
            env,
            fresh: Fresh::for_fun(d),
            changed: false,
            keep,
            pieces,
            uses: weir_ir::visit::use_counts(d),
            nonneg: d.size_params.iter().cloned().collect(),
            counts: HashMap::new(),
            transposes: HashSet::new(),
        };
        let body = std::mem::replace(&mut d.body, empty_body());
        d.body = cx.body(body);
        changed |= cx.changed;
    }
    changed
}

struct Cx {
    env: HashMap<Name, Type>,
    fresh: Fresh,
    changed: bool,
    /// The `transpose`/`reverse` statements kept as views (by variable).
    keep: HashSet<Name>,
    /// The `rotate` statements written as their two pieces (by variable).
    pieces: HashSet<Name>,
    /// How often each variable of the function is used.
    uses: HashMap<Name, usize>,
    /// Variables never negative (the definition's size parameters).
    nonneg: HashSet<Name>,
    /// The count of each `build` seen so far whose type's row count is a
    /// size that may be negative and is not that count: the rows of an
    /// array with none, moved outside by a `transpose` (`[k][0]` from
    /// `[0][k]`, whose rows were never evaluated) have `max k 0` of them,
    /// as has a `map` over it (docs/language.md, "Empty arrays have
    /// shapes"); [`Emit::len`] reads the count, not the type.
    counts: HashMap<Name, Atom>,
    /// The `transpose`s kept as views seen so far (their type's row count
    /// may be such a size too).
    transposes: HashSet<Name>,
}

/// The views decision of every `transpose`, `reverse`, `++`/`concat`,
/// `pad`, `flatten`/`unflatten` and `rotate` of `prog` (after inlining, as [`run_with`] sees it): its span, the
/// builtin, whether it is a view (a source view for `transpose`/`reverse`;
/// pieces written in place, a destination view, for the others), and why
/// (`weir dev --explain-views`). A source view that is a piece of a
/// destination view is copied into its place (Materialize, dps-views
/// Fig. 4.7): the why says so.
pub fn explain(prog: &Program, views: crate::Views) -> Vec<(Span, Builtin, bool, String)> {
    let mut out = Vec::new();
    for d in &prog.defs {
        let (whole, dense) = whole_uses(&d.body);
        let placed = placed_operands(&d.body);
        for (var, span, p) in view_prims_spanned(&d.body) {
            let (keep, why) = match (prog.effect_at(span), views) {
                (Some(Effect::Source), _) if dense.contains(&var) => (
                    true,
                    "a view, as `#[view]` asks; a use needs dense memory (flatten, unflatten, a call), so that use copies it first".to_string(),
                ),
                (Some(Effect::Source), _) => (true, "a view, as `#[view]` asks".to_string()),
                (Some(Effect::Eager), _) => (
                    false,
                    "computed, as `#[eager]` asks (a `build`; fusion may still compute its elements where they are read)".to_string(),
                ),
                (_, crate::Views::None) => (false, "computed: --views=none".to_string()),
                (_, crate::Views::All) => (true, "a view: --views=all".to_string()),
                (_, crate::Views::Heuristic) if p == Builtin::Replicate => (
                    false,
                    "computed: a `build` of its rows, fused into its readers or written straight into its consumer (a view of stride 0 would be copied element by element); `#[view]` or --views=all makes it a view".to_string(),
                ),
                (_, crate::Views::Heuristic) if dense.contains(&var) => (
                    false,
                    "computed: a use needs dense memory (flatten, unflatten, a call), where a view would be copied first".to_string(),
                ),
                (_, crate::Views::Heuristic) if whole.contains(&var) => (
                    true,
                    "a view: used whole (returned, concatenated, a loop's state, ...), so it is read through its index function where it is copied: no temporary of its own (an array it transposes that is computed still has one)".to_string(),
                ),
                (_, crate::Views::Heuristic) => (
                    false,
                    "computed: read by index only, so fused into its readers (or computed once for contiguous reads)".to_string(),
                ),
            };
            let why = match placed.get(&var) {
                Some(c)
                    if keep
                        && match prog.effect_at(*c) {
                            Some(Effect::Dest) => true,
                            Some(Effect::Eager) => false,
                            _ => views != crate::Views::None,
                        } =>
                {
                    format!(
                        "{why}; it is a piece of a `++`/`pad` written in place, where a source view cannot be computed: it is copied into its place (Materialize)"
                    )
                }
                _ => why,
            };
            out.push((span, p, keep, why));
        }
        let mut seen = HashSet::new();
        for (span, p) in prims_with_spans(&d.body) {
            let reshape = matches!(p, Builtin::Flatten | Builtin::Unflatten);
            if !(reshape || matches!(p, Builtin::Concat | Builtin::Pad)) || !seen.insert(span) {
                continue;
            }
            let (keep, why) = match prog.effect_at(span) {
                Some(Effect::Dest) => (
                    true,
                    "pieces written in place, as `#[dest]` asks (where the interpreter's order of errors allows)",
                ),
                Some(Effect::Eager) => (
                    false,
                    "computed into storage of its own, its pieces copied, as `#[eager]` asks",
                ),
                _ if views == crate::Views::None && reshape => (
                    false,
                    "its argument computed into storage of its own and copied: --views=none",
                ),
                _ if views == crate::Views::None => (
                    false,
                    "computed into storage of its own, its pieces copied: --views=none",
                ),
                _ if reshape => (
                    true,
                    "an argument computed into storage of its own is computed straight into the consumer's storage through the inverse reshape (a destination view), where the element counts are provably equal; a view of its argument otherwise",
                ),
                _ => (
                    true,
                    "pieces written in place: a destination view (where the interpreter's order of errors allows)",
                ),
            };
            out.push((span, p, keep, why.to_string()));
        }
        for (var, span) in rotates_spanned(&d.body) {
            let (keep, why) = match prog.effect_at(span) {
                Some(Effect::Dest) => (
                    true,
                    "its two pieces (`a[r:]`, `a[:r]`: two LMADs) written into their places, as `#[dest]` asks",
                ),
                Some(Effect::Eager) => (
                    false,
                    "computed, as `#[eager]` asks: a `build` of `a[(i + k) mod n]` (fusion may compute its elements where they are read)",
                ),
                _ if views == crate::Views::None => (
                    false,
                    "computed: --views=none (a `build` of `a[(i + k) mod n]`)",
                ),
                _ if whole.contains(&var) => (
                    true,
                    "its two pieces (`a[r:]`, `a[:r]`: two LMADs) written into their places: used whole, so copied (or computed) there with no division per element",
                ),
                _ => (
                    false,
                    "computed: read by index only, so fused into its readers (`a[(i + k) mod n]`)",
                ),
            };
            out.push((span, Builtin::Rotate, keep, why.to_string()));
        }
    }
    out.sort_by_key(|(sp, ..)| (sp.file, sp.start));
    out.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    out
}

/// The arrays that are operands of a `++` (a `pad` is lowered to two):
/// each with the span of the concatenation it is a piece of.
fn placed_operands(b: &Body) -> HashMap<Name, Span> {
    let mut out = HashMap::new();
    fn go(b: &Body, out: &mut HashMap<Name, Span>) {
        for s in &b.stmts {
            match &s.exp {
                Exp::Prim(Prim::Concat { a, b }) => {
                    for a in [a, b] {
                        if let Atom::Var(v) = a {
                            out.insert(v.clone(), s.span);
                        }
                    }
                }
                Exp::Prim(Prim::Pad {
                    a: Atom::Var(v), ..
                }) => {
                    out.insert(v.clone(), s.span);
                }
                _ => {}
            }
            weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| go(nb, out));
        }
    }
    go(b, &mut out);
    out
}

/// What `f` gives for each primitive statement of `b` (nested included), in
/// order: the one walker of this pass's decisions.
fn collect_prims<T>(b: &Body, f: &dyn Fn(&Stmt, &Prim) -> Option<T>) -> Vec<T> {
    fn go<T>(b: &Body, f: &dyn Fn(&Stmt, &Prim) -> Option<T>, out: &mut Vec<T>) {
        for s in &b.stmts {
            if let Exp::Prim(p) = &s.exp
                && let Some(x) = f(s, p)
            {
                out.push(x);
            }
            weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| go(nb, f, out));
        }
    }
    let mut out = Vec::new();
    go(b, f, &mut out);
    out
}

/// Every primitive statement of `b` (nested included): its span and builtin.
fn prims_with_spans(b: &Body) -> Vec<(Span, Builtin)> {
    collect_prims(b, &|s, p| Some((s.span, p.builtin())))
}

/// The view primitives of `b` ([`is_view_prim`], nested included):
/// variable, span, builtin.
fn view_prims_spanned(b: &Body) -> Vec<(Name, Span, Builtin)> {
    collect_prims(b, &|s, p| {
        is_view_prim(s).then(|| (s.var.clone(), s.span, p.builtin()))
    })
}

/// Is `s` a primitive that is a view of its argument when not lowered: a
/// `transpose`, a `reverse`, or a `replicate` of an array (a new outer dim
/// of stride 0; a `replicate` of scalars has no memory to view)?
fn is_view_prim(s: &Stmt) -> bool {
    match &s.exp {
        Exp::Prim(Prim::Transpose { .. } | Prim::Reverse { .. }) => true,
        Exp::Prim(Prim::Replicate { .. }) => {
            matches!(&s.ty, Type::Array(_, el) if matches!(**el, Type::Array(..)))
        }
        _ => false,
    }
}

/// The argument a view primitive is a view of.
fn view_source(p: &Prim) -> Option<&Atom> {
    match p {
        Prim::Transpose { a } | Prim::Reverse { a } => Some(a),
        Prim::Replicate { x, .. } => Some(x),
        _ => None,
    }
}

/// The variables bound by view primitives in `b` (nested included).
fn view_prims(b: &Body) -> HashSet<Name> {
    collect_prims(b, &|s, _| is_view_prim(s).then(|| s.var.clone()))
        .into_iter()
        .collect()
}

/// The variables of `b` used *whole* somewhere: anywhere but as the array
/// of an index (`a[i]`), a `dim`, or an argument of a builtin this pass
/// lowers to reads by index (`map`, `sum`, `gather`, ...); and those of them
/// whose use needs a dense row-major array (`flatten`, `unflatten`, a call),
/// where a view would be copied into storage of its own first. An alias
/// (`let y = x`, a slice `x[s:e]`) used so is a use of `x`.
fn whole_uses(b: &Body) -> (HashSet<Name>, HashSet<Name>) {
    let mut whole = HashSet::new();
    let mut dense = HashSet::new();
    let mut alias: Vec<(Name, Name)> = Vec::new();
    fn var(a: &Atom) -> Option<Name> {
        match a {
            Atom::Var(v) => Some(v.clone()),
            Atom::Const(_) => None,
        }
    }
    fn go(
        b: &Body,
        whole: &mut HashSet<Name>,
        dense: &mut HashSet<Name>,
        alias: &mut Vec<(Name, Name)>,
    ) {
        for s in &b.stmts {
            let mut w: Vec<&Atom> = Vec::new();
            let needs_dense = matches!(
                &s.exp,
                Exp::Call(..) | Exp::Prim(Prim::Flatten { .. } | Prim::Unflatten { .. })
            );
            match &s.exp {
                Exp::Atom(a) | Exp::Slice(a, ..) => {
                    if let Some(x) = var(a) {
                        alias.push((s.var.clone(), x));
                    }
                }
                Exp::Index(..) | Exp::Dim(..) => {}
                // (a view of a view: the inner one is used as the outer one is)
                Exp::Prim(p) if is_view_prim(s) => {
                    if let Some(Atom::Var(x)) = view_source(p) {
                        alias.push((s.var.clone(), x.clone()));
                    }
                }
                Exp::Tuple(xs) | Exp::ArrayLit(xs) | Exp::Apply(_, xs) => w.extend(xs),
                Exp::Call(_, args) => w.extend(args.iter().filter_map(|a| match a {
                    Arg::Atom(a) => Some(a),
                    Arg::Fun(_) => None,
                })),
                Exp::Prim(p) => {
                    let b = p.builtin();
                    let lowered = RULES.iter().any(|(_, q, _)| *q == b) && b != Builtin::Pad;
                    match p {
                        // (the destination of a reduce_by_index is used whole)
                        Prim::ReduceByIndex { dest, .. } if lowered => w.push(dest),
                        _ if lowered => {}
                        _ => w.extend(p.atoms()),
                    }
                }
                Exp::Loop { init, .. } => w.push(init),
                _ => {}
            }
            let w: Vec<Name> = w.into_iter().filter_map(var).collect();
            if needs_dense {
                dense.extend(w.iter().cloned());
            }
            whole.extend(w);
            weir_ir::visit::for_each_nested_body_ref(&s.exp, &mut |nb| go(nb, whole, dense, alias));
        }
        if let Some(x) = var(&b.result) {
            whole.insert(x);
        }
    }
    go(b, &mut whole, &mut dense, &mut alias);
    // (to a fixed point: aliases of aliases)
    loop {
        let before = whole.len() + dense.len();
        for (y, x) in &alias {
            if whole.contains(y) {
                whole.insert(x.clone());
            }
            if dense.contains(y) {
                dense.insert(x.clone());
            }
        }
        if whole.len() + dense.len() == before {
            break;
        }
    }
    (whole, dense)
}

/// Statements being emitted, with the span they get.
struct Emit<'a> {
    out: Vec<Stmt>,
    span: Span,
    cx: &'a mut Cx,
}

impl Emit<'_> {
    fn emit(&mut self, base: &str, ty: Type, exp: Exp) -> Atom {
        let n = self.cx.fresh.name(base);
        self.cx.env.insert(n.clone(), ty.clone());
        self.out.push(stmt(n.clone(), ty, exp, self.span));
        Atom::Var(n)
    }
    fn ty(&self, a: &Atom) -> Type {
        atom_type(a, &self.cx.env)
    }
    fn elem(&self, a: &Atom) -> Type {
        self.ty(a).elem().cloned().unwrap_or(Type::F64)
    }
    fn len(&mut self, a: &Atom) -> Atom {
        if let Atom::Var(v) = a
            && let Some(n) = self.cx.counts.get(v)
        {
            return n.clone();
        }
        if let Some(s) = size_at(&self.ty(a), 0).and_then(size_atom) {
            // a `transpose` kept as a view: `max n 0` rows (see `dim_size`)
            if let Atom::Var(v) = a
                && self.cx.transposes.contains(v)
            {
                return self.dim_size(s);
            }
            return s;
        }
        self.emit("n", Type::I64, Exp::Dim(a.clone(), 0))
    }
    /// A size of the rows of `a` from its type as the row count of its
    /// `transpose`: `max n 0` where `n` may be negative (a size of the rows
    /// of an array with none, never evaluated, which `dim` gives as 0:
    /// docs/language.md, "Empty arrays have shapes").
    fn dim_size(&mut self, n: Atom) -> Atom {
        match &n {
            Atom::Const(c) if c.as_int().is_some_and(|c| c >= 0) => n,
            Atom::Const(_) => Atom::Const(Const::I64(0)),
            Atom::Var(v) if self.cx.nonneg.contains(v) => n,
            Atom::Var(_) => self.emit(
                "n",
                Type::I64,
                Exp::Math(MathFn::Max, vec![n, Atom::Const(Const::I64(0))]),
            ),
        }
    }
    /// A lambda of one `i64` parameter whose body is built by `f`.
    fn index_lambda(&mut self, ret: Type, f: impl FnOnce(&mut Emit, Atom) -> Atom) -> Lambda {
        let i = self.cx.fresh.name("i");
        self.cx.env.insert(i.clone(), Type::I64);
        let mut inner = Emit {
            out: vec![],
            span: self.span,
            cx: self.cx,
        };
        let r = f(&mut inner, Atom::Var(i.clone()));
        Lambda {
            params: vec![(i, Type::I64)],
            ret,
            body: Body {
                stmts: inner.out,
                result: r,
            },
        }
    }
    /// Apply a lambda to atoms (β-reduction with fresh names).
    fn apply(&mut self, f: &Fun, xs: &[Atom], ret: &Type) -> Atom {
        match f {
            Fun::Lambda(l) => {
                let mut l = l.clone();
                freshen_lambda(&mut l, &mut self.cx.fresh);
                for ((p, t), x) in l.params.iter().zip(xs) {
                    self.cx.env.insert(p.clone(), t.clone());
                    self.out
                        .push(stmt(p.clone(), t.clone(), Exp::Atom(x.clone()), self.span));
                }
                let mut e = TypeCollector(&mut self.cx.env);
                weir_ir::visit::walk_body_mut(&mut e, &mut l.body);
                self.out.append(&mut l.body.stmts);
                l.body.result
            }
            Fun::Var(g) => self.emit("r", ret.clone(), Exp::Apply(g.clone(), xs.to_vec())),
        }
    }
    /// The count of `iota`/`replicate` is checked as the builtin checks it (its
    /// message), before the `build` that replaces it.
    fn check_count(&mut self, n: &Atom, what: &str) {
        if matches!(n, Atom::Const(Const::I64(k)) if *k >= 0) {
            return;
        }
        self.emit(
            "chk",
            Type::I64,
            Exp::Check(Box::new(Check::new(
                CheckKind::NonNeg,
                vec![n.clone()],
                what,
            ))),
        );
    }

    /// `a` has length `n`, where `a` is the operand `param` of the builtin
    /// `what` (`argK`, the K-th array, or `values`: how
    /// [`SizeCheck::operand_message`] names it to the user).
    fn check_len(&mut self, a: &Atom, n: &Atom, what: &str, param: &str) {
        let got = self.len(a);
        if &got == n {
            return;
        }
        self.emit(
            "chk",
            Type::I64,
            Exp::CheckSize(Box::new(SizeCheck {
                got,
                want: n.clone(),
                callee: what.to_string(),
                param: param.to_string(),
                size: "n".into(),
            })),
        );
    }
}

struct TypeCollector<'a>(&'a mut HashMap<Name, Type>);
impl weir_ir::visit::MutVisitor for TypeCollector<'_> {
    fn ty(&mut self, t: &mut Type) {
        self.0.insert("\0last".into(), t.clone());
    }
    fn binder(&mut self, n: &mut Name) {
        let t = self.0.remove("\0last").unwrap_or(Type::I64);
        self.0.insert(n.clone(), t);
    }
}

fn idx(e: &mut Emit, a: &Atom, i: &Atom) -> Atom {
    let t = e.elem(a);
    e.emit("x", t, Exp::Index(a.clone(), i.clone()))
}

impl Cx {
    fn body(&mut self, b: Body) -> Body {
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut st in b.stmts {
            self.nested(&mut st.exp);
            if let Exp::Prim(Prim::Rotate { k, a }) = &st.exp
                && self.pieces.contains(&st.var)
            {
                let (k, a) = (k.clone(), a.clone());
                let mut e = Emit {
                    out: vec![],
                    span: st.span,
                    cx: self,
                };
                if let Some(exp) = rotate_pieces(&mut e, k, a, &st.ty, &out) {
                    let mut stmts = e.out;
                    out.append(&mut stmts);
                    out.push(Stmt { exp, ..st });
                    self.note_count(&out[out.len() - 1]);
                    self.changed = true;
                    continue;
                }
            }
            if let Exp::Prim(p) = &st.exp
                && RULES.iter().any(|(_, q, _)| *q == p.builtin())
                && !self.keep.contains(&st.var)
            {
                let p = p.clone();
                let mut e = Emit {
                    out: vec![],
                    span: st.span,
                    cx: self,
                };
                if let Some(exp) = lower(&mut e, p, &st.ty) {
                    let mut stmts = e.out;
                    out.append(&mut stmts);
                    out.push(Stmt { exp, ..st });
                    self.note_count(&out[out.len() - 1]);
                    self.changed = true;
                    continue;
                }
            }
            self.note_count(&st);
            out.push(st);
        }
        Body {
            stmts: out,
            result: b.result,
        }
    }

    /// Record `st`'s count (see [`Cx::counts`]) where it is a `build` whose
    /// type names another row count that may be negative.
    fn note_count(&mut self, st: &Stmt) {
        if let Exp::Prim(Prim::Transpose { .. }) = &st.exp {
            self.transposes.insert(st.var.clone());
        }
        let Exp::Prim(Prim::Build { n, .. }) = &st.exp else {
            return;
        };
        let Some(Atom::Var(t)) = size_at(&st.ty, 0).and_then(size_atom) else {
            return;
        };
        if *n != Atom::Var(t.clone()) && !self.nonneg.contains(&t) {
            self.counts.insert(st.var.clone(), n.clone());
        }
    }

    fn nested(&mut self, e: &mut Exp) {
        weir_ir::visit::for_each_nested_body(e, &mut |b| {
            *b = self.body(std::mem::replace(b, empty_body()));
        });
    }
}

fn build(n: Atom, l: Lambda) -> Exp {
    Exp::Prim(Prim::Build {
        n,
        f: Fun::Lambda(Box::new(l)),
    })
}

/// `reduce_by_index` whose elements are arrays (rows): a loop over the
/// indices updating a copy of `dest` in place, one row at a time, in order,
/// an index out of range skipped (the interpreter's order; a row is the
/// operator's result on the old row and the value, checked to have the
/// row's shape by the update):
///
/// ```text
/// loop d = copy dest for j < m do
///   let i = is[j] in
///   if 0 <= i && i < n then d with [i] = op d[i] vs[j] else d
/// ```
fn rows_by_index(e: &mut Emit, dest: Atom, op: Fun, is: Atom, vs: Atom, m: Atom, ty: &Type) -> Exp {
    let n = e.len(&dest);
    let row = e.elem(&dest);
    let init = e.emit("d", ty.clone(), Exp::Prim(Prim::Copy { a: dest }));
    let d = e.cx.fresh.name("d");
    e.cx.env.insert(d.clone(), ty.clone());
    let j = e.cx.fresh.name("j");
    e.cx.env.insert(j.clone(), Type::I64);
    let (span, jv, dv) = (e.span, Atom::Var(j.clone()), Atom::Var(d.clone()));
    let mut body = Emit {
        out: vec![],
        span,
        cx: e.cx,
    };
    let i = idx(&mut body, &is, &jv);
    let low = body.emit(
        "c",
        Type::BOOL,
        Exp::Bin(BinOp::Le, Atom::Const(Const::I64(0)), i.clone()),
    );
    let high = body.emit("c", Type::BOOL, Exp::Bin(BinOp::Lt, i.clone(), n));
    let inside = body.emit("c", Type::BOOL, Exp::Bin(BinOp::And, low, high));
    let mut then = Emit {
        out: vec![],
        span,
        cx: body.cx,
    };
    let old = idx(&mut then, &dv, &i);
    let v = idx(&mut then, &vs, &jv);
    let new = then.apply(&op, &[old, v], &row);
    let written = then.emit(
        "d",
        ty.clone(),
        Exp::Prim(Prim::Update {
            a: dv.clone(),
            i,
            v: new,
        }),
    );
    let then = Body {
        stmts: then.out,
        result: written,
    };
    let next = body.emit(
        "d",
        ty.clone(),
        Exp::If(
            inside,
            then,
            Body {
                stmts: vec![],
                result: dv,
            },
        ),
    );
    let body = Body {
        stmts: body.out,
        result: next,
    };
    Exp::Loop {
        state: (d, ty.clone()),
        init,
        form: LoopForm::For(j, m),
        body,
    }
}

/// The lowered expression for `p` (whose type is `ty`); helper statements go to `e`.
fn lower(e: &mut Emit, p: Prim, ty: &Type) -> Option<Exp> {
    let el = ty.elem().cloned().unwrap_or(Type::F64);
    let builtin = p.builtin();
    let name = builtin.name();
    Some(match p {
        Prim::Map { f, a } => map_build(e, name, Some(f), a, vec![], el),
        Prim::Map2 { f, a, b } => map_build(e, name, Some(f), a, vec![b], el),
        Prim::Map3 { f, a, b, c } => map_build(e, name, Some(f), a, vec![b, c], el),
        Prim::Zip { a, b } => map_build(e, name, None, a, vec![b], el),
        Prim::Zip3 { a, b, c } => map_build(e, name, None, a, vec![b, c], el),
        Prim::Unzip { a } | Prim::Unzip3 { a } => {
            let Type::Tuple(parts) = ty else { return None };
            let n = e.len(&a);
            let mut outs = Vec::new();
            for (k, pt) in parts.iter().enumerate() {
                let cel = pt.elem().cloned().unwrap_or(Type::F64);
                let l = e.index_lambda(cel.clone(), |e, i| {
                    let x = idx(e, &a, &i);
                    e.emit("y", cel.clone(), Exp::Proj(x, k))
                });
                outs.push(e.emit("u", pt.clone(), build(n.clone(), l)));
            }
            Exp::Tuple(outs)
        }
        Prim::Iota { n } => {
            e.check_count(&n, "iota");
            let l = e.index_lambda(Type::I64, |_, i| i);
            build(n, l)
        }
        Prim::Replicate { n, x } => {
            e.check_count(&n, "replicate");
            let l = e.index_lambda(el, |_, _| x);
            build(n, l)
        }
        Prim::Transpose { a } => {
            let r = e.len(&a);
            // (rows of an empty array may have a negative size, never
            // evaluated, whose transpose has no rows)
            let c = match size_at(&e.ty(&a), 1).and_then(size_atom) {
                Some(c) => e.dim_size(c),
                None => e.emit("m", Type::I64, Exp::Dim(a.clone(), 1)),
            };
            let inner_el = el.elem().cloned().unwrap_or(Type::F64);
            let l = e.index_lambda(el.clone(), |e, j| {
                let il = e.index_lambda(inner_el.clone(), |e, i| {
                    let row = idx(e, &a, &i);
                    idx(e, &row, &j)
                });
                e.emit("col", el.clone(), build(r, il))
            });
            build(c, l)
        }
        Prim::Reverse { a } => {
            let n = e.len(&a);
            let l = e.index_lambda(el, |e, i| {
                let last = e.emit(
                    "k",
                    Type::I64,
                    Exp::Bin(BinOp::Sub, n.clone(), Atom::Const(Const::I64(1))),
                );
                let j = e.emit("j", Type::I64, Exp::Bin(BinOp::Sub, last, i));
                idx(e, &a, &j)
            });
            build(n, l)
        }
        Prim::ReduceByIndex {
            dest,
            op,
            ne: _,
            is,
            vs,
        } if matches!(e.elem(&dest), Type::Array(..)) => {
            let m = e.len(&is);
            e.check_len(&vs, &m, name, "values");
            rows_by_index(e, dest, op, is, vs, m, ty)
        }
        Prim::ReduceByIndex {
            dest,
            op,
            ne,
            is,
            vs,
        } => {
            let m = e.len(&is);
            e.check_len(&vs, &m, name, "values");
            let vt = e.elem(&vs);
            let pair = Type::Tuple(vec![Type::I64, vt.clone()]);
            let g = e.index_lambda(pair.clone(), |e, j| {
                let ix = idx(e, &is, &j);
                let v = idx(e, &vs, &j);
                e.emit("p", pair, Exp::Tuple(vec![ix, v]))
            });
            Exp::Prim(Prim::IReduceByIndex {
                dest,
                op,
                ne,
                m,
                f: Fun::Lambda(Box::new(g)),
            })
        }
        Prim::Gather { a, is: ix } => {
            let n = e.len(&ix);
            let l = e.index_lambda(el, |e, i| {
                let j = idx(e, &ix, &i);
                idx(e, &a, &j)
            });
            build(n, l)
        }
        Prim::Sum { a } | Prim::Product { a } | Prim::Maximum { a } | Prim::Minimum { a } => {
            let pt = ty.prim()?;
            let (op, ne) = monoid(builtin, pt)?;
            let n = e.len(&a);
            let g = e.index_lambda(ty.clone(), |e, i| idx(e, &a, &i));
            let opl = op_lambda(e, op, ty);
            Exp::Prim(Prim::IReduce {
                op: Fun::Lambda(Box::new(opl)),
                ne: Atom::Const(ne),
                n,
                f: Fun::Lambda(Box::new(g)),
            })
        }
        Prim::Reduce { op, ne, a } => {
            let n = e.len(&a);
            let g = e.index_lambda(ty.clone(), |e, i| idx(e, &a, &i));
            Exp::Prim(Prim::IReduce {
                op,
                ne,
                n,
                f: Fun::Lambda(Box::new(g)),
            })
        }
        Prim::Fold { op: f, init: z, a } => {
            let n = e.len(&a);
            let acc = e.cx.fresh.name("acc");
            let i = e.cx.fresh.name("i");
            e.cx.env.insert(acc.clone(), ty.clone());
            e.cx.env.insert(i.clone(), Type::I64);
            let mut inner = Emit {
                out: vec![],
                span: e.span,
                cx: e.cx,
            };
            let x = idx(&mut inner, &a, &Atom::Var(i.clone()));
            let r = inner.apply(&f, &[Atom::Var(acc.clone()), x], ty);
            let l = Lambda {
                params: vec![(acc, ty.clone()), (i, Type::I64)],
                ret: ty.clone(),
                body: Body {
                    stmts: inner.out,
                    result: r,
                },
            };
            Exp::Prim(Prim::IFold {
                f: Fun::Lambda(Box::new(l)),
                init: z,
                n,
            })
        }
        Prim::ArgMax { a } | Prim::ArgMin { a } => {
            // An associative, commutative `best` of (value, index) pairs whose
            // index is -1 for "none" (the neutral element, and NaN elements):
            // the greater (smaller) value, the smaller index on a tie, so any
            // order of reduction gives the interpreter's first best index.
            let t = e.elem(&a);
            let pt = t.prim()?;
            let pair = Type::Tuple(vec![t.clone(), Type::I64]);
            let n = e.len(&a);
            let zero = Const::zero(pt);
            let float = matches!(pt, PrimType::F64 | PrimType::F32);
            let ne = e.emit(
                "ne",
                pair.clone(),
                Exp::Tuple(vec![Atom::Const(zero), Atom::Const(Const::I64(-1))]),
            );
            let g = e.index_lambda(pair.clone(), |e, i| {
                let x = idx(e, &a, &i);
                let j = if float {
                    let ok = e.emit("ok", Type::BOOL, Exp::Bin(BinOp::Eq, x.clone(), x.clone()));
                    e.emit(
                        "j",
                        Type::I64,
                        Exp::If(
                            ok,
                            Body {
                                stmts: vec![],
                                result: i,
                            },
                            Body {
                                stmts: vec![],
                                result: Atom::Const(Const::I64(-1)),
                            },
                        ),
                    )
                } else {
                    i
                };
                e.emit("p", pair.clone(), Exp::Tuple(vec![x, j]))
            });
            let op = best_lambda(e, &pair, &t, builtin == Builtin::ArgMax);
            let r = e.emit(
                "best",
                pair,
                Exp::Prim(Prim::IReduce {
                    op: Fun::Lambda(Box::new(op)),
                    ne,
                    n,
                    f: Fun::Lambda(Box::new(g)),
                }),
            );
            Exp::Proj(r, 1)
        }
        Prim::Rotate { k, a } => {
            // `r[i] = a[(i + k) mod n]`: `r = k mod n` once, in `0..n`
            // (`rotate_shift`), and `s = n - r`, then per element `a[i + r]`
            // where `i < s`, else `a[i - s]`: a comparison, no division. The
            // body cannot fail (it runs only when n > 0); the two checks of
            // `r` and `s` never fail either, and tell the optimizer (`facts`)
            // that both indices are in bounds, so no check is left per element.
            let n = e.len(&a);
            let r = rotate_shift(e, &k, &n);
            let s = e.emit("s", Type::I64, Exp::Bin(BinOp::Sub, n.clone(), r.clone()));
            for x in [&r, &s] {
                e.emit(
                    "chk",
                    Type::I64,
                    Exp::Check(Box::new(Check::new(
                        CheckKind::NonNeg,
                        vec![x.clone()],
                        "rotate",
                    ))),
                );
            }
            let l = e.index_lambda(el, |e, i| {
                let below = e.emit("lt", Type::BOOL, Exp::Bin(BinOp::Lt, i.clone(), s.clone()));
                let t = e.cx.fresh.name("t");
                let u = e.cx.fresh.name("u");
                e.cx.env.insert(t.clone(), Type::I64);
                e.cx.env.insert(u.clone(), Type::I64);
                let j = e.emit(
                    "j",
                    Type::I64,
                    Exp::If(
                        below,
                        Body {
                            stmts: vec![stmt(
                                t.clone(),
                                Type::I64,
                                Exp::Bin(BinOp::Add, i.clone(), r.clone()),
                                e.span,
                            )],
                            result: Atom::Var(t),
                        },
                        Body {
                            stmts: vec![stmt(
                                u.clone(),
                                Type::I64,
                                Exp::Bin(BinOp::Sub, i, s.clone()),
                                e.span,
                            )],
                            result: Atom::Var(u),
                        },
                    ),
                );
                idx(e, &a, &j)
            });
            build(n, l)
        }
        Prim::Pad { lo, hi, x, a } => {
            // The paddings are counted as `pad` counts them (its message), then
            // the pieces are concatenated, which checks the shape of `x` against
            // the elements' even when a piece is empty.
            e.check_count(&lo, "pad");
            e.check_count(&hi, "pad");
            // (a piece's rows have the type of `x`, not the elements': where
            // `x`'s size is unknown, an empty piece's rows take `x`'s shape,
            // which the concatenation then checks against the elements')
            let xt = e.ty(&x);
            let side = |e: &mut Emit, n: &Atom| {
                let l = e.index_lambda(xt.clone(), |_, _| x.clone());
                let t = Type::Array(size_of_atom(n), Box::new(xt.clone()));
                e.emit("p", t, build(n.clone(), l))
            };
            let left = side(e, &lo);
            let mid_t = Type::Array(Size::Unknown, Box::new(el.clone()));
            let mid = e.emit("q", mid_t, Exp::Prim(Prim::Concat { a: left, b: a }));
            let right = side(e, &hi);
            Exp::Prim(Prim::Concat { a: mid, b: right })
        }
        _ => return None,
    })
}

/// `map f a b ..` (`f` given) or `zip a b ..` (`f` absent: the tuple of the
/// elements) as a `build` over the first array's length, the others checked
/// against it in order.
fn map_build(e: &mut Emit, name: &str, f: Option<Fun>, a: Atom, rest: Vec<Atom>, el: Type) -> Exp {
    let n = e.len(&a);
    let mut arrays = vec![a];
    arrays.extend(rest);
    for (k, a) in arrays.iter().enumerate().skip(1) {
        e.check_len(a, &n, name, &format!("arg{}", k + 1));
    }
    let l = e.index_lambda(el.clone(), |e, i| {
        let xs: Vec<Atom> = arrays.iter().map(|a| idx(e, a, &i)).collect();
        match &f {
            Some(f) => e.apply(f, &xs, &el),
            None => e.emit("t", el.clone(), Exp::Tuple(xs)),
        }
    });
    build(n, l)
}

/// `rotate k a` as its two pieces, `a[r:n] ++ a[0:r]` with `r = k mod n`
/// (in `0..n`; 0 for an empty `a`): the union of two LMADs over `a`'s
/// memory, each piece copied into its part of the result (or computed
/// there: `short-circuit`), with no division per element. Where `a` is a
/// `build` of `before` used only here (a lowered `map`, ...), the pieces are
/// two `build`s of its elements, `a`'s function at `i + r` and at `i`: each
/// element computed once, straight into its place (a destination view); the
/// unused `build` leaves what `dce` keeps of it (its elements' checks, in
/// the interpreter's order, where they can fail). Only where the type of `a`'s rows names every size: a piece of no rows
/// has the shape the interpreter learns by running the function once on
/// stand-ins (docs/language.md, "Empty arrays have shapes"), which for rows
/// made by a `filter` (kept nothing) or a branch on data is not the other
/// piece's, and `++` would then fail where `rotate` does not.
fn rotate_pieces(e: &mut Emit, k: Atom, a: Atom, ty: &Type, before: &[Stmt]) -> Option<Exp> {
    let el = ty.elem().cloned()?;
    let producer = match &a {
        Atom::Var(v) if e.cx.uses.get(v) == Some(&1) => before
            .iter()
            .rev()
            .find(|s| &s.var == v)
            .and_then(|s| match &s.exp {
                Exp::Prim(Prim::Build {
                    n,
                    f: f @ Fun::Lambda(l),
                }) if l.params.len() == 1 && ret_sizes_invariant(l) => Some((n.clone(), f.clone())),
                _ => None,
            }),
        _ => None,
    };
    let n = match &producer {
        Some((n, _)) => n.clone(),
        None => e.len(&a),
    };
    let r = rotate_shift(e, &k, &n);
    let rest = e.emit("n", Type::I64, Exp::Bin(BinOp::Sub, n.clone(), r.clone()));
    let piece_t = Type::Array(Size::Unknown, Box::new(el.clone()));
    let (hi, lo) = match producer {
        Some((_, f)) => {
            let shifted = e.index_lambda(el.clone(), |e, i| {
                let j = e.emit("j", Type::I64, Exp::Bin(BinOp::Add, i, r.clone()));
                e.apply(&f, &[j], &el)
            });
            let hi = e.emit("hi", piece_t.clone(), build(rest, shifted));
            let same = e.index_lambda(el.clone(), |e, i| e.apply(&f, &[i], &el));
            let lo = e.emit("lo", piece_t, build(r, same));
            (hi, lo)
        }
        None => {
            let hi = e.emit("hi", piece_t.clone(), Exp::Slice(a.clone(), r.clone(), n));
            let lo = e.emit("lo", piece_t, Exp::Slice(a, Atom::Const(Const::I64(0)), r));
            (hi, lo)
        }
    };
    Some(Exp::Prim(Prim::Concat { a: hi, b: lo }))
}

/// `k mod n` of a `rotate` of `n` rows, in `0..n` (0 for `n = 0`): `r0 = k %
/// m` with `m = max n 1`, then `max r0 0 + (min r0 0 + m) % m` (no overflow
/// for any `m`, in arithmetic the shape stage follows, so a rotate's pieces
/// in a `map` keep a known row size).
fn rotate_shift(e: &mut Emit, k: &Atom, n: &Atom) -> Atom {
    let one = Atom::Const(Const::I64(1));
    let m = e.emit("m", Type::I64, Exp::Math(MathFn::Max, vec![n.clone(), one]));
    let r0 = e.emit("r", Type::I64, Exp::Bin(BinOp::Rem, k.clone(), m.clone()));
    let zero = Atom::Const(Const::I64(0));
    let p = e.emit(
        "p",
        Type::I64,
        Exp::Math(MathFn::Max, vec![r0.clone(), zero.clone()]),
    );
    let q = e.emit("q", Type::I64, Exp::Math(MathFn::Min, vec![r0, zero]));
    let q = e.emit("q", Type::I64, Exp::Bin(BinOp::Add, q, m.clone()));
    let q = e.emit("q", Type::I64, Exp::Bin(BinOp::Rem, q, m));
    let r = e.emit("r", Type::I64, Exp::Bin(BinOp::Add, p, q));
    // (`max r 0` is `r`: one opaque value for the optimizer's facts, which
    // the checks of the `build` form bound between 0 and n)
    e.emit(
        "r",
        Type::I64,
        Exp::Math(MathFn::Max, vec![r, Atom::Const(Const::I64(0))]),
    )
}

/// The `rotate` statements of `b` (nested included): variable and span.
fn rotates_spanned(b: &Body) -> Vec<(Name, Span)> {
    collect_prims(b, &|s, p| {
        matches!(p, Prim::Rotate { .. }).then(|| (s.var.clone(), s.span))
    })
}

/// The size an `i64` atom stands for in a type.
fn size_of_atom(a: &Atom) -> Size {
    match a {
        Atom::Const(Const::I64(k)) => Size::Const(*k),
        Atom::Var(v) => Size::Var(v.clone()),
        _ => Size::Unknown,
    }
}

enum Op {
    Bin(BinOp),
    Math(MathFn),
}

fn monoid(p: Builtin, t: PrimType) -> Option<(Op, Const)> {
    if t == PrimType::Bool {
        return None;
    }
    Some(match p {
        Builtin::Sum => (Op::Bin(BinOp::Add), Const::zero(t)),
        Builtin::Product => (Op::Bin(BinOp::Mul), Const::one(t)),
        Builtin::Maximum => (Op::Math(MathFn::Max), Const::lowest(t)),
        Builtin::Minimum => (Op::Math(MathFn::Min), Const::highest(t)),
        _ => return None,
    })
}

/// `\a b -> ...`: of two (value, index) pairs (`pair`), the one `argmax`
/// (`max`) or `argmin` keeps: a pair with index -1 loses; else the greater
/// (smaller) value; on equal values, the smaller index.
fn best_lambda(e: &mut Emit, pair: &Type, t: &Type, max: bool) -> Lambda {
    let span = e.span;
    let a = e.cx.fresh.name("a");
    let b = e.cx.fresh.name("b");
    let mut f = |s: &str| e.cx.fresh.name(s);
    let (a0, a1, b0, b1) = (f("av"), f("ai"), f("bv"), f("bi"));
    let (an, bn, bw, aw, mi, tie) = (f("an"), f("bn"), f("bw"), f("aw"), f("mi"), f("tie"));
    let (r1, r2, r3, r4) = (f("r"), f("r"), f("r"), f("r"));
    let v = |n: &Name| Atom::Var(n.clone());
    // "better": greater for argmax, smaller for argmin
    let gt = if max { BinOp::Gt } else { BinOp::Lt };
    let leaf = |x: Atom| Body {
        stmts: vec![],
        result: x,
    };
    let neg = Atom::Const(Const::I64(-1));
    // on a tie: (a's value, the smaller index)
    let tie_body = Body {
        stmts: vec![
            stmt(
                mi.clone(),
                Type::I64,
                Exp::Math(MathFn::Min, vec![v(&a1), v(&b1)]),
                span,
            ),
            stmt(
                tie.clone(),
                pair.clone(),
                Exp::Tuple(vec![v(&a0), v(&mi)]),
                span,
            ),
        ],
        result: v(&tie),
    };
    let a_better = Body {
        stmts: vec![
            stmt(aw.clone(), Type::BOOL, Exp::Bin(gt, v(&a0), v(&b0)), span),
            stmt(
                r4.clone(),
                pair.clone(),
                Exp::If(v(&aw), leaf(v(&a)), tie_body),
                span,
            ),
        ],
        result: v(&r4),
    };
    let b_better = Body {
        stmts: vec![
            stmt(bw.clone(), Type::BOOL, Exp::Bin(gt, v(&b0), v(&a0)), span),
            stmt(
                r3.clone(),
                pair.clone(),
                Exp::If(v(&bw), leaf(v(&b)), a_better),
                span,
            ),
        ],
        result: v(&r3),
    };
    let b_absent = Body {
        stmts: vec![
            stmt(
                bn.clone(),
                Type::BOOL,
                Exp::Bin(BinOp::Eq, v(&b1), neg.clone()),
                span,
            ),
            stmt(
                r2.clone(),
                pair.clone(),
                Exp::If(v(&bn), leaf(v(&a)), b_better),
                span,
            ),
        ],
        result: v(&r2),
    };
    Lambda {
        params: vec![(a.clone(), pair.clone()), (b.clone(), pair.clone())],
        ret: pair.clone(),
        body: Body {
            stmts: vec![
                stmt(a0.clone(), t.clone(), Exp::Proj(v(&a), 0), span),
                stmt(a1.clone(), Type::I64, Exp::Proj(v(&a), 1), span),
                stmt(b0.clone(), t.clone(), Exp::Proj(v(&b), 0), span),
                stmt(b1.clone(), Type::I64, Exp::Proj(v(&b), 1), span),
                stmt(
                    an.clone(),
                    Type::BOOL,
                    Exp::Bin(BinOp::Eq, v(&a1), neg),
                    span,
                ),
                stmt(
                    r1.clone(),
                    pair.clone(),
                    Exp::If(v(&an), leaf(v(&b)), b_absent),
                    span,
                ),
            ],
            result: v(&r1),
        },
    }
}

fn op_lambda(e: &mut Emit, op: Op, t: &Type) -> Lambda {
    let a = e.cx.fresh.name("a");
    let b = e.cx.fresh.name("b");
    let r = e.cx.fresh.name("r");
    let (x, y) = (Atom::Var(a.clone()), Atom::Var(b.clone()));
    let exp = match op {
        Op::Bin(o) => Exp::Bin(o, x, y),
        Op::Math(m) => Exp::Math(m, vec![x, y]),
    };
    Lambda {
        params: vec![(a, t.clone()), (b, t.clone())],
        ret: t.clone(),
        body: Body {
            stmts: vec![stmt(r.clone(), t.clone(), exp, e.span)],
            result: Atom::Var(r),
        },
    }
}
