//! The shape walk (dps-ftilde §3.3 Fig. 7, size slicing §3): the shape of
//! every array a function computes, statement by statement, in the shape
//! language ([`Dim`]), before any value.
//!
//! A core function's values are flattened into *leaves* (a tuple into its
//! components, an array of tuples into a tuple of arrays), each a variable
//! of a [`DType`]; [`ShapeWalk::shape_exp`] gives the shape of each array
//! leaf a statement binds, and [`ShapeWalk::shape_bind`] binds them.
//! Sizes known only once a construct has run are *existentials*, named
//! after the variable their producer binds ([`filter_count`],
//! [`if_count`], [`loop_size`], ...), with an upper bound from sizes where
//! one exists ([`ShapeEnv::exist_bounds`]), so two uses of one existential
//! are the same name and are checked once. A loop whose array state
//! changes shape gets its *shape slice* ([`ShapeWalk::loop_growth`],
//! [`ShapeWalk::loop_every`]): the next sizes as a function of the current
//! ones, run as a [`Dim::Slice`] where a bound is needed.
//!
//! The DPS translation (`weir_dps::translate`) owns a [`ShapeWalk`] for the
//! function it translates and consumes its answers: the shapes of leaves,
//! the reasoning of [`ShapeEnv`], and the errors (E0801) where a shape
//! cannot be computed before the array. It binds the leaves it creates
//! itself (buffers, views) in the same environment.

use crate::env::{LeafRule, Read, ShapeEnv};
use crate::{Dim, SliceDim};
use std::collections::{HashMap, HashSet};
use weir_ir::{self as core, Atom, BinOp, Const, MathFn, Name, Prim, PrimType, Size, Span, Type};

/// The type of a leaf: a scalar, or a dense array of `rank` dimensions of a
/// scalar type (its dims travel with it). The DPS IR's variable types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    Scalar(PrimType),
    /// A dense row-major array of `rank` dimensions (its dims travel with it).
    Array(PrimType, usize),
}

impl DType {
    pub fn prim(self) -> PrimType {
        match self {
            DType::Scalar(p) | DType::Array(p, _) => p,
        }
    }
    pub fn rank(self) -> usize {
        match self {
            DType::Scalar(_) => 0,
            DType::Array(_, r) => r,
        }
    }
}

/// A shape error: the construct's shape cannot be computed before its value
/// where the C backend needs it (E0801), or an internal inconsistency.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub span: Span,
    pub message: String,
    pub help: String,
    /// Where the value a rejected size depends on is computed, and a label
    /// for it (a secondary span of the diagnostic).
    pub note: Option<(Span, String)>,
}

pub type R<T> = Result<T, Error>;

pub fn error<T>(span: Span, message: impl Into<String>, help: impl Into<String>) -> R<T> {
    Err(Error {
        span,
        message: message.into(),
        help: help.into(),
        note: None,
    })
}

/// One flattened component of a core value: a variable (or a constant) of
/// a [`DType`].
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    pub atom: Atom,
    pub ty: DType,
}

impl Leaf {
    pub fn name(&self) -> Option<&Name> {
        match &self.atom {
            Atom::Var(v) => Some(v),
            Atom::Const(_) => None,
        }
    }
}

/// Leaf types of a core type, with their sizes (outer dimension first).
pub fn flat_type(t: &Type) -> Option<Vec<(DType, Vec<Size>)>> {
    match t {
        Type::Prim(p) => Some(vec![(DType::Scalar(*p), vec![])]),
        Type::Tuple(ts) => {
            let mut v = Vec::new();
            for t in ts {
                v.extend(flat_type(t)?);
            }
            Some(v)
        }
        Type::Array(sz, e) => Some(
            flat_type(e)?
                .into_iter()
                .map(|(d, mut szs)| {
                    szs.insert(0, sz.clone());
                    (DType::Array(d.prim(), d.rank() + 1), szs)
                })
                .collect(),
        ),
        Type::Fun(..) | Type::Infer(_) | Type::Record(_) => None,
    }
}

/// What a call site needs of a callee's shapes: its flattened parameters'
/// names and, for each destination (array result leaf), its shape template
/// in terms of them and the location that computes each dim.
#[derive(Clone, Debug, Default)]
pub struct ShapeSig {
    pub params: Vec<Name>,
    pub dests: Vec<(Vec<Dim>, Vec<Span>)>,
}

/// The shape state of one function: its leaves, their shapes, and what is
/// known about its sizes.
pub struct ShapeWalk<'a> {
    /// The callees' shape templates (callees come first: no recursion).
    pub sigs: &'a HashMap<Name, ShapeSig>,
    /// What is known about the function's sizes ([`crate::env`]).
    pub sh: ShapeEnv,
    /// Core variable → its leaves.
    pub vars: HashMap<Name, Vec<Leaf>>,
    /// Core variable → its core type.
    pub types: HashMap<Name, Type>,
    /// Array leaf → shape.
    pub shapes: HashMap<Name, Vec<Dim>>,
    /// The fresh-name counter (shared with the DPS translation, so names are
    /// unique in the function).
    pub counter: usize,
    /// Types of scalar leaves bound as parameters and by the translation.
    pub scalar_types: HashMap<Name, PrimType>,
    /// The location of each local's definition (for E0801's note on the
    /// value a size depends on).
    pub def_spans: HashMap<Name, Span>,
    /// The row length of a `build` whose rows are filtered when it has no
    /// rows: the row's size with every `filter` count 0 (the interpreter's
    /// probe of an empty `build` filters an empty stand-in row).
    pub row_empty: HashMap<Name, Dim>,
    /// The next lengths of loop states no size bounds ([`unbounded`]): the
    /// error to report if the body writes such a state directly.
    pub unbounded: HashMap<Name, Error>,
    /// The final length of a loop's changing array state, as the loop's shape
    /// slice run ([`Dim::Slice`]; at least 0): what a later loop's slice starts from.
    pub final_sizes: HashMap<Name, Dim>,
    /// `i64` scalars computed from data: neither shape arithmetic
    /// ([`ShapeEnv::defs`]) nor a read of an argument ([`ShapeEnv::reads`]).
    pub data: HashSet<Name>,
}

impl<'a> ShapeWalk<'a> {
    /// The walk of a function (an entry point when `entry`) whose callees'
    /// shapes are `sigs`.
    pub fn new(sigs: &'a HashMap<Name, ShapeSig>, entry: bool) -> ShapeWalk<'a> {
        ShapeWalk {
            sigs,
            sh: ShapeEnv {
                entry,
                ..ShapeEnv::default()
            },
            vars: HashMap::new(),
            types: HashMap::new(),
            shapes: HashMap::new(),
            counter: 0,
            scalar_types: HashMap::new(),
            def_spans: HashMap::new(),
            row_empty: HashMap::new(),
            unbounded: HashMap::new(),
            final_sizes: HashMap::new(),
            data: HashSet::new(),
        }
    }

    pub fn fresh(&mut self, base: &str) -> Name {
        self.counter += 1;
        format!("{base}{}", self.counter)
    }

    pub fn bind_depth(&mut self, n: &Name) {
        self.sh.depth.insert(n.clone(), self.sh.cur);
    }

    /// `d` in terms of variables in scope here; an error if it depends on a
    /// value that is only known after the array is computed.
    pub fn resolve_here(&self, d: &Dim, span: Span) -> R<Dim> {
        self.sh.resolve(d, self.sh.cur).map_err(|bad| Error {
            span,
            message: format!(
                "the shape of this array depends on {}, which is not known before the array is computed",
                self.size_desc(&bad)
            ),
            help: "Weir allocates every array before computing it (destination-passing style); data-dependent shapes are not supported by the C backend yet; run with --interp".into(),
            note: self.size_note(&bad),
        })
    }

    /// Is the size `a` non-negative whatever the inputs (a constant, a dim)?
    pub fn provably_nonneg(&self, a: &Atom) -> bool {
        matches!(
            self.sh.expand(&self.atom_dim(a)).simplify(),
            Dim::Const(c) if c >= 0
        ) || matches!(self.sh.expand(&self.atom_dim(a)).simplify(), Dim::DimOf(..))
    }

    /// Is the size `d` known to be at least 0 (its lower bound is)?
    pub fn nonneg_dim(&self, d: &Dim) -> bool {
        let lo = self
            .sh
            .bound(&self.sh.expand(d), false, 64)
            .map(|b| b.simplify());
        match lo {
            Some(Dim::Const(c)) => c >= 0,
            Some(Dim::DimOf(..)) => true,
            _ => false,
        }
    }

    /// The length `d` of the rows of a `build`, which depends on what a
    /// `filter` in the row keeps: (an upper bound, its value for a `build` of
    /// no rows), both from sizes known outside the `build`; `None` if it
    /// depends on anything else computed in the row.
    pub fn row_size(&mut self, d: &Dim, i: &Name, n: &Dim) -> Option<(Dim, Dim)> {
        let max = self.sh.cur;
        let empty = self
            .sh
            .expand_by(d, &|l| match l {
                Dim::Var(v) | Dim::DimOf(v, _)
                    if self.sh.depth.get(v).is_some_and(|x| *x <= max) =>
                {
                    LeafRule::Keep
                }
                // what the interpreter's probe of an empty `build` keeps
                // (docs §6): nothing, in a filter and in every part of a
                // partition
                Dim::Var(v) if is_kept_count(v) && self.sh.exist_bounds.contains_key(v) => {
                    LeafRule::Replace(Dim::Const(0))
                }
                // (the probe's index: 0)
                Dim::Var(v) if v == i => LeafRule::Replace(Dim::Const(0)),
                // the length of rows inside the row: the probe's, as for them
                Dim::Var(v) if self.row_empty.contains_key(v) => {
                    LeafRule::Replace(self.row_empty.get(v).cloned().unwrap_or(Dim::Const(0)))
                }
                _ => LeafRule::Expand,
            })
            .ok()?;
        // (what that brought in, in names outside, the index 0)
        let empty = self
            .sh
            .resolve_keeping(&empty, max, Some(i))
            .ok()?
            .map_leaves(&mut |l| match l {
                Dim::Var(v) if v == i => Some(Dim::Const(0)),
                _ => None,
            });
        let bound = self.sh.bound(d, true, 64)?;
        let bound = self
            .sh
            .resolve_keeping(&bound, max, Some(i))
            .ok()?
            .simplify();
        // a bound that depends on the index (`filter p (replicate i x)`): its
        // largest value over the rows, a loop slice run before the `build`
        let mut ls = Vec::new();
        bound.leaves(&mut ls);
        let bound = if ls.iter().any(|v| v == i) {
            let n = self.sh.resolve(n, max).ok()?;
            self.largest_over_rows(&bound, i, n)
        } else {
            bound
        };
        Some((bound, empty.simplify()))
    }

    /// The length `d` of the rows of `build n (\i -> ...)` where it depends on
    /// the index `i` (and on elements of array parameters read at indices
    /// computed from it: `map (\x -> iota x) a`), an O(1) shape slice per
    /// row: (an upper bound, the largest length over all rows, a loop slice
    /// of `n` O(1) steps run before the `build`; the length of row 0, which
    /// is what the interpreter's probe of a `build` of no rows computes).
    /// The rows are then written as a filter's rows are (`build_rows_stmt`):
    /// each checked against row 0 after all ran, as the interpreter checks a
    /// `build`'s rows are regular. `None` where the length depends on
    /// anything else computed in the row.
    pub fn index_row_size(&mut self, d: &Dim, i: &Name, n: &Dim) -> Option<(Dim, Dim)> {
        // (the final length of a loop in the row: its slice)
        let finals = &self.final_sizes;
        let by_slice = d.map_leaves(&mut |l| match l {
            Dim::Var(x) => finals.get(x).cloned(),
            _ => None,
        });
        let r = self
            .sh
            .resolve_keeping(d, self.sh.cur, Some(i))
            .or_else(|_| self.sh.resolve_keeping(&by_slice, self.sh.cur, Some(i)))
            .ok()?
            .simplify();
        let n = self.sh.resolve(n, self.sh.cur).ok()?;
        let mut ls = Vec::new();
        r.leaves(&mut ls);
        if !ls.iter().any(|v| v == i) {
            return None;
        }
        let empty = at_index(&r, i, &Dim::Const(0));
        let bound = self.largest_over_rows(&r, i, n);
        Some((bound, empty))
    }

    /// The largest value of `d` (in terms of the index `i` of a `build` of
    /// `n` rows and names outside it) over the rows: a loop slice of `n` O(1)
    /// steps, starting from its value at index 0.
    pub fn largest_over_rows(&mut self, d: &Dim, i: &Name, n: Dim) -> Dim {
        let (j, len) = (self.fresh("j"), self.fresh("len"));
        Dim::Slice(Box::new(SliceDim {
            lens: vec![len],
            step: vec![at_index(d, i, &Dim::Var(j.clone()))],
            index: j,
            init: vec![at_index(d, i, &Dim::Const(0))],
            trips: n,
            which: 0,
            most: true,
        }))
    }

    /// What the size `v` is, in words, for E0801: a named existential's
    /// construct, or a local by its source name; a temporary the front end
    /// made (no source name) as the value its note marks.
    pub fn size_desc(&self, v: &Name) -> String {
        let named = size_name(v);
        if named.starts_with('`') && self.def_spans.contains_key(v) {
            let shown = core::display_name(v);
            if TEMPS.contains(&shown) {
                return "a value computed from data (marked)".into();
            }
            return format!("{named} (marked)");
        }
        named
    }

    /// The location where `v` is computed, labelled (see [`Error::note`]).
    pub fn size_note(&self, v: &Name) -> Option<(Span, String)> {
        // an existential is named after the variable its construct binds
        // (`t_13_count`, `x_5_ifdim0_1`): the nearest defined prefix
        let mut base = v.as_str();
        let span = loop {
            if let Some(s) = self.def_spans.get(base) {
                break *s;
            }
            base = &base[..base.rfind('_')?];
        };
        (span != Span::default()).then(|| {
            (
                span,
                "the size depends on the value computed here".to_string(),
            )
        })
    }

    /// A shape for messages: parameters and sizes by their source names.
    pub fn show_shape(&self, s: &[Dim]) -> String {
        fn show(d: &Dim) -> String {
            match d {
                Dim::Const(c) => c.to_string(),
                // a size the translation names: what it is, not its name
                Dim::Var(v) => match size_name(v) {
                    n if n.starts_with('`') => core::display_name(v).to_string(),
                    n => format!("({n})"),
                },
                Dim::DimOf(a, 0) => format!("length {}", core::display_name(a)),
                Dim::DimOf(a, k) => format!("dim {k} of {}", core::display_name(a)),
                Dim::Add(a, b) => format!("{} + {}", show(a), show(b)),
                Dim::Sub(a, b) => format!("{} - {}", show(a), show(b)),
                Dim::Mul(a, b) => format!("{} * {}", show(a), show(b)),
                Dim::Div(a, b) => format!("{} / {}", show(a), show(b)),
                Dim::Rem(a, b) => format!("{} % {}", show(a), show(b)),
                Dim::Max(a, b) => format!("max {} {}", show(a), show(b)),
                Dim::Min(a, b) => format!("min {} {}", show(a), show(b)),
                Dim::Elem(a, idx) => format!(
                    "{}[{}]",
                    core::display_name(a),
                    idx.iter().map(show).collect::<Vec<_>>().join("][")
                ),
                Dim::Slice(sl) => format!(
                    "the {} length of a loop's array state",
                    if sl.most { "largest" } else { "final" }
                ),
            }
        }
        let parts: Vec<String> = s
            .iter()
            .map(|d| {
                let r = self.sh.resolve(d, 0).unwrap_or_else(|_| self.sh.expand(d));
                show(&r.simplify())
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }

    pub fn atom_dim(&self, a: &Atom) -> Dim {
        match a {
            Atom::Const(Const::I64(c)) => Dim::Const(*c),
            Atom::Const(Const::I32(c)) => Dim::Const(*c as i64),
            Atom::Const(_) => Dim::Const(0),
            Atom::Var(v) => match self.vars.get(v).and_then(|l| l.first()) {
                Some(Leaf {
                    atom: Atom::Const(Const::I64(c)),
                    ..
                }) => Dim::Const(*c),
                Some(Leaf {
                    atom: Atom::Var(n), ..
                }) => Dim::Var(n.clone()),
                _ => Dim::Var(v.clone()),
            },
        }
    }

    pub fn leaves(&self, a: &Atom, span: Span) -> R<Vec<Leaf>> {
        match a {
            Atom::Const(c) => Ok(vec![Leaf {
                atom: a.clone(),
                ty: DType::Scalar(c.prim()),
            }]),
            Atom::Var(v) => match self.vars.get(v) {
                Some(l) => Ok(l.clone()),
                None => error(
                    span,
                    format!("internal error: `{v}` is not bound in the DPS translation"),
                    "please report this",
                ),
            },
        }
    }

    pub fn shape(&self, leaf: &Leaf, span: Span) -> R<Vec<Dim>> {
        match (&leaf.atom, leaf.ty) {
            (Atom::Var(v), DType::Array(..)) => match self.shapes.get(v) {
                Some(s) => Ok(s.clone()),
                None => error(
                    span,
                    format!("internal error: no shape for `{v}`"),
                    "please report this",
                ),
            },
            _ => Ok(vec![]),
        }
    }

    /// Run `f` in a scratch copy of the environment (variables, types,
    /// shapes, depths), restored afterwards: a symbolic walk that binds
    /// nothing for the translation.
    pub fn in_scratch<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved = (
            self.vars.clone(),
            self.types.clone(),
            self.shapes.clone(),
            self.sh.depth.clone(),
        );
        let r = f(self);
        (self.vars, self.types, self.shapes, self.sh.depth) = saved;
        r
    }

    /// Shapes of the array leaves of a body's result (the body is walked
    /// symbolically; its local definitions are recorded for expansion).
    pub fn shape_of_body_result(&mut self, b: &core::Body) -> R<Vec<Vec<Dim>>> {
        // Walk in a scratch copy of the environment.
        self.in_scratch(|this| {
            this.sh.cur += 1;
            let r = (|| {
                for s in &b.stmts {
                    this.shape_bind(s)?;
                }
                let ls = this.leaves(&b.result, Span::default())?;
                let mut v = Vec::new();
                for l in ls.iter().filter(|l| matches!(l.ty, DType::Array(..))) {
                    v.push(this.shape(l, Span::default())?);
                }
                Ok(v)
            })();
            this.sh.cur -= 1;
            r
        })
    }

    /// Bind a statement's variable symbolically (shapes and scalar definitions only).
    pub fn shape_bind(&mut self, s: &core::Stmt) -> R<()> {
        let leaves_t = self.flat(&s.ty, s.span)?;
        let shapes = self.shape_exp(s)?;
        self.record_defs(s);
        let mut ls = Vec::new();
        let mut si = 0;
        let single = leaves_t.len() == 1;
        for (k, (ty, _)) in leaves_t.iter().enumerate() {
            let name = if single {
                s.var.clone()
            } else {
                format!("{}c{k}", s.var)
            };
            self.bind_depth(&name);
            if let DType::Array(..) = ty {
                self.shapes
                    .insert(name.clone(), shapes.get(si).cloned().unwrap_or_default());
                si += 1;
            }
            ls.push(Leaf {
                atom: Atom::Var(name),
                ty: *ty,
            });
        }
        self.types.insert(s.var.clone(), s.ty.clone());
        self.vars.insert(s.var.clone(), ls);
        Ok(())
    }

    pub fn flat(&self, t: &Type, span: Span) -> R<Vec<(DType, Vec<Size>)>> {
        match flat_type(t) {
            Some(v) => Ok(v),
            None => error(
                span,
                "a function value where the C backend needs data",
                "the program should be first-order after optimisation; please report this",
            ),
        }
    }

    /// Remember `i64` scalar definitions (for shape expansion).
    /// Record `s` in [`ShapeEnv::reads`] when it reads an integer of an array
    /// parameter (or a row or slice of one) (size slicing's cost
    /// model: a shape slice of O(1) reads and arithmetic). A read is a pure
    /// function of the arguments, wherever it is: one whose indices depend on
    /// a lambda's or a loop's names is not a shape slice (its indices do not
    /// expand to the parameters), and one in a branch not taken reads 0 where
    /// it is out of bounds ([`Dim::Elem`]).
    pub fn record_read(&mut self, s: &core::Stmt) {
        let base = |this: &Self, a: &Atom| -> Option<Read> {
            let Atom::Var(x) = a else { return None };
            if let Some(r) = this.sh.reads.get(x) {
                return (r.idx.len() < r.rank).then(|| r.clone());
            }
            let ls = this.vars.get(x)?;
            let [l] = ls.as_slice() else { return None };
            let (Atom::Var(v), DType::Array(p, rank)) = (&l.atom, l.ty) else {
                return None;
            };
            (this.sh.depth.get(v) == Some(&0) && matches!(p, PrimType::I64 | PrimType::I32)).then(
                || Read {
                    arr: v.clone(),
                    idx: Vec::new(),
                    off: Dim::Const(0),
                    rank,
                },
            )
        };
        let r = match &s.exp {
            core::Exp::Index(a, i) => base(self, a).map(|mut r| {
                let i = Dim::plus(r.off.clone(), self.atom_dim(i));
                r.idx.push(i);
                r.off = Dim::Const(0);
                r
            }),
            core::Exp::Slice(a, from, _) => base(self, a).map(|mut r| {
                r.off = Dim::plus(r.off.clone(), self.atom_dim(from));
                r
            }),
            // an `i32` read as `i64` keeps its value
            core::Exp::Convert(PrimType::I64, Atom::Var(x)) => self
                .sh
                .reads
                .get(x)
                .filter(|r| r.idx.len() == r.rank)
                .cloned(),
            _ => None,
        };
        let Some(r) = r else { return };
        let complete = r.idx.len() == r.rank;
        let ok = if complete {
            matches!(s.ty, Type::Prim(PrimType::I64 | PrimType::I32))
        } else {
            matches!(s.ty, Type::Array(..))
        };
        if ok {
            self.sh.reads.insert(s.var.clone(), r);
        }
    }

    pub fn record_defs(&mut self, s: &core::Stmt) {
        self.def_spans.entry(s.var.clone()).or_insert(s.span);
        self.record_read(s);
        if s.ty != Type::I64 {
            return;
        }
        let d = match &s.exp {
            core::Exp::Atom(a) => Some(self.atom_dim(a)),
            core::Exp::Bin(op, a, b) => {
                let (x, y) = (Box::new(self.atom_dim(a)), Box::new(self.atom_dim(b)));
                match op {
                    BinOp::Add => Some(Dim::Add(x, y)),
                    BinOp::Sub => Some(Dim::Sub(x, y)),
                    BinOp::Mul => Some(Dim::Mul(x, y)),
                    BinOp::Div => Some(Dim::Div(x, y)),
                    BinOp::Rem => Some(Dim::Rem(x, y)),
                    _ => None,
                }
            }
            core::Exp::Math(MathFn::Max, xs) if xs.len() == 2 => Some(Dim::Max(
                Box::new(self.atom_dim(&xs[0])),
                Box::new(self.atom_dim(&xs[1])),
            )),
            core::Exp::Math(MathFn::Min, xs) if xs.len() == 2 => Some(Dim::Min(
                Box::new(self.atom_dim(&xs[0])),
                Box::new(self.atom_dim(&xs[1])),
            )),
            core::Exp::Dim(..) | core::Exp::Prim(Prim::Length { .. }) => {
                let (a, k) = match &s.exp {
                    core::Exp::Dim(a, k) => (a.clone(), *k),
                    core::Exp::Prim(Prim::Length { a }) => (a.clone(), 0),
                    _ => return,
                };
                self.leaves(&a, s.span)
                    .ok()
                    .and_then(|ls| {
                        ls.into_iter()
                            .find(|l| matches!(l.ty, DType::Array(..)))
                            .and_then(|l| self.shape(&l, s.span).ok())
                    })
                    .and_then(|sh| sh.get(k).cloned())
                    // a negative size is one never evaluated, inside an empty
                    // array: the interpreter does not know it, and `dim`
                    // reads 0 (fuzz seed 89, program 29244)
                    .map(|d| {
                        if k > 0 && !self.nonneg_dim(&d) {
                            dim_read(d)
                        } else {
                            match d.as_const() {
                                Some(c) if c < 0 => Dim::Const(0),
                                _ => d,
                            }
                        }
                    })
            }
            core::Exp::CheckSize(c) => Some(self.atom_dim(&c.got)),
            core::Exp::Check(c) => c.args.first().map(|a| self.atom_dim(a)),
            _ => None,
        };
        match d {
            Some(d) => {
                self.sh.defs.insert(s.var.clone(), d);
            }
            None if !self.sh.reads.contains_key(&s.var) => {
                self.data.insert(s.var.clone());
            }
            None => {}
        }
    }

    pub fn array_leaf_shapes(&self, a: &Atom, span: Span) -> R<Vec<Vec<Dim>>> {
        let mut v = Vec::new();
        for l in self.leaves(a, span)? {
            if let DType::Array(..) = l.ty {
                v.push(self.shape(&l, span)?);
            }
        }
        Ok(v)
    }

    /// The shapes of the array leaves of the value of `s.exp`.
    pub fn shape_exp(&mut self, s: &core::Stmt) -> R<Vec<Vec<Dim>>> {
        use core::Exp as E;
        let span = s.span;
        let n_arrays = self
            .flat(&s.ty, span)?
            .iter()
            .filter(|(t, _)| matches!(t, DType::Array(..)))
            .count();
        if n_arrays == 0 {
            return Ok(vec![]);
        }
        Ok(match &s.exp {
            E::Atom(a) => self.array_leaf_shapes(a, span)?,
            E::Tuple(xs) => {
                let mut v = Vec::new();
                for x in xs {
                    v.extend(self.array_leaf_shapes(x, span)?);
                }
                v
            }
            E::Proj(a, k) => {
                let ls = self.proj_leaves(a, *k, span)?;
                let mut v = Vec::new();
                for l in ls.iter().filter(|l| matches!(l.ty, DType::Array(..))) {
                    v.push(self.shape(l, span)?);
                }
                v
            }
            E::Index(a, _) => self
                .array_leaf_shapes(a, span)?
                .into_iter()
                .filter(|sh| sh.len() >= 2)
                .map(|sh| sh[1..].to_vec())
                .collect(),
            E::Slice(a, st, en) => {
                let len = Dim::minus(self.atom_dim(en), self.atom_dim(st));
                self.sh.record_origin(&len, span);
                let input = self.array_leaf_shapes(a, span)?;
                // Bounds computed from data (not shape arithmetic on sizes,
                // scalars, loop counters and lengths, existentials and reads
                // of arguments): an existential length, bounded by the
                // input's (the slice is in bounds, or an error), its value
                // the bounds' difference where they are known.
                let mut leaves = Vec::new();
                self.sh.expand(&len).leaves(&mut leaves);
                let from_data = leaves.iter().any(|v| self.data.contains(v));
                let len = match (from_data, input.first()) {
                    (true, Some(sh)) => {
                        let k = slice_len(&s.var);
                        self.sh.defs.insert(k.clone(), len);
                        self.sh.exist_bounds.insert(k.clone(), outer(sh));
                        Dim::Var(k)
                    }
                    _ => len,
                };
                input
                    .into_iter()
                    .map(|mut sh| {
                        if let Some(d) = sh.first_mut() {
                            *d = len.clone();
                        }
                        sh
                    })
                    .collect()
            }
            E::ArrayLit(xs) => {
                let n = Dim::Const(xs.len() as i64);
                match xs.first() {
                    Some(x) => {
                        let el = self.leaves(x, span)?;
                        let mut v = Vec::new();
                        for l in &el {
                            let mut sh = vec![n.clone()];
                            sh.extend(self.shape(l, span)?);
                            v.push(sh);
                        }
                        v
                    }
                    None => self.type_shapes(&s.ty, span)?,
                }
            }
            E::If(_, t, e) => {
                let st = self.shape_of_body_result(t)?;
                let se = self.shape_of_body_result(e)?;
                let mut v = Vec::new();
                for (j, (a, b)) in st.iter().zip(&se).enumerate() {
                    if self.sh.same_shape(a, b) {
                        v.push(a.clone());
                        continue;
                    }
                    // Rows of the same shape, different lengths: an existential
                    // length, chosen by the branch (see `if_stmt`).
                    if a.len() == b.len()
                        && self
                            .sh
                            .same_shape(&a[1.min(a.len())..], &b[1.min(b.len())..])
                    {
                        let k = if_count(&s.var, j);
                        // (bound where the `if` is, as its other dims below)
                        self.sh.depth.insert(k.clone(), self.sh.cur);
                        self.sh.exist_bounds.insert(
                            k.clone(),
                            Dim::Max(
                                Box::new(Dim::Max(Box::new(outer(a)), Box::new(outer(b)))),
                                Box::new(Dim::Const(0)),
                            ),
                        );
                        let mut x = vec![Dim::Var(k)];
                        x.extend(a.iter().skip(1).cloned());
                        v.push(x);
                        continue;
                    }
                    // Inner dims that differ too (`if c then transpose a
                    // else a`): every dim an existential, the taken branch's
                    // (the condition is known before the `if`; see `if_stmt`).
                    if a.len() == b.len() {
                        let mut x = Vec::new();
                        for (k, (da, db)) in a.iter().zip(b).enumerate() {
                            let d = if_dim(&s.var, j, k);
                            // (bound where the `if` is, before its branches)
                            self.sh.depth.insert(d.clone(), self.sh.cur);
                            self.sh.exist_bounds.insert(
                                d.clone(),
                                Dim::Max(
                                    Box::new(Dim::Max(Box::new(da.clone()), Box::new(db.clone()))),
                                    Box::new(Dim::Const(0)),
                                ),
                            );
                            x.push(Dim::Var(d));
                        }
                        v.push(x);
                        continue;
                    }
                    {
                        return error(
                            span,
                            format!(
                                "the branches of this `if` return arrays of different shapes: {} and {}",
                                self.show_shape(a),
                                self.show_shape(b)
                            ),
                            "Weir allocates the result of an `if` before choosing a branch (destination-passing style, F-tilde rule S-If): the branches may differ in length only, and only where the result is used inside the function; or run with --interp",
                        );
                    }
                }
                v
            }
            E::Loop {
                state,
                init,
                form,
                body,
            } => {
                let (index, trips) = match form {
                    core::LoopForm::For(i, n) => (Some(i), Some(self.atom_dim(n))),
                    core::LoopForm::While(_) => (None, None),
                };
                if let Some(steps) = self.loop_every(s, &state.0, &state.1, init, index, body)? {
                    let slice = index.zip(trips);
                    self.every_shapes(s, init, &steps, slice, span)?
                } else {
                    let growth = self.loop_growth(s, &state.0, &state.1, init, index, body)?;
                    self.grown_shapes(s, init, &growth, trips, index, span)?
                }
            }
            E::Call(f, args) => {
                let Some(sig) = self.sigs.get(f).cloned() else {
                    return error(
                        span,
                        format!("call of `{f}`, which the C backend could not compile"),
                        "see the error reported for that function",
                    );
                };
                let flat_args = self.flat_args(args, span)?;
                let mut v = Vec::new();
                for (shape, spans) in &sig.dests {
                    let mut sh = Vec::new();
                    for (j, d) in shape.iter().enumerate() {
                        let x = self.subst_template(d, &sig.params, &flat_args, span)?;
                        self.sh
                            .record_origin(&x, spans.get(j).copied().unwrap_or(span));
                        sh.push(x);
                    }
                    v.push(sh);
                }
                v
            }
            E::Prim(p) => match p {
                Prim::Build { n, f } => {
                    let n = self.atom_dim(n);
                    self.sh.record_origin(&n, span);
                    let core::Fun::Lambda(l) = f else {
                        return error(
                            span,
                            "internal error: build without a lambda",
                            "please report this",
                        );
                    };
                    let (i, _) = lparam(l, 0, span)?;
                    self.sh.depth.insert(i.clone(), self.sh.cur + 1);
                    self.vars.insert(
                        i.clone(),
                        vec![Leaf {
                            atom: Atom::Var(i.clone()),
                            ty: DType::Scalar(PrimType::I64),
                        }],
                    );
                    let inner = self.shape_of_body_result(&l.body)?;
                    let el = self.flat(&l.ret, span)?;
                    let mut v = Vec::new();
                    let mut ii = 0;
                    for (t, _) in &el {
                        let mut sh = vec![n.clone()];
                        if let DType::Array(..) = t {
                            sh.extend(inner.get(ii).cloned().unwrap_or_default());
                            ii += 1;
                        }
                        v.push(sh);
                    }
                    // Element shapes must not depend on the index (rectangular
                    // arrays), except the length of rows that are what a
                    // `filter` keeps (an existential, bounded by sizes known
                    // outside; the rows are checked regular after the loop:
                    // see `build_rows_stmt`).
                    let single = v.len() == 1;
                    for (leaf, sh) in v.iter_mut().enumerate() {
                        // (one existential dim per leaf: the rows' length,
                        // or a length inside them, `map (\x -> map (\y ->
                        // iota y) a) a`)
                        let mut exist_done = false;
                        for (k, d) in sh.iter_mut().enumerate() {
                            // the final length of a sliced loop in the row:
                            // its slice, when that is in names outside
                            if self.sh.resolve(d, self.sh.cur).is_err() {
                                let finals = &self.final_sizes;
                                let by_slice = d.map_leaves(&mut |l| match l {
                                    Dim::Var(x) => finals.get(x).cloned(),
                                    _ => None,
                                });
                                if self.sh.resolve(&by_slice, self.sh.cur).is_ok() {
                                    *d = by_slice;
                                }
                            }
                            // a size that mentions the index only in terms
                            // that cancel (`i % 2 + 2 - i % 2`)
                            if self.sh.resolve(d, self.sh.cur).is_err()
                                && let Ok(r) = self.sh.resolve_keeping(d, self.sh.cur, Some(i))
                                && let r = r.simplify()
                                && self.sh.resolve(&r, self.sh.cur).is_ok()
                            {
                                *d = r;
                            }
                            if self.sh.resolve(d, self.sh.cur).is_err()
                                && k >= 1
                                && !exist_done
                                && let Some((bound, empty)) = self
                                    .row_size(d, i, &n)
                                    .or_else(|| self.index_row_size(d, i, &n))
                            {
                                exist_done = true;
                                let rs = match (single, k) {
                                    (true, 1) => row_size(&s.var),
                                    (false, 1) => row_size_leaf(&s.var, leaf),
                                    _ => format!("{}_{k}", row_size_leaf(&s.var, leaf)),
                                };
                                self.sh.exist_bounds.insert(rs.clone(), bound);
                                self.row_empty.insert(rs.clone(), empty);
                                self.sh.depth.insert(rs.clone(), self.sh.cur);
                                *d = Dim::Var(rs);
                                continue;
                            }
                            if let Err(bad) = self.sh.resolve(d, self.sh.cur) {
                                return Err(Error {
                                    span,
                                    message: format!(
                                        "the size of the rows of this array depends on {}, computed inside the `build`",
                                        self.size_desc(&bad)
                                    ),
                                    help: "Weir allocates an array before filling it, so its rows' size must be computable outside the loop from sizes, the index and elements of the arguments (F-tilde's shape restriction, widened by size slicing); or run with --interp".into(),
                                    note: self.size_note(&bad),
                                });
                            }
                        }
                    }
                    v
                }
                Prim::IFold { f, init, n } => {
                    let core::Fun::Lambda(l) = f else {
                        return error(
                            span,
                            "internal error: malformed ifold",
                            "please report this",
                        );
                    };
                    let (acc, at) = lparam(l, 0, span)?;
                    let (i, _) = lparam(l, 1, span)?;
                    let (acc, at, i) = (acc.clone(), at.clone(), i.clone());
                    let trips = self.atom_dim(n);
                    if let Some(steps) = self.loop_every(s, &acc, &at, init, Some(&i), &l.body)? {
                        self.every_shapes(s, init, &steps, Some((&i, trips)), span)?
                    } else {
                        let growth = self.loop_growth(s, &acc, &at, init, Some(&i), &l.body)?;
                        self.grown_shapes(s, init, &growth, Some(trips), Some(&i), span)?
                    }
                }
                // A reduction over arrays: the loop it runs as (the DPS
                // translation's), so a loop state's rows of unnamed size
                // keep `ne`'s shape as an `ifold`'s state keeps `init`'s.
                Prim::IReduce {
                    op: core::Fun::Lambda(op),
                    ne,
                    n,
                    f: core::Fun::Lambda(g),
                } if self
                    .flat(&s.ty, span)?
                    .iter()
                    .any(|(t, _)| matches!(t, DType::Array(..))) =>
                {
                    let (acc, at, i, body) = ireduce_loop(op, g, span)?;
                    let trips = self.atom_dim(n);
                    if let Some(steps) = self.loop_every(s, &acc, &at, ne, Some(&i), &body)? {
                        self.every_shapes(s, ne, &steps, Some((&i, trips)), span)?
                    } else {
                        let growth = self.loop_growth(s, &acc, &at, ne, Some(&i), &body)?;
                        self.grown_shapes(s, ne, &growth, Some(trips), Some(&i), span)?
                    }
                }
                // A scan has its input's shape.
                Prim::Scan { a, .. } => self.array_leaf_shapes(a, span)?,
                // An existential outer size, known once the filter has run (bound
                // by the statement: see `filter_stmt`).
                Prim::Filter { a, .. } => {
                    let k = filter_count(&s.var);
                    let input = self.array_leaf_shapes(a, span)?;
                    if let Some(sh) = input.first() {
                        self.sh.exist_bounds.insert(k.clone(), outer(sh));
                    }
                    input
                        .into_iter()
                        .map(|sh| {
                            let mut v = vec![Dim::Var(k.clone())];
                            v.extend(sh.iter().skip(1).cloned());
                            v
                        })
                        .collect()
                }
                // Writes into a copy of the destination: its shape.
                Prim::Scatter { dest, .. }
                | Prim::ReduceByIndex { dest, .. }
                | Prim::IReduceByIndex { dest, .. } => self.array_leaf_shapes(dest, span)?,
                // An update and a copy keep the array's shape.
                Prim::Copy { a }
                | Prim::Update { a, .. }
                | Prim::Update2 { a, .. }
                | Prim::Update3 { a, .. }
                | Prim::UpdateSlice { a, .. }
                | Prim::UpdateSlice2 { a, .. } => self.array_leaf_shapes(a, span)?,
                Prim::Concat { a, b } => {
                    let a = self.array_leaf_shapes(a, span)?;
                    let b = self.array_leaf_shapes(b, span)?;
                    let mut v = Vec::new();
                    for (mut x, y) in a.into_iter().zip(b) {
                        let total = Dim::plus(outer(&x), outer(&y));
                        self.sh.record_origin(&total, span);
                        if let Some(d) = x.first_mut() {
                            *d = total;
                        }
                        // Rows of different sizes (checked equal where both
                        // are known): the larger, so that an empty operand
                        // whose rows have a negative size (never evaluated,
                        // unknown to the interpreter) takes the other's
                        // (fuzz seed 101, program 24807)
                        for (k, yk) in y.iter().enumerate().skip(1) {
                            if let Some(xk) = x.get_mut(k)
                                && !self
                                    .sh
                                    .same_shape(std::slice::from_ref(xk), std::slice::from_ref(yk))
                            {
                                *xk = Dim::Max(Box::new(xk.clone()), Box::new(yk.clone()));
                            }
                        }
                        v.push(x);
                    }
                    v
                }
                Prim::Flatten { a } => {
                    let mut v = Vec::new();
                    for sh in self.array_leaf_shapes(a, span)? {
                        let n = Dim::times(outer(&sh), sh.get(1).cloned().unwrap_or(Dim::Const(1)));
                        self.sh.record_origin(&n, span);
                        let mut x = vec![n];
                        x.extend(sh.iter().skip(2).cloned());
                        v.push(x);
                    }
                    v
                }
                Prim::Unflatten { n, m, a } => {
                    let n = self.atom_dim(n);
                    let m = self.atom_dim(m);
                    self.sh.record_origin(&n, span);
                    self.sh.record_origin(&m, span);
                    self.array_leaf_shapes(a, span)?
                        .into_iter()
                        .map(|sh| {
                            let mut v = vec![n.clone(), m.clone()];
                            v.extend(sh.iter().skip(1).cloned());
                            v
                        })
                        .collect()
                }
                // One existential length per part, each at most the input's.
                Prim::Partition { a, .. } | Prim::Partition2 { a, .. } => {
                    let k = if matches!(p, Prim::Partition { .. }) {
                        1
                    } else {
                        2
                    };
                    let input = self.array_leaf_shapes(a, span)?;
                    let mut v = Vec::new();
                    for j in 0..=k {
                        let c = part_count(&s.var, j);
                        if let Some(sh) = input.first() {
                            self.sh.exist_bounds.insert(c.clone(), outer(sh));
                        }
                        for sh in &input {
                            let mut x = vec![Dim::Var(c.clone())];
                            x.extend(sh.iter().skip(1).cloned());
                            v.push(x);
                        }
                    }
                    v
                }
                // `(n - w) / s + 1` windows of `w` rows (checked by the
                // statement: `w <= n`, `s >= 1`)
                Prim::Slide { w, step, a } => {
                    let w = self.atom_dim(w);
                    let st = self.atom_dim(step);
                    let sh = self.array_leaf_shapes(a, span)?;
                    let mut v = Vec::new();
                    for x in &sh {
                        let count = Dim::Add(
                            Box::new(Dim::Div(
                                Box::new(Dim::minus(outer(x), w.clone())),
                                Box::new(st.clone()),
                            )),
                            Box::new(Dim::Const(1)),
                        );
                        self.sh.record_origin(&count, span);
                        let mut a = vec![count, w.clone()];
                        a.extend(x.iter().skip(1).cloned());
                        v.push(a);
                    }
                    v
                }
                // the first two dims swapped (an inner size of an empty
                // array may be negative where it was never evaluated: as an
                // outer size it is 0, as `dim` reads it)
                Prim::Transpose { a } => self
                    .array_leaf_shapes(a, span)?
                    .into_iter()
                    .map(|mut sh| {
                        if sh.len() >= 2 {
                            sh.swap(0, 1);
                            if !self.nonneg_dim(&sh[0]) {
                                sh[0] = dim_read(sh[0].clone());
                            }
                        }
                        sh
                    })
                    .collect(),
                Prim::Reverse { a } => self.array_leaf_shapes(a, span)?,
                // `n / k + min(n % k, 1)` rows, `n / k` rounded up without
                // overflow (shape arithmetic: 0 where `k` is 0, which its
                // check rejects before any row is read)
                Prim::Stride { k, a } => {
                    let k = self.atom_dim(k);
                    self.array_leaf_shapes(a, span)?
                        .into_iter()
                        .map(|mut sh| {
                            if let Some(n) = sh.first_mut() {
                                let q = Dim::Div(Box::new(n.clone()), Box::new(k.clone()));
                                let r = Dim::Rem(Box::new(n.clone()), Box::new(k.clone()));
                                let up = Dim::Min(Box::new(r), Box::new(Dim::Const(1)));
                                *n = Dim::plus(q, up);
                                self.sh.record_origin(n, span);
                            }
                            sh
                        })
                        .collect()
                }
                // (kept only for an array: a view with a new outer dim)
                Prim::Replicate { n, x } => {
                    let n = self.atom_dim(n);
                    self.array_leaf_shapes(x, span)?
                        .into_iter()
                        .map(|sh| std::iter::once(n.clone()).chain(sh).collect())
                        .collect()
                }
                Prim::Split { k, a } => {
                    let k = self.atom_dim(k);
                    let sh = self.array_leaf_shapes(a, span)?;
                    let mut v = Vec::new();
                    for x in &sh {
                        let mut a = x.clone();
                        if let Some(d) = a.first_mut() {
                            *d = k.clone();
                        }
                        v.push(a);
                    }
                    for x in &sh {
                        let mut b = x.clone();
                        let rest = Dim::minus(outer(x), k.clone());
                        self.sh.record_origin(&rest, span);
                        if let Some(d) = b.first_mut() {
                            *d = rest;
                        }
                        v.push(b);
                    }
                    self.sh.record_origin(&k, span);
                    v
                }
                _ => self.type_shapes(&s.ty, span)?,
            },
            _ => self.type_shapes(&s.ty, span)?,
        })
    }

    /// Shapes read off a type (when every size is known).
    pub fn type_shapes(&self, t: &Type, span: Span) -> R<Vec<Vec<Dim>>> {
        let mut v = Vec::new();
        for (ty, sizes) in self.flat(t, span)? {
            if let DType::Array(..) = ty {
                let mut sh = Vec::new();
                for sz in sizes {
                    match sz {
                        Size::Const(c) => sh.push(Dim::Const(c)),
                        Size::Var(n) => sh.push(Dim::Var(n)),
                        _ => {
                            return error(
                                span,
                                "the C backend cannot compute the shape of this array before computing it",
                                "this construct is not supported by the C backend yet; run with --interp",
                            );
                        }
                    }
                }
                v.push(sh);
            }
        }
        Ok(v)
    }

    pub fn proj_leaves(&self, a: &Atom, k: usize, span: Span) -> R<Vec<Leaf>> {
        let ls = self.leaves(a, span)?;
        let ty = match a {
            Atom::Var(v) => self.types.get(v).cloned(),
            _ => None,
        };
        let Some(Type::Tuple(ts)) = ty else {
            return error(
                span,
                "internal error: projection of a non-tuple",
                "please report this",
            );
        };
        let mut start = 0;
        for t in &ts[..k] {
            start += self.flat(t, span)?.len();
        }
        let len = self.flat(&ts[k], span)?.len();
        match ls.get(start..start + len) {
            Some(x) => Ok(x.to_vec()),
            None => error(
                span,
                "internal error: projection out of range",
                "please report this",
            ),
        }
    }

    pub fn flat_args(&self, args: &[core::Arg], span: Span) -> R<Vec<Leaf>> {
        let mut v = Vec::new();
        for a in args {
            match a {
                core::Arg::Atom(x) => v.extend(self.leaves(x, span)?),
                core::Arg::Fun(_) => {
                    return error(
                        span,
                        "a call passing a function survived specialisation",
                        "please report this",
                    );
                }
            }
        }
        Ok(v)
    }

    /// Substitute a callee's shape template with the actual arguments.
    pub fn subst_template(&self, d: &Dim, params: &[Name], args: &[Leaf], span: Span) -> R<Dim> {
        let mut bad = false;
        let r = d.map_leaves(&mut |l| match l {
            Dim::Var(v) => match params.iter().position(|p| p == v) {
                Some(i) => match args
                    .get(i)
                    .map(|l| &l.atom)
                    .unwrap_or(&Atom::Const(Const::Bool(false)))
                {
                    Atom::Const(Const::I64(c)) => Some(Dim::Const(*c)),
                    Atom::Var(n) => Some(Dim::Var(n.clone())),
                    _ => {
                        bad = true;
                        None
                    }
                },
                None => {
                    bad = true;
                    None
                }
            },
            Dim::DimOf(v, k) => match params.iter().position(|p| p == v) {
                Some(i) => args
                    .get(i)
                    .and_then(|a| self.shape(a, span).ok())
                    .and_then(|s| s.get(*k).cloned()),
                None => {
                    bad = true;
                    None
                }
            },
            _ => None,
        });
        if bad {
            return error(
                span,
                "internal error: a shape template mentions a non-parameter",
                "please report this",
            );
        }
        Ok(r.simplify())
    }

    /// Bind a lambda or loop parameter (leaf names derived from `name`) one level
    /// deeper than the current one.
    pub fn bind_param(&mut self, name: &Name, ty: &Type, span: Span) -> R<Vec<Leaf>> {
        let flat = self.flat(ty, span)?;
        let single = flat.len() == 1;
        let mut ls = Vec::new();
        for (k, (t, _)) in flat.iter().enumerate() {
            let n = if single {
                name.clone()
            } else {
                format!("{name}c{k}")
            };
            self.sh.depth.insert(n.clone(), self.sh.cur + 1);
            if let DType::Scalar(p) = t {
                self.scalar_types.insert(n.clone(), *p);
            }
            ls.push(Leaf {
                atom: Atom::Var(n),
                ty: *t,
            });
        }
        self.types.insert(name.clone(), ty.clone());
        self.vars.insert(name.clone(), ls.clone());
        Ok(ls)
    }

    /// The shapes of a loop's array leaves: the initial value's, with an
    /// existential outer size (named by [`loop_size`]) where it changes.
    pub fn grown_shapes(
        &mut self,
        s: &core::Stmt,
        init: &Atom,
        growth: &[Option<(Name, Dim, bool)>],
        trips: Option<Dim>,
        index: Option<&Name>,
        span: Span,
    ) -> R<Vec<Vec<Dim>>> {
        let mut v = self.array_leaf_shapes(init, span)?;
        // A length that depends on values computed in the loop: the slice
        // runs its bound, an upper bound of every length when each step is
        // non-decreasing in the lengths; else no slice.
        let exact = growth.iter().flatten().all(|g| g.2);
        let trips = trips.filter(|_| exact || slices_bounds(growth));
        // The shape slice, for a bound of each changing length: the largest
        // it ever has (what an entry returning the state allocates).
        let lens: Vec<Name> = growth.iter().flatten().map(|g| g.0.clone()).collect();
        let steps: Vec<Dim> = growth.iter().flatten().map(|g| g.1.clone()).collect();
        // (an earlier loop's final length, where the state starts from one)
        let finals = self.final_sizes.clone();
        let inits: Vec<Dim> = v
            .iter()
            .zip(growth)
            .filter(|(_, g)| g.is_some())
            .map(|(sh, _)| {
                outer(sh).map_leaves(&mut |l| match l {
                    Dim::Var(x) => finals.get(x).cloned(),
                    _ => None,
                })
            })
            .collect();
        let mut which = 0;
        for (j, (sh, g)) in v.iter_mut().zip(growth).enumerate() {
            if g.is_some()
                && let Some(d) = sh.first_mut()
            {
                *d = Dim::Var(loop_size(&s.var, j));
                if let (Some(trips), Some(index)) = (&trips, index) {
                    let slice = SliceDim {
                        lens: lens.clone(),
                        index: index.clone(),
                        init: inits.clone(),
                        step: steps.clone(),
                        trips: trips.clone(),
                        which,
                        most: true,
                    };
                    let last = SliceDim {
                        most: false,
                        ..slice.clone()
                    };
                    self.sh
                        .exist_bounds
                        .insert(loop_size(&s.var, j), Dim::Slice(Box::new(slice)));
                    if exact {
                        self.final_sizes.insert(
                            loop_size(&s.var, j),
                            Dim::Max(
                                Box::new(Dim::Slice(Box::new(last))),
                                Box::new(Dim::Const(0)),
                            ),
                        );
                    }
                }
                which += 1;
            }
        }
        Ok(v)
    }

    /// A loop body walked once with the state bound to the initial value's
    /// shapes (and the counter, if any, bound): the state's leaves, their
    /// shapes before the iteration and the body result's shapes after it
    /// (the first step of [`ShapeWalk::loop_growth`] and
    /// [`ShapeWalk::loop_every`], in their scratch environment).
    #[allow(clippy::type_complexity)]
    fn walk_body_from_init(
        &mut self,
        state: &Name,
        st_ty: &Type,
        init_l: &[Leaf],
        index: Option<&Name>,
        body: &core::Body,
        span: Span,
    ) -> R<(Vec<Leaf>, Vec<Vec<Dim>>, Vec<Vec<Dim>>)> {
        let (st_l, before) = self.bind_state_as_init(state, st_ty, init_l, span)?;
        if let Some(i) = index {
            self.bind_param(i, &Type::I64, span)?;
        }
        let after0 = self.shape_of_body_result(body)?;
        Ok((st_l, before, after0))
    }

    /// Size slicing of a loop whose array state changes length (size-slicing
    /// §3): for each array leaf of the state, `None` if its shape stays that
    /// of the initial value, else `(len, F, exact)`: its outer size after an
    /// iteration as a function `F` of `len` (the state's outer size at the
    /// start of the iteration, a variable named by [`loop_len`]) and of the
    /// loop index and names outside the loop. `F` comes from sizes only (the
    /// loop's *shape slice*, cheap: no array is read), so for a `for` loop the
    /// largest length can be computed before the loop runs, and a `while`
    /// loop knows the next length before its body writes it (its storage
    /// grows then). Where the length depends on values computed in the loop
    /// (a `filter`'s count), `F` is an upper bound of it from sizes
    /// (`exact` false: the storage grows to the bound, the body says how
    /// long the state is). An error where the state's inner sizes change, or
    /// where no such bound exists (a slice at an index read from an array).
    #[allow(clippy::type_complexity)]
    pub fn loop_growth(
        &mut self,
        s: &core::Stmt,
        state: &Name,
        st_ty: &Type,
        init: &Atom,
        index: Option<&Name>,
        body: &core::Body,
    ) -> R<Vec<Option<(Name, Dim, bool)>>> {
        let span = s.span;
        let init_l = self.leaves(init, span)?;
        self.in_scratch(|this| {
            // First as F-tilde's rule S-Reduce has it: the state has the
            // initial value's shape; a leaf whose shape the body keeps stays so.
            let (st_l, before, after0) =
                this.walk_body_from_init(state, st_ty, &init_l, index, body, span)?;
            let kept: Vec<bool> = before
                .iter()
                .zip(&after0)
                .map(|(b, a)| this.sh.same_shape(b, a))
                .collect();
            if kept.iter().all(|k| *k) {
                return Ok(vec![None; before.len()]);
            }
            // Then with the outer length of each changing leaf a variable.
            let mut lens = Vec::new();
            let mut aj = 0;
            for l in &st_l {
                if let DType::Array(..) = l.ty {
                    let len = loop_len(&s.var, aj);
                    if !kept.get(aj).copied().unwrap_or(true)
                        && let (Some(n), Some(ish)) = (l.name(), before.get(aj))
                    {
                        this.sh.depth.insert(len.clone(), this.sh.cur + 1);
                        let mut sh = vec![Dim::Var(len.clone())];
                        sh.extend(ish.iter().skip(1).cloned());
                        this.shapes.insert(n.clone(), sh);
                    }
                    aj += 1;
                    lens.push(len);
                }
            }
            let after = this.shape_of_body_result(body)?;
            let mut v = Vec::new();
            for (((len, ish), a), k) in lens.iter().zip(&before).zip(&after).zip(&kept) {
                if *k {
                    v.push(None);
                    continue;
                }
                let changes = || {
                    format!(
                        "the state of this loop changes shape: it starts as {} and an iteration returns {}",
                        this.show_shape(ish),
                        this.show_shape(a)
                    )
                };
                if a.len() != ish.len()
                    || !this.sh.same_shape(&ish[1.min(ish.len())..], &a[1.min(a.len())..])
                {
                    return error(
                        span,
                        changes(),
                        "only the outer length of a loop's array state may change from one iteration to the next (its storage is reused across iterations); or run with --interp",
                    );
                }
                let max = this.sh.cur;
                let keep = |l: &Dim| match l {
                    Dim::Var(x) if lens.contains(x) || Some(x) == index => LeafRule::Keep,
                    Dim::Var(x) | Dim::DimOf(x, _)
                        if this.sh.depth.get(x).is_some_and(|d| *d <= max) =>
                    {
                        LeafRule::Keep
                    }
                    _ => LeafRule::Expand,
                };
                let exact = this.sh.expand_by(&outer(a), &keep);
                if exact.is_err()
                    && let Some(b) = this.sh.bound(&outer(a), true, 64)
                    && let Ok(f) = this.sh.expand_by(&b, &keep)
                {
                    v.push(Some((len.clone(), f.simplify(), false)));
                    continue;
                }
                let f = match exact {
                    Ok(f) => f,
                    Err(bad) => {
                        // No bound from sizes: the body computes the next
                        // state elsewhere and the storage grows to its
                        // length where it is copied in ([`unbounded`]); the
                        // error stands if the body would write it directly.
                        let e = Error {
                            span,
                            note: this.size_note(&bad),
                            message: format!(
                                "{}, by a length that depends on {}, which is known only inside the loop",
                                changes(),
                                this.size_desc(&bad)
                            ),
                            help: "the C backend needs each next length of a loop's array state, or an upper bound of it, from sizes alone before the iteration writes into it, unless the iteration computes the whole next state first (size slicing; a `filter`'s count is bounded by its input's length, a slice at an index read from an array is not bounded); or run with --interp".into(),
                        };
                        let u = unbounded(len);
                        this.unbounded.insert(u.clone(), e);
                        v.push(Some((len.clone(), Dim::Var(u), false)));
                        continue;
                    }
                };
                v.push(Some((len.clone(), f.simplify(), true)));
            }
            Ok(v)
        })
    }

    /// Size slicing of a counted loop (`for`, `ifold`) whose array state
    /// changes an inner size (`loop m = a for i < k do transpose m`, an image
    /// pyramid halving both dims): `None` when no leaf's inner size changes
    /// (see [`ShapeWalk::loop_growth`]) or when a next size is not a function of
    /// the sizes before the iteration, the index and names outside the loop.
    /// Else, for each array leaf, each dim's variable at the start of an
    /// iteration ([`loop_cur_dim`]) and its value after it (the *shape
    /// slice*'s step, every dim of every leaf at once).
    #[allow(clippy::type_complexity)]
    pub fn loop_every(
        &mut self,
        s: &core::Stmt,
        state: &Name,
        st_ty: &Type,
        init: &Atom,
        index: Option<&Name>,
        body: &core::Body,
    ) -> R<Option<Vec<Vec<(Name, Dim)>>>> {
        let span = s.span;
        let init_l = self.leaves(init, span)?;
        self.in_scratch(|this| {
            let (st_l, before, after0) =
                this.walk_body_from_init(state, st_ty, &init_l, index, body, span)?;
            let inner_change = before.iter().zip(&after0).any(|(b, a)| {
                a.len() == b.len()
                    && !this
                        .sh
                        .same_shape(&b[1.min(b.len())..], &a[1.min(a.len())..])
            });
            if !inner_change {
                return Ok(None);
            }
            // Every dim of every array leaf a variable.
            let mut vars = Vec::new();
            let mut aj = 0;
            for l in &st_l {
                if let DType::Array(_, r) = l.ty {
                    let names: Vec<Name> = (0..r).map(|k| loop_cur_dim(&s.var, aj, k)).collect();
                    for n in &names {
                        this.sh.depth.insert(n.clone(), this.sh.cur + 1);
                    }
                    if let Some(n) = l.name() {
                        this.shapes.insert(
                            n.clone(),
                            names.iter().map(|x| Dim::Var(x.clone())).collect(),
                        );
                    }
                    vars.push(names);
                    aj += 1;
                }
            }
            let after = this.shape_of_body_result(body)?;
            let all: Vec<&Name> = vars.iter().flatten().collect();
            let max = this.sh.cur;
            let keep = |l: &Dim| match l {
                Dim::Var(x) if all.contains(&x) || Some(x) == index => LeafRule::Keep,
                Dim::Var(x) | Dim::DimOf(x, _)
                    if this.sh.depth.get(x).is_some_and(|d| *d <= max) =>
                {
                    LeafRule::Keep
                }
                _ => LeafRule::Expand,
            };
            let mut steps = Vec::new();
            for (names, a) in vars.iter().zip(&after) {
                if a.len() != names.len() {
                    return Ok(None);
                }
                let mut leaf = Vec::new();
                for (n, d) in names.iter().zip(a) {
                    let Ok(f) = this.sh.expand_by(d, &keep) else {
                        return Ok(None);
                    };
                    leaf.push((n.clone(), f.simplify()));
                }
                steps.push(leaf);
            }
            Ok(Some(steps))
        })
    }

    /// The shapes of a loop analysed by [`ShapeWalk::loop_every`]: every dim an
    /// existential ([`loop_dim`]) bound by the loop, whose bound is the
    /// largest value its shape slice gives it and whose value (for a later
    /// loop's slice) is the slice's final one.
    pub fn every_shapes(
        &mut self,
        s: &core::Stmt,
        init: &Atom,
        steps: &[Vec<(Name, Dim)>],
        slice: Option<(&Name, Dim)>,
        span: Span,
    ) -> R<Vec<Vec<Dim>>> {
        let ishapes = self.array_leaf_shapes(init, span)?;
        let finals = self.final_sizes.clone();
        let lens: Vec<Name> = steps.iter().flatten().map(|(n, _)| n.clone()).collect();
        let step: Vec<Dim> = steps.iter().flatten().map(|(_, f)| f.clone()).collect();
        let mut inits = Vec::new();
        for sh in &ishapes {
            for d in sh {
                inits.push(d.map_leaves(&mut |l| match l {
                    Dim::Var(x) => finals.get(x).cloned(),
                    _ => None,
                }));
            }
        }
        if inits.len() != lens.len() {
            return error(span, "internal error: loop dims", "please report this");
        }
        let mut v = Vec::new();
        let mut which = 0;
        for (j, leaf) in steps.iter().enumerate() {
            let mut sh = Vec::new();
            for k in 0..leaf.len() {
                let name = loop_dim(&s.var, j, k);
                self.sh.depth.insert(name.clone(), self.sh.cur);
                // (a `while` loop: no bound, its trips known once it has run)
                if let Some((index, trips)) = &slice {
                    let most = SliceDim {
                        lens: lens.clone(),
                        index: (*index).clone(),
                        init: inits.clone(),
                        step: step.clone(),
                        trips: trips.clone(),
                        which,
                        most: true,
                    };
                    let last = SliceDim {
                        most: false,
                        ..most.clone()
                    };
                    self.sh
                        .exist_bounds
                        .insert(name.clone(), Dim::Slice(Box::new(most)));
                    self.final_sizes.insert(
                        name.clone(),
                        Dim::Max(
                            Box::new(Dim::Slice(Box::new(last))),
                            Box::new(Dim::Const(0)),
                        ),
                    );
                }
                // A `while` loop whose step never lengthens this dim (`len -
                // 1`, `len / 2`, `min len k`): the initial dim bounds it (an
                // entry's result gets that bound, the loop's own storage
                // still grows to each state as it comes)
                if slice.is_none()
                    && let (Some(f), Some(l), Some(d0)) =
                        (step.get(which), lens.get(which), inits.get(which))
                    && non_increasing(f, l)
                {
                    self.sh.exist_bounds.insert(
                        name.clone(),
                        Dim::Max(Box::new(d0.clone()), Box::new(Dim::Const(0))),
                    );
                }
                sh.push(Dim::Var(name));
                which += 1;
            }
            v.push(sh);
        }
        Ok(v)
    }

    /// Bind a loop's state with the shapes of its initial value (F-tilde's
    /// rule S-Reduce): its leaves, and each array leaf's shape.
    pub fn bind_state_as_init(
        &mut self,
        state: &Name,
        st_ty: &Type,
        init_l: &[Leaf],
        span: Span,
    ) -> R<(Vec<Leaf>, Vec<Vec<Dim>>)> {
        let st_l = self.bind_param(state, st_ty, span)?;
        let mut before = Vec::new();
        for (l, il) in st_l.iter().zip(init_l) {
            if let DType::Array(..) = l.ty {
                let ish = self.shape(il, span)?;
                if let Some(n) = l.name() {
                    self.shapes.insert(n.clone(), ish.clone());
                }
                before.push(ish);
            }
        }
        Ok((st_l, before))
    }
}

/// The base names of the temporaries the front end and the optimizer make
/// (a source variable of one of these names is described as a temporary is:
/// by its marked location).
const TEMPS: &[&str] = &["t", "x", "p", "chk", "r", "q", "u", "m", "n", "c", "s", "j"];

/// `ireduce op ne n g` over arrays as the loop it runs as (F-tilde S-Reduce:
/// `acc = op acc (g i)` for `i` in `0..n`, from `ne`): the accumulator (`op`'s
/// first parameter) with its type, the index (`g`'s parameter), and the loop
/// body (`g`'s statements, `op`'s second parameter bound to `g`'s result,
/// then `op`'s statements). The shape walk and the DPS translation use the
/// same loop.
pub fn ireduce_loop(
    op: &core::Lambda,
    g: &core::Lambda,
    span: Span,
) -> R<(Name, Type, Name, core::Body)> {
    let (i, _) = lparam(g, 0, span)?;
    let (pa, ta) = lparam(op, 0, span)?;
    let (pb, tb) = lparam(op, 1, span)?;
    let mut stmts = g.body.stmts.clone();
    stmts.push(core::Stmt {
        var: pb.clone(),
        ty: tb.clone(),
        exp: core::Exp::Atom(g.body.result.clone()),
        span,
    });
    stmts.extend(op.body.stmts.iter().cloned());
    let body = core::Body {
        stmts,
        result: op.body.result.clone(),
    };
    Ok((pa.clone(), ta.clone(), i.clone(), body))
}

/// Parameter `k` of a lambda.
pub fn lparam(l: &core::Lambda, k: usize, span: Span) -> R<&(Name, Type)> {
    match l.params.get(k) {
        Some(p) => Ok(p),
        None => error(
            span,
            "internal error: a lambda with too few parameters",
            "please report this",
        ),
    }
}

/// `d` with the index `i` replaced by `x`, simplified.
fn at_index(d: &Dim, i: &Name, x: &Dim) -> Dim {
    d.map_leaves(&mut |l| match l {
        Dim::Var(v) if v == i => Some(x.clone()),
        _ => None,
    })
    .simplify()
}

/// Is the loop step `f` of the length `l` (a length: never negative) never
/// more than `l`, whatever the values of its leaves?
fn non_increasing(f: &Dim, l: &Name) -> bool {
    // (`max l 0` is `l`)
    let f = &f.map_leaves(&mut |x| match x {
        Dim::Max(a, b) if **a == Dim::Var(l.clone()) && b.as_const() == Some(0) => {
            Some(Dim::Var(l.clone()))
        }
        _ => None,
    });
    if Dim::minus(f.clone(), Dim::Var(l.clone()))
        .as_const()
        .is_some_and(|c| c <= 0)
    {
        return true;
    }
    match f {
        // (a quotient of at most `l` is at most `max(a, 0)`)
        Dim::Div(a, b) => b.as_const().is_some_and(|c| c >= 1) && non_increasing(a, l),
        Dim::Min(a, b) => non_increasing(a, l) || non_increasing(b, l),
        Dim::Max(a, b) => non_increasing(a, l) && (non_increasing(b, l) || b.as_const() == Some(0)),
        _ => false,
    }
}

/// A size variable for messages: `` `n` ``, or what an existential is
/// (a `filter`'s count, an `if`'s length, ...).
fn size_name(v: &Name) -> String {
    if v.ends_with("_count") {
        "the number of elements a `filter` keeps".to_string()
    } else if v.contains("_ifsize") {
        "the length of the branch an `if` takes".to_string()
    } else if v.contains("_ifdim") {
        "a size of the array the branch an `if` takes returns".to_string()
    } else if v.contains("_part")
        && v.rsplit("_part")
            .next()
            .is_some_and(|d| d.parse::<usize>().is_ok())
    {
        "the number of elements in a part of a `partition`".to_string()
    } else if v.ends_with("_slicelen") {
        "the length of a slice whose bounds are computed from data".to_string()
    } else if v.ends_with("_rowsize")
        || v.rsplit_once("_rowsize")
            .is_some_and(|(_, j)| !j.is_empty() && j.bytes().all(|b| b.is_ascii_digit()))
    {
        "the length of the rows of a `build` whose rows are filtered".to_string()
    } else if v.contains("_loopdim") {
        "a size of a loop's array state after the loop".to_string()
    } else if v.contains("_loopcur") {
        "a size of a loop's array state".to_string()
    } else if v.contains("_loopsize") {
        "the length of a loop's array state after the loop".to_string()
    } else if v.contains("_looplen") {
        "the length of a loop's array state".to_string()
    } else {
        format!("`{}`", core::display_name(v))
    }
}

/// The name of the existential length of array leaf `j` of the result of the
/// `if` bound to `var` (branches of different lengths).
pub fn if_count(var: &Name, j: usize) -> Name {
    format!("{var}_ifsize{j}")
}

/// Dim `k` of array leaf `j` of the result of the `if` bound to `var`, whose
/// branches differ in an inner dim (the taken branch's).
pub fn if_dim(var: &Name, j: usize, k: usize) -> Name {
    format!("{var}_ifdim{j}_{k}")
}

/// The stand-in next length of a loop state's leaf whose length `len` no
/// size bounds (see [`ShapeWalk::unbounded`]).
pub fn unbounded(len: &Name) -> Name {
    format!("{len}_unbounded")
}

fn is_unbounded(v: &Name) -> bool {
    v.ends_with("_unbounded")
}

/// The length of array leaf `j` of a loop's state bound to `var` at the start
/// of an iteration (a scalar of the loop's state, see [`ShapeWalk::loop_growth`]).
fn loop_len(var: &Name, j: usize) -> Name {
    format!("{var}_looplen{j}")
}

/// Dim `k` of array leaf `j` of the state of the loop bound to `var` at the
/// start of an iteration (a loop whose state changes an inner size, see
/// [`ShapeWalk::loop_every`]).
fn loop_cur_dim(var: &Name, j: usize, k: usize) -> Name {
    format!("{var}_loopcur{j}_{k}")
}

/// Dim `k` of array leaf `j` of the loop bound to `var` whose state changes
/// an inner size, after it has run (an existential).
pub fn loop_dim(var: &Name, j: usize, k: usize) -> Name {
    format!("{var}_loopdim{j}_{k}")
}

/// The existential length of array leaf `j` of the loop bound to `var`, after
/// it has run.
pub fn loop_size(var: &Name, j: usize) -> Name {
    format!("{var}_loopsize{j}")
}

/// Does `d` read an argument's elements ([`Dim::Elem`])?
pub fn has_elem(d: &Dim) -> bool {
    let mut found = false;
    d.map_leaves(&mut |l| {
        found |= matches!(l, Dim::Elem(..));
        None
    });
    found
}

/// The existential length of the rows of the `build` bound to `var` (what a
/// `filter` keeps in each row: see `weir_dps`'s `FunTr::build_rows_stmt`).
pub fn row_size(var: &Name) -> Name {
    format!("{var}_rowsize")
}

/// [`row_size`] of array leaf `leaf` of a `build` of tuples.
fn row_size_leaf(var: &Name, leaf: usize) -> Name {
    format!("{var}_rowsize{leaf}")
}

/// The existential length of the slice bound to `var` whose bounds are
/// computed from data (bounded by the sliced array's length).
fn slice_len(var: &Name) -> Name {
    format!("{var}_slicelen")
}

/// The existential length of part `j` of the `partition` bound to `var`.
pub fn part_count(var: &Name, j: usize) -> Name {
    format!("{var}_part{j}")
}

/// Is `v` what a `filter` or a part of a `partition` keeps ([`filter_count`],
/// [`part_count`])?
fn is_kept_count(v: &str) -> bool {
    v.ends_with("_count")
        || v.rsplit_once("_part")
            .is_some_and(|(_, j)| !j.is_empty() && j.bytes().all(|b| b.is_ascii_digit()))
}

/// An inner size read as `dim` reads it: an inner size may be negative
/// where it was never evaluated (`map (\x -> replicate (n - 1) 0) a[n:]`
/// with `n = 0`), and reads as 0 (an outer one was checked).
fn dim_read(d: Dim) -> Dim {
    match d.as_const() {
        Some(c) if c < 0 => Dim::Const(0),
        Some(_) => d,
        None if !matches!(d.simplify(), Dim::DimOf(..)) => {
            Dim::Max(Box::new(d), Box::new(Dim::Const(0)))
        }
        None => d,
    }
}

/// The name of the existential size of `filter`'s result bound to `var`.
pub fn filter_count(var: &Name) -> Name {
    format!("{var}_count")
}

/// The outer dimension of a shape (0 for a malformed, empty one).
pub fn outer(sh: &[Dim]) -> Dim {
    sh.first().cloned().unwrap_or(Dim::Const(0))
}

/// Can a loop's shape slice run the bounds of its inexact lengths (see
/// [`ShapeWalk::loop_growth`]) to bound an entry's result? When every step is
/// non-decreasing in the lengths, the lengths the slice computes from bounds
/// stay above the real ones (by induction: each real length is at most its
/// bound, and a step of smaller lengths is no larger), so its largest is an
/// upper bound of the state's. Only where each step mentions its own length
/// at most once, and no other (`x ++ filter p x` would bound `n` steps by
/// `2^n` times the length, more than memory holds for a loop the
/// interpreter runs in no time): the bound grows by at most a sum of sizes
/// per step.
fn slices_bounds(growth: &[Option<(Name, Dim, bool)>]) -> bool {
    let lens: Vec<Name> = growth.iter().flatten().map(|g| g.0.clone()).collect();
    growth.iter().flatten().all(|g| {
        if matches!(&g.1, Dim::Var(v) if is_unbounded(v)) {
            return false;
        }
        let mut own = 0;
        let mut other = false;
        g.1.map_leaves(&mut |l| {
            if let Dim::Var(v) = l {
                own += usize::from(*v == g.0);
                other |= *v != g.0 && lens.contains(v);
            }
            None
        });
        own <= 1 && !other && monotone(&g.1, &lens) && !scaled(&g.1, &lens)
    })
}

/// Does a length of `vars` occur under a multiplication or division in `d`?
fn scaled(d: &Dim, vars: &[Name]) -> bool {
    let uses = |x: &Dim| {
        let mut u = false;
        x.map_leaves(&mut |l| {
            if let Dim::Var(v) = l {
                u |= vars.contains(v);
            }
            None
        });
        u
    };
    match d {
        Dim::Mul(..) | Dim::Div(..) | Dim::Rem(..) | Dim::Slice(..) | Dim::Elem(..) => uses(d),
        Dim::Add(x, y) | Dim::Sub(x, y) | Dim::Max(x, y) | Dim::Min(x, y) => {
            scaled(x, vars) || scaled(y, vars)
        }
        Dim::Const(_) | Dim::Var(_) | Dim::DimOf(..) => false,
    }
}

/// Is `d` non-decreasing in each variable of `vars` (the others fixed)?
fn monotone(d: &Dim, vars: &[Name]) -> bool {
    let free = |x: &Dim| {
        let mut uses = false;
        x.map_leaves(&mut |l| {
            if let Dim::Var(v) = l {
                uses |= vars.contains(v);
            }
            None
        });
        !uses
    };
    let m = |x: &Dim| monotone(x, vars);
    match d {
        Dim::Const(_) | Dim::Var(_) | Dim::DimOf(..) => true,
        Dim::Add(x, y) | Dim::Max(x, y) | Dim::Min(x, y) => m(x) && m(y),
        Dim::Sub(x, y) => m(x) && free(y),
        Dim::Mul(x, y) => match (&**x, &**y) {
            (Dim::Const(c), e) | (e, Dim::Const(c)) if *c >= 0 => m(e),
            _ => free(d),
        },
        Dim::Div(x, y) => matches!(&**y, Dim::Const(c) if *c > 0) && m(x) || free(d),
        Dim::Rem(..) | Dim::Slice(..) | Dim::Elem(..) => free(d),
    }
}
