//! The DPS translation (dps-ftilde §3.2, Fig. 6), consuming the shape stage.
//!
//! Input: the optimized core IR (first-order; `build`/`ifold`/`ireduce`, loops and
//! a few kept primitives). Output: a [`crate::ir::Program`] in which every
//! array-returning function takes its destinations first and every intermediate
//! array lives in an `alloc` scope whose size was computed, before its values,
//! from shapes only.
//!
//! The shapes come from the shape stage, `weir_shape::walk` (Fig. 7 and size
//! slicing: existentials named at their producers, loop shape slices, the
//! E0801 rejections): each function's translation owns a
//! [`weir_shape::walk::ShapeWalk`] (`FunTr::w`), asks it for the shape of
//! every statement it translates ([`ShapeWalk::shape_exp`]) and binds the
//! leaves it creates itself (buffers, views, loop states) in it.
//!
//! Rules, in the paper's terms:
//! - (D-Let) `let x = e1 in e2` with an array `e1`: `alloc (S[e1]) (λr. D[e1] r; D[e2] d)`
//!   — here an [`Stmt::Alloc`] whose body is `e1` written into `r` followed by the
//!   rest of the block. When `x` is (part of) the block's result, `e1` is written
//!   straight into the block's destination instead (no allocation, no copy).
//! - (D-App) calls pass destinations first; their shape is the callee's shape
//!   template with the arguments' shapes substituted (partial evaluation: no shape
//!   function runs at run time).
//! - (D-VarVector) an array variable returned where a destination is expected is
//!   copied.
//! - (S-If), (S-Reduce): an `if` whose branches have different shapes, or a loop
//!   whose array state changes shape, is sized by existentials where size
//!   slicing can bound them, else rejected with both shapes in the message.
//!
//! Where a shape cannot be proved equal to the destination it is written into, an
//! explicit run-time [`Stmt::Check`] guards the write.

use crate::ir::*;
use std::collections::HashMap;
use weir_ir::{self as core, Builtin, Prim, Size, Type};
use weir_shape::Dim;
use weir_shape::walk::{
    Leaf, R, ShapeSig, ShapeWalk, error, filter_count, flat_type, has_elem, if_count, if_dim,
    loop_dim, loop_size, lparam, outer, part_count, row_size, unbounded,
};

/// A translation error (the construct is outside what the C backend
/// compiles): the shape stage's.
pub use weir_shape::walk::Error;

/// Translate a whole (optimized, first-order) program. Errors are collected per
/// function; a function with an error is left out.
pub fn translate(prog: &core::Program) -> Result<Program, Vec<Error>> {
    let (p, errors) = translate_partial(prog);
    if errors.is_empty() {
        Ok(p)
    } else {
        Err(errors.into_iter().map(|(_, e)| e).collect())
    }
}

/// Translate every function that can be translated: the program of those, and
/// the error of each one that cannot (with its name). A function that calls
/// one left out is left out too (its error says so).
pub fn translate_partial(prog: &core::Program) -> (Program, Vec<(Name, Error)>) {
    let mut out = Program::default();
    let mut sigs: HashMap<Name, ShapeSig> = HashMap::new();
    let mut errors = Vec::new();
    // Callees come before callers in the core program (no recursion).
    for d in &prog.defs {
        match FunTr::new(&sigs, d).and_then(|t| t.run(d)) {
            Ok(mut f) => {
                // (dense copies of strided arrays where dense ones are needed)
                crate::materialize::run(&mut f);
                sigs.insert(
                    f.name.clone(),
                    ShapeSig {
                        params: f.params.iter().map(|p| p.name.clone()).collect(),
                        dests: f
                            .dests
                            .iter()
                            .map(|dp| (dp.shape.clone(), dp.spans.clone()))
                            .collect(),
                    },
                );
                out.funs.push(f);
            }
            Err(e) => errors.push((d.name.clone(), e)),
        }
    }
    (out, errors)
}

/// The translation of one function: its shape walk (`weir_shape::walk`),
/// which it consumes, and the state of the value translation.
struct FunTr<'a> {
    /// The shapes of the function's leaves and what is known about its
    /// sizes.
    w: ShapeWalk<'a>,
    /// The function's result destinations: for each dim, the size its
    /// declared type names (checked with the interpreter's message).
    result_sizes: HashMap<Name, Vec<Option<String>>>,
    fun_name: Name,
    /// Results already guarded by a [`Guard::DestReady`] on this path.
    ready: std::collections::HashSet<Name>,
    /// An entry's results whose outer size is existential: the caller
    /// allocates an upper bound, the entry writes the first rows and returns
    /// their number ([`ResultPart::Size`]).
    exist_dests: std::collections::HashSet<Name>,
    /// The destination of the next state of a loop leaf grown in the loop
    /// (`nx`, a view of the front of the growing storage): defined where the
    /// body first writes it ([`FunTr::define_grown`]), not before the body, so
    /// the body's own errors (an allocation too large for memory among them)
    /// come first, as in the interpreter, and, when the body computes its
    /// result elsewhere and copies it, the storage grows to the exact rows
    /// copied instead of an upper bound (an `if` whose untaken branch is
    /// large). Each: the storage, the rows (`F` or its bound), the element,
    /// the rank, the loop's span and the first growth's hint
    /// ([`Stmt::Grow`]).
    lazy_grow: HashMap<Name, LazyGrow>,
    /// The row views of a `build` of rows writing an entry's result: the
    /// result ([`FunTr::dest_ready_rows`]).
    result_rows: HashMap<Name, Name>,
    /// The destinations grown softly ([`Stmt::Grow`] with `soft`) and the
    /// row views of the `build`s of rows writing them: the storage, whose
    /// [`Guard::Grown`] each row gets where it is first written.
    soft_rows: HashMap<Name, Name>,
    /// Set when the body wrote such a state directly.
    unbounded_hit: Option<Error>,
    /// Uses of each variable in the function (nested bodies included).
    uses: HashMap<Name, usize>,
    /// An entry's results written only once known: of existential outer
    /// size with no bound from the arguments ([`DestParam::unbounded`]), or
    /// of existential inner size ([`FunTr::exist_dim`]). Nothing is written
    /// into them before (the result is computed into storage of its own and
    /// copied; for no bound, after a check that the caller's rows hold it).
    late_dests: std::collections::HashSet<Name>,
    /// An entry's results of existential size in an inner dimension, or in
    /// more than one: those dimensions (the caller allocates the bound in
    /// each; the entry writes the result densely at the front of its
    /// storage and returns each, [`FunTr::stmts`]).
    exist_dim: HashMap<Name, Vec<usize>>,
}

impl<'a> FunTr<'a> {
    fn new(sigs: &'a HashMap<Name, ShapeSig>, d: &core::FunDef) -> R<FunTr<'a>> {
        Ok(FunTr {
            w: ShapeWalk::new(sigs, d.entry),
            result_sizes: HashMap::new(),
            fun_name: d.name.clone(),
            ready: Default::default(),
            exist_dests: Default::default(),
            lazy_grow: HashMap::new(),
            result_rows: HashMap::new(),
            soft_rows: HashMap::new(),
            unbounded_hit: None,
            uses: weir_ir::visit::use_counts(d),
            late_dests: Default::default(),
            exist_dim: HashMap::new(),
        })
    }

    fn run(mut self, d: &core::FunDef) -> R<Fun> {
        // Parameters.
        let mut params = Vec::new();
        let mut prologue = Vec::new();
        let mut size_home: HashMap<Name, Dim> = HashMap::new();
        for (p, t) in &d.params {
            let Some(leaves) = flat_type(t) else {
                return error(
                    d.span,
                    format!("`{}` takes a function parameter `{p}`", d.name),
                    "the C backend compiles first-order programs; this function should have been inlined",
                );
            };
            self.w.types.insert(p.clone(), t.clone());
            let mut ls = Vec::new();
            for (k, (ty, sizes)) in leaves.iter().enumerate() {
                let name = if leaves.len() == 1 {
                    p.clone()
                } else {
                    format!("{p}c{k}")
                };
                params.push(Param {
                    name: name.clone(),
                    ty: *ty,
                });
                self.w.bind_depth(&name);
                if let DType::Array(..) = ty {
                    let mut shape = Vec::new();
                    for (j, sz) in sizes.iter().enumerate() {
                        let here = Dim::DimOf(name.clone(), j);
                        match sz {
                            Size::Var(n) if d.size_params.contains(n) => {
                                if let Some(prev) = size_home.get(n) {
                                    // A repeated size parameter: check it.
                                    let got = self.w.fresh("s");
                                    prologue.push(Stmt::Let {
                                        var: got.clone(),
                                        ty: PrimType::I64,
                                        exp: SExp::Dim(name.clone(), j),
                                        span: d.span,
                                    });
                                    prologue.push(Stmt::Check {
                                        check: Check {
                                            got: Atom::Var(got),
                                            want: Atom::Var(n.clone()),
                                            message: core::SizeCheck {
                                                got: Atom::Var(n.clone()),
                                                want: Atom::Var(n.clone()),
                                                callee: d.name.clone(),
                                                param: p.clone(),
                                                size: n.clone(),
                                            },
                                        },
                                        span: d.span,
                                    });
                                    shape.push(prev.clone());
                                } else {
                                    size_home.insert(n.clone(), here.clone());
                                    prologue.push(Stmt::Let {
                                        var: n.clone(),
                                        ty: PrimType::I64,
                                        exp: SExp::Dim(name.clone(), j),
                                        span: d.span,
                                    });
                                    self.w.bind_depth(n);
                                    self.w.sh.defs.insert(n.clone(), here.clone());
                                    self.w.scalar_types.insert(n.clone(), PrimType::I64);
                                    self.w.vars.insert(
                                        n.clone(),
                                        vec![Leaf {
                                            atom: Atom::Var(n.clone()),
                                            ty: DType::Scalar(PrimType::I64),
                                        }],
                                    );
                                    shape.push(Dim::Var(n.clone()));
                                }
                            }
                            Size::Const(c) => {
                                // Checked at the boundary like a size parameter.
                                let got = self.w.fresh("s");
                                prologue.push(Stmt::Let {
                                    var: got.clone(),
                                    ty: PrimType::I64,
                                    exp: SExp::Dim(name.clone(), j),
                                    span: d.span,
                                });
                                prologue.push(Stmt::Check {
                                    check: Check {
                                        got: Atom::Var(got),
                                        want: Atom::Const(Const::I64(*c)),
                                        message: core::SizeCheck {
                                            got: Atom::Const(Const::I64(0)),
                                            want: Atom::Const(Const::I64(*c)),
                                            callee: d.name.clone(),
                                            param: p.clone(),
                                            size: c.to_string(),
                                        },
                                    },
                                    span: d.span,
                                });
                                shape.push(Dim::Const(*c));
                            }
                            _ => shape.push(here),
                        }
                    }
                    self.w.shapes.insert(name.clone(), shape);
                }
                ls.push(Leaf {
                    atom: Atom::Var(name),
                    ty: *ty,
                });
            }
            self.w.vars.insert(p.clone(), ls);
        }
        // Size parameters that only appear in scalar positions are bound by
        // their home; scalar i64 params are shape leaves themselves.
        self.w.sh.size_home = size_home.clone();
        // Result shape template.
        let Some(ret_leaves) = flat_type(&d.ret) else {
            return error(
                d.span,
                format!("`{}` returns a function", d.name),
                "functions cannot return functions (F-tilde restriction)",
            );
        };
        let mut dests = Vec::new();
        let mut results = Vec::new();
        // Destinations whose outer size is existential (an upper bound here).
        let mut exist_dests: Vec<usize> = Vec::new();
        // Declared result sizes checked after the body: (destination, dimension,
        // declared size in terms of the parameters, its name in the type).
        let mut deferred: Vec<(usize, usize, Dim, Size)> = Vec::new();
        let structural = self.w.shape_of_body_result(&d.body)?;
        let mut si = 0;
        for (ty, sizes) in &ret_leaves {
            match ty {
                DType::Scalar(p) => results.push(ResultPart::Scalar(*p)),
                DType::Array(p, _) => {
                    let st = structural.get(si).cloned().unwrap_or_default();
                    si += 1;
                    let mut shape = Vec::new();
                    let mut spans = Vec::new();
                    let mut declared = Vec::new();
                    let mut unbounded = false;
                    let mut exist_at: Vec<usize> = Vec::new();
                    for (j, sz) in sizes.iter().enumerate() {
                        let from_type = match sz {
                            Size::Const(c) => Some(Dim::Const(*c)),
                            Size::Var(n) => size_home.get(n).cloned().or_else(|| {
                                d.params
                                    .iter()
                                    .any(|(q, t)| q == n && *t == Type::I64)
                                    .then(|| Dim::Var(n.clone()))
                            }),
                            _ => None,
                        };
                        // The body's own size, when the caller can compute it
                        // from the arguments: the array is computed at that size
                        // and its declared size checked after the body, as the
                        // interpreter does (an error inside the body comes first).
                        let body_dim = st
                            .get(j)
                            .and_then(|s| self.w.sh.expand_to_params(s, &size_home).ok());
                        let dim = match from_type {
                            Some(x) => match body_dim {
                                Some(b) if !weir_shape::same_dim(&b, &x) => {
                                    deferred.push((dests.len(), j, x, sz.clone()));
                                    b
                                }
                                _ => x,
                            },
                            None => {
                                let Some(s) = st.get(j) else {
                                    return error(
                                        d.span,
                                        format!("cannot compute the result shape of `{}`", d.name),
                                        "declare the result sizes in terms of the parameters",
                                    );
                                };
                                let exact = self.w.sh.expand_to_params(s, &size_home);
                                // An entry's outer size known only once the body
                                // has run (a filter's count, an `if`'s length):
                                // the caller allocates an upper bound computed
                                // from the arguments, the entry returns the size.
                                // (each existential dim of a result needs a
                                // bound, except an outer one alone: below)
                                let bound = match &exact {
                                    Err(_) if d.entry && !unbounded => {
                                        self.w.sh.param_bound(s, true, &size_home, 64)
                                    }
                                    _ => None,
                                };
                                if let Some(b) = bound {
                                    if exist_at.is_empty() {
                                        exist_dests.push(dests.len());
                                    }
                                    exist_at.push(j);
                                    b
                                } else if exact.is_err() && d.entry && j == 0 {
                                    // No bound from the arguments (`iota (reduce
                                    // max 0 a)`): the shape function says 0 rows
                                    // and the caller learns the rows the result
                                    // needs from a first call (weir_retry_rows).
                                    exist_dests.push(dests.len());
                                    exist_at.push(0);
                                    unbounded = true;
                                    Dim::Const(0)
                                } else {
                                    exact.map_err(|v| Error {
                                    span: d.span,
                                    note: self.w.size_note(&v),
                                    message: format!(
                                        "the result shape of `{}` depends on {}, a value computed inside it",
                                        d.name,
                                        self.w.size_desc(&v)
                                    ),
                                    help: if d.entry {
                                        "an entry point may return an array whose outer size is known only once it has run (a filter, an `if` with branches of different lengths): the caller allocates an upper bound computed from the arguments. Here no such bound was found (an inner size, or a size with no bound from the arguments); declare the result sizes with size parameters, or run with --interp".into()
                                    } else {
                                        "Weir compiles a function in destination-passing style: its caller must know the result's shape from the arguments' shapes alone (F-tilde's restriction); only an entry point may return an array whose size is known once it has run. Declare the result sizes with size parameters, or run with --interp".into()
                                    },
                                })?
                                }
                            }
                        };
                        spans.push(self.w.sh.origin_of(&dim).unwrap_or(d.span));
                        declared.push(match sz {
                            Size::Const(c) => Some(c.to_string()),
                            Size::Var(n) => Some(n.clone()),
                            _ => None,
                        });
                        shape.push(dim);
                    }
                    let name = self.w.fresh("out");
                    self.result_sizes.insert(name.clone(), declared);
                    results.push(ResultPart::Dest(dests.len()));
                    if unbounded {
                        self.late_dests.insert(name.clone());
                    }
                    if exist_at.iter().any(|j| *j > 0) {
                        self.exist_dim.insert(name.clone(), exist_at.clone());
                        self.late_dests.insert(name.clone());
                    }
                    dests.push(DestParam {
                        name,
                        elem: *p,
                        shape,
                        spans,
                        unbounded,
                    });
                }
            }
        }
        // Bind the destinations, with their shapes in terms of the body's names.
        let in_body = |s: &Dim| {
            s.map_leaves(&mut |l| match l {
                Dim::DimOf(a, k) => size_home
                    .iter()
                    .find(|(_, h)| *h == l)
                    .map(|(n, _)| Dim::Var(n.clone()))
                    .or(Some(Dim::DimOf(a.clone(), *k))),
                _ => None,
            })
        };
        for k in &exist_dests {
            if let Some(dp) = dests.get(*k) {
                self.exist_dests.insert(dp.name.clone());
            }
        }
        let mut dest_names = Vec::new();
        for dp in &dests {
            // A dim read from an argument's elements is, in the body, the
            // destination's own (the entry checked it equals the shape
            // function's before the body runs); the body's read computes it.
            let shape: Vec<Dim> = dp
                .shape
                .iter()
                .enumerate()
                .map(|(j, x)| {
                    if has_elem(x) {
                        Dim::DimOf(dp.name.clone(), j)
                    } else {
                        in_body(x)
                    }
                })
                .collect();
            self.w.shapes.insert(dp.name.clone(), shape);
            self.w.bind_depth(&dp.name);
            dest_names.push(Some(dp.name.clone()));
        }
        // Results map onto destinations (scalar parts stay results).
        let mut slots = Vec::new();
        let mut di = 0;
        for r in &results {
            match r {
                ResultPart::Scalar(_) => slots.push(None),
                ResultPart::Size { .. } => {}
                ResultPart::Dest(_) => {
                    slots.push(dest_names[di].clone());
                    di += 1;
                }
            }
        }
        let mut body = self.body(&d.body, &slots)?;
        for (di, j, want, sz) in deferred {
            let Some(dp) = dests.get(di) else { continue };
            let got = dp.shape.get(j).map(in_body).unwrap_or(Dim::Const(0));
            let ga = self.emit_dim(&got, &mut body.stmts, d.span);
            let wa = self.emit_dim(&in_body(&want), &mut body.stmts, d.span);
            body.stmts.push(Stmt::Check {
                check: Check {
                    got: ga,
                    want: wa,
                    message: core::SizeCheck {
                        got: Atom::Const(Const::I64(0)),
                        want: Atom::Const(Const::I64(0)),
                        callee: d.name.clone(),
                        param: "result".into(),
                        size: match sz {
                            Size::Const(c) => c.to_string(),
                            Size::Var(n) => n,
                            _ => String::new(),
                        },
                    },
                },
                span: Span::default(),
            });
        }
        prologue.append(&mut body.stmts);
        body.stmts = prologue;
        // The returned sizes, after the scalar results (see `stmts`).
        for k in &exist_dests {
            let dims = dests
                .get(*k)
                .and_then(|dp| self.exist_dim.get(&dp.name))
                .cloned()
                .unwrap_or_else(|| vec![0]);
            results.extend(
                dims.into_iter()
                    .map(|dim| ResultPart::Size { dest: *k, dim }),
            );
        }
        Ok(Fun {
            name: d.name.clone(),
            entry: d.entry,
            dests,
            params,
            results,
            body,
            span: d.span,
        })
    }

    /// `build n`'s check that `n` is not negative (the interpreter's error),
    /// unless it provably is not.
    fn build_count_guard(&self, n: &Atom, out: &mut Vec<Stmt>, span: Span) {
        if !self.w.provably_nonneg(n) {
            out.push(Stmt::Guard {
                guard: Guard::Core(core::Check::new(
                    core::CheckKind::NonNeg,
                    vec![n.clone()],
                    "build",
                )),
                span,
            });
        }
    }

    /// Before the first write into an entry's result `d`: it must have been
    /// allocated (see [`Guard::DestReady`]).
    fn dest_ready(&mut self, d: &Name, out: &mut Vec<Stmt>, span: Span) {
        self.dest_ready_rows(d, vec![], out, span);
    }

    /// [`FunTr::dest_ready`]; with `build`, the dims of a `build` of rows
    /// that writes `d`, its count first (see [`Guard::DestReady`]). A row of
    /// such a `build` ([`FunTr::result_rows`]) is checked for its entry
    /// result where the row is first written.
    fn dest_ready_rows(&mut self, d: &Name, build: Vec<Atom>, out: &mut Vec<Stmt>, span: Span) {
        if self.lazy_grow.contains_key(d) {
            // (a row of constant dims always fits)
            let small = build
                .iter()
                .skip(1)
                .all(|x| matches!(x, Atom::Const(Const::I64(c)) if *c < 1 << 32));
            let soft = if small { vec![] } else { build };
            self.define_grown(d, None, soft, out, span);
            return;
        }
        // (a row of a loop state grown softly: out of memory here when the
        // growth was skipped, a row being too large for memory)
        if let Some(storage) = self.soft_rows.get(d).cloned() {
            if self.ready.insert(d.clone()) {
                out.push(Stmt::Guard {
                    guard: Guard::Grown {
                        dest: storage,
                        build,
                    },
                    span,
                });
            }
            return;
        }
        let root = match self.result_rows.get(d) {
            Some(r) => r.clone(),
            None => d.clone(),
        };
        if self.w.sh.entry && self.result_sizes.contains_key(&root) && self.ready.insert(d.clone())
        {
            out.push(Stmt::Guard {
                guard: Guard::DestReady { dest: root, build },
                span,
            });
        }
    }

    /// Before the first write into `d`, the next state of a loop leaf grown
    /// in the loop ([`FunTr::lazy_grow`]) on this path: grow the storage to
    /// `rows` (the rows the body writes, where known; else its `F` or bound)
    /// and bind `d` to a view of its front.
    /// Out of memory at `at`, the construct that writes it (where the
    /// interpreter fails to allocate its value), else at the loop.
    ///
    /// With `soft` (the dims of the `build` of rows that writes `d`, its
    /// count first): the growth is soft ([`Stmt::Grow`]) and the `build`'s rows are
    /// checked where they are first written ([`FunTr::soft_rows`]).
    fn define_grown(
        &mut self,
        d: &Name,
        rows: Option<&Atom>,
        soft: Vec<Atom>,
        out: &mut Vec<Stmt>,
        at: Span,
    ) {
        let Some((storage, bound, elem, rank, span, hint, reshape)) =
            self.lazy_grow.get(d).cloned()
        else {
            return;
        };
        if !self.ready.insert(d.clone()) {
            return;
        }
        let rows = match (rows, &bound) {
            (Some(r), _) => r.clone(),
            (None, Atom::Var(u)) if self.w.unbounded.contains_key(u) => {
                if self.unbounded_hit.is_none() {
                    self.unbounded_hit = self.w.unbounded.get(u).cloned();
                }
                return;
            }
            (None, b) => b.clone(),
        };
        let span = if at == Span::default() { span } else { at };
        if !soft.is_empty() {
            self.soft_rows.insert(d.clone(), storage.clone());
        }
        out.push(Stmt::Grow {
            dest: storage.clone(),
            rows: rows.clone(),
            hint,
            soft,
            span,
        });
        match reshape {
            // (flat storage: its front, as the state's dims)
            Some((front, dims)) => {
                out.push(Stmt::View {
                    var: front.clone(),
                    elem,
                    rank: 1,
                    view: View::Slice(storage, Atom::Const(Const::I64(0)), rows),
                    span,
                });
                out.push(Stmt::View {
                    var: d.clone(),
                    elem,
                    rank,
                    view: View::Reshape(front, dims),
                    span,
                });
            }
            None => out.push(Stmt::View {
                var: d.clone(),
                elem,
                rank,
                view: View::Slice(storage, Atom::Const(Const::I64(0)), rows),
                span,
            }),
        }
    }

    /// Emit statements computing `d` and return it as an atom.
    fn emit_dim(&mut self, d: &Dim, out: &mut Vec<Stmt>, span: Span) -> Atom {
        let d = d.simplify();
        match &d {
            Dim::Slice(sl) => {
                // The slice's fold, with names of its own: (lengths, largest).
                let init: Vec<Atom> = sl
                    .init
                    .iter()
                    .map(|x| self.emit_dim(x, out, span))
                    .collect();
                let n = self.emit_dim(&sl.trips, out, span);
                let lens: Vec<Name> = sl.lens.iter().map(|_| self.w.fresh("len")).collect();
                let most = self.w.fresh("most");
                let i = self.w.fresh("i");
                let mut map: HashMap<Name, Name> =
                    sl.lens.iter().cloned().zip(lens.clone()).collect();
                map.insert(sl.index.clone(), i.clone());
                for x in lens.iter().chain([&most, &i]) {
                    self.w.bind_depth(x);
                    self.w.scalar_types.insert(x.clone(), PrimType::I64);
                }
                let mut fb = Vec::new();
                let mut next = Vec::new();
                for st in &sl.step {
                    let st = st.map_leaves(&mut |l| match l {
                        Dim::Var(v) => map.get(v).map(|x| Dim::Var(x.clone())),
                        _ => None,
                    });
                    next.push(self.emit_dim(&st, &mut fb, span));
                }
                let cur = next
                    .get(sl.which)
                    .cloned()
                    .unwrap_or(Atom::Const(Const::I64(0)));
                let m = self.emit_dim(
                    &Dim::Max(
                        Box::new(Dim::Var(most.clone())),
                        Box::new(self.w.atom_dim(&cur)),
                    ),
                    &mut fb,
                    span,
                );
                next.push(m);
                let mut acc: Vec<(Name, PrimType)> =
                    lens.iter().map(|l| (l.clone(), PrimType::I64)).collect();
                acc.push((most.clone(), PrimType::I64));
                let mut init_all = init.clone();
                init_all.push(
                    init.get(sl.which)
                        .cloned()
                        .unwrap_or(Atom::Const(Const::I64(0))),
                );
                let outs: Vec<(Name, PrimType)> = acc
                    .iter()
                    .map(|_| (self.w.fresh("sl"), PrimType::I64))
                    .collect();
                for (o, _) in &outs {
                    self.w.bind_depth(o);
                    self.w.scalar_types.insert(o.clone(), PrimType::I64);
                }
                let pick = if sl.most { outs.len() - 1 } else { sl.which };
                let r = outs
                    .get(pick)
                    .map(|o| Atom::Var(o.0.clone()))
                    .unwrap_or(Atom::Const(Const::I64(0)));
                out.push(Stmt::Fold {
                    outs,
                    acc,
                    init: init_all,
                    i,
                    n,
                    body: Block {
                        stmts: fb,
                        results: next,
                    },
                });
                r
            }
            Dim::Const(c) => Atom::Const(Const::I64(*c)),
            Dim::Var(v) => Atom::Var(v.clone()),
            // an argument's element, 0 out of bounds (the read in the
            // program reports that where it is evaluated)
            Dim::Elem(a, idx) => {
                let ix: Vec<Atom> = idx.iter().map(|i| self.emit_dim(i, out, span)).collect();
                self.shape_let(SExp::LoadOr0(a.clone(), ix), out, span)
            }
            Dim::DimOf(a, k) => self.shape_let(SExp::Dim(a.clone(), *k), out, span),
            Dim::Add(a, b)
            | Dim::Sub(a, b)
            | Dim::Mul(a, b)
            | Dim::Div(a, b)
            | Dim::Rem(a, b)
            | Dim::Max(a, b)
            | Dim::Min(a, b) => {
                let x = self.emit_dim(a, out, span);
                let y = self.emit_dim(b, out, span);
                let exp = match &d {
                    Dim::Add(..) => SExp::Bin(BinOp::Add, x, y),
                    Dim::Sub(..) => SExp::Bin(BinOp::Sub, x, y),
                    Dim::Mul(..) => SExp::Bin(BinOp::Mul, x, y),
                    // Shape arithmetic never fails: a division by zero is
                    // reported where the program's own division is evaluated.
                    Dim::Div(..) => SExp::DivOr0(x, y),
                    Dim::Rem(..) => SExp::RemOr0(x, y),
                    Dim::Max(..) => SExp::Math(MathFn::Max, vec![x, y]),
                    _ => SExp::Math(MathFn::Min, vec![x, y]),
                };
                self.shape_let(exp, out, span)
            }
        }
    }

    /// A dense array of dims `dims` (shape `shape`) at the front of `buf`, a
    /// buffer of `cap` elements of which the array takes the first `all`:
    /// views `names` = (flat, front, the array), reshape, slice, reshape.
    #[allow(clippy::too_many_arguments)]
    fn front_view(
        &mut self,
        buf: &Name,
        (elem, rank): (PrimType, usize),
        (cap, all): (Atom, Atom),
        (dims, shape): (Vec<Atom>, Vec<Dim>),
        [flat, front, v]: [Name; 3],
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Name {
        out.push(Stmt::View {
            var: flat.clone(),
            elem,
            rank: 1,
            view: View::Reshape(buf.clone(), vec![cap.clone()]),
            span,
        });
        self.w
            .shapes
            .insert(flat.clone(), vec![self.w.atom_dim(&cap)]);
        self.w.bind_depth(&flat);
        let depth = self.w.sh.cur;
        self.flat_front(
            &flat,
            (elem, rank),
            all,
            (dims, shape),
            [front, v],
            depth,
            out,
            span,
        )
    }

    /// A fresh buffer (named from `base`) of shape `dims_d` (names in scope
    /// here), its dims emitted into `out` (each at least 0 with `clamp`).
    fn dense_buf(
        &mut self,
        base: &str,
        elem: PrimType,
        dims_d: Vec<Dim>,
        clamp: bool,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Buf {
        let dims: Vec<Atom> = dims_d
            .iter()
            .map(|d| {
                let c = if clamp {
                    Dim::Max(Box::new(d.clone()), Box::new(Dim::Const(0)))
                } else {
                    d.clone()
                };
                self.emit_dim(&c, out, span)
            })
            .collect();
        let b = self.w.fresh(base);
        self.w.shapes.insert(b.clone(), dims_d);
        self.w.bind_depth(&b);
        Buf {
            var: b,
            elem,
            dims,
            span,
            when: vec![],
            grown: false,
        }
    }

    /// `let b = exp`, a `bool`, as an atom.
    fn bool_let(&mut self, exp: SExp, out: &mut Vec<Stmt>, span: Span) -> Atom {
        self.typed_let("c", PrimType::Bool, exp, out, span)
    }

    /// `let s = exp` (an `i64` of shape arithmetic), as an atom.
    fn shape_let(&mut self, exp: SExp, out: &mut Vec<Stmt>, span: Span) -> Atom {
        self.typed_let("s", PrimType::I64, exp, out, span)
    }

    /// `let <fresh base> : ty = exp`, as an atom.
    fn typed_let(
        &mut self,
        base: &str,
        ty: PrimType,
        exp: SExp,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Atom {
        let t = self.w.fresh(base);
        out.push(Stmt::Let {
            var: t.clone(),
            ty,
            exp,
            span,
        });
        self.w.bind_depth(&t);
        Atom::Var(t)
    }

    /// Guard a write of something of shape `got` into a destination of shape
    /// `want`: nothing when provably equal, run-time checks otherwise.
    /// `into`: the destination written, when it may be one of the function's
    /// results (a dim its declared type gives is then checked as the
    /// interpreter does: the function's "declared result type" error, at the
    /// function).
    #[allow(clippy::too_many_arguments)]
    fn guard(
        &mut self,
        got: &[Dim],
        want: &[Dim],
        what: &str,
        into: Option<&Name>,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> R<()> {
        // (whether the value written holds no element: its smallest dim)
        let mut got_min: Option<Atom> = None;
        for (j, (g, w)) in got.iter().zip(want).enumerate() {
            if self
                .w
                .sh
                .same_shape(std::slice::from_ref(g), std::slice::from_ref(w))
            {
                continue;
            }
            // A write whose shape cannot be checked is not compiled.
            let g = self.w.resolve_here(g, span)?;
            let w = self.w.resolve_here(w, span)?;
            let ga = self.emit_dim(&g, out, span);
            let wa = self.emit_dim(&w, out, span);
            // A negative size was never evaluated (its construct reports it
            // where evaluated, before any write): inside an empty array, what
            // the interpreter does not know, compatible with any (fuzz seed
            // 89, program 16064): a negative dim of the value written (it
            // holds no element), or of the destination where the value holds
            // no element (nothing is written either way).
            let ga = match (&g, &w) {
                (Dim::Const(x), Dim::Const(y)) if *x >= 0 && *y >= 0 => ga,
                _ => {
                    let zero = Atom::Const(Const::I64(0));
                    let m = match &got_min {
                        Some(m) => m.clone(),
                        None => {
                            let mut m = Atom::Const(Const::I64(1));
                            for d in got {
                                let d = self.w.resolve_here(d, span)?;
                                let x = self.emit_dim(&d, out, span);
                                m = self.shape_let(SExp::Math(MathFn::Min, vec![m, x]), out, span);
                            }
                            got_min = Some(m.clone());
                            m
                        }
                    };
                    let gn =
                        self.bool_let(SExp::Bin(BinOp::Lt, ga.clone(), zero.clone()), out, span);
                    let wn =
                        self.bool_let(SExp::Bin(BinOp::Lt, wa.clone(), zero.clone()), out, span);
                    let none = self.bool_let(SExp::Bin(BinOp::Le, m, zero), out, span);
                    let wn = self.bool_let(SExp::Bin(BinOp::And, wn, none), out, span);
                    let either = self.bool_let(SExp::Bin(BinOp::Or, gn, wn), out, span);
                    let unknown = self.shape_let(SExp::Convert(PrimType::I64, either), out, span);
                    let known = self.shape_let(
                        SExp::Bin(BinOp::Sub, Atom::Const(Const::I64(1)), unknown.clone()),
                        out,
                        span,
                    );
                    let a = self.shape_let(SExp::Bin(BinOp::Mul, unknown, wa.clone()), out, span);
                    let b = self.shape_let(SExp::Bin(BinOp::Mul, known, ga), out, span);
                    self.shape_let(SExp::Bin(BinOp::Add, a, b), out, span)
                }
            };
            let declared = into
                .and_then(|d| self.result_sizes.get(d))
                .and_then(|v| v.get(j).cloned().flatten());
            let (message, span) = match declared {
                Some(size) => (
                    core::SizeCheck {
                        got: Atom::Const(Const::I64(0)),
                        want: Atom::Const(Const::I64(0)),
                        callee: self.fun_name.clone(),
                        param: "result".into(),
                        size,
                    },
                    Span::default(),
                ),
                None => (
                    core::SizeCheck {
                        got: Atom::Const(Const::I64(0)),
                        want: Atom::Const(Const::I64(0)),
                        callee: what.to_string(),
                        param: "dest".into(),
                        size: String::new(),
                    },
                    span,
                ),
            };
            out.push(Stmt::Check {
                check: Check {
                    got: ga,
                    want: wa,
                    message,
                },
                span,
            });
        }
        Ok(())
    }

    // ---------------------------------------------------------------------
    // Shape translation (Fig. 7): the shape of each array leaf of an
    // expression, without evaluating it.

    // ---------------------------------------------------------------------
    // The value translation (Fig. 6).

    /// Translate a body whose result leaves go to `dests` (one slot per leaf:
    /// `Some(dest)` for an array leaf, `None` for a scalar leaf, which becomes a
    /// block result).
    fn body(&mut self, b: &core::Body, dests: &[Option<Name>]) -> R<Block> {
        self.w.sh.cur += 1;
        // A result of existential size is computed into storage of its own
        // and copied at the end (see `stmts`), never written straight into.
        // (`direct` names them; only a `filter` writes into one, see `stmts`.)
        // Which let-bound leaves can be computed straight into a destination.
        let mut direct: HashMap<Name, Vec<Option<Name>>> = HashMap::new();
        if let Atom::Var(r) = &b.result
            && dests.iter().any(|d| d.is_some())
        {
            let tuple = b
                .stmts
                .iter()
                .find(|s| &s.var == r)
                .and_then(|s| match &s.exp {
                    core::Exp::Tuple(xs) => Some(xs.clone()),
                    _ => None,
                });
            match tuple {
                Some(xs) => {
                    let mut k = 0;
                    for x in xs {
                        let n = match &x {
                            Atom::Var(v) => b
                                .stmts
                                .iter()
                                .find(|s| &s.var == v)
                                .and_then(|s| flat_type(&s.ty))
                                .map(|f| f.len())
                                // A variable bound outside this body (a
                                // parameter, an outer `let`): its leaves.
                                .or_else(|| self.w.vars.get(v).map(|ls| ls.len()))
                                .unwrap_or(1),
                            Atom::Const(_) => 1,
                        };
                        if let Atom::Var(v) = &x
                            && b.stmts.iter().any(|s| &s.var == v)
                            && !direct.contains_key(v)
                        {
                            direct.insert(
                                v.clone(),
                                dests
                                    .get(k..(k + n).min(dests.len()))
                                    .map(|x| x.to_vec())
                                    .unwrap_or_default(),
                            );
                        }
                        k += n;
                    }
                }
                None => {
                    direct.insert(r.clone(), dests.to_vec());
                }
            }
        }
        // The array a `scatter`/`reduce_by_index`/update (`a with [i] = v`)
        // or `copy` writes, when it is built here for that alone: built
        // straight into the destination, then updated there in place (no
        // copy). A chain of updates of a `build` writes one array.
        for s in b.stmts.iter().rev() {
            let d0 = match &s.exp {
                core::Exp::Prim(
                    Prim::Scatter {
                        dest: Atom::Var(d0),
                        ..
                    }
                    | Prim::ReduceByIndex {
                        dest: Atom::Var(d0),
                        ..
                    }
                    | Prim::IReduceByIndex {
                        dest: Atom::Var(d0),
                        ..
                    }
                    | Prim::Copy { a: Atom::Var(d0) },
                ) => Some(d0),
                core::Exp::Prim(p) => match p.update_parts() {
                    Some((Atom::Var(d0), ..)) => Some(d0),
                    _ => None,
                },
                _ => None,
            };
            if let Some(ds) = direct.get(&s.var).cloned()
                && let Some(d0) = d0
                && self.uses.get(d0) == Some(&1)
                && !direct.contains_key(d0)
                && b.stmts.iter().any(|t| {
                    &t.var == d0
                        && matches!(
                            &t.exp,
                            core::Exp::Prim(
                                Prim::Build { .. }
                                    | Prim::Scatter { .. }
                                    | Prim::ReduceByIndex { .. }
                                    | Prim::IReduceByIndex { .. }
                                    | Prim::Copy { .. }
                                    | Prim::Update { .. }
                                    | Prim::Update2 { .. }
                                    | Prim::Update3 { .. }
                                    | Prim::UpdateSlice { .. }
                                    | Prim::UpdateSlice2 { .. }
                            )
                        )
                })
            {
                direct.insert(d0.clone(), ds);
            }
        }
        // Nothing is written straight into a result with no bound.
        for ds in direct.values_mut() {
            for d in ds.iter_mut() {
                if d.as_ref().is_some_and(|x| self.late_dests.contains(x)) {
                    *d = None;
                }
            }
        }
        // A result guarded in this block is not guarded for its siblings.
        let ready = self.ready.clone();
        let r = self.stmts(&b.stmts, &b.result, dests, &direct);
        self.ready = ready;
        self.w.sh.leave_scope();
        r
    }

    /// `pre`, then an `alloc` scope of `bufs` around `inner` (the statements
    /// that fill them) and `rest` (the rest of the block), whose scalar results
    /// the scope passes out.
    fn alloc_scope(
        &mut self,
        mut pre: Vec<Stmt>,
        bufs: Vec<Buf>,
        mut inner: Vec<Stmt>,
        rest: Block,
    ) -> Block {
        inner.extend(rest.stmts);
        let outs: Vec<(Name, PrimType)> = rest
            .results
            .iter()
            .map(|a| {
                let p = self.atom_prim(a);
                (self.w.fresh("o"), p)
            })
            .collect();
        for (o, p) in &outs {
            self.w.bind_depth(o);
            self.w.scalar_types.insert(o.clone(), *p);
        }
        pre.push(Stmt::Alloc {
            outs: outs.clone(),
            bufs,
            body: Block {
                stmts: inner,
                results: rest.results,
            },
        });
        Block {
            stmts: pre,
            results: outs.into_iter().map(|(n, _)| Atom::Var(n)).collect(),
        }
    }

    fn stmts(
        &mut self,
        stmts: &[core::Stmt],
        result: &Atom,
        dests: &[Option<Name>],
        direct: &HashMap<Name, Vec<Option<Name>>>,
    ) -> R<Block> {
        let mut out = Vec::new();
        for (idx, s) in stmts.iter().enumerate() {
            let flat = self.w.flat(&s.ty, s.span)?;
            let has_array = flat.iter().any(|(t, _)| matches!(t, DType::Array(..)));
            // Written straight into a destination of a known size (a result
            // of existential size is not: only a filter writes into it).
            let into_dest = direct.get(&s.var).is_some_and(|v| {
                v.iter()
                    .any(|d| d.as_ref().is_some_and(|d| !self.exist_dests.contains(d)))
            });
            let parts = match &s.exp {
                core::Exp::Prim(Prim::Partition { p, a }) => Some((vec![p], a)),
                core::Exp::Prim(Prim::Partition2 { p, q, a }) => Some((vec![p, q], a)),
                _ => None,
            };
            if let Some((preds, a)) = parts {
                // (into storage sized in advance: as a `filter`, below)
                let given = if into_dest {
                    Vec::new()
                } else {
                    direct.get(&s.var).cloned().unwrap_or_default()
                };
                let (bufs, inner) = self.partition_stmt(s, &preds, a, &flat, &given, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if let core::Exp::Prim(Prim::Filter { p, a }) = &s.exp {
                // Into storage sized in advance (a declared result size, a
                // row of a `build`): computed into storage of its own, then
                // checked and copied like any result whose size is known
                // only once computed (the interpreter's order: the filter,
                // then the size check).
                let given = if into_dest {
                    Vec::new()
                } else {
                    direct.get(&s.var).cloned().unwrap_or_default()
                };
                let (bufs, inner) = self.filter_stmt(s, p, a, &flat, &given, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if has_array
                && matches!(
                    &s.exp,
                    core::Exp::Loop { .. } | core::Exp::Prim(Prim::IFold { .. })
                )
                && self.w.shape_exp(s)?.iter().flat_map(|sh| sh.first()).any(
                    |d| matches!(d, Dim::Var(v) if v.starts_with(&format!("{}_loopsize", s.var))),
                )
            {
                let (bufs, inner) = self.loop_stmt(s, &flat, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if has_array
                && self.w.shape_exp(s)?.iter().flatten().any(
                    |d| matches!(d, Dim::Var(v) if v.starts_with(&format!("{}_loopdim", s.var))),
                )
            {
                let (bufs, inner) = self.every_loop_stmt(s, &flat, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if has_array
                && matches!(&s.exp, core::Exp::Prim(Prim::Build { .. }))
                && self.w.shape_exp(s)?.iter().any(|sh| {
                    sh.iter()
                        .any(|d| matches!(d, Dim::Var(v) if v.starts_with(&row_size(&s.var))))
                })
            {
                let (bufs, inner) = self.build_rows_stmt(s, &flat, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if let core::Exp::If(c, t, e) = &s.exp
                && has_array
                && let shapes = self.w.shape_exp(s)?
                && shapes.iter().flat_map(|sh| sh.first()).any(|d| {
                    matches!(d, Dim::Var(v) if v.starts_with(&format!("{}_ifsize", s.var))
                        || v.starts_with(&format!("{}_ifdim", s.var)))
                })
            {
                let (bufs, inner) = self.if_stmt(s, c, t, e, &flat, &shapes, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if has_array && needs_storage(&s.exp) {
                // Where does each array leaf go?
                let shapes = self.w.shape_exp(s)?;
                let given = direct.get(&s.var);
                let mut leaf_dests = Vec::new();
                let mut bufs = Vec::new();
                let mut ai = 0;
                for (k, (ty, _)) in flat.iter().enumerate() {
                    match ty {
                        DType::Scalar(_) => leaf_dests.push(None),
                        DType::Array(p, _) => {
                            let sh = shapes.get(ai).cloned().unwrap_or_default();
                            ai += 1;
                            let mut target = given
                                .and_then(|g| g.get(k).cloned().flatten())
                                .filter(|d| !self.exist_dests.contains(d));
                            // A result whose declared size is not provably this
                            // statement's (its size is known only here, e.g. an
                            // existential): computed into its own buffer, then
                            // checked and copied at the end of the block, so the
                            // statement's own errors come first.
                            if let Some(d) = &target
                                && self
                                    .result_sizes
                                    .get(d)
                                    .is_some_and(|v| v.iter().any(Option::is_some))
                                && !self.w.sh.same_shape(
                                    &sh,
                                    &self.w.shapes.get(d).cloned().unwrap_or_default(),
                                )
                                && sh.iter().all(|x| self.w.resolve_here(x, s.span).is_ok())
                                && self
                                    .w
                                    .sh
                                    .expand_to_params(&outer(&sh), &self.w.sh.size_home.clone())
                                    .is_err()
                            {
                                target = None;
                            }
                            match target {
                                Some(d) => {
                                    // (a `build` of rows: unless it fails
                                    // in its first row, where that is made)
                                    let row = match &s.exp {
                                        core::Exp::Prim(Prim::Build { .. }) if sh.len() >= 2 => {
                                            let mut v = Vec::new();
                                            for x in &sh {
                                                let x = self.w.resolve_here(x, s.span)?;
                                                let x =
                                                    Dim::Max(Box::new(x), Box::new(Dim::Const(0)));
                                                v.push(self.emit_dim(&x, &mut out, s.span));
                                            }
                                            v
                                        }
                                        _ => vec![],
                                    };
                                    // (an `if` writing a row: each branch
                                    // where it first writes it, as the
                                    // interpreter fails in the branch taken)
                                    let branches = matches!(&s.exp, core::Exp::If(..))
                                        && !self.lazy_grow.contains_key(&d)
                                        && (self.soft_rows.contains_key(&d)
                                            || self.result_rows.contains_key(&d));
                                    if !branches {
                                        self.dest_ready_rows(&d, row, &mut out, s.span);
                                    }
                                    let want = self.w.shapes.get(&d).cloned().unwrap_or_default();
                                    self.guard(
                                        &sh,
                                        &want,
                                        "the result",
                                        Some(&d),
                                        &mut out,
                                        s.span,
                                    )?;
                                    leaf_dests.push(Some(d));
                                }
                                None => {
                                    let name = self.w.fresh("b");
                                    let mut dims = Vec::new();
                                    let mut resolved = Vec::new();
                                    for d in &sh {
                                        let rd = self.w.resolve_here(d, s.span)?;
                                        dims.push(self.emit_dim(&rd, &mut out, s.span));
                                        resolved.push(rd);
                                    }
                                    // The buffer's shape in terms of names in
                                    // scope here (not the construct's locals,
                                    // which a later sibling block cannot see).
                                    self.w.shapes.insert(name.clone(), resolved);
                                    self.w.bind_depth(&name);
                                    bufs.push(Buf {
                                        var: name.clone(),
                                        elem: *p,
                                        dims,
                                        span: s.span,
                                        when: vec![],
                                        grown: false,
                                    });
                                    leaf_dests.push(Some(name));
                                }
                            }
                        }
                    }
                }
                let mut inner = Vec::new();
                let scalars = self.exp_into(s, &leaf_dests, &mut inner)?;
                // Bind the variable: array leaves are the destinations.
                self.bind_leaves(s, &flat, &leaf_dests, &scalars);
                self.w.record_defs(s);
                if bufs.is_empty() {
                    out.extend(inner);
                    continue;
                }
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            self.plain(s, &flat, &mut out)?;
        }
        // The result.
        let ls = self.w.leaves(result, Span::default())?;
        let mut results = Vec::new();
        let mut sizes = Vec::new();
        for (l, d) in ls.iter().zip(dests.iter().chain(std::iter::repeat(&None))) {
            match (l.ty, d) {
                (DType::Array(p, r), Some(d))
                    if self.exist_dests.contains(d) && self.exist_dim.contains_key(d) =>
                {
                    // Inner existential dims: the result densely at the
                    // front of the caller's storage (the bound in each such
                    // dim), and each of them returned.
                    let span = Span::default();
                    let js = self.exist_dim.get(d).cloned().unwrap_or_default();
                    let got: Vec<Dim> = self
                        .w
                        .shape(l, span)?
                        .iter()
                        .map(|x| self.w.resolve_here(x, span))
                        .collect::<R<_>>()?;
                    let dims: Vec<Atom> = got
                        .iter()
                        .map(|x| self.emit_dim(x, &mut out, span))
                        .collect();
                    let cap_d = self.w.shapes.get(d).cloned().unwrap_or_default();
                    let cap = self.emit_dim(
                        &cap_d.iter().cloned().fold(Dim::Const(1), Dim::times),
                        &mut out,
                        span,
                    );
                    let all = self.emit_dim(
                        &got.iter().cloned().fold(Dim::Const(1), Dim::times),
                        &mut out,
                        span,
                    );
                    // the other dims: the destination's (an error as the
                    // interpreter's at the return, `f` returns an array of
                    // size ..., where a declared size differs)
                    let want: Vec<Dim> = cap_d
                        .iter()
                        .enumerate()
                        .map(|(j, w)| {
                            if js.contains(&j) {
                                got.get(j).cloned().unwrap_or(Dim::Const(0))
                            } else {
                                w.clone()
                            }
                        })
                        .collect();
                    self.guard(&got, &want, "the result", Some(d), &mut out, span)?;
                    let names = [self.w.fresh("x"), self.w.fresh("x"), self.w.fresh("x")];
                    let v = self.front_view(
                        d,
                        (p, r),
                        (cap, all),
                        (dims.clone(), got),
                        names,
                        &mut out,
                        span,
                    );
                    out.push(Stmt::Copy {
                        dest: v,
                        src: l.name().cloned().unwrap_or_default(),
                        span,
                    });
                    for j in js {
                        sizes.push(dims.get(j).cloned().unwrap_or(Atom::Const(Const::I64(0))));
                    }
                }
                (DType::Array(p, r), Some(d)) if self.exist_dests.contains(d) => {
                    // The first rows of the caller's upper-bound storage, and
                    // their number returned.
                    let span = Span::default();
                    let got = self.w.shape(l, span)?;
                    let len = self.w.resolve_here(&outer(&got), span)?;
                    let k = self.emit_dim(&len, &mut out, span);
                    // (a loop's next state grown in the loop: to these rows)
                    self.define_grown(d, Some(&k), vec![], &mut out, span);
                    // (an entry's result: the caller may have passed no
                    // storage or fewer rows; it learns how many it needs)
                    if self.w.sh.entry
                        && self.result_sizes.contains_key(d)
                        && !self.ready.contains(d)
                    {
                        out.push(Stmt::Guard {
                            guard: Guard::DestRows {
                                dest: d.clone(),
                                rows: k.clone(),
                            },
                            span,
                        });
                        self.ready.insert(d.clone());
                    }
                    let v = self.w.fresh("x");
                    out.push(Stmt::View {
                        var: v.clone(),
                        elem: p,
                        rank: r,
                        view: View::Slice(d.clone(), Atom::Const(Const::I64(0)), k.clone()),
                        span,
                    });
                    let mut vsh = self.w.shapes.get(d).cloned().unwrap_or_default();
                    if let Some(x) = vsh.first_mut() {
                        *x = len;
                    }
                    self.w.shapes.insert(v.clone(), vsh.clone());
                    self.w.bind_depth(&v);
                    self.guard(&got, &vsh, "the result", None, &mut out, span)?;
                    if l.name() != Some(&v) {
                        out.push(Stmt::Copy {
                            dest: v,
                            src: l.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                    sizes.push(k);
                }
                (DType::Array(..), Some(d)) => {
                    if l.name() != Some(d) {
                        self.dest_ready(d, &mut out, Span::default());
                        let got = self.w.shape(l, Span::default())?;
                        let want = self.w.shapes.get(d).cloned().unwrap_or_default();
                        self.guard(
                            &got,
                            &want,
                            "the result",
                            Some(d),
                            &mut out,
                            Span::default(),
                        )?;
                        out.push(Stmt::Copy {
                            dest: d.clone(),
                            src: l.name().cloned().unwrap_or_default(),
                            span: Span::default(),
                        });
                    }
                }
                (DType::Scalar(_), _) => results.push(l.atom.clone()),
                (DType::Array(..), None) => {
                    return error(
                        Span::default(),
                        "internal error: an array result without a destination",
                        "please report this",
                    );
                }
            }
        }
        results.extend(sizes);
        Ok(Block {
            stmts: out,
            results,
        })
    }

    fn atom_prim(&self, a: &Atom) -> PrimType {
        match a {
            Atom::Const(c) => c.prim(),
            Atom::Var(v) => self
                .w
                .vars
                .get(v)
                .and_then(|l| l.first())
                .map(|l| l.ty.prim())
                .or_else(|| self.w.scalar_types.get(v).copied())
                .unwrap_or(PrimType::I64),
        }
    }

    /// `let y = if c then t else e` whose branches give arrays that differ in
    /// length only: buffers as long as the longer branch's (both lengths are
    /// known before the `if`), each branch writes into a view of its own length
    /// and passes that length out, and `y` is a view of the first `k` elements,
    /// `k` the existential length (named by [`if_count`]). Returns the buffers
    /// and the statements that fill them and bind `y`; checks go to `pre`.
    /// The buffer of array leaf `j` of an `if` whose branches differ in
    /// inner dims (`a`, `b`: their shapes): the taken branch's shape, known
    /// before the `if` (its condition is): each dim `max(c ? a_k : b_k, 0)`,
    /// bound to the existential [`if_dim`]. Returns the buffer's name and
    /// shape and each branch's dims (in names in scope here).
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn if_every_buffer(
        &mut self,
        s: &core::Stmt,
        c: &Atom,
        j: usize,
        a: &[Dim],
        b: &[Dim],
        pre: &mut Vec<Stmt>,
        span: Span,
    ) -> R<(Name, Vec<Dim>, Vec<Dim>, Vec<Dim>)> {
        let cond = self.scalar_atom(c);
        let ci = self.shape_let(SExp::Convert(PrimType::I64, cond), pre, span);
        let nc = self.shape_let(
            SExp::Bin(BinOp::Sub, Atom::Const(Const::I64(1)), ci.clone()),
            pre,
            span,
        );
        let (mut dims_d, mut td, mut ed) = (Vec::new(), Vec::new(), Vec::new());
        for (k, (da, db)) in a.iter().zip(b).enumerate() {
            let lt = self.w.resolve_here(da, span)?;
            let le = self.w.resolve_here(db, span)?;
            let lta = self.emit_dim(&lt, pre, span);
            let lea = self.emit_dim(&le, pre, span);
            let t1 = self.shape_let(SExp::Bin(BinOp::Mul, ci.clone(), lta), pre, span);
            let t2 = self.shape_let(SExp::Bin(BinOp::Mul, nc.clone(), lea), pre, span);
            let sel = self.shape_let(SExp::Bin(BinOp::Add, t1, t2), pre, span);
            let d = if_dim(&s.var, j, k);
            pre.push(Stmt::Let {
                var: d.clone(),
                ty: PrimType::I64,
                exp: SExp::Math(MathFn::Max, vec![sel, Atom::Const(Const::I64(0))]),
                span,
            });
            self.w.bind_depth(&d);
            self.w.scalar_types.insert(d.clone(), PrimType::I64);
            dims_d.push(Dim::Var(d));
            td.push(lt);
            ed.push(le);
        }
        let name = self.w.fresh("b");
        self.w.shapes.insert(name.clone(), dims_d.clone());
        self.w.bind_depth(&name);
        Ok((name, dims_d, td, ed))
    }

    /// A buffer of an `if`'s result leaf, of shape `dims_d` (`dims` emitted;
    /// `grown`: empty storage grown by the branches, [`Buf::grown`]).
    fn if_buf(
        &mut self,
        elem: PrimType,
        dims_d: &[Dim],
        dims: Vec<Atom>,
        grown: bool,
        bufs: &mut Vec<Buf>,
        span: Span,
    ) -> Name {
        let name = self.w.fresh("b");
        self.w.shapes.insert(name.clone(), dims_d.to_vec());
        self.w.bind_depth(&name);
        bufs.push(Buf {
            var: name.clone(),
            elem,
            dims,
            span,
            when: vec![],
            grown,
        });
        name
    }

    #[allow(clippy::too_many_arguments)]
    fn if_stmt(
        &mut self,
        s: &core::Stmt,
        c: &Atom,
        t: &core::Body,
        e: &core::Body,
        flat: &[(DType, Vec<Size>)],
        shapes: &[Vec<Dim>],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let st = self.w.shape_of_body_result(t)?;
        let se = self.w.shape_of_body_result(e)?;
        let mut bufs = Vec::new();
        // per array leaf: (buffer, then-length, else-length, existential or not)
        let mut leaves = Vec::new();
        // per array leaf: is the (then, else) length known only in the branch?
        let mut lates: Vec<(bool, bool)> = Vec::new();
        // per array leaf whose every dim is the taken branch's: each
        // branch's dims (the buffer has the taken branch's shape)
        let mut every: Vec<Option<(Vec<Dim>, Vec<Dim>)>> = Vec::new();
        for (j, sh) in shapes.iter().enumerate() {
            let (Some(a), Some(b)) = (st.get(j), se.get(j)) else {
                return error(span, "internal error: if shapes", "please report this");
            };
            let elem = match flat
                .iter()
                .filter(|(t, _)| matches!(t, DType::Array(..)))
                .nth(j)
            {
                Some((t, _)) => t.prim(),
                None => PrimType::F64,
            };
            if matches!(sh.first(), Some(Dim::Var(v)) if *v == if_dim(&s.var, j, 0)) {
                let (name, dims_d, td, ed) = self.if_every_buffer(s, c, j, a, b, pre, span)?;
                bufs.push(Buf {
                    var: name.clone(),
                    elem,
                    dims: dims_d
                        .iter()
                        .map(|d| match d {
                            Dim::Var(x) => Atom::Var(x.clone()),
                            _ => Atom::Const(Const::I64(0)),
                        })
                        .collect(),
                    span,
                    when: vec![],
                    grown: false,
                });
                leaves.push((name, Dim::Const(0), Dim::Const(0), false, dims_d));
                lates.push((false, false));
                every.push(Some((td, ed)));
                continue;
            }
            every.push(None);
            let exist = matches!(sh.first(), Some(Dim::Var(v)) if *v == if_count(&s.var, j));
            // A branch's length known only once it has run (a `filter` in
            // it): its upper bound here, and the branch returns its length.
            let mut late = (false, false);
            let len_or_bound = |me: &mut Self, d: &Dim, late: &mut bool| -> R<Dim> {
                match me.w.resolve_here(d, span) {
                    Ok(x) => Ok(x),
                    Err(e) if exist => match me.w.sh.bound(d, true, 64) {
                        Some(b) => {
                            *late = true;
                            me.w.resolve_here(&b, span).map_err(|_| e)
                        }
                        None => Err(e),
                    },
                    Err(e) => Err(e),
                }
            };
            let (lt, le) = match (
                len_or_bound(self, &outer(a), &mut late.0),
                len_or_bound(self, &outer(b), &mut late.1),
            ) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(err), _) | (_, Err(err)) if exist => {
                    // A branch's length with no bound before the `if` (a
                    // size computed inside the branch): storage grown where
                    // the branch copies its value in, to its length
                    // ([`Buf::grown`], [`FunTr::lazy_grow`]); both branches
                    // return their lengths.
                    let u = unbounded(&format!("{}_if{j}", s.var));
                    self.w.unbounded.insert(u.clone(), err);
                    let mut dims_d = vec![Dim::Var(u.clone())];
                    for d in a.iter().skip(1) {
                        dims_d.push(self.w.resolve_here(d, span)?);
                    }
                    let mut dims = vec![Atom::Const(Const::I64(0))];
                    dims.extend(
                        dims_d
                            .iter()
                            .skip(1)
                            .map(|d| self.emit_dim(d, pre, span))
                            .collect::<Vec<_>>(),
                    );
                    let name = self.if_buf(elem, &dims_d, dims, true, &mut bufs, span);
                    leaves.push((name, Dim::Var(u.clone()), Dim::Var(u), exist, dims_d));
                    lates.push((true, true));
                    continue;
                }
                (Err(err), _) | (_, Err(err)) => return Err(err),
            };
            // The taken branch's length (the condition is known before the
            // `if`), so an untaken branch's huge length allocates nothing;
            // never negative: a negative length is the taken branch's error.
            let mut dims_d = vec![if exist {
                let cond = self.scalar_atom(c);
                let lta = self.emit_dim(&lt, pre, span);
                let lea = self.emit_dim(&le, pre, span);
                let mut let_ = |this: &mut Self, exp: SExp| {
                    let x = this.w.fresh("len");
                    pre.push(Stmt::Let {
                        var: x.clone(),
                        ty: PrimType::I64,
                        exp,
                        span,
                    });
                    this.w.bind_depth(&x);
                    Atom::Var(x)
                };
                let ci = let_(self, SExp::Convert(PrimType::I64, cond));
                let t1 = let_(self, SExp::Bin(BinOp::Mul, ci.clone(), lta));
                let nc = let_(self, SExp::Bin(BinOp::Sub, Atom::Const(Const::I64(1)), ci));
                let t2 = let_(self, SExp::Bin(BinOp::Mul, nc, lea));
                let sel = let_(self, SExp::Bin(BinOp::Add, t1, t2));
                Dim::Max(Box::new(self.w.atom_dim(&sel)), Box::new(Dim::Const(0)))
            } else {
                lt.clone()
            }];
            for d in a.iter().skip(1) {
                dims_d.push(self.w.resolve_here(d, span)?);
            }
            let dims: Vec<Atom> = dims_d.iter().map(|d| self.emit_dim(d, pre, span)).collect();
            let name = self.if_buf(elem, &dims_d, dims, false, &mut bufs, span);
            leaves.push((name, lt, le, exist, dims_d));
            lates.push(late);
        }
        let late_then = lates.iter().any(|l| l.0);
        let late_else = lates.iter().any(|l| l.1);
        // The branches: each writes into views of its own lengths.
        let cond = self.scalar_atom(c);
        let branch = |me: &mut Self, body: &core::Body, then: bool| -> R<Block> {
            let mut views = Vec::new();
            let mut dests = Vec::new();
            let mut sizes = Vec::new();
            let mut ai = 0;
            // A branch whose length is known only at its end writes its
            // existential leaves at the front of the buffers, as an entry
            // writes a result of existential size: the block returns the
            // lengths after its scalars (`stmts`).
            let late = if then { late_then } else { late_else };
            let mut lent = Vec::new();
            for (ty, _) in flat {
                match ty {
                    DType::Scalar(_) => dests.push(None),
                    DType::Array(p, r) => {
                        let Some((b, lt, le, exist, dims_d)) = leaves.get(ai) else {
                            return error(span, "internal error: if leaves", "please report this");
                        };
                        ai += 1;
                        // the buffer, as the branch's own shape (its dims
                        // are the buffer's when this branch is taken)
                        if let Some(Some((td, ed))) = every.get(ai - 1) {
                            let own = if then { td } else { ed };
                            let v = me.w.fresh("v");
                            let dims: Vec<Atom> = own
                                .iter()
                                .map(|d| {
                                    let c = Dim::Max(Box::new(d.clone()), Box::new(Dim::Const(0)));
                                    me.emit_dim(&c, &mut views, span)
                                })
                                .collect();
                            views.push(Stmt::View {
                                var: v.clone(),
                                elem: *p,
                                rank: *r,
                                view: View::Reshape(b.clone(), dims),
                                span,
                            });
                            me.w.shapes.insert(v.clone(), own.clone());
                            me.w.bind_depth(&v);
                            dests.push(Some(v));
                            continue;
                        }
                        if !exist {
                            dests.push(Some(b.clone()));
                            continue;
                        }
                        if late
                            && let Some(Dim::Var(u)) = dims_d.first()
                            && me.w.unbounded.contains_key(u)
                        {
                            // (the grown storage: this branch's view of it
                            // is bound where the branch writes it)
                            let nv = me.w.fresh("nx");
                            me.w.shapes.insert(nv.clone(), dims_d.clone());
                            me.w.bind_depth(&nv);
                            me.exist_dests.insert(nv.clone());
                            lent.push(nv.clone());
                            me.lazy_grow.insert(
                                nv.clone(),
                                (b.clone(), Atom::Var(u.clone()), *p, *r, span, None, None),
                            );
                            dests.push(Some(nv));
                            continue;
                        }
                        if late {
                            me.w.shapes.insert(b.clone(), dims_d.clone());
                            if me.exist_dests.insert(b.clone()) {
                                lent.push(b.clone());
                            }
                            dests.push(Some(b.clone()));
                            continue;
                        }
                        let len = if then { lt.clone() } else { le.clone() };
                        let v = me.w.fresh("v");
                        let mut pre_v = Vec::new();
                        // A negative length is the branch's own error, reported by
                        // the construct that computes it (the view never fails; when
                        // the branch completes, its length is not negative).
                        let clamped = Dim::Max(Box::new(len.clone()), Box::new(Dim::Const(0)));
                        let hi = me.emit_dim(&clamped, &mut pre_v, span);
                        views.extend(pre_v);
                        // (located at the construct whose value the branch
                        // returns: where the interpreter runs out of memory
                        // making it, if the buffer is too large)
                        let made_at = match &body.result {
                            Atom::Var(x) => body
                                .stmts
                                .iter()
                                .find(|st| &st.var == x)
                                .map_or(span, |st| st.span),
                            Atom::Const(_) => span,
                        };
                        views.push(Stmt::View {
                            var: v.clone(),
                            elem: *p,
                            rank: *r,
                            view: View::Slice(b.clone(), Atom::Const(Const::I64(0)), hi.clone()),
                            span: made_at,
                        });
                        let mut vsh = dims_d.clone();
                        if let Some(d0) = vsh.first_mut() {
                            *d0 = len;
                        }
                        me.w.shapes.insert(v.clone(), vsh);
                        me.w.bind_depth(&v);
                        dests.push(Some(v));
                        sizes.push(hi);
                    }
                }
            }
            let hit = me.unbounded_hit.take();
            let blk = me.body(body, &dests);
            for b in lent {
                me.exist_dests.remove(&b);
                me.lazy_grow.remove(&b);
            }
            if let Some(e) = std::mem::replace(&mut me.unbounded_hit, hit) {
                return Err(e);
            }
            let mut blk = blk?;
            views.append(&mut blk.stmts);
            blk.stmts = views;
            blk.results.extend(sizes);
            Ok(blk)
        };
        let then = branch(self, t, true)?;
        let els = branch(self, e, false)?;
        let mut outs = self.outs_for(flat);
        let mut counts = Vec::new();
        for (j, (_, _, _, exist, _)) in leaves.iter().enumerate() {
            if *exist {
                let k = if_count(&s.var, j);
                self.w.bind_depth(&k);
                self.w.scalar_types.insert(k.clone(), PrimType::I64);
                outs.push((k.clone(), PrimType::I64));
                counts.push(k);
            }
        }
        let scalars: Vec<Atom> = outs
            .iter()
            .take(outs.len() - counts.len())
            .map(|(n, _)| Atom::Var(n.clone()))
            .collect();
        let mut inner = vec![Stmt::If {
            outs,
            cond,
            then,
            els,
        }];
        // `y`: views of the first k rows (the whole buffer where the lengths agree)
        let mut dests = Vec::new();
        let mut ai = 0;
        for (ty, _) in flat {
            match ty {
                DType::Scalar(_) => dests.push(None),
                DType::Array(p, r) => {
                    let Some((b, _, _, exist, dims_d)) = leaves.get(ai) else {
                        return error(span, "internal error: if leaves", "please report this");
                    };
                    ai += 1;
                    if !exist {
                        dests.push(Some(b.clone()));
                        continue;
                    }
                    let k = if_count(&s.var, ai - 1);
                    // (the buffer's shape is `dims_d`)
                    self.w.shapes.insert(b.clone(), dims_d.clone());
                    let v = self.prefix_view(b, *p, *r, &k, &mut inner, span);
                    dests.push(Some(v));
                }
            }
        }
        self.bind_leaves(s, flat, &dests, &scalars);
        Ok((bufs, inner))
    }

    /// The buffers of a compaction (`filter`, `partition`): for each of
    /// `parts` parts and each leaf of `a_l`, storage as long as the input
    /// with the input's rows — an entry's result of existential size where it
    /// is that part's result (`given`) and has that shape, else the region's.
    /// Returns the input length, each leaf's row shape, each part's targets
    /// and the buffers to allocate.
    #[allow(clippy::type_complexity)]
    fn compaction_buffers(
        &mut self,
        a_l: &[Leaf],
        parts: usize,
        given: &[Option<Name>],
        pre: &mut Vec<Stmt>,
        span: Span,
    ) -> R<(Atom, Vec<Vec<Dim>>, Vec<Vec<Name>>, Vec<Buf>)> {
        let Some(first) = a_l.first().cloned() else {
            return error(
                span,
                "internal error: a compaction of nothing",
                "please report this",
            );
        };
        let ash = self.w.shape(&first, span)?;
        let n_dim = self.w.resolve_here(&outer(&ash), span)?;
        let n = self.emit_dim(&n_dim, pre, span);
        let mut row_shapes = Vec::new();
        let mut leaf_dims = Vec::new();
        for l in a_l {
            let lsh = self.w.shape(l, span)?;
            let mut rows = Vec::new();
            for d in lsh.iter().skip(1) {
                rows.push(self.w.resolve_here(d, span)?);
            }
            let mut dims = vec![n.clone()];
            for d in &rows {
                dims.push(self.emit_dim(d, pre, span));
            }
            row_shapes.push(rows);
            leaf_dims.push(dims);
        }
        let mut bufs = Vec::new();
        let mut targets = Vec::new();
        for j in 0..parts {
            let mut part = Vec::new();
            for (li, (l, (rows, dims))) in a_l
                .iter()
                .zip(row_shapes.iter().zip(&leaf_dims))
                .enumerate()
            {
                let mut dims_d = vec![n_dim.clone()];
                dims_d.extend(rows.iter().cloned());
                if let Some(d) = given.get(j * a_l.len() + li).cloned().flatten()
                    && self.exist_dests.contains(&d)
                    && self
                        .w
                        .sh
                        .same_shape(&dims_d, &self.w.shapes.get(&d).cloned().unwrap_or_default())
                {
                    self.dest_ready(&d, pre, span);
                    part.push(d);
                    continue;
                }
                let b = self.w.fresh("b");
                self.w.shapes.insert(b.clone(), dims_d);
                self.w.bind_depth(&b);
                part.push(b.clone());
                bufs.push(Buf {
                    var: b,
                    elem: l.ty.prim(),
                    dims: dims.clone(),
                    span,
                    when: vec![],
                    grown: false,
                });
            }
            targets.push(part);
        }
        Ok((n, row_shapes, targets, bufs))
    }

    /// Bind a compaction's lambda parameter `x_l` to element `i` of the input
    /// `a_l` (a load, or a view of a row).
    fn bind_element(
        &mut self,
        x_l: &[Leaf],
        a_l: &[Leaf],
        row_shapes: &[Vec<Dim>],
        i: &Name,
        span: Span,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        for ((x, src), rows) in x_l.iter().zip(a_l).zip(row_shapes) {
            let xn = x.name().cloned().unwrap_or_default();
            let sn = src.name().cloned().unwrap_or_default();
            match x.ty {
                DType::Array(p, r) => {
                    out.push(Stmt::View {
                        var: xn.clone(),
                        elem: p,
                        rank: r,
                        view: View::Row(sn, Atom::Var(i.clone())),
                        span,
                    });
                    self.w.shapes.insert(xn, rows.clone());
                }
                DType::Scalar(p) => out.push(Stmt::Let {
                    var: xn,
                    ty: p,
                    exp: SExp::Load(sn, vec![Atom::Var(i.clone())]),
                    span,
                }),
            }
        }
        out
    }

    /// Write the element `x_l` at position `c` of the targets (a store, or a
    /// copy into a row).
    fn place_element(
        &mut self,
        x_l: &[Leaf],
        targets: &[Name],
        row_shapes: &[Vec<Dim>],
        c: &Name,
        span: Span,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        for ((x, b), rows) in x_l.iter().zip(targets).zip(row_shapes) {
            let xn = x.name().cloned().unwrap_or_default();
            match x.ty {
                DType::Array(p, r) => {
                    let v = self.w.fresh("r");
                    out.push(Stmt::View {
                        var: v.clone(),
                        elem: p,
                        rank: r,
                        view: View::Row(b.clone(), Atom::Var(c.clone())),
                        span,
                    });
                    self.w.shapes.insert(v.clone(), rows.clone());
                    self.w.bind_depth(&v);
                    out.push(Stmt::Copy {
                        dest: v,
                        src: xn,
                        span,
                    });
                }
                DType::Scalar(_) => out.push(Stmt::Store {
                    dest: b.clone(),
                    idx: vec![Atom::Var(c.clone())],
                    val: Atom::Var(xn),
                    span,
                }),
            }
        }
        out
    }

    /// `v = b[0:k]`, a view of the first `k` rows of `b` (of element `elem`
    /// and rank `rank`), whose shape is `b`'s with outer size `k`.
    fn prefix_view(
        &mut self,
        b: &Name,
        elem: PrimType,
        rank: usize,
        k: &Name,
        inner: &mut Vec<Stmt>,
        span: Span,
    ) -> Name {
        let v = self.w.fresh("f");
        inner.push(Stmt::View {
            var: v.clone(),
            elem,
            rank,
            view: View::Slice(b.clone(), Atom::Const(Const::I64(0)), Atom::Var(k.clone())),
            span,
        });
        let mut vsh = self.w.shapes.get(b).cloned().unwrap_or_default();
        if let Some(d) = vsh.first_mut() {
            *d = Dim::Var(k.clone());
        }
        self.w.shapes.insert(v.clone(), vsh);
        self.w.bind_depth(&v);
        v
    }

    /// Views of the first `count` elements of each target (a compaction's
    /// result, of existential length `count`).
    fn compacted_views(
        &mut self,
        targets: &[Name],
        row_shapes: &[Vec<Dim>],
        a_l: &[Leaf],
        count: &Name,
        inner: &mut Vec<Stmt>,
        span: Span,
    ) -> Vec<Option<Name>> {
        let mut views = Vec::new();
        for ((b, rows), l) in targets.iter().zip(row_shapes).zip(a_l) {
            let v = self.prefix_view(b, l.ty.prim(), rows.len() + 1, count, inner, span);
            views.push(Some(v));
        }
        views
    }

    /// `let (y0, y1[, y2]) = partition p [q] a`: one pass over `a`; each
    /// element goes to the front of its part's buffer (as long as `a`, or an
    /// entry's result of existential size), at that part's count. Scalar
    /// elements are stored into every part at its count and only the counts
    /// move (no branch on the data; a count never passes the index, so every
    /// store is in bounds); rows are copied into their part only. `q` runs
    /// only where `p` fails, as in the interpreter (unconditionally where it
    /// cannot fail: the same result, without a branch).
    fn partition_stmt(
        &mut self,
        s: &core::Stmt,
        funs: &[&core::Fun],
        a: &Atom,
        flat: &[(DType, Vec<Size>)],
        given: &[Option<Name>],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let k = funs.len();
        let mut preds = Vec::new();
        for f in funs {
            let core::Fun::Lambda(f) = f else {
                return error(
                    span,
                    "internal error: malformed partition",
                    "please report this",
                );
            };
            preds.push(f.clone());
        }
        let a_l = self.w.leaves(a, span)?;
        let scalar = a_l.iter().all(|l| l.ty.rank() == 1);
        let (n, row_shapes, targets, bufs) =
            self.compaction_buffers(&a_l, k + 1, given, pre, span)?;
        // the loop
        let i = self.w.fresh("i");
        self.w.bind_param(&i, &Type::I64, span)?;
        let counts: Vec<Name> = (0..=k).map(|_| self.w.fresh("c")).collect();
        for c in &counts {
            self.w.bind_param(c, &Type::I64, span)?;
        }
        let mut body = Vec::new();
        // the element, bound to each predicate's parameter
        let mut first_x = Vec::new();
        let mut tests = Vec::new();
        for (j, f) in preds.iter().enumerate() {
            let (px, tx) = lparam(f, 0, span)?;
            let x_l = self.w.bind_param(px, tx, span)?;
            let bind = self.bind_element(&x_l, &a_l, &row_shapes, &i, span);
            if j == 0 {
                first_x = x_l.clone();
            }
            let pred = self.body(&f.body, &[None])?;
            // (the element's loads are in bounds: the index is below n)
            let fails = pred.stmts.iter().any(stmt_can_fail);
            let mut stmts = bind;
            stmts.extend(pred.stmts);
            let t = pred
                .results
                .first()
                .cloned()
                .unwrap_or(Atom::Const(Const::Bool(false)));
            tests.push((stmts, t, fails));
        }
        // indicators: part 0 if p; (partition2) part 1 if q where p fails
        let mut tests = tests.into_iter();
        let Some((s0, t0, _)) = tests.next() else {
            return error(span, "internal error: partition", "please report this");
        };
        body.extend(s0);
        let mut inds = vec![t0.clone()];
        let not = |this: &mut Self, x: Atom, body: &mut Vec<Stmt>| {
            let v = this.w.fresh("t");
            body.push(Stmt::Let {
                var: v.clone(),
                ty: PrimType::Bool,
                exp: SExp::Un(UnOp::Not, x),
                span,
            });
            Atom::Var(v)
        };
        if let Some((s1, t1, q_fails)) = tests.next() {
            let u = self.w.fresh("t");
            if q_fails {
                body.push(Stmt::If {
                    outs: vec![(u.clone(), PrimType::Bool)],
                    cond: t0.clone(),
                    then: Block {
                        stmts: vec![],
                        results: vec![Atom::Const(Const::Bool(false))],
                    },
                    els: Block {
                        stmts: s1,
                        results: vec![t1],
                    },
                });
            } else {
                // `q` cannot fail: evaluated for every element, no branch
                body.extend(s1);
                let np = not(self, t0.clone(), &mut body);
                body.push(Stmt::Let {
                    var: u.clone(),
                    ty: PrimType::Bool,
                    exp: SExp::Bin(BinOp::And, np, t1),
                    span,
                });
            }
            let either = self.w.fresh("t");
            body.push(Stmt::Let {
                var: either.clone(),
                ty: PrimType::Bool,
                exp: SExp::Bin(BinOp::Or, t0.clone(), Atom::Var(u.clone())),
                span,
            });
            inds.push(Atom::Var(u));
            let rest = not(self, Atom::Var(either), &mut body);
            inds.push(rest);
        } else {
            let rest = not(self, t0, &mut body);
            inds.push(rest);
        }
        // stores, and the counts
        let mut next = Vec::new();
        for ((part, c), ind) in targets.iter().zip(&counts).zip(&inds) {
            let st = self.place_element(&first_x, part, &row_shapes, c, span);
            if scalar {
                body.extend(st);
            } else {
                body.push(Stmt::If {
                    outs: vec![],
                    cond: ind.clone(),
                    then: Block {
                        stmts: st,
                        results: vec![],
                    },
                    els: Block {
                        stmts: vec![],
                        results: vec![],
                    },
                });
            }
            next.push(self.count_up(c, ind.clone(), &mut body, span));
        }
        let outs: Vec<(Name, PrimType)> = (0..=k)
            .map(|j| {
                let c = part_count(&s.var, j);
                self.w.bind_depth(&c);
                self.w.scalar_types.insert(c.clone(), PrimType::I64);
                (c, PrimType::I64)
            })
            .collect();
        let mut inner = vec![Stmt::Fold {
            outs: outs.clone(),
            acc: counts.iter().map(|c| (c.clone(), PrimType::I64)).collect(),
            init: vec![Atom::Const(Const::I64(0)); k + 1],
            i,
            n,
            body: Block {
                stmts: body,
                results: next,
            },
        }];
        // the parts: views of their first counts
        let mut views = Vec::new();
        for (part, (c, _)) in targets.iter().zip(&outs) {
            views.extend(self.compacted_views(part, &row_shapes, &a_l, c, &mut inner, span));
        }
        self.bind_leaves(s, flat, &views, &[]);
        Ok((bufs, inner))
    }

    /// `c + (ind ? 1 : 0)`, as a new variable.
    fn count_up(&mut self, c: &Name, ind: Atom, body: &mut Vec<Stmt>, span: Span) -> Atom {
        let inc = self.w.fresh("c");
        body.push(Stmt::Let {
            var: inc.clone(),
            ty: PrimType::I64,
            exp: SExp::Convert(PrimType::I64, ind),
            span,
        });
        let c2 = self.w.fresh("c");
        body.push(Stmt::Let {
            var: c2.clone(),
            ty: PrimType::I64,
            exp: SExp::Bin(BinOp::Add, Atom::Var(c.clone()), Atom::Var(inc)),
            span,
        });
        Atom::Var(c2)
    }

    /// `let y = filter p a`: the kept elements are written, in order, to the
    /// front of buffers as long as `a` (an upper bound: the result's size is
    /// known only once the filter has run; rows are copied only when kept,
    /// scalars stored always with the count moving by the test), counting
    /// them; `y` is then a view of the first `k` elements, `k` the
    /// existential size of `y` (named by [`filter_count`]), in scope for the
    /// statements after it. Returns the buffers and the statements that fill
    /// them and bind `y` (the caller puts them and the rest of the block in
    /// one `alloc` scope); checks go to `pre`.
    fn filter_stmt(
        &mut self,
        s: &core::Stmt,
        p: &core::Fun,
        a: &Atom,
        flat: &[(DType, Vec<Size>)],
        given: &[Option<Name>],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let core::Fun::Lambda(f) = p else {
            return error(
                span,
                "internal error: malformed filter",
                "please report this",
            );
        };
        let a_l = self.w.leaves(a, span)?;
        let (n, row_shapes, targets, bufs) = self.compaction_buffers(&a_l, 1, given, pre, span)?;
        let targets = targets.into_iter().next().unwrap_or_default();
        // the loop: test each element, store the kept ones at the count
        let i = self.w.fresh("i");
        self.w.bind_param(&i, &Type::I64, span)?;
        let c = self.w.fresh("c");
        self.w.bind_param(&c, &Type::I64, span)?;
        let (px, tx) = lparam(f, 0, span)?;
        let x_l = self.w.bind_param(px, tx, span)?;
        let mut body = self.bind_element(&x_l, &a_l, &row_shapes, &i, span);
        let pred = self.body(&f.body, &[None])?;
        body.extend(pred.stmts);
        let cond = pred
            .results
            .first()
            .cloned()
            .unwrap_or(Atom::Const(Const::Bool(false)));
        let place = self.place_element(&x_l, &targets, &row_shapes, &c, span);
        if x_l.iter().all(|x| matches!(x.ty, DType::Scalar(_))) {
            // Elements are scalars: store every element at the count and
            // advance the count by the test (0 or 1), with no branch on the
            // data. The store is in bounds: the count is at most the index.
            // A rejected element is overwritten by the next one, or lies
            // past the result's length.
            body.extend(place);
        } else {
            body.push(Stmt::If {
                outs: vec![],
                cond: cond.clone(),
                then: Block {
                    stmts: place,
                    results: vec![],
                },
                els: Block {
                    stmts: vec![],
                    results: vec![],
                },
            });
        }
        let c2 = self.count_up(&c, cond, &mut body, span);
        let k = filter_count(&s.var);
        self.w.bind_depth(&k);
        self.w.scalar_types.insert(k.clone(), PrimType::I64);
        let mut inner = vec![Stmt::Fold {
            outs: vec![(k.clone(), PrimType::I64)],
            acc: vec![(c, PrimType::I64)],
            init: vec![Atom::Const(Const::I64(0))],
            i,
            n,
            body: Block {
                stmts: body,
                results: vec![c2],
            },
        }];
        // the result: views of the first k elements
        let views = self.compacted_views(&targets, &row_shapes, &a_l, &k, &mut inner, span);
        self.bind_leaves(s, flat, &views, &[]);
        Ok((bufs, inner))
    }

    fn bind_leaves(
        &mut self,
        s: &core::Stmt,
        flat: &[(DType, Vec<Size>)],
        dests: &[Option<Name>],
        scalars: &[Atom],
    ) {
        let mut ls = Vec::new();
        let mut si = 0;
        for (k, (ty, _)) in flat.iter().enumerate() {
            match ty {
                DType::Array(..) => {
                    let d = dests.get(k).cloned().flatten().unwrap_or_default();
                    ls.push(Leaf {
                        atom: Atom::Var(d),
                        ty: *ty,
                    });
                }
                DType::Scalar(p) => {
                    let a = scalars
                        .get(si)
                        .cloned()
                        .unwrap_or(Atom::Const(Const::I64(0)));
                    si += 1;
                    if let Atom::Var(v) = &a {
                        self.w.scalar_types.insert(v.clone(), *p);
                    }
                    ls.push(Leaf { atom: a, ty: *ty });
                }
            }
        }
        self.w.types.insert(s.var.clone(), s.ty.clone());
        self.w.vars.insert(s.var.clone(), ls);
    }
}

/// Does this expression produce fresh array values (rather than a view)?
fn needs_storage(e: &core::Exp) -> bool {
    use core::Exp as E;
    match e {
        E::Atom(_)
        | E::Tuple(_)
        | E::Proj(..)
        | E::Index(..)
        | E::Slice(..)
        | E::Dim(..)
        | E::CheckSize(_)
        | E::Check(_) => false,
        E::Prim(p) => !matches!(
            p,
            Prim::Flatten { .. }
                | Prim::Unflatten { .. }
                | Prim::Split { .. }
                | Prim::Length { .. }
                | Prim::Transpose { .. }
                | Prim::Reverse { .. }
                // (a replicate reaches the translation only as a view)
                | Prim::Replicate { .. }
                | Prim::Stride { .. }
        ),
        _ => true,
    }
}

impl FunTr<'_> {
    /// A source view of each array leaf of `src` (`view` of the leaf's
    /// name), `extra` dims more than the leaf, bound to `names` (fresh where
    /// missing) with the statement's leaf `shapes`: the new leaves.
    #[allow(clippy::too_many_arguments)]
    fn view_leaves(
        &mut self,
        src: &core::Atom,
        names: &[Name],
        shapes: &[Vec<Dim>],
        extra: usize,
        out: &mut Vec<Stmt>,
        span: Span,
        view: impl Fn(Name) -> View,
    ) -> Result<Vec<Leaf>, Error> {
        let ls = self.w.leaves(src, span)?;
        let mut nl = Vec::new();
        for (j, l) in ls.iter().enumerate() {
            let DType::Array(p, r) = l.ty else {
                return error(
                    span,
                    "internal error: a view of a scalar",
                    "please report this",
                );
            };
            let name = names.get(j).cloned().unwrap_or_else(|| self.w.fresh("x"));
            out.push(Stmt::View {
                var: name.clone(),
                elem: p,
                rank: r + extra,
                view: view(l.name().cloned().unwrap_or_default()),
                span,
            });
            self.w
                .shapes
                .insert(name.clone(), shapes.get(j).cloned().unwrap_or_default());
            self.w.bind_depth(&name);
            nl.push(Leaf {
                atom: Atom::Var(name),
                ty: DType::Array(p, r + extra),
            });
        }
        Ok(nl)
    }

    fn leaf_names(&self, s: &core::Stmt, n: usize) -> Vec<Name> {
        if n == 1 {
            vec![s.var.clone()]
        } else {
            (0..n).map(|k| format!("{}c{k}", s.var)).collect()
        }
    }

    /// A statement that produces no fresh array: scalars and views.
    fn plain(&mut self, s: &core::Stmt, flat: &[(DType, Vec<Size>)], out: &mut Vec<Stmt>) -> R<()> {
        use core::Exp as E;
        let span = s.span;
        let names = self.leaf_names(s, flat.len());
        let bind = |this: &mut Self, ls: Vec<Leaf>| {
            this.w.types.insert(s.var.clone(), s.ty.clone());
            this.w.vars.insert(s.var.clone(), ls);
        };
        let scalar = |this: &mut Self, exp: SExp, out: &mut Vec<Stmt>| -> R<()> {
            let Some((DType::Scalar(p), _)) = flat.first() else {
                return error(
                    span,
                    "internal error: scalar expression of array type",
                    "please report this",
                );
            };
            out.push(Stmt::Let {
                var: s.var.clone(),
                ty: *p,
                exp,
                span,
            });
            this.w.bind_depth(&s.var);
            this.w.scalar_types.insert(s.var.clone(), *p);
            this.w.vars.insert(
                s.var.clone(),
                vec![Leaf {
                    atom: Atom::Var(s.var.clone()),
                    ty: DType::Scalar(*p),
                }],
            );
            this.w.types.insert(s.var.clone(), s.ty.clone());
            this.w.record_defs(s);
            Ok(())
        };
        match &s.exp {
            E::Atom(a) => {
                // A copy of a scalar constant or variable, or an array alias.
                let ls = self.w.leaves(a, span)?;
                if ls.len() == 1 && matches!(ls[0].ty, DType::Scalar(_)) {
                    return scalar(self, SExp::Atom(ls[0].atom.clone()), out);
                }
                bind(self, ls);
                self.w.record_defs(s);
            }
            E::Tuple(xs) => {
                let mut ls = Vec::new();
                for x in xs {
                    ls.extend(self.w.leaves(x, span)?);
                }
                bind(self, ls);
            }
            E::Proj(a, k) => {
                let ls = self.w.proj_leaves(a, *k, span)?;
                if ls.len() == 1 && matches!(ls[0].ty, DType::Scalar(_)) {
                    return scalar(self, SExp::Atom(ls[0].atom.clone()), out);
                }
                bind(self, ls);
            }
            E::Bin(op, a, b) => scalar(
                self,
                SExp::Bin(*op, self.scalar_atom(a), self.scalar_atom(b)),
                out,
            )?,
            E::Un(op, a) => scalar(self, SExp::Un(*op, self.scalar_atom(a)), out)?,
            E::Convert(p, a) => scalar(self, SExp::Convert(*p, self.scalar_atom(a)), out)?,
            E::Math(m, xs) => {
                let xs = xs.iter().map(|x| self.scalar_atom(x)).collect();
                scalar(self, SExp::Math(*m, xs), out)?
            }
            E::Dim(..) | E::Prim(Prim::Length { .. }) => {
                let (a, k) = match &s.exp {
                    E::Dim(a, k) => (a.clone(), *k),
                    E::Prim(Prim::Length { a }) => (a.clone(), 0),
                    _ => unreachable_exp(span)?,
                };
                let leaf = self.first_array_leaf(&a, span)?;
                let sh = self.w.shape(&leaf, span)?;
                // Partial evaluation: a statically known dim needs no read.
                let exp = match sh.get(k).map(|d| d.simplify()) {
                    // (negative: never evaluated, 0 as in `record_defs`)
                    Some(Dim::Const(c)) => SExp::Atom(Atom::Const(Const::I64(c.max(0)))),
                    Some(Dim::Var(v))
                        if self.w.sh.depth.get(&v).is_some_and(|x| *x <= self.w.sh.cur) =>
                    {
                        SExp::Atom(Atom::Var(v))
                    }
                    _ => SExp::Dim(leaf.name().cloned().unwrap_or_default(), k),
                };
                // An inner size is negative only where it was never evaluated,
                // inside an empty array (`map (\x -> replicate (n - 1) 0)
                // a[n:]` with `n = 0`): its `dim` is 0, as the interpreter's
                // failed probe counts it. (An outer size was checked where
                // the array was made.)
                let exp = match exp {
                    SExp::Atom(x) if k > 0 && !self.w.provably_nonneg(&x) => {
                        let d = self.w.atom_dim(&x);
                        let m = self.emit_dim(
                            &Dim::Max(Box::new(d), Box::new(Dim::Const(0))),
                            out,
                            span,
                        );
                        SExp::Atom(m)
                    }
                    SExp::Dim(x, k) if k > 0 => {
                        let t = self.w.fresh("d");
                        self.w.bind_depth(&t);
                        self.w.scalar_types.insert(t.clone(), PrimType::I64);
                        out.push(Stmt::Let {
                            var: t.clone(),
                            ty: PrimType::I64,
                            exp: SExp::Dim(x, k),
                            span,
                        });
                        let m = self.emit_dim(
                            &Dim::Max(Box::new(Dim::Var(t)), Box::new(Dim::Const(0))),
                            out,
                            span,
                        );
                        SExp::Atom(m)
                    }
                    e => e,
                };
                scalar(self, exp, out)?
            }
            E::Check(c) => {
                // A check the optimizer made explicit: evaluates to its first
                // operand.
                let mut c = (**c).clone();
                for x in c.args.iter_mut() {
                    *x = self.scalar_atom(x);
                }
                let first = c
                    .args
                    .first()
                    .cloned()
                    .unwrap_or(Atom::Const(Const::I64(0)));
                out.push(Stmt::Guard {
                    guard: Guard::Core(c),
                    span,
                });
                scalar(self, SExp::Atom(first), out)?
            }
            E::CheckSize(c) => {
                out.push(Stmt::Check {
                    check: Check {
                        got: self.scalar_atom(&c.got),
                        want: self.scalar_atom(&c.want),
                        message: (**c).clone(),
                    },
                    span,
                });
                scalar(self, SExp::Atom(self.scalar_atom(&c.got)), out)?
            }
            E::Index(a, i) => {
                let i = self.scalar_atom(i);
                let ls = self.w.leaves(a, span)?;
                let mut nl = Vec::new();
                for (k, l) in ls.iter().enumerate() {
                    let name = names.get(k).cloned().unwrap_or_else(|| self.w.fresh("x"));
                    let src = l.name().cloned().unwrap_or_default();
                    match l.ty {
                        DType::Array(p, 1) => {
                            out.push(Stmt::Let {
                                var: name.clone(),
                                ty: p,
                                exp: SExp::Load(src, vec![i.clone()]),
                                span,
                            });
                            self.w.scalar_types.insert(name.clone(), p);
                            nl.push(Leaf {
                                atom: Atom::Var(name.clone()),
                                ty: DType::Scalar(p),
                            });
                        }
                        DType::Array(p, r) => {
                            out.push(Stmt::View {
                                var: name.clone(),
                                elem: p,
                                rank: r - 1,
                                view: View::Row(src, i.clone()),
                                span,
                            });
                            let sh = self.w.shape(l, span)?;
                            self.w
                                .shapes
                                .insert(name.clone(), sh.get(1..).unwrap_or_default().to_vec());
                            nl.push(Leaf {
                                atom: Atom::Var(name.clone()),
                                ty: DType::Array(p, r - 1),
                            });
                        }
                        DType::Scalar(_) => {
                            return error(
                                span,
                                "internal error: indexing a scalar",
                                "please report this",
                            );
                        }
                    }
                    self.w.bind_depth(&name);
                }
                bind(self, nl);
            }
            E::Slice(a, st, en) => {
                let (st, en) = (self.scalar_atom(st), self.scalar_atom(en));
                let len = Dim::minus(self.w.atom_dim(&en), self.w.atom_dim(&st));
                let ls = self.w.leaves(a, span)?;
                let mut nl = Vec::new();
                for (k, l) in ls.iter().enumerate() {
                    let name = names.get(k).cloned().unwrap_or_else(|| self.w.fresh("x"));
                    let DType::Array(p, r) = l.ty else {
                        return error(
                            span,
                            "internal error: slicing a scalar",
                            "please report this",
                        );
                    };
                    out.push(Stmt::View {
                        var: name.clone(),
                        elem: p,
                        rank: r,
                        view: View::Slice(
                            l.name().cloned().unwrap_or_default(),
                            st.clone(),
                            en.clone(),
                        ),
                        span,
                    });
                    let mut sh = self.w.shape(l, span)?;
                    if let Some(d) = sh.first_mut() {
                        *d = len.clone();
                    }
                    self.w.shapes.insert(name.clone(), sh);
                    self.w.bind_depth(&name);
                    nl.push(Leaf {
                        atom: Atom::Var(name),
                        ty: l.ty,
                    });
                }
                bind(self, nl);
            }
            // Index function changes (source views), no copy.
            E::Prim(prim @ (Prim::Transpose { a: src } | Prim::Reverse { a: src })) => {
                let shapes = self.w.shape_exp(s)?;
                let transpose = matches!(prim, Prim::Transpose { .. });
                let nl = self.view_leaves(src, &names, &shapes, 0, out, span, |x| {
                    if transpose {
                        View::Transpose(x)
                    } else {
                        View::Reverse(x)
                    }
                })?;
                bind(self, nl);
            }
            // `stride k a`: every k-th row, the outer stride times k, after
            // the interpreter's check of `k`.
            E::Prim(Prim::Stride { k, a: src }) => {
                let shapes = self.w.shape_exp(s)?;
                let k = self.scalar_atom(k);
                if !matches!(k, Atom::Const(Const::I64(c)) if c >= 1) {
                    out.push(Stmt::Guard {
                        guard: Guard::Stride { k: k.clone() },
                        span,
                    });
                }
                let nl = self.view_leaves(src, &names, &shapes, 0, out, span, |x| {
                    View::Stride(k.clone(), x)
                })?;
                bind(self, nl);
            }
            // `replicate n a` of an array: a new outer dim of stride 0
            // (kept by the views decision only for arrays), after the
            // interpreter's check of `n`.
            E::Prim(Prim::Replicate { n, x: src }) => {
                let shapes = self.w.shape_exp(s)?;
                let n = self.scalar_atom(n);
                if !self.w.provably_nonneg(&n) {
                    out.push(Stmt::Guard {
                        guard: Guard::Core(core::Check::new(
                            core::CheckKind::NonNeg,
                            vec![n.clone()],
                            "replicate",
                        )),
                        span,
                    });
                }
                let nl = self.view_leaves(src, &names, &shapes, 1, out, span, |x| {
                    View::Replicate(n.clone(), x)
                })?;
                bind(self, nl);
            }
            E::Prim(
                prim @ (Prim::Flatten { a: src_atom }
                | Prim::Unflatten { a: src_atom, .. }
                | Prim::Split { a: src_atom, .. }),
            ) => {
                let shapes = self.w.shape_exp(s)?;
                let ls = self.w.leaves(src_atom, span)?;
                let mut nl = Vec::new();
                if let Prim::Split { k, .. } = prim {
                    let k = self.scalar_atom(k);
                    let mut firsts = Vec::new();
                    let mut seconds = Vec::new();
                    for (j, l) in ls.iter().enumerate() {
                        let DType::Array(p, r) = l.ty else {
                            return error(
                                span,
                                "internal error: split of a scalar",
                                "please report this",
                            );
                        };
                        let src = l.name().cloned().unwrap_or_default();
                        let len = self.emit_dim(&outer(&self.w.shape(l, span)?), out, span);
                        if j == 0 {
                            out.push(Stmt::Guard {
                                guard: Guard::Split {
                                    k: k.clone(),
                                    len: len.clone(),
                                },
                                span,
                            });
                        }
                        let halves = [
                            (Atom::Const(Const::I64(0)), k.clone()),
                            (k.clone(), len.clone()),
                        ];
                        for (half, (lo, hi)) in halves.into_iter().enumerate() {
                            let name = self.w.fresh("x");
                            out.push(Stmt::View {
                                var: name.clone(),
                                elem: p,
                                rank: r,
                                view: View::Slice(src.clone(), lo, hi),
                                span,
                            });
                            let sh = shapes.get(half * ls.len() + j).cloned().unwrap_or_default();
                            self.w.shapes.insert(name.clone(), sh);
                            self.w.bind_depth(&name);
                            let leaf = Leaf {
                                atom: Atom::Var(name),
                                ty: l.ty,
                            };
                            if half == 0 {
                                firsts.push(leaf);
                            } else {
                                seconds.push(leaf);
                            }
                        }
                    }
                    nl.extend(firsts);
                    nl.extend(seconds);
                } else {
                    if let Prim::Unflatten { n, m, .. } = prim
                        && let Some(l) = ls.first()
                    {
                        let n = self.scalar_atom(n);
                        let m = self.scalar_atom(m);
                        let len = self.emit_dim(&outer(&self.w.shape(l, span)?), out, span);
                        out.push(Stmt::Guard {
                            guard: Guard::Core(core::Check::new(
                                core::CheckKind::Unflatten,
                                vec![n, m, len],
                                "",
                            )),
                            span,
                        });
                    }
                    for (j, l) in ls.iter().enumerate() {
                        let DType::Array(p, _) = l.ty else {
                            return error(
                                span,
                                "internal error: reshape of a scalar",
                                "please report this",
                            );
                        };
                        let sh = shapes.get(j).cloned().unwrap_or_default();
                        let sh_len = sh.len();
                        let mut dims = Vec::new();
                        for d in &sh {
                            let rd = self.w.resolve_here(d, span)?;
                            dims.push(self.emit_dim(&rd, out, span));
                        }
                        let name = names.get(j).cloned().unwrap_or_else(|| self.w.fresh("x"));
                        out.push(Stmt::View {
                            var: name.clone(),
                            elem: p,
                            rank: sh.len(),
                            view: View::Reshape(l.name().cloned().unwrap_or_default(), dims),
                            span,
                        });
                        self.w.shapes.insert(name.clone(), sh);
                        self.w.bind_depth(&name);
                        nl.push(Leaf {
                            atom: Atom::Var(name),
                            ty: DType::Array(p, sh_len),
                        });
                    }
                }
                bind(self, nl);
            }
            _ => {
                // Compound expressions with scalar results only.
                let dests = vec![None; flat.len()];
                let scalars = self.exp_into(s, &dests, out)?;
                self.bind_leaves(s, flat, &dests, &scalars);
                self.w.record_defs(s);
            }
        }
        Ok(())
    }

    fn scalar_atom(&self, a: &Atom) -> Atom {
        match a {
            Atom::Var(v) => match self.w.vars.get(v).and_then(|l| l.first()) {
                Some(l) => l.atom.clone(),
                None => a.clone(),
            },
            Atom::Const(_) => a.clone(),
        }
    }

    fn first_array_leaf(&self, a: &Atom, span: Span) -> R<Leaf> {
        match self
            .w
            .leaves(a, span)?
            .into_iter()
            .find(|l| matches!(l.ty, DType::Array(..)))
        {
            Some(l) => Ok(l),
            None => error(
                span,
                "internal error: `dim` of a scalar",
                "please report this",
            ),
        }
    }

    /// Before the first write into destination `d`: `l`, an array leaf,
    /// copied into it (entry results checked ready first), unless `l` was
    /// computed there (the `direct` destinations).
    fn copy_leaf_into(&mut self, l: &Leaf, d: &Name, out: &mut Vec<Stmt>, span: Span) {
        self.dest_ready(d, out, span);
        if l.name() != Some(d) {
            out.push(Stmt::Copy {
                dest: d.clone(),
                src: l.name().cloned().unwrap_or_default(),
                span,
            });
        }
    }

    /// `a with [i..][s:e] = v` into the destinations of its leaves: the
    /// indices and the slice checked against `a` (the interpreter's order),
    /// the shape of each leaf of `v` against the place it replaces, then a
    /// copy of `a` (none when `a` was computed straight into the
    /// destination, or when the update is done in place: see
    /// [`crate::inplace`]) and one store, or one copy of `v` into a view of
    /// the place.
    fn update_into(
        &mut self,
        prim: &Prim,
        dest_of: &dyn Fn(usize) -> Name,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> R<()> {
        let Some((a, idx, slice, v)) = prim.update_parts() else {
            return error(
                span,
                "internal error: malformed update",
                "please report this",
            );
        };
        let a_l = self.w.leaves(a, span)?;
        let v_l = self.w.leaves(v, span)?;
        let idx: Vec<Atom> = idx.iter().map(|i| self.scalar_atom(i)).collect();
        let slice = slice.map(|(s, e)| (self.scalar_atom(s), self.scalar_atom(e)));
        let nidx = idx.len();
        let Some(l0) = a_l.first().and_then(|l| l.name().cloned()) else {
            return error(
                span,
                "internal error: an update of no array",
                "please report this",
            );
        };
        let var = |n: &Name| Atom::Var(n.clone());
        let dim_let = |this: &mut Self, arr: &Name, t: usize, out: &mut Vec<Stmt>| -> Atom {
            let n = this.w.fresh("n");
            out.push(Stmt::Let {
                var: n.clone(),
                ty: PrimType::I64,
                exp: SExp::Dim(arr.clone(), t),
                span,
            });
            this.w.scalar_types.insert(n.clone(), PrimType::I64);
            this.w.bind_depth(&n);
            Atom::Var(n)
        };
        for (t, i) in idx.iter().enumerate() {
            let len = dim_let(self, &l0, t, out);
            out.push(Stmt::Guard {
                guard: Guard::Core(core::Check::new(
                    core::CheckKind::Index,
                    vec![i.clone(), len],
                    "",
                )),
                span,
            });
        }
        let mut slice_len = None;
        if let Some((st, en)) = &slice {
            let len = dim_let(self, &l0, nidx, out);
            out.push(Stmt::Guard {
                guard: Guard::Core(core::Check::new(
                    core::CheckKind::Slice,
                    vec![st.clone(), en.clone(), len],
                    "",
                )),
                span,
            });
            let n = self.w.fresh("n");
            out.push(Stmt::Let {
                var: n.clone(),
                ty: PrimType::I64,
                exp: SExp::Bin(BinOp::Sub, en.clone(), st.clone()),
                span,
            });
            self.w.scalar_types.insert(n.clone(), PrimType::I64);
            self.w.bind_depth(&n);
            slice_len = Some(var(&n));
        }
        // the shape of what is written, leaf by leaf
        for (l, vl) in a_l.iter().zip(&v_l) {
            let (Some(ln), DType::Array(_, r)) = (l.name(), l.ty) else {
                continue;
            };
            let (Some(vn), DType::Array(_, rv)) = (vl.name(), vl.ty) else {
                continue;
            };
            let mut got = Vec::new();
            let mut want = Vec::new();
            for t in 0..rv {
                got.push(dim_let(self, vn, t, out));
                let w = match (&slice_len, t) {
                    (Some(n), 0) => n.clone(),
                    _ if nidx + t < r => dim_let(self, ln, nidx + t, out),
                    _ => Atom::Const(Const::I64(0)),
                };
                want.push(w);
            }
            out.push(Stmt::Guard {
                guard: Guard::Fits { got, want },
                span,
            });
        }
        for (k, (l, vl)) in a_l.iter().zip(&v_l).enumerate() {
            let d = dest_of(k);
            self.copy_leaf_into(l, &d, out, span);
            let DType::Array(p, r) = l.ty else {
                return error(
                    span,
                    "internal error: an update of a scalar",
                    "please report this",
                );
            };
            if slice.is_none() && vl.ty.rank() == 0 {
                out.push(Stmt::Store {
                    dest: d,
                    idx: idx.clone(),
                    val: vl.atom.clone(),
                    span,
                });
                continue;
            }
            // a view of the place, then a copy of the value into it
            let mut place = d;
            let mut rank = r;
            for i in &idx {
                let row = self.w.fresh("row");
                rank -= 1;
                out.push(Stmt::View {
                    var: row.clone(),
                    elem: p,
                    rank,
                    view: View::Row(place, i.clone()),
                    span,
                });
                self.w.bind_depth(&row);
                place = row;
            }
            if let Some((st, en)) = &slice {
                let part = self.w.fresh("part");
                out.push(Stmt::View {
                    var: part.clone(),
                    elem: p,
                    rank,
                    view: View::Slice(place, st.clone(), en.clone()),
                    span,
                });
                self.w.bind_depth(&part);
                place = part;
            }
            out.push(Stmt::Copy {
                dest: place,
                src: vl.name().cloned().unwrap_or_default(),
                span,
            });
        }
        Ok(())
    }

    fn outs_for(&mut self, flat: &[(DType, Vec<Size>)]) -> Vec<(Name, PrimType)> {
        let mut v = Vec::new();
        for (t, _) in flat {
            if let DType::Scalar(p) = t {
                let n = self.w.fresh("o");
                self.w.bind_depth(&n);
                self.w.scalar_types.insert(n.clone(), *p);
                v.push((n, *p));
            }
        }
        v
    }

    /// Translate `s.exp` writing its array leaves into `dests` (one slot per
    /// leaf of `s.ty`); returns the atoms of its scalar leaves.
    fn exp_into(
        &mut self,
        s: &core::Stmt,
        dests: &[Option<Name>],
        out: &mut Vec<Stmt>,
    ) -> R<Vec<Atom>> {
        use core::Exp as E;
        let span = s.span;
        let flat = self.w.flat(&s.ty, span)?;
        let dest_of = |k: usize| -> Name { dests.get(k).cloned().flatten().unwrap_or_default() };
        let lambda = |f: &core::Fun| -> R<core::Lambda> {
            match f {
                core::Fun::Lambda(l) => Ok((**l).clone()),
                core::Fun::Var(_) => error(
                    span,
                    "a function argument that is not a lambda reached the C backend",
                    "please report this (the program should be first-order)",
                ),
            }
        };
        match &s.exp {
            E::ArrayLit(xs) => {
                for (j, x) in xs.iter().enumerate() {
                    let el = self.w.leaves(x, span)?;
                    for (k, l) in el.iter().enumerate() {
                        let d = dest_of(k);
                        match l.ty {
                            DType::Scalar(_) => out.push(Stmt::Store {
                                dest: d,
                                idx: vec![Atom::Const(Const::I64(j as i64))],
                                val: l.atom.clone(),
                                span,
                            }),
                            DType::Array(p, r) => {
                                let row = self.w.fresh("r");
                                out.push(Stmt::View {
                                    var: row.clone(),
                                    elem: p,
                                    rank: r,
                                    view: View::Row(d.clone(), Atom::Const(Const::I64(j as i64))),
                                    span,
                                });
                                let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                                let rsh = dsh.get(1..).map(|x| x.to_vec()).unwrap_or_default();
                                self.w.shapes.insert(row.clone(), rsh.clone());
                                self.w.bind_depth(&row);
                                let got = self.w.shape(l, span)?;
                                self.guard(&got, &rsh, "an array literal", None, out, span)?;
                                out.push(Stmt::Copy {
                                    dest: row,
                                    src: l.name().cloned().unwrap_or_default(),
                                    span,
                                });
                            }
                        }
                    }
                }
                Ok(vec![])
            }
            E::If(c, t, e) => {
                let cond = self.scalar_atom(c);
                let then = self.body(t, dests)?;
                let els = self.body(e, dests)?;
                let outs = self.outs_for(&flat);
                out.push(Stmt::If {
                    outs: outs.clone(),
                    cond,
                    then,
                    els,
                });
                Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
            }
            E::Call(f, args) => {
                let flat_args: Vec<Atom> = self
                    .w
                    .flat_args(args, span)?
                    .into_iter()
                    .map(|l| l.atom)
                    .collect();
                let outs = self.outs_for(&flat);
                let ds: Vec<Name> = dests.iter().flatten().cloned().collect();
                out.push(Stmt::Call {
                    outs: outs.clone(),
                    fun: f.clone(),
                    dests: ds,
                    args: flat_args,
                    span,
                });
                Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
            }
            E::Loop {
                state,
                init,
                form,
                body,
            } => {
                let form = match form {
                    core::LoopForm::For(i, n) => LoopKind::For(i.clone(), self.scalar_atom(n)),
                    core::LoopForm::While(c) => LoopKind::While(c.clone()),
                };
                self.loop_into(
                    s,
                    &state.0,
                    &state.1,
                    init,
                    form,
                    body,
                    dests,
                    out,
                    &[],
                    &mut Vec::new(),
                )
            }
            E::Prim(Prim::Build { n, f }) => {
                let n = self.scalar_atom(n);
                let l = lambda(f)?;
                let (i, it) = lparam(&l, 0, span)?;
                self.w.bind_param(i, it, span)?;
                let el = self.w.flat(&l.ret, span)?;
                let mut pre = Vec::new();
                let mut inner_dests = Vec::new();
                for (k, (t, _)) in el.iter().enumerate() {
                    match t {
                        DType::Scalar(_) => inner_dests.push(None),
                        DType::Array(p, r) => {
                            let d = dest_of(k);
                            let row = self.w.fresh("r");
                            pre.push(Stmt::View {
                                var: row.clone(),
                                elem: *p,
                                rank: *r,
                                view: View::Row(d.clone(), Atom::Var(i.clone())),
                                span,
                            });
                            let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                            self.w.shapes.insert(
                                row.clone(),
                                dsh.get(1..).map(|x| x.to_vec()).unwrap_or_default(),
                            );
                            self.w.sh.depth.insert(row.clone(), self.w.sh.cur + 1);
                            // (an entry's result: checked where the row is
                            // first made, when a row is too large for memory)
                            // (a row of constant dims always fits: the
                            // check before the `build` covers it)
                            let root = self.result_rows.get(&d).cloned().unwrap_or(d.clone());
                            let small = dsh.iter().skip(1).all(|x| {
                                matches!(self.w.sh.expand(x).simplify(), Dim::Const(c) if c < 1 << 32)
                            });
                            if self.w.sh.entry && !small && self.result_sizes.contains_key(&root) {
                                self.result_rows.insert(row.clone(), root);
                            }
                            // (a row of a loop state grown softly: the same,
                            // for the storage)
                            if let Some(storage) = self.soft_rows.get(&d).cloned()
                                && !small
                            {
                                self.soft_rows.insert(row.clone(), storage);
                            }
                            inner_dests.push(Some(row));
                        }
                    }
                }
                let blk = self.body(&l.body, &inner_dests)?;
                let mut stmts = pre;
                stmts.extend(blk.stmts);
                let mut ri = 0;
                for (k, (t, _)) in el.iter().enumerate() {
                    if let DType::Scalar(_) = t {
                        stmts.push(Stmt::Store {
                            dest: dest_of(k),
                            idx: vec![Atom::Var(i.clone())],
                            val: blk
                                .results
                                .get(ri)
                                .cloned()
                                .unwrap_or(Atom::Const(Const::I64(0))),
                            span,
                        });
                        ri += 1;
                    }
                }
                // A negative count is an error here, where the interpreter
                // evaluates the `build` (its buffer was allocated empty).
                self.build_count_guard(&n, out, span);
                out.push(Stmt::For {
                    i: i.clone(),
                    n,
                    body: stmts,
                });
                Ok(vec![])
            }
            E::Prim(Prim::IFold { f, init, n }) => {
                let l = lambda(f)?;
                let n = self.scalar_atom(n);
                let (acc, at) = lparam(&l, 0, span)?;
                let (i, _) = lparam(&l, 1, span)?;
                let state_flat = self.w.flat(at, span)?;
                if state_flat
                    .iter()
                    .any(|(t, _)| matches!(t, DType::Array(..)))
                {
                    // An ifold over arrays is a counted loop.
                    let body = l.body.clone();
                    return self.loop_into(
                        s,
                        acc,
                        at,
                        init,
                        LoopKind::For(i.clone(), n),
                        &body,
                        dests,
                        out,
                        &[],
                        &mut Vec::new(),
                    );
                }
                let init_l = self.w.leaves(init, span)?;
                let acc_l = self.w.bind_param(acc, at, span)?;
                self.w.bind_param(i, &Type::I64, span)?;
                let body = self.body(&l.body, &vec![None; state_flat.len()])?;
                let outs = self.outs_for(&flat);
                out.push(Stmt::Fold {
                    outs: outs.clone(),
                    acc: acc_l
                        .iter()
                        .map(|l| (l.name().cloned().unwrap_or_default(), l.ty.prim()))
                        .collect(),
                    init: init_l.into_iter().map(|l| l.atom).collect(),
                    i: i.clone(),
                    n,
                    body,
                });
                Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
            }
            E::Prim(Prim::IReduce { op, ne, n, f }) => {
                let op = lambda(op)?;
                let n = self.scalar_atom(n);
                let g = lambda(f)?;
                if flat.iter().any(|(t, _)| matches!(t, DType::Array(..))) {
                    // A reduction over arrays runs as the interpreter runs it:
                    // `acc = op acc (g i)` for i in 0..n, from `ne`, a counted
                    // loop whose state is the accumulator (F-tilde S-Reduce:
                    // `op` keeps the shape of `ne`).
                    let (pa, ta, i, body) = weir_shape::walk::ireduce_loop(&op, &g, span)?;
                    return self.loop_into(
                        s,
                        &pa,
                        &ta,
                        ne,
                        LoopKind::For(i, n),
                        &body,
                        dests,
                        out,
                        &[],
                        &mut Vec::new(),
                    );
                }
                let ne_l = self.w.leaves(ne, span)?;
                let (i, _) = lparam(&g, 0, span)?;
                self.w.bind_param(i, &Type::I64, span)?;
                let elem = self.body(&g.body, &vec![None; flat.len()])?;
                let (pa, ta) = lparam(&op, 0, span)?;
                let (pb, tb) = lparam(&op, 1, span)?;
                let a = self.w.bind_param(pa, ta, span)?;
                let b = self.w.bind_param(pb, tb, span)?;
                let ob = self.body(&op.body, &vec![None; flat.len()])?;
                let outs = self.outs_for(&flat);
                let names = |ls: &[Leaf]| {
                    ls.iter()
                        .map(|l| l.name().cloned().unwrap_or_default())
                        .collect()
                };
                out.push(Stmt::Reduce {
                    outs: outs.clone(),
                    ne: ne_l.into_iter().map(|l| l.atom).collect(),
                    i: i.clone(),
                    n,
                    elem,
                    op: RedOp {
                        a: names(&a),
                        b: names(&b),
                        body: ob,
                    },
                });
                Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
            }
            E::Prim(Prim::Concat { a, b }) => {
                let a = self.w.leaves(a, span)?;
                let b = self.w.leaves(b, span)?;
                for (k, (la, lb)) in a.iter().zip(&b).enumerate() {
                    let d = dest_of(k);
                    let DType::Array(p, r) = la.ty else {
                        return error(
                            span,
                            "internal error: concat of scalars",
                            "please report this",
                        );
                    };
                    let sa = self.w.shape(la, span)?;
                    let sb = self.w.shape(lb, span)?;
                    let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                    let lena = self.w.resolve_here(&outer(&sa), span)?;
                    let total = Dim::plus(lena.clone(), outer(&sb));
                    let total = self.w.resolve_here(&total, span)?;
                    let lo = self.emit_dim(&lena, out, span);
                    let hi = self.emit_dim(&total, out, span);
                    for (part, (from, to), src, ssh) in [
                        (0, (Atom::Const(Const::I64(0)), lo.clone()), la, &sa),
                        (1, (lo.clone(), hi.clone()), lb, &sb),
                    ] {
                        let v = self.w.fresh("x");
                        let len = if part == 0 { lena.clone() } else { outer(&sb) };
                        out.push(Stmt::View {
                            var: v.clone(),
                            elem: p,
                            rank: r,
                            view: View::Slice(d.clone(), from, to),
                            span,
                        });
                        let mut vsh = dsh.clone();
                        if let Some(d) = vsh.first_mut() {
                            *d = len.clone();
                        }
                        self.w.shapes.insert(v.clone(), vsh.clone());
                        self.w.bind_depth(&v);
                        // An empty operand whose rows have a negative size
                        // (never evaluated: the interpreter cannot tell their
                        // shape) fits any rows; it copies nothing.
                        let mut ssh = ssh.clone();
                        for (j, g) in ssh.iter_mut().enumerate().skip(1) {
                            let Some(w) = vsh.get(j) else { continue };
                            if self
                                .w
                                .sh
                                .same_shape(std::slice::from_ref(g), std::slice::from_ref(w))
                            {
                                continue;
                            }
                            let ga = self.w.resolve_here(g, span)?;
                            let ga = self.emit_dim(&ga, out, span);
                            let wa = self.w.resolve_here(w, span)?;
                            let wa = self.emit_dim(&wa, out, span);
                            let la = self.w.resolve_here(&len, span)?;
                            let la = self.emit_dim(&la, out, span);
                            let mut let_ = |this: &mut Self, ty: PrimType, exp: SExp| {
                                let x = this.w.fresh("t");
                                out.push(Stmt::Let {
                                    var: x.clone(),
                                    ty,
                                    exp,
                                    span,
                                });
                                this.w.bind_depth(&x);
                                Atom::Var(x)
                            };
                            let zero = Atom::Const(Const::I64(0));
                            let empty =
                                let_(self, PrimType::Bool, SExp::Bin(BinOp::Eq, la, zero.clone()));
                            let neg =
                                let_(self, PrimType::Bool, SExp::Bin(BinOp::Lt, ga.clone(), zero));
                            let both =
                                let_(self, PrimType::Bool, SExp::Bin(BinOp::And, empty, neg));
                            let bi = let_(self, PrimType::I64, SExp::Convert(PrimType::I64, both));
                            let diff =
                                let_(self, PrimType::I64, SExp::Bin(BinOp::Sub, wa, ga.clone()));
                            let adj = let_(self, PrimType::I64, SExp::Bin(BinOp::Mul, bi, diff));
                            let g2 = let_(self, PrimType::I64, SExp::Bin(BinOp::Add, ga, adj));
                            *g = self.w.atom_dim(&g2);
                        }
                        self.guard(&ssh, &vsh, "`++`", None, out, span)?;
                        out.push(Stmt::Copy {
                            dest: v,
                            src: src.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                }
                Ok(vec![])
            }
            E::Prim(Prim::Copy { a }) => {
                // `copy a`: storage of its own (none when `a` was computed
                // straight into it)
                let a_l = self.w.leaves(a, span)?;
                for (k, l) in a_l.iter().enumerate() {
                    self.copy_leaf_into(l, &dest_of(k), out, span);
                }
                Ok(vec![])
            }
            E::Prim(prim) if prim.builtin().is_update() => {
                self.update_into(prim, &dest_of, out, span)?;
                Ok(vec![])
            }
            E::Prim(
                prim @ (Prim::Scatter { dest, .. }
                | Prim::ReduceByIndex { dest, .. }
                | Prim::IReduceByIndex { dest, .. }),
            ) => {
                // A copy of the destination (none when it was computed in
                // place), then one write (or one step of the operator) per
                // index in bounds, in order: the interpreter's.
                let b = prim.builtin();
                let scatter = b == Builtin::Scatter;
                let d_l = self.w.leaves(dest, span)?;
                if !scatter && d_l.iter().any(|l| l.ty.rank() != 1) {
                    return error(
                        span,
                        format!(
                            "a `{}` whose elements are arrays is not supported by the C backend yet",
                            b.source_name()
                        ),
                        "run with --interp",
                    );
                }
                let var = |n: &Name| Atom::Var(n.clone());
                // Step j: its statements, its index, and its values (computed
                // in the step, or loaded only where the index is in bounds).
                let counted = match prim {
                    Prim::IReduceByIndex { m, f, .. } => Some((m, f)),
                    _ => None,
                };
                let (j, m, mut body, ix, vals, mut then) = if let Some((m, f)) = counted {
                    let m = self.scalar_atom(m);
                    let g = lambda(f)?;
                    let (j, _) = lparam(&g, 0, span)?;
                    self.w.bind_param(j, &Type::I64, span)?;
                    let blk = self.body(&g.body, &vec![None; 1 + d_l.len()])?;
                    let Some((ix, vals)) = blk.results.split_first() else {
                        return error(
                            span,
                            "internal error: malformed reduce_by_index (its index function)",
                            "please report this",
                        );
                    };
                    let (ix, vals) = (ix.clone(), vals.to_vec());
                    (j.clone(), m, blk.stmts, ix, vals, vec![])
                } else {
                    let (Prim::Scatter { is, vs, .. } | Prim::ReduceByIndex { is, vs, .. }) = prim
                    else {
                        return unreachable_exp(span);
                    };
                    let is_l = self.w.leaves(is, span)?;
                    let v_l = self.w.leaves(vs, span)?;
                    let (Some(is0), Some(v0)) = (is_l.first(), v_l.first()) else {
                        return error(
                            span,
                            "internal error: malformed scatter",
                            "please report this",
                        );
                    };
                    let (is0, v0) = (is0.clone(), v0.clone());
                    let ish = self.w.shape(&is0, span)?;
                    let vsh = self.w.shape(&v0, span)?;
                    let m_dim = self.w.resolve_here(&outer(&ish), span)?;
                    let m = self.emit_dim(&m_dim, out, span);
                    if !self
                        .w
                        .sh
                        .same_shape(&ish[..1.min(ish.len())], &vsh[..1.min(vsh.len())])
                    {
                        let v_dim = self.w.resolve_here(&outer(&vsh), span)?;
                        let mv = self.emit_dim(&v_dim, out, span);
                        out.push(Stmt::Check {
                            check: Check {
                                got: mv,
                                want: m.clone(),
                                message: core::SizeCheck {
                                    got: Atom::Const(Const::I64(0)),
                                    want: Atom::Const(Const::I64(0)),
                                    callee: format!("the value array of `{}`", b.source_name()),
                                    param: "dest".into(),
                                    size: String::new(),
                                },
                            },
                            span,
                        });
                    }
                    let j = self.w.fresh("j");
                    self.w.bind_param(&j, &Type::I64, span)?;
                    let ix = self.w.fresh("ix");
                    let body = vec![Stmt::Let {
                        var: ix.clone(),
                        ty: PrimType::I64,
                        exp: SExp::Load(is0.name().cloned().unwrap_or_default(), vec![var(&j)]),
                        span,
                    }];
                    let mut then = Vec::new();
                    let mut vals = Vec::new();
                    for v in &v_l {
                        let vn = v.name().cloned().unwrap_or_default();
                        if v.ty.rank() > 1 {
                            // a row: copied below
                            vals.push(Atom::Var(vn));
                            continue;
                        }
                        let x = self.w.fresh("x");
                        then.push(Stmt::Let {
                            var: x.clone(),
                            ty: v.ty.prim(),
                            exp: SExp::Load(vn, vec![var(&j)]),
                            span,
                        });
                        vals.push(var(&x));
                    }
                    (j, m, body, var(&ix), vals, then)
                };
                for (k, l) in d_l.iter().enumerate() {
                    self.copy_leaf_into(l, &dest_of(k), out, span);
                }
                // In bounds of the destination itself (so the C back end
                // knows the accesses below are).
                let len = self.w.fresh("len");
                let lo = self.w.fresh("lo");
                let hi = self.w.fresh("hi");
                let inb = self.w.fresh("inb");
                out.push(Stmt::Let {
                    var: len.clone(),
                    ty: PrimType::I64,
                    exp: SExp::Dim(dest_of(0), 0),
                    span,
                });
                body.extend([
                    Stmt::Let {
                        var: lo.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::Ge, ix.clone(), Atom::Const(Const::I64(0))),
                        span,
                    },
                    Stmt::Let {
                        var: hi.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::Lt, ix.clone(), var(&len)),
                        span,
                    },
                    Stmt::Let {
                        var: inb.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::And, var(&lo), var(&hi)),
                        span,
                    },
                ]);
                if scatter {
                    for (k, v) in vals.iter().enumerate() {
                        let rank = d_l.get(k).map_or(1, |l| l.ty.rank());
                        if rank == 1 {
                            then.push(Stmt::Store {
                                dest: dest_of(k),
                                idx: vec![ix.clone()],
                                val: v.clone(),
                                span,
                            });
                            continue;
                        }
                        // Row j of the values replaces row ix: it must have
                        // the destination's row shape (checked where written).
                        let (Atom::Var(vn), DType::Array(p, _)) =
                            (v, d_l.get(k).map_or(DType::Scalar(PrimType::I64), |l| l.ty))
                        else {
                            return error(
                                span,
                                "internal error: malformed scatter of rows",
                                "please report this",
                            );
                        };
                        for t in 1..rank {
                            let got = self.w.fresh("n");
                            let want = self.w.fresh("n");
                            then.push(Stmt::Let {
                                var: got.clone(),
                                ty: PrimType::I64,
                                exp: SExp::Dim(vn.clone(), t),
                                span,
                            });
                            then.push(Stmt::Let {
                                var: want.clone(),
                                ty: PrimType::I64,
                                exp: SExp::Dim(dest_of(k), t),
                                span,
                            });
                            then.push(Stmt::Check {
                                check: Check {
                                    got: var(&got),
                                    want: var(&want),
                                    message: core::SizeCheck {
                                        got: Atom::Const(Const::I64(0)),
                                        want: Atom::Const(Const::I64(0)),
                                        callee: format!(
                                            "a row written by `scatter` (dimension {t})"
                                        ),
                                        param: "dest".into(),
                                        size: String::new(),
                                    },
                                },
                                span,
                            });
                        }
                        let dr = self.w.fresh("row");
                        let vr = self.w.fresh("row");
                        then.push(Stmt::View {
                            var: dr.clone(),
                            elem: p,
                            rank: rank - 1,
                            view: View::Row(dest_of(k), ix.clone()),
                            span,
                        });
                        then.push(Stmt::View {
                            var: vr.clone(),
                            elem: p,
                            rank: rank - 1,
                            view: View::Row(vn.clone(), var(&j)),
                            span,
                        });
                        then.push(Stmt::Copy {
                            dest: dr,
                            src: vr,
                            span,
                        });
                    }
                } else {
                    let (Prim::ReduceByIndex { op, .. } | Prim::IReduceByIndex { op, .. }) = prim
                    else {
                        return unreachable_exp(span);
                    };
                    let op = lambda(op)?;
                    let (pa, ta) = lparam(&op, 0, span)?;
                    let (pb, tb) = lparam(&op, 1, span)?;
                    let a_l = self.w.bind_param(pa, ta, span)?;
                    let b_l = self.w.bind_param(pb, tb, span)?;
                    for (k, (a, bl)) in a_l.iter().zip(&b_l).enumerate() {
                        then.push(Stmt::Let {
                            var: a.name().cloned().unwrap_or_default(),
                            ty: a.ty.prim(),
                            exp: SExp::Load(dest_of(k), vec![ix.clone()]),
                            span,
                        });
                        then.push(Stmt::Let {
                            var: bl.name().cloned().unwrap_or_default(),
                            ty: bl.ty.prim(),
                            exp: SExp::Atom(
                                vals.get(k).cloned().unwrap_or(Atom::Const(Const::I64(0))),
                            ),
                            span,
                        });
                    }
                    let blk = self.body(&op.body, &vec![None; d_l.len()])?;
                    then.extend(blk.stmts);
                    for (k, r) in blk.results.iter().enumerate() {
                        then.push(Stmt::Store {
                            dest: dest_of(k),
                            idx: vec![ix.clone()],
                            val: r.clone(),
                            span,
                        });
                    }
                }
                body.push(Stmt::If {
                    outs: vec![],
                    cond: var(&inb),
                    then: Block {
                        stmts: then,
                        results: vec![],
                    },
                    els: Block::default(),
                });
                out.push(Stmt::For { i: j, n: m, body });
                Ok(vec![])
            }
            E::Prim(Prim::Slide { w, step, a }) => {
                // Window k is rows k*s .. k*s+w of the input, copied into row
                // k of the result, after the interpreter's checks.
                let w = self.scalar_atom(w);
                let st = self.scalar_atom(step);
                let a_l = self.w.leaves(a, span)?;
                for (k, l) in a_l.iter().enumerate() {
                    let d = dest_of(k);
                    let DType::Array(p, r) = l.ty else {
                        return error(
                            span,
                            "internal error: slide of a scalar",
                            "please report this",
                        );
                    };
                    let ash = self.w.shape(l, span)?;
                    let len = self.w.resolve_here(&outer(&ash), span)?;
                    let n = self.emit_dim(&len, out, span);
                    if k == 0 {
                        out.push(Stmt::Guard {
                            guard: Guard::Slide {
                                w: w.clone(),
                                s: st.clone(),
                                len: n.clone(),
                            },
                            span,
                        });
                    }
                    self.dest_ready(&d, out, span);
                    let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                    let count = self.w.resolve_here(&outer(&dsh), span)?;
                    let count = self.emit_dim(&count, out, span);
                    let j = self.w.fresh("j");
                    self.w.bind_param(&j, &Type::I64, span)?;
                    let lo = self.w.fresh("lo");
                    let hi = self.w.fresh("hi");
                    let row = self.w.fresh("r");
                    let win = self.w.fresh("w");
                    let row_sh: Vec<Dim> = dsh.iter().skip(1).cloned().collect();
                    let body = vec![
                        Stmt::Let {
                            var: lo.clone(),
                            ty: PrimType::I64,
                            exp: SExp::Bin(BinOp::Mul, Atom::Var(j.clone()), st.clone()),
                            span,
                        },
                        Stmt::Let {
                            var: hi.clone(),
                            ty: PrimType::I64,
                            exp: SExp::Bin(BinOp::Add, Atom::Var(lo.clone()), w.clone()),
                            span,
                        },
                        Stmt::View {
                            var: row.clone(),
                            elem: p,
                            rank: r,
                            view: View::Row(d.clone(), Atom::Var(j.clone())),
                            span,
                        },
                        Stmt::View {
                            var: win.clone(),
                            elem: p,
                            rank: r,
                            view: View::Slice(
                                l.name().cloned().unwrap_or_default(),
                                Atom::Var(lo),
                                Atom::Var(hi),
                            ),
                            span,
                        },
                        Stmt::Copy {
                            dest: row.clone(),
                            src: win.clone(),
                            span,
                        },
                    ];
                    self.w.shapes.insert(row, row_sh.clone());
                    self.w.shapes.insert(win, row_sh);
                    out.push(Stmt::For {
                        i: j,
                        n: count,
                        body,
                    });
                }
                Ok(vec![])
            }
            E::Prim(Prim::Scan { op, ne, a }) => {
                // An inclusive scan of scalars (or tuples of scalars): a sequential
                // fold whose accumulators are stored into the result after each
                // step, so the order of the operations is the interpreter's.
                let op = lambda(op)?;
                let a_l = self.w.leaves(a, span)?;
                if !a_l.is_empty() && a_l.iter().all(|l| l.ty.rank() > 1) {
                    return self.scan_rows(&op, ne, &a_l, &dest_of, out, span);
                }
                if a_l.iter().any(|l| l.ty.rank() != 1) {
                    return error(
                        span,
                        "a `scan` whose elements are tuples of arrays and scalars is not supported by the C backend yet",
                        "scan the components separately, or run with --interp",
                    );
                }
                let first = a_l.first().cloned().ok_or_else(|| Error {
                    span,
                    message: "internal error: scan of nothing".into(),
                    help: "please report this".into(),
                    note: None,
                })?;
                let sh = self.w.shape(&first, span)?;
                let len = self.w.resolve_here(&outer(&sh), span)?;
                let n = self.emit_dim(&len, out, span);
                let ne_l = self.w.leaves(ne, span)?;
                let (pa, ta) = lparam(&op, 0, span)?;
                let (pb, tb) = lparam(&op, 1, span)?;
                let acc_l = self.w.bind_param(pa, ta, span)?;
                let x_l = self.w.bind_param(pb, tb, span)?;
                let i = self.w.fresh("i");
                self.w.bind_param(&i, &Type::I64, span)?;
                for k in 0..a_l.len() {
                    self.dest_ready(&dest_of(k), out, span);
                }
                let blk = self.body(&op.body, &vec![None; a_l.len()])?;
                let mut stmts = Vec::new();
                for (x, src) in x_l.iter().zip(&a_l) {
                    stmts.push(Stmt::Let {
                        var: x.name().cloned().unwrap_or_default(),
                        ty: x.ty.prim(),
                        exp: SExp::Load(
                            src.name().cloned().unwrap_or_default(),
                            vec![Atom::Var(i.clone())],
                        ),
                        span,
                    });
                }
                stmts.extend(blk.stmts);
                for (k, r) in blk.results.iter().enumerate() {
                    stmts.push(Stmt::Store {
                        dest: dest_of(k),
                        idx: vec![Atom::Var(i.clone())],
                        val: r.clone(),
                        span,
                    });
                }
                let outs: Vec<(Name, PrimType)> = acc_l
                    .iter()
                    .map(|l| {
                        let o = self.w.fresh("o");
                        self.w.bind_depth(&o);
                        self.w.scalar_types.insert(o.clone(), l.ty.prim());
                        (o, l.ty.prim())
                    })
                    .collect();
                out.push(Stmt::Fold {
                    outs,
                    acc: acc_l
                        .iter()
                        .map(|l| (l.name().cloned().unwrap_or_default(), l.ty.prim()))
                        .collect(),
                    init: ne_l.into_iter().map(|l| l.atom).collect(),
                    i,
                    n,
                    body: Block {
                        stmts,
                        results: blk.results,
                    },
                });
                Ok(vec![])
            }
            E::Prim(p) => error(
                span,
                format!(
                    "`{}` is not supported by the C backend yet",
                    p.builtin().name()
                ),
                "run this program with --interp (the reference interpreter)",
            ),
            E::Apply(f, _) => error(
                span,
                format!(
                    "a call of the function parameter `{}` reached the C backend",
                    core::display_name(f)
                ),
                "the program should be first-order after specialisation; please report this",
            ),
            _ => error(
                span,
                "internal error: unexpected expression in the DPS translation",
                "please report this",
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    /// `let y = loop ...` (or `ifold`) whose array state changes length from
    /// one iteration to the next (size slicing): the loop's shape slice, a
    /// fold over the trip count computing each length from the last (sizes
    /// only, no array read), runs first and gives the largest length; the
    /// state's buffers are that long, the loop carries each length as a
    /// scalar, and `y` is a view of the final length (an existential, named
    /// by [`loop_size`]). Returns the buffers and the statements that fill
    /// them and bind `y`; the slice goes to `pre`.
    fn loop_stmt(
        &mut self,
        s: &core::Stmt,
        flat: &[(DType, Vec<Size>)],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        if let core::Exp::Loop {
            state,
            init,
            form: core::LoopForm::While(c),
            body,
        } = &s.exp
        {
            return self.grow_loop_stmt(
                s,
                state,
                init,
                LoopKind::While(c.clone()),
                body,
                flat,
                pre,
            );
        }
        let (state, st_ty, init, kind, body) = self.loop_parts(s)?;
        let LoopKind::For(index, n) = kind else {
            return error(
                span,
                "internal error: a loop changing shape that is not a `for` loop",
                "please report this",
            );
        };
        let growth = self
            .w
            .loop_growth(s, &state, &st_ty, &init, Some(&index), &body)?;
        // A length that depends on values computed in the loop: the storage
        // grows in it, to each next length's bound (a slice of the bounds
        // would compound them: `x ++ filter p x` over n steps is 2^n times
        // as long; the shape function still uses it, for an entry's result).
        if growth.iter().flatten().any(|g| !g.2) {
            return self.grow_loop_stmt(
                s,
                &(state, st_ty),
                &init,
                LoopKind::For(index, n),
                &body,
                flat,
                pre,
            );
        }
        let init_l = self.w.leaves(&init, span)?;
        let inits: Vec<Leaf> = init_l
            .iter()
            .filter(|l| matches!(l.ty, DType::Array(..)))
            .cloned()
            .collect();
        // initial lengths, and the shape slice: (l, m) = (length, largest so far)
        let mut len0 = Vec::new();
        let mut acc = Vec::new();
        let mut macc = Vec::new();
        for (il, g) in inits.iter().zip(&growth) {
            if g.is_some() {
                let ish = self.w.shape(il, span)?;
                let d = self.w.resolve_here(&outer(&ish), span)?;
                len0.push(Some(self.emit_dim(&d, pre, span)));
                acc.push(self.w.fresh("len"));
                macc.push(self.w.fresh("most"));
            } else {
                len0.push(None);
            }
        }
        let i2 = self.w.fresh("i");
        let subst = |d: &Dim, growth: &[Option<(Name, Dim, bool)>], acc: &[Name]| {
            let mut map = HashMap::new();
            for (g, a) in growth.iter().flatten().zip(acc) {
                map.insert(g.0.clone(), a.clone());
            }
            d.map_leaves(&mut |l| match l {
                Dim::Var(v) if *v == index => Some(Dim::Var(i2.clone())),
                Dim::Var(v) => map.get(v).map(|a| Dim::Var(a.clone())),
                _ => None,
            })
        };
        let mut fb = Vec::new();
        let mut next_len = Vec::new();
        let mut next_most = Vec::new();
        for (g, m) in growth.iter().flatten().zip(&macc) {
            let f = subst(&g.1, &growth, &acc);
            let nl = self.emit_dim(&f, &mut fb, span);
            let most = Dim::Max(
                Box::new(Dim::Var(m.clone())),
                Box::new(self.w.atom_dim(&nl)),
            );
            next_most.push(self.emit_dim(&most, &mut fb, span));
            next_len.push(nl);
        }
        let mut outs = Vec::new();
        let mut fold_acc = Vec::new();
        let mut fold_init = Vec::new();
        for (a, l0) in acc.iter().zip(len0.iter().flatten()) {
            fold_acc.push((a.clone(), PrimType::I64));
            fold_init.push(l0.clone());
            outs.push((self.w.fresh("len"), PrimType::I64));
        }
        let mut caps = Vec::new();
        for (m, l0) in macc.iter().zip(len0.iter().flatten()) {
            fold_acc.push((m.clone(), PrimType::I64));
            fold_init.push(l0.clone());
            let o = self.w.fresh("cap");
            caps.push(o.clone());
            outs.push((o, PrimType::I64));
        }
        next_len.extend(next_most);
        let fold = (outs, fold_acc, fold_init);
        self.slice_fold(fold, (i2.clone(), n.clone()), (fb, next_len), pre);
        // the buffers: the largest length where it changes
        let mut bufs = Vec::new();
        let mut slots = Vec::new();
        let mut info = Vec::new();
        let mut ai = 0;
        let mut gi = 0;
        for (t, _) in flat {
            let DType::Array(p, _) = t else {
                slots.push(None);
                continue;
            };
            let (Some(il), Some(g)) = (inits.get(ai), growth.get(ai)) else {
                return error(span, "internal error: loop leaves", "please report this");
            };
            ai += 1;
            let cap = caps
                .get(gi)
                .filter(|_| g.is_some())
                .map(|c| Atom::Var(c.clone()));
            let buf = self.state_buf(il, *p, None, pre, span)?;
            slots.push(Some(buf.var.clone()));
            bufs.push(buf);
            info.push(match (g, len0.get(ai - 1).cloned().flatten(), cap) {
                (Some((len, f, _)), Some(l0), Some(cap)) => {
                    gi += 1;
                    Some((len.clone(), f.clone(), l0, GrowMode::Sliced(cap)))
                }
                _ => None,
            });
        }
        let mut inner = Vec::new();
        let mut finals = Vec::new();
        let scalars = self.loop_into(
            s,
            &state,
            &st_ty,
            &init,
            LoopKind::For(index, n),
            &body,
            &slots,
            &mut inner,
            &info,
            &mut finals,
        )?;
        self.bind_final_views(s, flat, &slots, &info, &finals, &scalars, &mut inner, span)?;
        Ok((bufs, inner))
    }

    /// `let y = build n (\i -> row)` whose rows' length is what a `filter`
    /// keeps in each, or is known only once the row is computed (an
    /// existential `y_rowsize`, [`row_size`]; one per array leaf of a `build`
    /// of tuples, [`row_size_leaf`]): each such row is computed at the front
    /// of a row as long as the bound (the filter's input length), as into an
    /// existential destination, and passes its length out; the other leaves
    /// (scalars, rows of sizes known outside) are written as a `build` writes
    /// them. A fold over the rows keeps row 0's length of each such leaf and
    /// the first row whose length differs in any. After all rows (the
    /// interpreter checks the array regular once it has every row), an
    /// irregular array is the interpreter's error; else the rows are copied
    /// densely into a second buffer of the bound's size, and the leaf is a
    /// `[n][k]` view of it (`k` row 0's length; for no rows, the probe's:
    /// every filter keeps nothing).
    fn build_rows_stmt(
        &mut self,
        s: &core::Stmt,
        flat: &[(DType, Vec<Size>)],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let bad = |what: &str| {
            error(
                span,
                format!("internal error: {what}"),
                "please report this",
            )
        };
        let core::Exp::Prim(Prim::Build { n, f }) = &s.exp else {
            return bad("filtered rows of a non-build");
        };
        let core::Fun::Lambda(l) = f else {
            return bad("malformed build");
        };
        let n = self.scalar_atom(n);
        let shapes = self.w.shape_exp(s)?;
        if shapes.len() != flat.len() {
            return bad("the leaves of a build");
        }
        let zero = Atom::Const(Const::I64(0));
        let i64t = PrimType::I64;
        /// One array leaf of the `build`'s result.
        struct Rows {
            rs: Name,
            /// storage of rows as long as the bound, and the dense copy
            b: Name,
            c: Name,
            nb: Atom,
            /// the row's dims before the existential one (none: the rows'
            /// own length is existential), and after it
            before: Vec<Atom>,
            before_d: Vec<Dim>,
            rest: Vec<Atom>,
            rest_d: Vec<Dim>,
            empty: Dim,
        }
        enum Part {
            /// a leaf whose rows' length is existential
            Rows(Box<Rows>),
            /// a leaf of sizes known outside the `build`: its buffer
            Plain(Name),
        }
        let mut parts: Vec<(PrimType, usize, Part)> = Vec::new();
        let mut bufs = Vec::new();
        for ((t, _), sh) in flat.iter().zip(&shapes) {
            let DType::Array(p, r) = *t else {
                return bad("a scalar leaf of a build");
            };
            let rowed = sh.iter().enumerate().skip(1).find_map(|(k, d)| match d {
                Dim::Var(v) if v.starts_with(&row_size(&s.var)) => Some((k, v.clone())),
                _ => None,
            });
            let Some((kq, rs)) = rowed else {
                let mut dims_d = Vec::new();
                for d in sh {
                    dims_d.push(self.w.resolve_here(d, span)?);
                }
                let buf = self.dense_buf("b", p, dims_d, true, pre, span);
                parts.push((p, r, Part::Plain(buf.var.clone())));
                bufs.push(buf);
                continue;
            };
            let (Some(bound), Some(empty)) = (
                self.w.sh.exist_bounds.get(&rs).cloned(),
                self.w.row_empty.get(&rs).cloned(),
            ) else {
                return bad("row sizes");
            };
            let bound = self.w.resolve_here(&bound, span)?;
            let empty = self.w.resolve_here(&empty, span)?;
            let mut before_d = Vec::new();
            for d in &sh[1..kq] {
                before_d.push(self.w.resolve_here(d, span)?);
            }
            let mut rest_d = Vec::new();
            for d in sh.iter().skip(kq + 1) {
                rest_d.push(self.w.resolve_here(d, span)?);
            }
            let nb = self.emit_dim(
                &Dim::Max(Box::new(bound), Box::new(Dim::Const(0))),
                pre,
                span,
            );
            let before: Vec<Atom> = before_d
                .iter()
                .map(|d| {
                    let c = Dim::Max(Box::new(d.clone()), Box::new(Dim::Const(0)));
                    self.emit_dim(&c, pre, span)
                })
                .collect();
            let rest: Vec<Atom> = rest_d.iter().map(|d| self.emit_dim(d, pre, span)).collect();
            let mut dims = vec![n.clone()];
            dims.extend(before.iter().cloned());
            dims.push(nb.clone());
            dims.extend(rest.iter().cloned());
            let mut dims_d = vec![self.w.atom_dim(&n)];
            dims_d.extend(before.iter().map(|x| self.w.atom_dim(x)));
            dims_d.push(self.w.atom_dim(&nb));
            dims_d.extend(rest_d.iter().cloned());
            let (b, c) = (self.w.fresh("b"), self.w.fresh("b"));
            for x in [&b, &c] {
                self.w.shapes.insert(x.clone(), dims_d.clone());
                self.w.bind_depth(x);
                bufs.push(Buf {
                    var: x.clone(),
                    elem: p,
                    dims: dims.clone(),
                    span,
                    when: vec![],
                    grown: false,
                });
            }
            parts.push((
                p,
                r,
                Part::Rows(Box::new(Rows {
                    rs,
                    b,
                    c,
                    nb,
                    before,
                    before_d,
                    rest,
                    rest_d,
                    empty,
                })),
            ));
        }
        let mut inner = Vec::new();
        // a negative count is the `build`'s error, before any row
        // (fuzz seed 53, program 9285)
        self.build_count_guard(&n, &mut inner, span);
        // the rows: each leaf's at row i of its storage (at the front of it,
        // for an existential length)
        let (i, it) = lparam(l, 0, span)?;
        let i = i.clone();
        self.w.bind_param(&i, it, span)?;
        let iv = Atom::Var(i.clone());
        let mut body = Vec::new();
        let mut row_dests = Vec::new();
        let mut exist_rows = Vec::new();
        for (p, r, part) in &parts {
            let (buf, row_sh) = match part {
                Part::Plain(_) if *r == 1 => {
                    row_dests.push(None);
                    continue;
                }
                Part::Plain(b) => (
                    b,
                    self.w
                        .shapes
                        .get(b)
                        .and_then(|x| x.get(1..))
                        .map(|x| x.to_vec())
                        .unwrap_or_default(),
                ),
                Part::Rows(rw) => {
                    let mut sh: Vec<Dim> = rw.before.iter().map(|x| self.w.atom_dim(x)).collect();
                    sh.push(self.w.atom_dim(&rw.nb));
                    sh.extend(rw.rest_d.iter().cloned());
                    (&rw.b, sh)
                }
            };
            let row = self.w.fresh("r");
            body.push(Stmt::View {
                var: row.clone(),
                elem: *p,
                rank: r - 1,
                view: View::Row(buf.clone(), iv.clone()),
                span,
            });
            self.w.shapes.insert(row.clone(), row_sh);
            self.w.sh.depth.insert(row.clone(), self.w.sh.cur + 1);
            if let Part::Rows(rw) = part {
                self.exist_dests.insert(row.clone());
                // (a length inside the row: the row is written densely at
                // the front of its storage, and that length passed out)
                if !rw.before.is_empty() {
                    self.exist_dim.insert(row.clone(), vec![rw.before.len()]);
                }
                exist_rows.push(row.clone());
            }
            row_dests.push(Some(row));
        }
        let blk = self.body(&l.body, &row_dests);
        for row in &exist_rows {
            self.exist_dests.remove(row);
            self.exist_dim.remove(row);
        }
        let mut blk = blk?;
        let n_rows = exist_rows.len();
        if blk.results.len() < n_rows {
            return bad("row lengths");
        }
        let cnts = blk.results.split_off(blk.results.len() - n_rows);
        body.append(&mut blk.stmts);
        // the scalar leaves, stored at i
        let mut scalars = blk.results.into_iter();
        for (_, r, part) in &parts {
            if let (Part::Plain(b), 1) = (part, *r) {
                body.push(Stmt::Store {
                    dest: b.clone(),
                    idx: vec![iv.clone()],
                    val: scalars.next().unwrap_or(zero.clone()),
                    span,
                });
            }
        }
        let let_ = |me: &mut Self, out: &mut Vec<Stmt>, ty: PrimType, exp: SExp| {
            let x = me.w.fresh("t");
            out.push(Stmt::Let {
                var: x.clone(),
                ty,
                exp,
                span,
            });
            Atom::Var(x)
        };
        let first = let_(
            self,
            &mut body,
            PrimType::Bool,
            SExp::Bin(BinOp::Eq, iv.clone(), zero.clone()),
        );
        // each existential leaf's row-0 length, kept
        let kks: Vec<Name> = cnts.iter().map(|_| self.w.fresh("k")).collect();
        let mut k2s = Vec::new();
        for (cnt, kk) in cnts.iter().zip(&kks) {
            let k2 = self.w.fresh("k");
            body.push(Stmt::If {
                outs: vec![(k2.clone(), i64t)],
                cond: first.clone(),
                then: Block {
                    stmts: vec![],
                    results: vec![cnt.clone()],
                },
                els: Block {
                    stmts: vec![],
                    results: vec![Atom::Var(kk.clone())],
                },
            });
            k2s.push(Atom::Var(k2));
        }
        // the first row whose length differs in some leaf: (row, row 0's
        // length, its length) of the first leaf that differs there
        let (at, ft, got) = (self.w.fresh("at"), self.w.fresh("ft"), self.w.fresh("got"));
        let mut differs: Option<Atom> = None;
        let (mut sel_f, mut sel_g) = (zero.clone(), zero.clone());
        for (cnt, kk) in cnts.iter().zip(&kks).rev() {
            let d = let_(
                self,
                &mut body,
                PrimType::Bool,
                SExp::Bin(BinOp::Ne, cnt.clone(), Atom::Var(kk.clone())),
            );
            let (f2, g2) = (self.w.fresh("ft"), self.w.fresh("got"));
            body.push(Stmt::If {
                outs: vec![(f2.clone(), i64t), (g2.clone(), i64t)],
                cond: d.clone(),
                then: Block {
                    stmts: vec![],
                    results: vec![Atom::Var(kk.clone()), cnt.clone()],
                },
                els: Block {
                    stmts: vec![],
                    results: vec![sel_f, sel_g],
                },
            });
            sel_f = Atom::Var(f2);
            sel_g = Atom::Var(g2);
            differs = Some(match differs {
                None => d,
                Some(o) => let_(self, &mut body, PrimType::Bool, SExp::Bin(BinOp::Or, o, d)),
            });
        }
        let differs = differs.unwrap_or(Atom::Const(Const::Bool(false)));
        let later = let_(
            self,
            &mut body,
            PrimType::Bool,
            SExp::Bin(BinOp::Gt, iv.clone(), zero.clone()),
        );
        let none = let_(
            self,
            &mut body,
            PrimType::Bool,
            SExp::Bin(BinOp::Lt, Atom::Var(at.clone()), zero.clone()),
        );
        let m1 = let_(
            self,
            &mut body,
            PrimType::Bool,
            SExp::Bin(BinOp::And, later, differs),
        );
        let m = let_(
            self,
            &mut body,
            PrimType::Bool,
            SExp::Bin(BinOp::And, m1, none),
        );
        let (at2, ft2, got2) = (self.w.fresh("at"), self.w.fresh("ft"), self.w.fresh("got"));
        body.push(Stmt::If {
            outs: vec![
                (at2.clone(), i64t),
                (ft2.clone(), i64t),
                (got2.clone(), i64t),
            ],
            cond: m,
            then: Block {
                stmts: vec![],
                results: vec![iv.clone(), sel_f, sel_g],
            },
            els: Block {
                stmts: vec![],
                results: vec![
                    Atom::Var(at.clone()),
                    Atom::Var(ft.clone()),
                    Atom::Var(got.clone()),
                ],
            },
        });
        let mut acc: Vec<(Name, PrimType)> = kks.iter().map(|k| (k.clone(), i64t)).collect();
        acc.extend([(at, i64t), (ft, i64t), (got, i64t)]);
        let mut init = vec![zero.clone(); kks.len()];
        init.extend([Atom::Const(Const::I64(-1)), zero.clone(), zero.clone()]);
        let mut results = k2s;
        results.extend([Atom::Var(at2), Atom::Var(ft2), Atom::Var(got2)]);
        let outs: Vec<(Name, PrimType)> = acc.iter().map(|_| (self.w.fresh("k"), i64t)).collect();
        for (o, _) in &outs {
            self.w.bind_depth(o);
            self.w.scalar_types.insert(o.clone(), i64t);
        }
        inner.push(Stmt::Fold {
            outs: outs.clone(),
            acc,
            init,
            i: i.clone(),
            n: n.clone(),
            body: Block {
                stmts: body,
                results,
            },
        });
        let o = |x: usize| Atom::Var(outs[x].0.clone());
        let nk = kks.len();
        // (the message's inner dims: the first existential leaf's)
        let rest0 = parts
            .iter()
            .find_map(|(_, _, pt)| match pt {
                Part::Rows(rw) => Some(rw.rest.clone()),
                Part::Plain(_) => None,
            })
            .unwrap_or_default();
        inner.push(Stmt::Guard {
            guard: Guard::Irregular {
                at: o(nk),
                first: o(nk + 1),
                got: o(nk + 2),
                inner: rest0,
            },
            span,
        });
        let some = let_(
            self,
            &mut inner,
            PrimType::Bool,
            SExp::Bin(BinOp::Gt, n.clone(), zero.clone()),
        );
        let mut leaves = Vec::new();
        let mut kx = 0;
        for (p, r, part) in parts {
            let rw = match part {
                Part::Plain(b) => {
                    leaves.push(Some(b));
                    continue;
                }
                Part::Rows(rw) => rw,
            };
            let ko = o(kx);
            kx += 1;
            // the row length: row 0's, or the probe's for no rows
            let mut eb = Vec::new();
            // (a negative length in no rows is never evaluated: 0, as the
            // interpreter's failed probe counts it; seed 61, program 41923)
            let ea = self.emit_dim(
                &Dim::Max(Box::new(rw.empty.clone()), Box::new(Dim::Const(0))),
                &mut eb,
                span,
            );
            let rs = rw.rs.clone();
            inner.push(Stmt::If {
                outs: vec![(rs.clone(), i64t)],
                cond: some.clone(),
                then: Block {
                    stmts: vec![],
                    results: vec![ko],
                },
                els: Block {
                    stmts: eb,
                    results: vec![ea],
                },
            });
            self.w.bind_depth(&rs);
            self.w.scalar_types.insert(rs.clone(), i64t);
            // `y`: the first k of each row, densely in `c`
            let mul = |me: &mut Self, out: &mut Vec<Stmt>, xs: Vec<Atom>| {
                let mut acc = Atom::Const(Const::I64(1));
                for x in xs {
                    acc = let_(me, out, i64t, SExp::Bin(BinOp::Mul, acc, x));
                }
                acc
            };
            let with = |k: &Atom| {
                let mut v = rw.before.clone();
                v.push(k.clone());
                v.extend(rw.rest.iter().cloned());
                v
            };
            let rsv = Atom::Var(rs.clone());
            let (row_cap, row_all) = (with(&rw.nb), with(&rsv));
            let count = mul(
                self,
                &mut inner,
                std::iter::once(n.clone()).chain(row_cap.clone()).collect(),
            );
            let all = mul(
                self,
                &mut inner,
                std::iter::once(n.clone()).chain(row_all.clone()).collect(),
            );
            let names = [self.w.fresh("c"), self.w.fresh("c"), self.w.fresh("y")];
            let mut ydims = vec![n.clone()];
            ydims.extend(row_all.iter().cloned());
            let row_all_d: Vec<Dim> = rw
                .before_d
                .iter()
                .cloned()
                .chain(std::iter::once(Dim::Var(rs.clone())))
                .chain(rw.rest_d.iter().cloned())
                .collect();
            let mut ysh = vec![self.w.atom_dim(&n)];
            ysh.extend(row_all_d.iter().cloned());
            let y = self.front_view(
                &rw.c,
                (p, r),
                (count, all),
                (ydims, ysh),
                names,
                &mut inner,
                span,
            );
            let j = self.w.fresh("j");
            let (rb, rbk, ry) = (self.w.fresh("r"), self.w.fresh("r"), self.w.fresh("r"));
            let jv = Atom::Var(j.clone());
            let mut lb = vec![Stmt::View {
                var: rb.clone(),
                elem: p,
                rank: r - 1,
                view: View::Row(rw.b.clone(), jv.clone()),
                span,
            }];
            let src = if rw.before.is_empty() {
                lb.push(Stmt::View {
                    var: rbk.clone(),
                    elem: p,
                    rank: r - 1,
                    view: View::Slice(rb, zero.clone(), rsv.clone()),
                    span,
                });
                rbk
            } else {
                // (a length inside the row: the row densely at the front
                // of its storage)
                let rcap = mul(self, &mut inner, row_cap.clone());
                let rall = mul(self, &mut inner, row_all.clone());
                let mut rsh: Vec<Dim> = rw.before_d.clone();
                rsh.push(self.w.atom_dim(&rw.nb));
                rsh.extend(rw.rest_d.iter().cloned());
                self.w.shapes.insert(rb.clone(), rsh);
                self.w.bind_depth(&rb);
                let names = [self.w.fresh("c"), self.w.fresh("c"), self.w.fresh("x")];
                self.front_view(
                    &rb,
                    (p, r - 1),
                    (rcap, rall),
                    (row_all.clone(), row_all_d.clone()),
                    names,
                    &mut lb,
                    span,
                )
            };
            lb.push(Stmt::View {
                var: ry.clone(),
                elem: p,
                rank: r - 1,
                view: View::Row(y.clone(), jv),
                span,
            });
            lb.push(Stmt::Copy {
                dest: ry,
                src,
                span,
            });
            inner.push(Stmt::For {
                i: j,
                n: n.clone(),
                body: lb,
            });
            leaves.push(Some(y));
        }
        self.bind_leaves(s, flat, &leaves, &[]);
        Ok((bufs, inner))
    }

    /// A loop whose array state changes length and whose largest length is
    /// known only once it has run: a `while` loop (size-slicing §3 with no
    /// trip count to slice over), or a loop whose next length depends on
    /// values computed in the body (`x ++ filter p x`). Each changing leaf
    /// starts in a buffer of the initial value's shape; every iteration
    /// computes the next length from sizes (`F` of [`ShapeWalk::loop_growth`]), or
    /// an upper bound of it (the body then writes the first rows and passes
    /// their number out, as into an existential destination), and grows the
    /// next state's storage to it ([`Stmt::Grow`], geometric) before the body
    /// writes it. The storage lives in the region of the `alloc` scope this
    /// returns the buffers for, so it is released with it; the value after the
    /// loop is a view of the first `len` rows of the storage it ended in.
    #[allow(clippy::too_many_arguments)]
    fn grow_loop_stmt(
        &mut self,
        s: &core::Stmt,
        state: &(Name, Type),
        init: &Atom,
        kind: LoopKind,
        body: &core::Body,
        flat: &[(DType, Vec<Size>)],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let index = match &kind {
            LoopKind::For(i, _) => Some(i.clone()),
            LoopKind::While(_) => None,
        };
        let growth = self
            .w
            .loop_growth(s, &state.0, &state.1, init, index.as_ref(), body)?;
        let init_l = self.w.leaves(init, span)?;
        let inits: Vec<Leaf> = init_l
            .iter()
            .filter(|l| matches!(l.ty, DType::Array(..)))
            .cloned()
            .collect();
        let mut bufs = Vec::new();
        let mut slots = Vec::new();
        let mut info = Vec::new();
        let mut ai = 0;
        for (t, _) in flat {
            let DType::Array(p, _) = t else {
                slots.push(None);
                continue;
            };
            let (Some(il), Some(g)) = (inits.get(ai), growth.get(ai)) else {
                return error(span, "internal error: loop leaves", "please report this");
            };
            ai += 1;
            let buf = self.state_buf(il, *p, None, pre, span)?;
            let l0 = buf
                .dims
                .first()
                .cloned()
                .unwrap_or(Atom::Const(Const::I64(0)));
            slots.push(Some(buf.var.clone()));
            bufs.push(buf);
            info.push(match g {
                Some((len, f, exact)) => {
                    let mode = if *exact {
                        GrowMode::Exact
                    } else {
                        GrowMode::Bounded
                    };
                    Some((len.clone(), f.clone(), l0, mode))
                }
                None => None,
            });
        }
        let mut inner = Vec::new();
        let mut finals = Vec::new();
        let scalars = self.loop_into(
            s,
            &state.0,
            &state.1,
            init,
            kind,
            body,
            &slots,
            &mut inner,
            &info,
            &mut finals,
        )?;
        self.bind_final_views(s, flat, &slots, &info, &finals, &scalars, &mut inner, span)?;
        Ok((bufs, inner))
    }

    /// The buffer an array leaf of a loop's state starts in: the initial
    /// value `il`'s shape, its outer dim `outer` where given (the largest
    /// length a sliced state has).
    fn state_buf(
        &mut self,
        il: &Leaf,
        elem: PrimType,
        outer: Option<Dim>,
        pre: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Buf> {
        let ish = self.w.shape(il, span)?;
        let mut dims_d = Vec::new();
        for (k, d) in ish.iter().enumerate() {
            match (&outer, k) {
                (Some(o), 0) => dims_d.push(o.clone()),
                _ => dims_d.push(self.w.resolve_here(d, span)?),
            }
        }
        Ok(self.dense_buf("b", elem, dims_d, false, pre, span))
    }

    /// After a loop whose array state changes length: bind each array leaf
    /// of `s` to a view of its final length (the existential named by
    /// [`loop_size`], the loop's length out), in the storage it ended in
    /// (`fin` for a state grown in the loop, else its buffer `slots[j]`).
    #[allow(clippy::too_many_arguments)]
    fn bind_final_views(
        &mut self,
        s: &core::Stmt,
        flat: &[(DType, Vec<Size>)],
        slots: &[Option<Name>],
        info: &[Option<(Name, Dim, Atom, GrowMode)>],
        finals: &[(Atom, Option<Name>)],
        scalars: &[Atom],
        inner: &mut Vec<Stmt>,
        span: Span,
    ) -> R<()> {
        let mut views = Vec::new();
        let mut ai = 0;
        let mut fi = 0;
        for (t, slot) in flat.iter().zip(slots) {
            let (DType::Array(p, r), Some(b)) = (&t.0, slot) else {
                views.push(None);
                continue;
            };
            let grows = info.get(ai).is_some_and(Option::is_some);
            ai += 1;
            if !grows {
                views.push(Some(b.clone()));
                continue;
            }
            let Some((len, fin)) = finals.get(fi).cloned() else {
                return error(span, "internal error: loop lengths", "please report this");
            };
            let k = loop_size(&s.var, ai - 1);
            fi += 1;
            inner.push(Stmt::Let {
                var: k.clone(),
                ty: PrimType::I64,
                exp: SExp::Atom(len),
                span,
            });
            self.w.bind_depth(&k);
            self.w.scalar_types.insert(k.clone(), PrimType::I64);
            let v = self.prefix_view(fin.as_ref().unwrap_or(b), *p, *r, &k, inner, span);
            views.push(Some(v));
        }
        self.bind_leaves(s, flat, &views, scalars);
        Ok(())
    }

    /// An inclusive `scan` whose elements are arrays (or tuples of arrays):
    /// the accumulator lives in buffers of `ne`'s shape; step `i` runs the
    /// operator on the accumulator and row `i` of the input, writing row `i`
    /// of the result, which then becomes the accumulator (the interpreter's
    /// order of operations).
    #[allow(clippy::too_many_arguments)]
    fn scan_rows(
        &mut self,
        op: &core::Lambda,
        ne: &Atom,
        a_l: &[Leaf],
        dest_of: &dyn Fn(usize) -> Name,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> R<Vec<Atom>> {
        let Some(first) = a_l.first() else {
            return error(
                span,
                "internal error: scan of nothing",
                "please report this",
            );
        };
        let sh = self.w.shape(first, span)?;
        let len = self.w.resolve_here(&outer(&sh), span)?;
        let n = self.emit_dim(&len, out, span);
        let ne_l = self.w.leaves(ne, span)?;
        let (pa, ta) = lparam(op, 0, span)?;
        let (pb, tb) = lparam(op, 1, span)?;
        let acc_l = self.w.bind_param(pa, ta, span)?;
        let x_l = self.w.bind_param(pb, tb, span)?;
        let i = self.w.fresh("i");
        self.w.bind_param(&i, &Type::I64, span)?;
        let mut bufs = Vec::new();
        let mut inner = Vec::new();
        let mut body = Vec::new();
        let mut rows = Vec::new();
        for (k, ((nl, src), (acc, x))) in
            ne_l.iter().zip(a_l).zip(acc_l.iter().zip(&x_l)).enumerate()
        {
            let d = dest_of(k);
            self.dest_ready(&d, out, span);
            let DType::Array(p, r) = nl.ty else {
                return error(span, "internal error: scan of arrays", "please report this");
            };
            // the accumulator: a copy of `ne`, of the result's row shape
            let nsh = self.w.shape(nl, span)?;
            let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
            let row_sh: Vec<Dim> = dsh.iter().skip(1).cloned().collect();
            self.guard(&nsh, &row_sh, "`scan`", None, out, span)?;
            let mut dims_d = Vec::new();
            for x in &row_sh {
                dims_d.push(self.w.resolve_here(x, span)?);
            }
            let buf = self.dense_buf("acc", p, dims_d.clone(), false, out, span);
            let b = buf.var.clone();
            bufs.push(buf);
            inner.push(Stmt::Copy {
                dest: b.clone(),
                src: nl.name().cloned().unwrap_or_default(),
                span,
            });
            // in the loop: the accumulator, row i of the input and of the result
            let an = acc.name().cloned().unwrap_or_default();
            body.push(Stmt::View {
                var: an.clone(),
                elem: p,
                rank: r,
                view: View::Alias(b.clone()),
                span,
            });
            self.w.shapes.insert(an, dims_d.clone());
            let xn = x.name().cloned().unwrap_or_default();
            let ssh = self.w.shape(src, span)?;
            body.push(Stmt::View {
                var: xn.clone(),
                elem: p,
                rank: r,
                view: View::Row(
                    src.name().cloned().unwrap_or_default(),
                    Atom::Var(i.clone()),
                ),
                span,
            });
            self.w
                .shapes
                .insert(xn, ssh.iter().skip(1).cloned().collect());
            let row = self.w.fresh("r");
            body.push(Stmt::View {
                var: row.clone(),
                elem: p,
                rank: r,
                view: View::Row(d, Atom::Var(i.clone())),
                span,
            });
            self.w.shapes.insert(row.clone(), row_sh);
            self.w.sh.depth.insert(row.clone(), self.w.sh.cur + 1);
            rows.push((row, b));
        }
        let slots: Vec<Option<Name>> = rows.iter().map(|(r, _)| Some(r.clone())).collect();
        let blk = self.body(&op.body, &slots)?;
        body.extend(blk.stmts);
        for (row, b) in rows {
            body.push(Stmt::Copy {
                dest: b,
                src: row,
                span,
            });
        }
        inner.push(Stmt::For { i, n, body });
        out.push(Stmt::Alloc {
            outs: vec![],
            bufs,
            body: Block {
                stmts: inner,
                results: vec![],
            },
        });
        Ok(vec![])
    }

    /// `x * y` of non-negative sizes, at most 2^62 (a capacity: an array
    /// that large is out of memory when allocated, never a wrapped size).
    fn sat_mul(&mut self, x: Atom, y: Atom, out: &mut Vec<Stmt>, span: Span) -> Atom {
        let limit = Atom::Const(Const::I64(1 << 62));
        let y1 = self.shape_let(
            SExp::Math(MathFn::Max, vec![y.clone(), Atom::Const(Const::I64(1))]),
            out,
            span,
        );
        let q = self.shape_let(SExp::DivOr0(limit.clone(), y1), out, span);
        let big_b = self.bool_let(SExp::Bin(BinOp::Gt, x.clone(), q), out, span);
        let big = self.shape_let(SExp::Convert(PrimType::I64, big_b), out, span);
        let small = self.shape_let(
            SExp::Bin(BinOp::Sub, Atom::Const(Const::I64(1)), big.clone()),
            out,
            span,
        );
        let xy = self.shape_let(SExp::Bin(BinOp::Mul, x, y), out, span);
        let a = self.shape_let(SExp::Bin(BinOp::Mul, xy, small), out, span);
        let b = self.shape_let(SExp::Bin(BinOp::Mul, limit, big), out, span);
        self.shape_let(SExp::Bin(BinOp::Add, a, b), out, span)
    }

    /// The product of non-negative sizes, saturated ([`FunTr::sat_mul`]).
    fn sat_product(&mut self, xs: &[Atom], out: &mut Vec<Stmt>, span: Span) -> Atom {
        let mut acc = Atom::Const(Const::I64(1));
        for x in xs {
            acc = self.sat_mul(acc, x.clone(), out, span);
        }
        acc
    }

    /// A dense array of dims `dims` (shape `shape`) at the front of the
    /// rank-1 storage `buf`, of which it takes the first `all` elements:
    /// views `front` (slice) and `v` (reshape), bound at depth `depth`.
    #[allow(clippy::too_many_arguments)]
    fn flat_front(
        &mut self,
        buf: &Name,
        (elem, rank): (PrimType, usize),
        all: Atom,
        (dims, shape): (Vec<Atom>, Vec<Dim>),
        [front, v]: [Name; 2],
        depth: usize,
        out: &mut Vec<Stmt>,
        span: Span,
    ) -> Name {
        out.push(Stmt::View {
            var: front.clone(),
            elem,
            rank: 1,
            view: View::Slice(buf.clone(), Atom::Const(Const::I64(0)), all.clone()),
            span,
        });
        out.push(Stmt::View {
            var: v.clone(),
            elem,
            rank,
            view: View::Reshape(front.clone(), dims),
            span,
        });
        self.w
            .shapes
            .insert(front.clone(), vec![self.w.atom_dim(&all)]);
        self.w.shapes.insert(v.clone(), shape);
        self.w.sh.depth.insert(front, depth);
        self.w.sh.depth.insert(v.clone(), depth);
        v
    }

    /// A loop's shape slice run before it: a `Fold` over `i < n` of the
    /// `i64` accumulators `acc` (from `init`; the body `stmts` gives their
    /// next values `results`), its final values bound to `outs`.
    #[allow(clippy::type_complexity)]
    fn slice_fold(
        &mut self,
        (outs, acc, init): (Vec<(Name, PrimType)>, Vec<(Name, PrimType)>, Vec<Atom>),
        (i, n): (Name, Atom),
        (stmts, results): (Vec<Stmt>, Vec<Atom>),
        pre: &mut Vec<Stmt>,
    ) {
        for (o, _) in &outs {
            self.w.bind_depth(o);
            self.w.scalar_types.insert(o.clone(), PrimType::I64);
        }
        pre.push(Stmt::Fold {
            outs,
            acc,
            init,
            i,
            n,
            body: Block { stmts, results },
        });
    }

    /// The parts of a loop statement (`loop` or `ifold`): the state, its
    /// type, its initial value, the form and the body.
    fn loop_parts(&mut self, s: &core::Stmt) -> R<(Name, Type, Atom, LoopKind, core::Body)> {
        let span = s.span;
        match &s.exp {
            core::Exp::Loop {
                state,
                init,
                form,
                body,
            } => Ok((
                state.0.clone(),
                state.1.clone(),
                init.clone(),
                match form {
                    core::LoopForm::For(i, n) => LoopKind::For(i.clone(), self.scalar_atom(n)),
                    core::LoopForm::While(c) => LoopKind::While(c.clone()),
                },
                body.clone(),
            )),
            core::Exp::Prim(Prim::IFold { f, init, n }) => {
                let core::Fun::Lambda(l) = f else {
                    return error(
                        span,
                        "internal error: malformed ifold",
                        "please report this",
                    );
                };
                let (acc, at) = lparam(l, 0, span)?;
                let (i, _) = lparam(l, 1, span)?;
                Ok((
                    acc.clone(),
                    at.clone(),
                    init.clone(),
                    LoopKind::For(i.clone(), self.scalar_atom(n)),
                    l.body.clone(),
                ))
            }
            _ => error(
                span,
                "internal error: a loop statement that is not a loop",
                "please report this",
            ),
        }
    }

    /// `let y = loop ...` analysed by [`ShapeWalk::loop_every`]: every array leaf
    /// of the state is a dense array at the front of flat storage,
    /// double-buffered as any loop state; the loop carries each dim as a
    /// scalar, the body (and a `while` loop's condition) sees the state as
    /// the current storage's front reshaped to the current dims, and the body
    /// writes the next state into the other's front reshaped to the next dims
    /// (the step, known before the iteration writes it). A counted loop's
    /// storage is as large as the largest element count its shape slice
    /// gives (run first, a `Fold` over sizes alone); a `while` loop's grows
    /// in the loop before the iteration that needs it ([`Stmt::Grow`]). After
    /// the loop `y` is the final storage's front at the final dims, each bound
    /// to its existential ([`loop_dim`]).
    fn every_loop_stmt(
        &mut self,
        s: &core::Stmt,
        flat: &[(DType, Vec<Size>)],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let (state, st_ty, init, kind, body) = self.loop_parts(s)?;
        let index = match &kind {
            LoopKind::For(i, _) => Some(i.clone()),
            LoopKind::While(_) => None,
        };
        let Some(steps) = self
            .w
            .loop_every(s, &state, &st_ty, &init, index.as_ref(), &body)?
        else {
            return error(span, "internal error: loop dims", "please report this");
        };
        let init_l = self.w.leaves(&init, span)?;
        let inits: Vec<Leaf> = init_l
            .iter()
            .filter(|l| matches!(l.ty, DType::Array(..)))
            .cloned()
            .collect();
        // initial dims
        let mut dims0: Vec<Vec<Atom>> = Vec::new();
        for il in &inits {
            let ish = self.w.shape(il, span)?;
            let mut v = Vec::new();
            for d in &ish {
                let rd = self.w.resolve_here(d, span)?;
                let c = Dim::Max(Box::new(rd), Box::new(Dim::Const(0)));
                v.push(self.emit_dim(&c, pre, span));
            }
            dims0.push(v);
        }
        let mut caps = Vec::new();
        if let LoopKind::For(index, n) = &kind {
            // the slice: every dim, and each leaf's largest element count
            let i2 = self.w.fresh("i");
            let acc: Vec<Vec<Name>> = steps
                .iter()
                .map(|leaf| leaf.iter().map(|_| self.w.fresh("dim")).collect())
                .collect();
            let mut map = HashMap::new();
            for (leaf, names) in steps.iter().zip(&acc) {
                for ((v, _), a) in leaf.iter().zip(names) {
                    map.insert(v.clone(), a.clone());
                }
            }
            let subst = |d: &Dim| {
                d.map_leaves(&mut |l| match l {
                    Dim::Var(v) if v == index => Some(Dim::Var(i2.clone())),
                    Dim::Var(v) => map.get(v).map(|a| Dim::Var(a.clone())),
                    _ => None,
                })
            };
            let mut fb = Vec::new();
            let mut next_dims = Vec::new();
            let mut next_most = Vec::new();
            let most: Vec<Name> = steps.iter().map(|_| self.w.fresh("most")).collect();
            for (leaf, m) in steps.iter().zip(&most) {
                let mut nd = Vec::new();
                for (_, f) in leaf {
                    let c = Dim::Max(Box::new(subst(f)), Box::new(Dim::Const(0)));
                    nd.push(self.emit_dim(&c, &mut fb, span));
                }
                let count = self.sat_product(&nd, &mut fb, span);
                let mm = self.shape_let(
                    SExp::Math(MathFn::Max, vec![Atom::Var(m.clone()), count]),
                    &mut fb,
                    span,
                );
                next_most.push(mm);
                next_dims.extend(nd);
            }
            let mut fold_acc = Vec::new();
            let mut fold_init = Vec::new();
            let mut outs = Vec::new();
            for (names, d0) in acc.iter().zip(&dims0) {
                for (a, d) in names.iter().zip(d0) {
                    fold_acc.push((a.clone(), PrimType::I64));
                    fold_init.push(d.clone());
                    outs.push((self.w.fresh("dim"), PrimType::I64));
                }
            }
            for (m, d0) in most.iter().zip(&dims0) {
                let c0 = self.sat_product(d0, pre, span);
                fold_acc.push((m.clone(), PrimType::I64));
                fold_init.push(c0);
                let o = self.w.fresh("cap");
                caps.push(Atom::Var(o.clone()));
                outs.push((o, PrimType::I64));
            }
            next_dims.extend(next_most);
            let fold = (outs, fold_acc, fold_init);
            self.slice_fold(fold, (i2, n.clone()), (fb, next_dims), pre);
        }
        // The storage starts as the initial state's count and grows where an
        // iteration first writes its next state, so that an error in the
        // body comes first (fuzz seed 113, program 19032: a state too large
        // for memory was out of memory at the loop, the interpreter's at the
        // `replicate` inside); a `for` loop's first growth asks for the
        // slice's largest count (`caps`), softly.
        let hints: Vec<Option<Atom>> = if caps.is_empty() {
            vec![None; dims0.len()]
        } else {
            caps.iter().cloned().map(Some).collect()
        };
        let mut caps = Vec::new();
        for d0 in &dims0 {
            caps.push(self.sat_product(d0, pre, span));
        }
        let grows = true;
        // the storage: flat
        let mut bufs = Vec::new();
        let mut outs_buf = Vec::new();
        for (il, cap) in inits.iter().zip(&caps) {
            let b = self.w.fresh("b");
            self.w.shapes.insert(b.clone(), vec![self.w.atom_dim(cap)]);
            self.w.bind_depth(&b);
            bufs.push(Buf {
                var: b.clone(),
                elem: il.ty.prim(),
                dims: vec![cap.clone()],
                span,
                when: vec![],
                grown: false,
            });
            outs_buf.push(b);
        }
        let mut inner = Vec::new();
        // the initial state at the front of its storage
        for ((il, b), d0) in inits.iter().zip(&outs_buf).zip(&dims0) {
            let count = self.sat_product(d0, &mut inner, span);
            let ish = self.w.shape(il, span)?;
            let names = [self.w.fresh("x"), self.w.fresh("x")];
            let v0 = self.flat_front(
                b,
                (il.ty.prim(), il.ty.rank()),
                count,
                (d0.clone(), ish),
                names,
                self.w.sh.cur,
                &mut inner,
                span,
            );
            if il.name() != Some(&v0) {
                inner.push(Stmt::Copy {
                    dest: v0,
                    src: il.name().cloned().unwrap_or_default(),
                    span,
                });
            }
        }
        // the loop
        let st_l = self.w.bind_param(&state, &st_ty, span)?;
        if let Some(i) = &index {
            self.w.bind_param(i, &Type::I64, span)?;
        }
        let inside = self.w.sh.cur + 1;
        let mut scalars = Vec::new();
        let mut arrays = Vec::new();
        let mut leaves_at = Vec::new();
        let mut fins = Vec::new();
        // (the dims after the state's scalars, as the body's results)
        let mut dim_scalars = Vec::new();
        let mut ai = 0;
        for (k, (l, il)) in st_l.iter().zip(&init_l).enumerate() {
            match l.ty {
                DType::Scalar(p) => {
                    scalars.push((l.name().cloned().unwrap_or_default(), p, il.atom.clone()));
                }
                DType::Array(p, r) => {
                    let (Some(leaf), Some(b), Some(cap), Some(d0)) =
                        (steps.get(ai), outs_buf.get(ai), caps.get(ai), dims0.get(ai))
                    else {
                        return error(span, "internal error: loop leaves", "please report this");
                    };
                    ai += 1;
                    let full = self.w.fresh("st");
                    let next = self.w.fresh("nx");
                    for x in [&full, &next] {
                        self.w.shapes.insert(x.clone(), vec![self.w.atom_dim(cap)]);
                        self.w.sh.depth.insert(x.clone(), inside);
                    }
                    for ((v, _), x0) in leaf.iter().zip(d0) {
                        self.w.sh.depth.insert(v.clone(), inside);
                        self.w.scalar_types.insert(v.clone(), PrimType::I64);
                        dim_scalars.push((v.clone(), PrimType::I64, x0.clone()));
                    }
                    let fin = grows.then(|| {
                        let fin = self.w.fresh("fin");
                        self.w
                            .shapes
                            .insert(fin.clone(), vec![self.w.atom_dim(cap)]);
                        self.w.bind_depth(&fin);
                        fin
                    });
                    fins.push(fin.clone());
                    leaves_at.push((k, p, r, leaf.clone(), full.clone(), next.clone()));
                    arrays.push(ArrState {
                        var: full,
                        next,
                        out: b.clone(),
                        elem: p,
                        dims: vec![cap.clone()],
                        span,
                        grow: fin,
                        in_place: false,
                    });
                }
            }
        }
        scalars.extend(dim_scalars);
        // The state as the current storage's front at the current dims.
        let state_view = |me: &mut Self,
                          (p, r, leaf): (PrimType, usize, &[(Name, Dim)]),
                          full: &Name,
                          var: Name,
                          out: &mut Vec<Stmt>| {
            let cur: Vec<Atom> = leaf.iter().map(|(v, _)| Atom::Var(v.clone())).collect();
            let count = me.sat_product(&cur, out, span);
            let shape: Vec<Dim> = leaf.iter().map(|(v, _)| Dim::Var(v.clone())).collect();
            let front = me.w.fresh("x");
            me.flat_front(
                full,
                (p, r),
                count,
                (cur, shape),
                [front, var],
                inside,
                out,
                span,
            );
        };
        let form = match kind {
            LoopKind::For(i, n) => LoopForm::For(i, n),
            LoopKind::While(c) => {
                // the condition sees views of its own
                let saved = self.w.vars.get(&state).cloned();
                let mut views = Vec::new();
                for (k, p, r, leaf, full, _) in &leaves_at {
                    let cv = self.w.fresh("sv");
                    state_view(self, (*p, *r, leaf), full, cv.clone(), &mut views);
                    if let Some(l) = self.w.vars.get_mut(&state).and_then(|ls| ls.get_mut(*k)) {
                        l.atom = Atom::Var(cv);
                    }
                }
                let cond = self.body(&c, &[None]);
                if let Some(ls) = saved {
                    self.w.vars.insert(state.clone(), ls);
                }
                let mut cond = cond?;
                views.append(&mut cond.stmts);
                cond.stmts = views;
                // (leaving the condition's scope dropped the loop's names)
                for l in &st_l {
                    if let Some(n) = l.name() {
                        self.w.sh.depth.insert(n.clone(), inside);
                    }
                }
                for (_, _, _, leaf, full, next) in &leaves_at {
                    self.w.sh.depth.insert(full.clone(), inside);
                    self.w.sh.depth.insert(next.clone(), inside);
                    for (v, _) in leaf {
                        self.w.sh.depth.insert(v.clone(), inside);
                    }
                }
                LoopForm::While(cond)
            }
        };
        let mut prefix = Vec::new();
        let mut body_dests: Vec<Option<Name>> = st_l.iter().map(|_| None).collect();
        let mut next_atoms = Vec::new();
        let mut lazy = Vec::new();
        for (li, (k, p, r, leaf, full, next)) in leaves_at.iter().enumerate() {
            let var = st_l
                .get(*k)
                .and_then(|l| l.name())
                .cloned()
                .unwrap_or_default();
            state_view(self, (*p, *r, leaf), full, var, &mut prefix);
            // the destination: the other storage's front at the next dims
            let mut nd = Vec::new();
            let mut nshape = Vec::new();
            for (_, f) in leaf {
                let c = Dim::Max(Box::new(f.clone()), Box::new(Dim::Const(0)));
                nd.push(self.emit_dim(&c, &mut prefix, span));
                nshape.push(f.clone());
            }
            let ncount = self.sat_product(&nd, &mut prefix, span);
            // the next state's view, bound where the body first writes it
            let (front, nv) = (self.w.fresh("x"), self.w.fresh("nx"));
            let hint = hints.get(li).cloned().flatten();
            self.lazy_grow.insert(
                nv.clone(),
                (
                    next.clone(),
                    ncount.clone(),
                    *p,
                    *r,
                    span,
                    hint,
                    Some((front.clone(), nd.clone())),
                ),
            );
            self.w
                .shapes
                .insert(front.clone(), vec![self.w.atom_dim(&ncount)]);
            self.w.shapes.insert(nv.clone(), nshape);
            self.w.sh.depth.insert(front, inside);
            self.w.sh.depth.insert(nv.clone(), inside);
            lazy.push(nv.clone());
            next_atoms.extend(nd);
            if let Some(slot) = body_dests.get_mut(*k) {
                *slot = Some(nv);
            }
        }
        let blk = self.body(&body, &body_dests);
        for nv in &lazy {
            self.lazy_grow.remove(nv);
        }
        let mut blk = blk?;
        prefix.append(&mut blk.stmts);
        blk.stmts = prefix;
        blk.results.extend(next_atoms);
        let outs = self.outs_for(flat);
        let mut all_outs = outs.clone();
        let mut finals = Vec::new();
        for leaf in &steps {
            let mut f = Vec::new();
            for _ in leaf {
                let o = self.w.fresh("dim");
                self.w.bind_depth(&o);
                self.w.scalar_types.insert(o.clone(), PrimType::I64);
                all_outs.push((o.clone(), PrimType::I64));
                f.push(o);
            }
            finals.push(f);
        }
        inner.push(Stmt::Loop {
            outs: all_outs,
            scalars,
            arrays,
            form,
            body: blk,
        });
        // `y`: each final storage's front at the final dims
        let mut views = Vec::new();
        let mut ai = 0;
        for (t, _) in flat {
            let DType::Array(p, r) = t else {
                views.push(None);
                continue;
            };
            let (Some(fin), Some(b)) = (finals.get(ai), outs_buf.get(ai)) else {
                return error(span, "internal error: loop leaves", "please report this");
            };
            let storage = fins.get(ai).cloned().flatten().unwrap_or_else(|| b.clone());
            let mut dims = Vec::new();
            let mut shape = Vec::new();
            for (k, o) in fin.iter().enumerate() {
                let name = loop_dim(&s.var, ai, k);
                inner.push(Stmt::Let {
                    var: name.clone(),
                    ty: PrimType::I64,
                    exp: SExp::Atom(Atom::Var(o.clone())),
                    span,
                });
                self.w.bind_depth(&name);
                self.w.scalar_types.insert(name.clone(), PrimType::I64);
                dims.push(Atom::Var(name.clone()));
                shape.push(Dim::Var(name));
            }
            ai += 1;
            let count = self.sat_product(&dims, &mut inner, span);
            let names = [self.w.fresh("x"), self.w.fresh("y")];
            let v = self.flat_front(
                &storage,
                (*p, *r),
                count,
                (dims, shape),
                names,
                self.w.sh.cur,
                &mut inner,
                span,
            );
            views.push(Some(v));
        }
        let scalar_outs: Vec<Atom> = outs.into_iter().map(|(n, _)| Atom::Var(n)).collect();
        self.bind_leaves(s, flat, &views, &scalar_outs);
        Ok((bufs, inner))
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_into(
        &mut self,
        s: &core::Stmt,
        state: &Name,
        st_ty: &Type,
        init: &Atom,
        form: LoopKind,
        body: &core::Body,
        dests: &[Option<Name>],
        out: &mut Vec<Stmt>,
        growth: &[Option<(Name, Dim, Atom, GrowMode)>],
        finals: &mut Vec<(Atom, Option<Name>)>,
    ) -> R<Vec<Atom>> {
        let span = s.span;
        let mut fins = Vec::new();
        let flat = self.w.flat(&s.ty, span)?;
        let init_l = self.w.leaves(init, span)?;
        // The state's shape is the initial value's (F-tilde rule S-Reduce),
        // except the outer length of a leaf that grows or shrinks (`growth`,
        // see `loop_stmt`): its buffers have the largest length, and the loop
        // carries the length as a scalar.
        let mut arrays = Vec::new();
        let mut scalars = Vec::new();
        let st_l = self.w.bind_param(state, st_ty, span)?;
        let mut body_dests = Vec::new();
        let mut prefix = Vec::new();
        let mut lens = Vec::new();
        let mut modes = Vec::new();
        let mut ai = 0;
        for (k, (l, il)) in st_l.iter().zip(&init_l).enumerate() {
            match l.ty {
                DType::Scalar(p) => {
                    scalars.push((l.name().cloned().unwrap_or_default(), p, il.atom.clone()));
                    body_dests.push(None);
                }
                DType::Array(p, r) if growth.get(ai).is_some_and(Option::is_some) => {
                    let Some(Some((len, f, len0, mode))) = growth.get(ai).cloned() else {
                        continue;
                    };
                    let grows_in_loop = true;
                    ai += 1;
                    let d = dests.get(k).cloned().flatten().unwrap_or_default();
                    let ish = self.w.shape(il, span)?;
                    let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                    // the initial value into the first len0 rows
                    let v0 = self.w.fresh("x");
                    out.push(Stmt::View {
                        var: v0.clone(),
                        elem: p,
                        rank: r,
                        view: View::Slice(d.clone(), Atom::Const(Const::I64(0)), len0.clone()),
                        span,
                    });
                    let mut v0sh = dsh.clone();
                    if let Some(x) = v0sh.first_mut() {
                        *x = self.w.atom_dim(&len0);
                    }
                    self.w.shapes.insert(v0.clone(), v0sh.clone());
                    self.w.bind_depth(&v0);
                    self.guard(&ish, &v0sh, "the loop", None, out, span)?;
                    if il.name() != Some(&v0) {
                        out.push(Stmt::Copy {
                            dest: v0,
                            src: il.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                    let mut dims = Vec::new();
                    for dd in &dsh {
                        let rd = self.w.resolve_here(dd, span)?;
                        dims.push(self.emit_dim(&rd, out, span));
                    }
                    // the whole buffers, and in the body views of the current
                    // length (the state) and of the next (the destination)
                    let var = l.name().cloned().unwrap_or_default();
                    let full = self.w.fresh("st");
                    let next = self.w.fresh("nx");
                    self.w.shapes.insert(full.clone(), dsh.clone());
                    self.w.shapes.insert(next.clone(), dsh.clone());
                    self.w.sh.depth.insert(full.clone(), self.w.sh.cur + 1);
                    self.w.sh.depth.insert(next.clone(), self.w.sh.cur + 1);
                    self.w.sh.depth.insert(len.clone(), self.w.sh.cur + 1);
                    self.w.scalar_types.insert(len.clone(), PrimType::I64);
                    modes.push(mode);
                    lens.push((
                        k,
                        len.clone(),
                        len0.clone(),
                        f,
                        full.clone(),
                        next.clone(),
                        p,
                        r,
                        var,
                        dsh.clone(),
                    ));
                    // (a `while` loop: the final state's storage, bound after it)
                    let grow = grows_in_loop.then(|| {
                        let fin = self.w.fresh("fin");
                        self.w.shapes.insert(fin.clone(), dsh.clone());
                        self.w.bind_depth(&fin);
                        fin
                    });
                    fins.push(grow.clone());
                    arrays.push(ArrState {
                        var: full,
                        next,
                        out: d,
                        elem: p,
                        dims,
                        span,
                        grow,
                        in_place: false,
                    });
                    body_dests.push(None);
                }
                DType::Array(p, _) => {
                    ai += 1;
                    let d = dests.get(k).cloned().flatten().unwrap_or_default();
                    let ish = self.w.shape(il, span)?;
                    let dsh = self.w.shapes.get(&d).cloned().unwrap_or_default();
                    self.guard(&ish, &dsh, "the loop", Some(&d), out, span)?;
                    if il.name() != Some(&d) {
                        out.push(Stmt::Copy {
                            dest: d.clone(),
                            src: il.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                    let mut dims = Vec::new();
                    for dd in &dsh {
                        let rd = self.w.resolve_here(dd, span)?;
                        dims.push(self.emit_dim(&rd, out, span));
                    }
                    let var = l.name().cloned().unwrap_or_default();
                    let next = self.w.fresh("nx");
                    self.w.shapes.insert(var.clone(), dsh.clone());
                    self.w.shapes.insert(next.clone(), dsh.clone());
                    self.w.sh.depth.insert(next.clone(), self.w.sh.cur + 1);
                    body_dests.push(Some(next.clone()));
                    arrays.push(ArrState {
                        var,
                        next,
                        out: d,
                        elem: p,
                        dims,
                        span,
                        grow: None,
                        in_place: false,
                    });
                }
            }
        }
        let form = match form {
            LoopKind::For(i, n) => {
                self.w.bind_param(&i, &Type::I64, span)?;
                LoopForm::For(i, n)
            }
            LoopKind::While(c) => {
                // A growing leaf: the condition sees a view of the state's
                // current length (the body makes its own, below).
                let mut views = Vec::new();
                let saved = self.w.vars.get(state).cloned();
                for (k, len, _, _, full, _, p, r, _, dsh) in &lens {
                    let cv = self.w.fresh("sv");
                    views.push(Stmt::View {
                        var: cv.clone(),
                        elem: *p,
                        rank: *r,
                        view: View::Slice(
                            full.clone(),
                            Atom::Const(Const::I64(0)),
                            Atom::Var(len.clone()),
                        ),
                        span,
                    });
                    let mut sh = vec![Dim::Var(len.clone())];
                    sh.extend(dsh.iter().skip(1).cloned());
                    self.w.shapes.insert(cv.clone(), sh);
                    self.w.sh.depth.insert(cv.clone(), self.w.sh.cur + 1);
                    if let Some(l) = self.w.vars.get_mut(state).and_then(|ls| ls.get_mut(*k)) {
                        l.atom = Atom::Var(cv);
                    }
                }
                let mut cond = self.body(&c, &[None])?;
                if let Some(ls) = saved {
                    self.w.vars.insert(state.clone(), ls);
                }
                views.append(&mut cond.stmts);
                cond.stmts = views;
                // Leaving the condition's scope dropped the state's names: the
                // body sees the state too.
                for l in &st_l {
                    if let Some(n) = l.name() {
                        self.w.sh.depth.insert(n.clone(), self.w.sh.cur + 1);
                    }
                }
                for st in &arrays {
                    self.w.sh.depth.insert(st.next.clone(), self.w.sh.cur + 1);
                    self.w.sh.depth.insert(st.var.clone(), self.w.sh.cur + 1);
                }
                for (_, len, ..) in &lens {
                    self.w.sh.depth.insert(len.clone(), self.w.sh.cur + 1);
                }
                LoopForm::While(cond)
            }
        };
        // A growing leaf: the state is a view of its current length, the
        // destination a view of the next (F: sizes only; a negative length is
        // the body's own error, before it writes).
        let mut next_lens = Vec::new();
        let n_scalars = scalars.len();
        let mut bounded = Vec::new();
        for ((k, len, len0, f, full, next, p, r, var, dsh), mode) in lens.into_iter().zip(&modes) {
            let mut sh = vec![Dim::Var(len.clone())];
            sh.extend(dsh.iter().skip(1).cloned());
            self.w.shapes.insert(var.clone(), sh);
            prefix.push(Stmt::View {
                var,
                elem: p,
                rank: r,
                view: View::Slice(full, Atom::Const(Const::I64(0)), Atom::Var(len.clone())),
                span,
            });
            let (nl, nlc) = match &f {
                // (no bound: the body says; `nlc` names it for `define_grown`)
                Dim::Var(u) if self.w.unbounded.contains_key(u) => {
                    (Atom::Const(Const::I64(0)), Atom::Var(u.clone()))
                }
                _ => {
                    let nl = self.emit_dim(&f, &mut prefix, span);
                    let nlc = Dim::Max(Box::new(self.w.atom_dim(&nl)), Box::new(Dim::Const(0)));
                    (nl.clone(), self.emit_dim(&nlc, &mut prefix, span))
                }
            };
            let by_body = *mode == GrowMode::Bounded;
            let nv = self.w.fresh("nx");
            let hint = match mode {
                GrowMode::Sliced(cap) => Some(cap.clone()),
                _ => None,
            };
            self.lazy_grow
                .insert(nv.clone(), (next, nlc.clone(), p, r, span, hint, None));
            // (bounded: `nl` is the bound; the body writes the first rows of
            // `nv` as of an existential destination and passes their number)
            let mut nsh = vec![if by_body { self.w.atom_dim(&nlc) } else { f }];
            nsh.extend(dsh.iter().skip(1).cloned());
            self.w.shapes.insert(nv.clone(), nsh);
            self.w.sh.depth.insert(nv.clone(), self.w.sh.cur + 1);
            if by_body {
                self.exist_dests.insert(nv.clone());
                bounded.push(nv.clone());
            }
            if let Some(slot) = body_dests.get_mut(k) {
                *slot = Some(nv);
            }
            scalars.push((len, PrimType::I64, len0));
            next_lens.push((nl, by_body));
        }
        // (S-Reduce): the body must return the same shape.
        let after = self.w.shape_of_body_result(body)?;
        let mut ai = 0;
        for (l, il) in st_l.iter().zip(&init_l) {
            if let DType::Array(..) = l.ty
                && growth.get(ai).is_some_and(Option::is_some)
            {
                ai += 1;
                continue;
            }
            if let DType::Array(..) = l.ty {
                let before = self.w.shape(il, span)?;
                if let Some(a) = after.get(ai)
                    && !self.w.sh.same_shape(&before, a)
                {
                    return error(
                        span,
                        format!(
                            "the state of this loop changes shape: it starts as {} and an iteration returns {}",
                            self.w.show_shape(&before),
                            self.w.show_shape(a)
                        ),
                        "Weir reuses the state's storage across iterations, so its shape must stay the same (F-tilde rule S-Reduce); or run with --interp",
                    );
                }
                ai += 1;
            }
        }
        let hit = self.unbounded_hit.take();
        let blk = self.body(body, &body_dests);
        for nv in &bounded {
            self.exist_dests.remove(nv);
        }
        for nv in body_dests.iter().flatten() {
            self.lazy_grow.remove(nv);
        }
        if let Some(e) = std::mem::replace(&mut self.unbounded_hit, hit) {
            return Err(e);
        }
        let mut blk = blk?;
        prefix.append(&mut blk.stmts);
        blk.stmts = prefix;
        // the next lengths: `F`, or what the body wrote (after its scalars)
        let mut sizes = blk.results.split_off(n_scalars.min(blk.results.len()));
        sizes.reverse();
        for (nl, by_body) in &next_lens {
            let x = if *by_body {
                sizes.pop()
            } else {
                Some(nl.clone())
            };
            let Some(x) = x else {
                return error(span, "internal error: loop sizes", "please report this");
            };
            blk.results.push(x);
        }
        let outs = self.outs_for(&flat);
        let mut all_outs = outs.clone();
        for (k, _) in next_lens.iter().enumerate() {
            let o = self.w.fresh("len");
            self.w.bind_depth(&o);
            self.w.scalar_types.insert(o.clone(), PrimType::I64);
            finals.push((Atom::Var(o.clone()), fins.get(k).cloned().flatten()));
            all_outs.push((o, PrimType::I64));
        }
        out.push(Stmt::Loop {
            outs: all_outs,
            scalars,
            arrays,
            form,
            body: blk,
        });
        Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
    }
}

/// A loop's next state grown where the body first writes it
/// ([`FunTr::lazy_grow`]).
type LazyGrow = (
    Name,
    Atom,
    PrimType,
    usize,
    Span,
    Option<Atom>,
    Option<(Name, Vec<Atom>)>,
);

/// How the storage of a loop's array leaf that changes length is sized.
#[derive(Clone, Debug, PartialEq)]
enum GrowMode {
    /// Grown in the loop to each next length `F` (from sizes), the first time
    /// to a `for` loop's largest length, computed before it by the shape
    /// slice, where memory allows.
    Sliced(Atom),
    /// Grown in the loop to each next length `F` (from sizes).
    Exact,
    /// Grown in the loop to an upper bound of the next length; the body
    /// writes the first rows and says how many.
    Bounded,
}

enum LoopKind {
    For(Name, Atom),
    While(core::Body),
}

fn unreachable_exp<T>(span: Span) -> R<T> {
    error(
        span,
        "internal error: unexpected expression",
        "please report this",
    )
}
