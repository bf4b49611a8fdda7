//! The DPS translation (dps-ftilde §3.2, Fig. 6) together with the shape
//! translation (Fig. 7) it relies on.
//!
//! Input: the optimized core IR (first-order; `build`/`ifold`/`ireduce`, loops and
//! a few kept primitives). Output: a [`crate::ir::Program`] in which every
//! array-returning function takes its destinations first and every intermediate
//! array lives in an `alloc` scope whose size was computed, before its values,
//! from shapes only.
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
//!   whose array state changes shape, is rejected with both shapes in the message.
//!
//! Where a shape cannot be proved equal to the destination it is written into, an
//! explicit run-time [`Stmt::Check`] guards the write.

use crate::ir::*;
use crate::shape::{Dim, same};
use std::collections::HashMap;
use weir_ir::{self as core, Builtin, Size, Type};

/// A translation error (the construct is outside what the C backend compiles).
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub span: Span,
    pub message: String,
    pub help: String,
}

type R<T> = Result<T, Error>;

fn error<T>(span: Span, message: impl Into<String>, help: impl Into<String>) -> R<T> {
    Err(Error {
        span,
        message: message.into(),
        help: help.into(),
    })
}

/// One flattened component of a core value.
#[derive(Clone, Debug, PartialEq)]
struct Leaf {
    atom: Atom,
    ty: DType,
}

impl Leaf {
    fn name(&self) -> Option<&Name> {
        match &self.atom {
            Atom::Var(v) => Some(v),
            Atom::Const(_) => None,
        }
    }
}

/// Leaf types of a core type, with their sizes (outer dimension first).
fn flat_type(t: &Type) -> Option<Vec<(DType, Vec<Size>)>> {
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
        Type::Fun(..) | Type::Infer(_) => None,
    }
}

/// The callee information a call site needs.
#[derive(Clone, Debug)]
struct Sig {
    params: Vec<Param>,
    dests: Vec<DestParam>,
}

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
    let mut sigs: HashMap<Name, Sig> = HashMap::new();
    let mut errors = Vec::new();
    // Callees come before callers in the core program (no recursion).
    for d in &prog.defs {
        match FunTr::new(&sigs, d).and_then(|t| t.run(d)) {
            Ok(f) => {
                sigs.insert(
                    f.name.clone(),
                    Sig {
                        params: f.params.clone(),
                        dests: f.dests.clone(),
                    },
                );
                out.funs.push(f);
            }
            Err(e) => errors.push((d.name.clone(), e)),
        }
    }
    (out, errors)
}

struct FunTr<'a> {
    sigs: &'a HashMap<Name, Sig>,
    /// Core variable → its leaves.
    vars: HashMap<Name, Vec<Leaf>>,
    /// Core variable → its core type.
    types: HashMap<Name, Type>,
    /// DPS array variable → shape.
    shapes: HashMap<Name, Vec<Dim>>,
    /// `i64` scalar → its definition as a shape expression (for expansion).
    defs: HashMap<Name, Dim>,
    /// DPS variable → nesting depth of its binding.
    depth: HashMap<Name, usize>,
    cur: usize,
    fresh: usize,
    /// Types of scalar variables introduced by the translation.
    scalar_types: HashMap<Name, PrimType>,
    /// Where each size parameter is read from (a dim of an array parameter).
    size_home: HashMap<Name, Dim>,
    /// Sizes computed by constructs, in terms of the parameters, with the
    /// construct's location (first one wins): the locations the shape function
    /// reports a negative or overflowing size at.
    origins: Vec<(Dim, Span)>,
    /// The function's result destinations: for each dim, the size its
    /// declared type names (checked with the interpreter's message).
    result_sizes: HashMap<Name, Vec<Option<String>>>,
    fun_name: Name,
    entry: bool,
    /// Results already guarded by a [`Guard::DestReady`] on this path.
    ready: std::collections::HashSet<Name>,
}

impl<'a> FunTr<'a> {
    fn new(sigs: &'a HashMap<Name, Sig>, _d: &core::FunDef) -> R<FunTr<'a>> {
        Ok(FunTr {
            sigs,
            vars: HashMap::new(),
            types: HashMap::new(),
            shapes: HashMap::new(),
            defs: HashMap::new(),
            depth: HashMap::new(),
            cur: 0,
            fresh: 0,
            scalar_types: HashMap::new(),
            size_home: HashMap::new(),
            origins: Vec::new(),
            result_sizes: HashMap::new(),
            fun_name: _d.name.clone(),
            entry: _d.entry,
            ready: Default::default(),
        })
    }

    fn fresh(&mut self, base: &str) -> Name {
        self.fresh += 1;
        format!("{base}{}", self.fresh)
    }

    fn bind_depth(&mut self, n: &Name) {
        self.depth.insert(n.clone(), self.cur);
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
            self.types.insert(p.clone(), t.clone());
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
                self.bind_depth(&name);
                if let DType::Array(..) = ty {
                    let mut shape = Vec::new();
                    for (j, sz) in sizes.iter().enumerate() {
                        let here = Dim::DimOf(name.clone(), j);
                        match sz {
                            Size::Var(n) if d.size_params.contains(n) => {
                                if let Some(prev) = size_home.get(n) {
                                    // A repeated size parameter: check it.
                                    let got = self.fresh("s");
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
                                    self.bind_depth(n);
                                    self.defs.insert(n.clone(), here.clone());
                                    self.scalar_types.insert(n.clone(), PrimType::I64);
                                    self.vars.insert(
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
                                let got = self.fresh("s");
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
                    self.shapes.insert(name.clone(), shape);
                }
                ls.push(Leaf {
                    atom: Atom::Var(name),
                    ty: *ty,
                });
            }
            self.vars.insert(p.clone(), ls);
        }
        // Size parameters that only appear in scalar positions are bound by
        // their home; scalar i64 params are shape leaves themselves.
        self.size_home = size_home.clone();
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
        // Declared result sizes checked after the body: (destination, dimension,
        // declared size in terms of the parameters, its name in the type).
        let mut deferred: Vec<(usize, usize, Dim, Size)> = Vec::new();
        let structural = self.shape_of_body_result(&d.body)?;
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
                            .and_then(|s| self.expand_to_params(s, &size_home).ok());
                        let dim = match from_type {
                            Some(x) => match body_dim {
                                Some(b) if !crate::shape::same_dim(&b, &x) => {
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
                                self.expand_to_params(s, &size_home).map_err(|v| Error {
                                    span: d.span,
                                    message: format!(
                                        "the result shape of `{}` depends on {}, a value computed inside it",
                                        d.name,
                                        size_name(&v)
                                    ),
                                    help: if v.ends_with("_count") {
                                        "a function cannot return a filtered array to compiled code yet (its caller allocates the result before the call); use it inside the function, or run with --interp".into()
                                    } else {
                                        "Weir compiles a function in destination-passing style: its caller must know the result's shape from the arguments' shapes alone (F-tilde's restriction). Declare the result sizes with size parameters, or run with --interp".into()
                                    },
                                })?
                            }
                        };
                        spans.push(self.origin_of(&dim).unwrap_or(d.span));
                        declared.push(match sz {
                            Size::Const(c) => Some(c.to_string()),
                            Size::Var(n) => Some(n.clone()),
                            _ => None,
                        });
                        shape.push(dim);
                    }
                    let name = self.fresh("out");
                    self.result_sizes.insert(name.clone(), declared);
                    results.push(ResultPart::Dest(dests.len()));
                    dests.push(DestParam {
                        name,
                        elem: *p,
                        shape,
                        spans,
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
        let mut dest_names = Vec::new();
        for dp in &dests {
            let shape: Vec<Dim> = dp.shape.iter().map(in_body).collect();
            self.shapes.insert(dp.name.clone(), shape);
            self.bind_depth(&dp.name);
            dest_names.push(Some(dp.name.clone()));
        }
        // Results map onto destinations (scalar parts stay results).
        let mut slots = Vec::new();
        let mut di = 0;
        for r in &results {
            match r {
                ResultPart::Scalar(_) => slots.push(None),
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

    /// Remember that the construct at `span` computes the size `d` (when it can
    /// be said in terms of the parameters).
    fn record_origin(&mut self, d: &Dim, span: Span) {
        let Ok(e) = self.expand_to_params(d, &self.size_home) else {
            return;
        };
        if self.origin_of(&e).is_some() {
            return;
        }
        self.origins.push((e, span));
    }

    /// The construct that computes the size `d` (in terms of the parameters).
    fn origin_of(&self, d: &Dim) -> Option<Span> {
        self.origins
            .iter()
            .find(|(o, _)| crate::shape::same_dim(o, d))
            .map(|(_, s)| *s)
    }

    /// `d` in terms of variables in scope here; an error if it depends on a
    /// value that is only known after the array is computed.
    fn resolve_here(&self, d: &Dim, span: Span) -> R<Dim> {
        self.resolve(d, self.cur).map_err(|bad| Error {
            span,
            message: format!(
                "the shape of this array depends on {}, which is not known before the array is computed",
                size_name(&bad)
            ),
            help: "Weir allocates every array before computing it (destination-passing style); data-dependent shapes are not supported by the C backend yet; run with --interp".into(),
        })
    }

    /// Is the size `a` non-negative whatever the inputs (a constant, a dim)?
    fn provably_nonneg(&self, a: &Atom) -> bool {
        matches!(
            self.expand(&self.atom_dim(a)).simplify(),
            Dim::Const(c) if c >= 0
        ) || matches!(self.expand(&self.atom_dim(a)).simplify(), Dim::DimOf(..))
    }

    /// Before the first write into an entry's result `d`: it must have been
    /// allocated (see [`Guard::DestReady`]).
    fn dest_ready(&mut self, d: &Name, out: &mut Vec<Stmt>, span: Span) {
        if self.entry && self.result_sizes.contains_key(d) && self.ready.insert(d.clone()) {
            out.push(Stmt::Guard {
                guard: Guard::DestReady { dest: d.clone() },
                span,
            });
        }
    }

    /// Leave a block: the names bound in it go out of scope (a shape that
    /// mentions them is expanded through their definitions from now on).
    fn leave_scope(&mut self) {
        self.cur -= 1;
        let c = self.cur;
        self.depth.retain(|_, d| *d <= c);
    }

    /// Rewrite the variable leaves of `d` as `decide` says; `Expand` replaces a
    /// variable by its definition (recursively) and fails with its name if it has none.
    fn expand_by(&self, d: &Dim, decide: &dyn Fn(&Dim) -> LeafRule) -> Result<Dim, Name> {
        let mut bad = None;
        let r = d.map_leaves(&mut |l| {
            let name = match l {
                Dim::Var(v) | Dim::DimOf(v, _) => v,
                _ => return None,
            };
            match decide(l) {
                LeafRule::Keep => Some(l.clone()),
                LeafRule::Replace(x) => Some(x),
                LeafRule::Expand => match (l, self.defs.get(name)) {
                    (Dim::Var(_), Some(def)) => match self.expand_by(def, decide) {
                        Ok(x) => Some(x),
                        Err(b) => {
                            bad = Some(b);
                            Some(l.clone())
                        }
                    },
                    _ => {
                        bad = Some(name.clone());
                        Some(l.clone())
                    }
                },
            }
        });
        bad.map_or(Ok(r), Err)
    }

    /// Expand a shape so that it only mentions parameters (for result templates).
    fn expand_to_params(&self, d: &Dim, homes: &HashMap<Name, Dim>) -> Result<Dim, Name> {
        self.expand_by(d, &|l| match l {
            Dim::Var(v) => match homes.get(v) {
                Some(h) => LeafRule::Replace(h.clone()),
                None if self.depth.get(v) == Some(&0) && !self.defs.contains_key(v) => {
                    LeafRule::Keep
                }
                None => LeafRule::Expand,
            },
            _ => LeafRule::Keep,
        })
        .map(|r| r.simplify())
    }

    /// Expand local variables (bound deeper than `max`) into their definitions.
    fn resolve(&self, d: &Dim, max: usize) -> Result<Dim, Name> {
        self.expand_by(d, &|l| match l {
            Dim::Var(v) | Dim::DimOf(v, _) if self.depth.get(v).is_some_and(|x| *x <= max) => {
                LeafRule::Keep
            }
            _ => LeafRule::Expand,
        })
    }

    /// Fully expanded (for equality tests).
    fn expand(&self, d: &Dim) -> Dim {
        d.map_leaves(&mut |l| match l {
            Dim::Var(v) => self.defs.get(v).map(|def| self.expand(def)),
            _ => None,
        })
    }

    fn same_shape(&self, a: &[Dim], b: &[Dim]) -> bool {
        let ea: Vec<Dim> = a.iter().map(|d| self.expand(d)).collect();
        let eb: Vec<Dim> = b.iter().map(|d| self.expand(d)).collect();
        same(&ea, &eb)
    }

    /// A shape for messages: parameters and sizes by their source names.
    fn show_shape(&self, s: &[Dim]) -> String {
        fn show(d: &Dim) -> String {
            match d {
                Dim::Const(c) => c.to_string(),
                Dim::Var(v) => core::display_name(v).to_string(),
                Dim::DimOf(a, 0) => format!("length {}", core::display_name(a)),
                Dim::DimOf(a, k) => format!("dim {k} of {}", core::display_name(a)),
                Dim::Add(a, b) => format!("{} + {}", show(a), show(b)),
                Dim::Sub(a, b) => format!("{} - {}", show(a), show(b)),
                Dim::Mul(a, b) => format!("{} * {}", show(a), show(b)),
                Dim::Div(a, b) => format!("{} / {}", show(a), show(b)),
                Dim::Max(a, b) => format!("max {} {}", show(a), show(b)),
                Dim::Min(a, b) => format!("min {} {}", show(a), show(b)),
            }
        }
        let parts: Vec<String> = s
            .iter()
            .map(|d| {
                let r = self.resolve(d, 0).unwrap_or_else(|_| self.expand(d));
                show(&r.simplify())
            })
            .collect();
        format!("[{}]", parts.join(", "))
    }

    fn atom_dim(&self, a: &Atom) -> Dim {
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

    fn leaves(&self, a: &Atom, span: Span) -> R<Vec<Leaf>> {
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

    fn shape(&self, leaf: &Leaf, span: Span) -> R<Vec<Dim>> {
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

    /// Emit statements computing `d` and return it as an atom.
    fn emit_dim(&mut self, d: &Dim, out: &mut Vec<Stmt>, span: Span) -> Atom {
        let d = d.simplify();
        match &d {
            Dim::Const(c) => Atom::Const(Const::I64(*c)),
            Dim::Var(v) => Atom::Var(v.clone()),
            Dim::DimOf(a, k) => {
                let t = self.fresh("s");
                out.push(Stmt::Let {
                    var: t.clone(),
                    ty: PrimType::I64,
                    exp: SExp::Dim(a.clone(), *k),
                    span,
                });
                self.bind_depth(&t);
                Atom::Var(t)
            }
            Dim::Add(a, b)
            | Dim::Sub(a, b)
            | Dim::Mul(a, b)
            | Dim::Div(a, b)
            | Dim::Max(a, b)
            | Dim::Min(a, b) => {
                let x = self.emit_dim(a, out, span);
                let y = self.emit_dim(b, out, span);
                let t = self.fresh("s");
                let exp = match &d {
                    Dim::Add(..) => SExp::Bin(BinOp::Add, x, y),
                    Dim::Sub(..) => SExp::Bin(BinOp::Sub, x, y),
                    Dim::Mul(..) => SExp::Bin(BinOp::Mul, x, y),
                    // Shape arithmetic never fails: a division by zero is
                    // reported where the program's own division is evaluated.
                    Dim::Div(..) => SExp::DivOr0(x, y),
                    Dim::Max(..) => SExp::Math(MathFn::Max, vec![x, y]),
                    _ => SExp::Math(MathFn::Min, vec![x, y]),
                };
                out.push(Stmt::Let {
                    var: t.clone(),
                    ty: PrimType::I64,
                    exp,
                    span,
                });
                self.bind_depth(&t);
                Atom::Var(t)
            }
        }
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
        for (j, (g, w)) in got.iter().zip(want).enumerate() {
            if self.same_shape(std::slice::from_ref(g), std::slice::from_ref(w)) {
                continue;
            }
            // A write whose shape cannot be checked is not compiled.
            let g = self.resolve_here(g, span)?;
            let w = self.resolve_here(w, span)?;
            let ga = self.emit_dim(&g, out, span);
            let wa = self.emit_dim(&w, out, span);
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

    /// Shapes of the array leaves of a body's result (the body is walked
    /// symbolically; its local definitions are recorded for expansion).
    fn shape_of_body_result(&mut self, b: &core::Body) -> R<Vec<Vec<Dim>>> {
        // Walk in a scratch copy of the environment.
        let saved = (
            self.vars.clone(),
            self.types.clone(),
            self.shapes.clone(),
            self.depth.clone(),
        );
        self.cur += 1;
        let r = (|| {
            for s in &b.stmts {
                self.shape_bind(s)?;
            }
            let ls = self.leaves(&b.result, Span::default())?;
            let mut v = Vec::new();
            for l in ls.iter().filter(|l| matches!(l.ty, DType::Array(..))) {
                v.push(self.shape(l, Span::default())?);
            }
            Ok(v)
        })();
        self.cur -= 1;
        (self.vars, self.types, self.shapes, self.depth) = saved;
        r
    }

    /// Bind a statement's variable symbolically (shapes and scalar definitions only).
    fn shape_bind(&mut self, s: &core::Stmt) -> R<()> {
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

    fn flat(&self, t: &Type, span: Span) -> R<Vec<(DType, Vec<Size>)>> {
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
    fn record_defs(&mut self, s: &core::Stmt) {
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
            core::Exp::Dim(..) | core::Exp::Prim(Builtin::Length, _) => {
                let (a, k) = match &s.exp {
                    core::Exp::Dim(a, k) => (a.clone(), *k),
                    core::Exp::Prim(_, args) => match args.first() {
                        Some(core::Arg::Atom(a)) => (a.clone(), 0),
                        _ => return,
                    },
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
            }
            core::Exp::CheckSize(c) => Some(self.atom_dim(&c.got)),
            core::Exp::Check(c) => c.args.first().map(|a| self.atom_dim(a)),
            _ => None,
        };
        if let Some(d) = d {
            self.defs.insert(s.var.clone(), d);
        }
    }

    fn array_leaf_shapes(&self, a: &Atom, span: Span) -> R<Vec<Vec<Dim>>> {
        let mut v = Vec::new();
        for l in self.leaves(a, span)? {
            if let DType::Array(..) = l.ty {
                v.push(self.shape(&l, span)?);
            }
        }
        Ok(v)
    }

    /// The shapes of the array leaves of the value of `s.exp`.
    fn shape_exp(&mut self, s: &core::Stmt) -> R<Vec<Vec<Dim>>> {
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
        let arg = |args: &[core::Arg], k: usize| -> R<Atom> {
            match args.get(k) {
                Some(core::Arg::Atom(a)) => Ok(a.clone()),
                _ => error(
                    span,
                    "internal error: malformed builtin call",
                    "please report this",
                ),
            }
        };
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
                self.record_origin(&len, span);
                self.array_leaf_shapes(a, span)?
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
                    if self.same_shape(a, b) {
                        v.push(a.clone());
                        continue;
                    }
                    // Rows of the same shape, different lengths: an existential
                    // length, chosen by the branch (see `if_stmt`).
                    if a.len() == b.len()
                        && self.same_shape(&a[1.min(a.len())..], &b[1.min(b.len())..])
                    {
                        let mut x = vec![Dim::Var(if_count(&s.var, j))];
                        x.extend(a.iter().skip(1).cloned());
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
            E::Loop { init, .. } => self.array_leaf_shapes(init, span)?,
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
                for dp in &sig.dests {
                    let mut sh = Vec::new();
                    for (j, d) in dp.shape.iter().enumerate() {
                        let x = self.subst_template(d, &sig.params, &flat_args, span)?;
                        self.record_origin(&x, dp.spans.get(j).copied().unwrap_or(span));
                        sh.push(x);
                    }
                    v.push(sh);
                }
                v
            }
            E::Prim(b, args) => match b {
                Builtin::Build => {
                    let n = self.atom_dim(&arg(args, 0)?);
                    self.record_origin(&n, span);
                    let Some(core::Arg::Fun(core::Fun::Lambda(l))) = args.get(1) else {
                        return error(
                            span,
                            "internal error: build without a lambda",
                            "please report this",
                        );
                    };
                    let (i, _) = lparam(l, 0, span)?;
                    self.depth.insert(i.clone(), self.cur + 1);
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
                    // Element shapes must not depend on the index (rectangular arrays).
                    for sh in &v {
                        for d in sh {
                            if let Err(bad) = self.resolve(d, self.cur) {
                                return error(
                                    span,
                                    format!(
                                        "the size of the rows of this array depends on {}, computed inside the `build`",
                                        size_name(&bad)
                                    ),
                                    "Weir allocates an array before filling it, so its rows' size must be computable outside the loop (F-tilde's shape restriction); or run with --interp",
                                );
                            }
                        }
                    }
                    v
                }
                Builtin::IFold => self.array_leaf_shapes(&arg(args, 1)?, span)?,
                // A scan has its input's shape.
                Builtin::Scan => self.array_leaf_shapes(&arg(args, 2)?, span)?,
                // An existential outer size, known once the filter has run (bound
                // by the statement: see `filter_stmt`).
                Builtin::Filter => {
                    let k = filter_count(&s.var);
                    self.array_leaf_shapes(&arg(args, 1)?, span)?
                        .into_iter()
                        .map(|sh| {
                            let mut v = vec![Dim::Var(k.clone())];
                            v.extend(sh.iter().skip(1).cloned());
                            v
                        })
                        .collect()
                }
                // Writes into a copy of the destination: its shape.
                Builtin::Scatter | Builtin::ReduceByIndex => {
                    self.array_leaf_shapes(&arg(args, 0)?, span)?
                }
                Builtin::Concat => {
                    let a = self.array_leaf_shapes(&arg(args, 0)?, span)?;
                    let b = self.array_leaf_shapes(&arg(args, 1)?, span)?;
                    let mut v = Vec::new();
                    for (mut x, y) in a.into_iter().zip(b) {
                        let total = Dim::plus(outer(&x), outer(&y));
                        self.record_origin(&total, span);
                        if let Some(d) = x.first_mut() {
                            *d = total;
                        }
                        v.push(x);
                    }
                    v
                }
                Builtin::Flatten => {
                    let mut v = Vec::new();
                    for sh in self.array_leaf_shapes(&arg(args, 0)?, span)? {
                        let n = Dim::times(outer(&sh), sh.get(1).cloned().unwrap_or(Dim::Const(1)));
                        self.record_origin(&n, span);
                        let mut x = vec![n];
                        x.extend(sh.iter().skip(2).cloned());
                        v.push(x);
                    }
                    v
                }
                Builtin::Unflatten => {
                    let n = self.atom_dim(&arg(args, 0)?);
                    let m = self.atom_dim(&arg(args, 1)?);
                    self.record_origin(&n, span);
                    self.record_origin(&m, span);
                    self.array_leaf_shapes(&arg(args, 2)?, span)?
                        .into_iter()
                        .map(|sh| {
                            let mut v = vec![n.clone(), m.clone()];
                            v.extend(sh.iter().skip(1).cloned());
                            v
                        })
                        .collect()
                }
                Builtin::Split => {
                    let k = self.atom_dim(&arg(args, 0)?);
                    let sh = self.array_leaf_shapes(&arg(args, 1)?, span)?;
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
                        self.record_origin(&rest, span);
                        if let Some(d) = b.first_mut() {
                            *d = rest;
                        }
                        v.push(b);
                    }
                    self.record_origin(&k, span);
                    v
                }
                _ => self.type_shapes(&s.ty, span)?,
            },
            _ => self.type_shapes(&s.ty, span)?,
        })
    }

    /// Shapes read off a type (when every size is known).
    fn type_shapes(&self, t: &Type, span: Span) -> R<Vec<Vec<Dim>>> {
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

    fn proj_leaves(&self, a: &Atom, k: usize, span: Span) -> R<Vec<Leaf>> {
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

    fn flat_args(&self, args: &[core::Arg], span: Span) -> R<Vec<Leaf>> {
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
    fn subst_template(&self, d: &Dim, params: &[Param], args: &[Leaf], span: Span) -> R<Dim> {
        let mut bad = false;
        let r = d.map_leaves(&mut |l| match l {
            Dim::Var(v) => match params.iter().position(|p| &p.name == v) {
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
            Dim::DimOf(v, k) => match params.iter().position(|p| &p.name == v) {
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

    // ---------------------------------------------------------------------
    // The value translation (Fig. 6).

    /// Translate a body whose result leaves go to `dests` (one slot per leaf:
    /// `Some(dest)` for an array leaf, `None` for a scalar leaf, which becomes a
    /// block result).
    fn body(&mut self, b: &core::Body, dests: &[Option<Name>]) -> R<Block> {
        self.cur += 1;
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
                                .or_else(|| self.vars.get(v).map(|ls| ls.len()))
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
        // A result guarded in this block is not guarded for its siblings.
        let ready = self.ready.clone();
        let r = self.stmts(&b.stmts, &b.result, dests, &direct);
        self.ready = ready;
        self.leave_scope();
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
                (self.fresh("o"), p)
            })
            .collect();
        for (o, p) in &outs {
            self.bind_depth(o);
            self.scalar_types.insert(o.clone(), *p);
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
            let flat = self.flat(&s.ty, s.span)?;
            let has_array = flat.iter().any(|(t, _)| matches!(t, DType::Array(..)));
            if let core::Exp::Prim(Builtin::Filter, args) = &s.exp {
                if direct.contains_key(&s.var) {
                    return error(
                        s.span,
                        "the size of this `filter`'s result is known only after it runs, and it is written straight into storage sized in advance (a function's result, a row of a `build`, a branch of an `if`)",
                        "use the filtered array inside the function (reduce it, map over it, index it); returning it from an entry point is not supported by the C backend yet; or run with --interp",
                    );
                }
                let (bufs, inner) = self.filter_stmt(s, args, &flat, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if let core::Exp::If(c, t, e) = &s.exp
                && has_array
                && !direct.contains_key(&s.var)
                && let shapes = self.shape_exp(s)?
                && shapes.iter().flat_map(|sh| sh.first()).any(
                    |d| matches!(d, Dim::Var(v) if v.starts_with(&format!("{}_ifsize", s.var))),
                )
            {
                let (bufs, inner) = self.if_stmt(s, c, t, e, &flat, &shapes, &mut out)?;
                let rest = self.stmts(&stmts[idx + 1..], result, dests, direct)?;
                return Ok(self.alloc_scope(out, bufs, inner, rest));
            }
            if has_array && needs_storage(&s.exp) {
                // Where does each array leaf go?
                let shapes = self.shape_exp(s)?;
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
                            let mut target = given.and_then(|g| g.get(k).cloned().flatten());
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
                                && !self.same_shape(
                                    &sh,
                                    &self.shapes.get(d).cloned().unwrap_or_default(),
                                )
                                && sh.iter().all(|x| self.resolve_here(x, s.span).is_ok())
                                && self
                                    .expand_to_params(&outer(&sh), &self.size_home.clone())
                                    .is_err()
                            {
                                target = None;
                            }
                            match target {
                                Some(d) => {
                                    self.dest_ready(&d, &mut out, s.span);
                                    let want = self.shapes.get(&d).cloned().unwrap_or_default();
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
                                    let name = self.fresh("b");
                                    let mut dims = Vec::new();
                                    let mut resolved = Vec::new();
                                    for d in &sh {
                                        let rd = self.resolve_here(d, s.span)?;
                                        dims.push(self.emit_dim(&rd, &mut out, s.span));
                                        resolved.push(rd);
                                    }
                                    // The buffer's shape in terms of names in
                                    // scope here (not the construct's locals,
                                    // which a later sibling block cannot see).
                                    self.shapes.insert(name.clone(), resolved);
                                    self.bind_depth(&name);
                                    bufs.push(Buf {
                                        var: name.clone(),
                                        elem: *p,
                                        dims,
                                        span: s.span,
                                        when: vec![],
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
                self.record_defs(s);
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
        let ls = self.leaves(result, Span::default())?;
        let mut results = Vec::new();
        for (l, d) in ls.iter().zip(dests.iter().chain(std::iter::repeat(&None))) {
            match (l.ty, d) {
                (DType::Array(..), Some(d)) => {
                    if l.name() != Some(d) {
                        self.dest_ready(d, &mut out, Span::default());
                        let got = self.shape(l, Span::default())?;
                        let want = self.shapes.get(d).cloned().unwrap_or_default();
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
        Ok(Block {
            stmts: out,
            results,
        })
    }

    fn atom_prim(&self, a: &Atom) -> PrimType {
        match a {
            Atom::Const(c) => c.prim(),
            Atom::Var(v) => self
                .vars
                .get(v)
                .and_then(|l| l.first())
                .map(|l| l.ty.prim())
                .or_else(|| self.scalar_types.get(v).copied())
                .unwrap_or(PrimType::I64),
        }
    }

    /// `let y = if c then t else e` whose branches give arrays that differ in
    /// length only: buffers as long as the longer branch's (both lengths are
    /// known before the `if`), each branch writes into a view of its own length
    /// and passes that length out, and `y` is a view of the first `k` elements,
    /// `k` the existential length (named by [`if_count`]). Returns the buffers
    /// and the statements that fill them and bind `y`; checks go to `pre`.
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
        let st = self.shape_of_body_result(t)?;
        let se = self.shape_of_body_result(e)?;
        let mut bufs = Vec::new();
        // per array leaf: (buffer, then-length, else-length, existential or not)
        let mut leaves = Vec::new();
        for (j, sh) in shapes.iter().enumerate() {
            let (Some(a), Some(b)) = (st.get(j), se.get(j)) else {
                return error(span, "internal error: if shapes", "please report this");
            };
            let exist = matches!(sh.first(), Some(Dim::Var(v)) if *v == if_count(&s.var, j));
            let lt = self.resolve_here(&outer(a), span)?;
            let le = self.resolve_here(&outer(b), span)?;
            // (never negative: a negative length is the taken branch's error)
            let mut dims_d = vec![if exist {
                Dim::Max(
                    Box::new(Dim::Max(Box::new(lt.clone()), Box::new(le.clone()))),
                    Box::new(Dim::Const(0)),
                )
            } else {
                lt.clone()
            }];
            for d in a.iter().skip(1) {
                dims_d.push(self.resolve_here(d, span)?);
            }
            let dims: Vec<Atom> = dims_d.iter().map(|d| self.emit_dim(d, pre, span)).collect();
            let name = self.fresh("b");
            self.shapes.insert(name.clone(), dims_d.clone());
            self.bind_depth(&name);
            let elem = match flat
                .iter()
                .filter(|(t, _)| matches!(t, DType::Array(..)))
                .nth(j)
            {
                Some((t, _)) => t.prim(),
                None => PrimType::F64,
            };
            bufs.push(Buf {
                var: name.clone(),
                elem,
                dims,
                span,
                when: vec![],
            });
            leaves.push((name, lt, le, exist, dims_d));
        }
        // The branches: each writes into views of its own lengths.
        let cond = self.scalar_atom(c);
        let branch = |me: &mut Self, body: &core::Body, then: bool| -> R<Block> {
            let mut views = Vec::new();
            let mut dests = Vec::new();
            let mut sizes = Vec::new();
            let mut ai = 0;
            for (ty, _) in flat {
                match ty {
                    DType::Scalar(_) => dests.push(None),
                    DType::Array(p, r) => {
                        let Some((b, lt, le, exist, dims_d)) = leaves.get(ai) else {
                            return error(span, "internal error: if leaves", "please report this");
                        };
                        ai += 1;
                        if !exist {
                            dests.push(Some(b.clone()));
                            continue;
                        }
                        let len = if then { lt.clone() } else { le.clone() };
                        let v = me.fresh("v");
                        let mut pre_v = Vec::new();
                        // A negative length is the branch's own error, reported by
                        // the construct that computes it (the view never fails; when
                        // the branch completes, its length is not negative).
                        let clamped = Dim::Max(Box::new(len.clone()), Box::new(Dim::Const(0)));
                        let hi = me.emit_dim(&clamped, &mut pre_v, span);
                        views.extend(pre_v);
                        views.push(Stmt::View {
                            var: v.clone(),
                            elem: *p,
                            rank: *r,
                            view: View::Slice(b.clone(), Atom::Const(Const::I64(0)), hi.clone()),
                            span,
                        });
                        let mut vsh = dims_d.clone();
                        if let Some(d0) = vsh.first_mut() {
                            *d0 = len;
                        }
                        me.shapes.insert(v.clone(), vsh);
                        me.bind_depth(&v);
                        dests.push(Some(v));
                        sizes.push(hi);
                    }
                }
            }
            let mut blk = me.body(body, &dests)?;
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
                self.bind_depth(&k);
                self.scalar_types.insert(k.clone(), PrimType::I64);
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
                    let v = self.fresh("f");
                    inner.push(Stmt::View {
                        var: v.clone(),
                        elem: *p,
                        rank: *r,
                        view: View::Slice(
                            b.clone(),
                            Atom::Const(Const::I64(0)),
                            Atom::Var(k.clone()),
                        ),
                        span,
                    });
                    let mut vsh = dims_d.clone();
                    if let Some(d0) = vsh.first_mut() {
                        *d0 = Dim::Var(k);
                    }
                    self.shapes.insert(v.clone(), vsh);
                    self.bind_depth(&v);
                    dests.push(Some(v));
                }
            }
        }
        self.bind_leaves(s, flat, &dests, &scalars);
        Ok((bufs, inner))
    }

    /// `let y = filter p a`: the kept elements are written, in order, to the
    /// front of buffers as long as `a` (an upper bound: the result's size is
    /// known only once the filter has run), counting them; `y` is then a view of
    /// the first `k` elements, `k` the existential size of `y` (named by
    /// [`filter_count`]), in scope for the statements after it. Returns the
    /// buffers and the statements that fill them and bind `y` (the caller puts
    /// them and the rest of the block in one `alloc` scope); checks go to `pre`.
    fn filter_stmt(
        &mut self,
        s: &core::Stmt,
        args: &[core::Arg],
        flat: &[(DType, Vec<Size>)],
        pre: &mut Vec<Stmt>,
    ) -> R<(Vec<Buf>, Vec<Stmt>)> {
        let span = s.span;
        let (Some(core::Arg::Fun(core::Fun::Lambda(f))), Some(core::Arg::Atom(a))) =
            (args.first(), args.get(1))
        else {
            return error(
                span,
                "internal error: malformed filter",
                "please report this",
            );
        };
        let a_l = self.leaves(a, span)?;
        if a_l.iter().any(|l| l.ty.rank() != 1) {
            return error(
                span,
                "a `filter` of an array of arrays is not supported by the C backend yet",
                "filter the indices (`filter p (iota n)`) and `gather` the rows, or run with --interp",
            );
        }
        let Some(first) = a_l.first().cloned() else {
            return error(
                span,
                "internal error: filter of nothing",
                "please report this",
            );
        };
        let ash = self.shape(&first, span)?;
        let n_dim = self.resolve_here(&outer(&ash), span)?;
        let n = self.emit_dim(&n_dim, pre, span);
        // the buffers (as long as the input)
        let mut bufs = Vec::new();
        for l in &a_l {
            let b = self.fresh("b");
            self.shapes.insert(b.clone(), vec![n_dim.clone()]);
            self.bind_depth(&b);
            bufs.push(Buf {
                var: b,
                elem: l.ty.prim(),
                dims: vec![n.clone()],
                span,
                when: vec![],
            });
        }
        // the loop: test each element, store the kept ones at the count
        let i = self.fresh("i");
        self.bind_param(&i, &Type::I64, span)?;
        let c = self.fresh("c");
        self.bind_param(&c, &Type::I64, span)?;
        let (px, tx) = lparam(f, 0, span)?;
        let x_l = self.bind_param(px, tx, span)?;
        let mut body = Vec::new();
        for (x, src) in x_l.iter().zip(&a_l) {
            body.push(Stmt::Let {
                var: x.name().cloned().unwrap_or_default(),
                ty: x.ty.prim(),
                exp: SExp::Load(
                    src.name().cloned().unwrap_or_default(),
                    vec![Atom::Var(i.clone())],
                ),
                span,
            });
        }
        let pred = self.body(&f.body, &[None])?;
        body.extend(pred.stmts);
        let cond = pred
            .results
            .first()
            .cloned()
            .unwrap_or(Atom::Const(Const::Bool(false)));
        let mut then = Vec::new();
        for (x, b) in x_l.iter().zip(&bufs) {
            then.push(Stmt::Store {
                dest: b.var.clone(),
                idx: vec![Atom::Var(c.clone())],
                val: Atom::Var(x.name().cloned().unwrap_or_default()),
                span,
            });
        }
        let c1 = self.fresh("c");
        then.push(Stmt::Let {
            var: c1.clone(),
            ty: PrimType::I64,
            exp: SExp::Bin(BinOp::Add, Atom::Var(c.clone()), Atom::Const(Const::I64(1))),
            span,
        });
        let c2 = self.fresh("c");
        body.push(Stmt::If {
            outs: vec![(c2.clone(), PrimType::I64)],
            cond,
            then: Block {
                stmts: then,
                results: vec![Atom::Var(c1)],
            },
            els: Block {
                stmts: vec![],
                results: vec![Atom::Var(c.clone())],
            },
        });
        let k = filter_count(&s.var);
        self.bind_depth(&k);
        self.scalar_types.insert(k.clone(), PrimType::I64);
        let mut inner = vec![Stmt::Fold {
            outs: vec![(k.clone(), PrimType::I64)],
            acc: vec![(c, PrimType::I64)],
            init: vec![Atom::Const(Const::I64(0))],
            i,
            n,
            body: Block {
                stmts: body,
                results: vec![Atom::Var(c2)],
            },
        }];
        // the result: views of the first k elements
        let mut views = Vec::new();
        for b in &bufs {
            let v = self.fresh("f");
            inner.push(Stmt::View {
                var: v.clone(),
                elem: b.elem,
                rank: 1,
                view: View::Slice(
                    b.var.clone(),
                    Atom::Const(Const::I64(0)),
                    Atom::Var(k.clone()),
                ),
                span,
            });
            self.shapes.insert(v.clone(), vec![Dim::Var(k.clone())]);
            self.bind_depth(&v);
            views.push(Some(v));
        }
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
                        self.scalar_types.insert(v.clone(), *p);
                    }
                    ls.push(Leaf { atom: a, ty: *ty });
                }
            }
        }
        self.types.insert(s.var.clone(), s.ty.clone());
        self.vars.insert(s.var.clone(), ls);
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
        E::Prim(b, _) => !matches!(
            b,
            Builtin::Flatten | Builtin::Unflatten | Builtin::Split | Builtin::Length
        ),
        _ => true,
    }
}

impl FunTr<'_> {
    /// Bind a lambda or loop parameter (leaf names derived from `name`) one level
    /// deeper than the current one.
    fn bind_param(&mut self, name: &Name, ty: &Type, span: Span) -> R<Vec<Leaf>> {
        let flat = self.flat(ty, span)?;
        let single = flat.len() == 1;
        let mut ls = Vec::new();
        for (k, (t, _)) in flat.iter().enumerate() {
            let n = if single {
                name.clone()
            } else {
                format!("{name}c{k}")
            };
            self.depth.insert(n.clone(), self.cur + 1);
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
            this.types.insert(s.var.clone(), s.ty.clone());
            this.vars.insert(s.var.clone(), ls);
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
            this.bind_depth(&s.var);
            this.scalar_types.insert(s.var.clone(), *p);
            this.vars.insert(
                s.var.clone(),
                vec![Leaf {
                    atom: Atom::Var(s.var.clone()),
                    ty: DType::Scalar(*p),
                }],
            );
            this.types.insert(s.var.clone(), s.ty.clone());
            this.record_defs(s);
            Ok(())
        };
        let arg = |args: &[core::Arg], k: usize| -> R<Atom> {
            match args.get(k) {
                Some(core::Arg::Atom(a)) => Ok(a.clone()),
                _ => error(
                    span,
                    "internal error: malformed builtin call",
                    "please report this",
                ),
            }
        };
        match &s.exp {
            E::Atom(a) => {
                // A copy of a scalar constant or variable, or an array alias.
                let ls = self.leaves(a, span)?;
                if ls.len() == 1 && matches!(ls[0].ty, DType::Scalar(_)) {
                    return scalar(self, SExp::Atom(ls[0].atom.clone()), out);
                }
                bind(self, ls);
                self.record_defs(s);
            }
            E::Tuple(xs) => {
                let mut ls = Vec::new();
                for x in xs {
                    ls.extend(self.leaves(x, span)?);
                }
                bind(self, ls);
            }
            E::Proj(a, k) => {
                let ls = self.proj_leaves(a, *k, span)?;
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
            E::Dim(..) | E::Prim(Builtin::Length, _) => {
                let (a, k) = match &s.exp {
                    E::Dim(a, k) => (a.clone(), *k),
                    E::Prim(_, args) => (arg(args, 0)?, 0),
                    _ => unreachable_exp(span)?,
                };
                let leaf = self.first_array_leaf(&a, span)?;
                let sh = self.shape(&leaf, span)?;
                // Partial evaluation: a statically known dim needs no read.
                let exp = match sh.get(k).map(|d| d.simplify()) {
                    Some(Dim::Const(c)) => SExp::Atom(Atom::Const(Const::I64(c))),
                    Some(Dim::Var(v)) if self.depth.get(&v).is_some_and(|x| *x <= self.cur) => {
                        SExp::Atom(Atom::Var(v))
                    }
                    _ => SExp::Dim(leaf.name().cloned().unwrap_or_default(), k),
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
                let ls = self.leaves(a, span)?;
                let mut nl = Vec::new();
                for (k, l) in ls.iter().enumerate() {
                    let name = names.get(k).cloned().unwrap_or_else(|| self.fresh("x"));
                    let src = l.name().cloned().unwrap_or_default();
                    match l.ty {
                        DType::Array(p, 1) => {
                            out.push(Stmt::Let {
                                var: name.clone(),
                                ty: p,
                                exp: SExp::Load(src, vec![i.clone()]),
                                span,
                            });
                            self.scalar_types.insert(name.clone(), p);
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
                            let sh = self.shape(l, span)?;
                            self.shapes
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
                    self.bind_depth(&name);
                }
                bind(self, nl);
            }
            E::Slice(a, st, en) => {
                let (st, en) = (self.scalar_atom(st), self.scalar_atom(en));
                let len = Dim::minus(self.atom_dim(&en), self.atom_dim(&st));
                let ls = self.leaves(a, span)?;
                let mut nl = Vec::new();
                for (k, l) in ls.iter().enumerate() {
                    let name = names.get(k).cloned().unwrap_or_else(|| self.fresh("x"));
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
                    let mut sh = self.shape(l, span)?;
                    if let Some(d) = sh.first_mut() {
                        *d = len.clone();
                    }
                    self.shapes.insert(name.clone(), sh);
                    self.bind_depth(&name);
                    nl.push(Leaf {
                        atom: Atom::Var(name),
                        ty: l.ty,
                    });
                }
                bind(self, nl);
            }
            E::Prim(b @ (Builtin::Flatten | Builtin::Unflatten | Builtin::Split), args) => {
                let shapes = self.shape_exp(s)?;
                let src_atom = match b {
                    Builtin::Flatten => arg(args, 0)?,
                    Builtin::Unflatten => arg(args, 2)?,
                    _ => arg(args, 1)?,
                };
                let ls = self.leaves(&src_atom, span)?;
                let mut nl = Vec::new();
                if *b == Builtin::Split {
                    let k = self.scalar_atom(&arg(args, 0)?);
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
                        let len = self.emit_dim(&outer(&self.shape(l, span)?), out, span);
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
                            let name = self.fresh("x");
                            out.push(Stmt::View {
                                var: name.clone(),
                                elem: p,
                                rank: r,
                                view: View::Slice(src.clone(), lo, hi),
                                span,
                            });
                            let sh = shapes.get(half * ls.len() + j).cloned().unwrap_or_default();
                            self.shapes.insert(name.clone(), sh);
                            self.bind_depth(&name);
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
                    if *b == Builtin::Unflatten
                        && let Some(l) = ls.first()
                    {
                        let n = self.scalar_atom(&arg(args, 0)?);
                        let m = self.scalar_atom(&arg(args, 1)?);
                        let len = self.emit_dim(&outer(&self.shape(l, span)?), out, span);
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
                            let rd = self.resolve_here(d, span)?;
                            dims.push(self.emit_dim(&rd, out, span));
                        }
                        let name = names.get(j).cloned().unwrap_or_else(|| self.fresh("x"));
                        out.push(Stmt::View {
                            var: name.clone(),
                            elem: p,
                            rank: sh.len(),
                            view: View::Reshape(l.name().cloned().unwrap_or_default(), dims),
                            span,
                        });
                        self.shapes.insert(name.clone(), sh);
                        self.bind_depth(&name);
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
                self.record_defs(s);
            }
        }
        Ok(())
    }

    fn scalar_atom(&self, a: &Atom) -> Atom {
        match a {
            Atom::Var(v) => match self.vars.get(v).and_then(|l| l.first()) {
                Some(l) => l.atom.clone(),
                None => a.clone(),
            },
            Atom::Const(_) => a.clone(),
        }
    }

    fn first_array_leaf(&self, a: &Atom, span: Span) -> R<Leaf> {
        match self
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

    fn outs_for(&mut self, flat: &[(DType, Vec<Size>)]) -> Vec<(Name, PrimType)> {
        let mut v = Vec::new();
        for (t, _) in flat {
            if let DType::Scalar(p) = t {
                let n = self.fresh("o");
                self.bind_depth(&n);
                self.scalar_types.insert(n.clone(), *p);
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
        let flat = self.flat(&s.ty, span)?;
        let dest_of = |k: usize| -> Name { dests.get(k).cloned().flatten().unwrap_or_default() };
        let arg = |args: &[core::Arg], k: usize| -> R<Atom> {
            match args.get(k) {
                Some(core::Arg::Atom(a)) => Ok(a.clone()),
                _ => error(
                    span,
                    "internal error: malformed builtin call",
                    "please report this",
                ),
            }
        };
        let lambda = |args: &[core::Arg], k: usize| -> R<core::Lambda> {
            match args.get(k) {
                Some(core::Arg::Fun(core::Fun::Lambda(l))) => Ok(l.clone()),
                _ => error(
                    span,
                    "a function argument that is not a lambda reached the C backend",
                    "please report this (the program should be first-order)",
                ),
            }
        };
        match &s.exp {
            E::ArrayLit(xs) => {
                for (j, x) in xs.iter().enumerate() {
                    let el = self.leaves(x, span)?;
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
                                let row = self.fresh("r");
                                out.push(Stmt::View {
                                    var: row.clone(),
                                    elem: p,
                                    rank: r,
                                    view: View::Row(d.clone(), Atom::Const(Const::I64(j as i64))),
                                    span,
                                });
                                let dsh = self.shapes.get(&d).cloned().unwrap_or_default();
                                let rsh = dsh.get(1..).map(|x| x.to_vec()).unwrap_or_default();
                                self.shapes.insert(row.clone(), rsh.clone());
                                self.bind_depth(&row);
                                let got = self.shape(l, span)?;
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
                self.loop_into(s, &state.0, &state.1, init, form, body, dests, out)
            }
            E::Prim(Builtin::Build, args) => {
                let n = self.scalar_atom(&arg(args, 0)?);
                let l = lambda(args, 1)?;
                let (i, it) = lparam(&l, 0, span)?;
                self.bind_param(i, it, span)?;
                let el = self.flat(&l.ret, span)?;
                let mut pre = Vec::new();
                let mut inner_dests = Vec::new();
                for (k, (t, _)) in el.iter().enumerate() {
                    match t {
                        DType::Scalar(_) => inner_dests.push(None),
                        DType::Array(p, r) => {
                            let d = dest_of(k);
                            let row = self.fresh("r");
                            pre.push(Stmt::View {
                                var: row.clone(),
                                elem: *p,
                                rank: *r,
                                view: View::Row(d.clone(), Atom::Var(i.clone())),
                                span,
                            });
                            let dsh = self.shapes.get(&d).cloned().unwrap_or_default();
                            self.shapes.insert(
                                row.clone(),
                                dsh.get(1..).map(|x| x.to_vec()).unwrap_or_default(),
                            );
                            self.depth.insert(row.clone(), self.cur + 1);
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
                if !self.provably_nonneg(&n) {
                    out.push(Stmt::Guard {
                        guard: Guard::Core(core::Check::new(
                            core::CheckKind::NonNeg,
                            vec![n.clone()],
                            "build",
                        )),
                        span,
                    });
                }
                out.push(Stmt::For {
                    i: i.clone(),
                    n,
                    body: stmts,
                });
                Ok(vec![])
            }
            E::Prim(Builtin::IFold, args) => {
                let l = lambda(args, 0)?;
                let init = arg(args, 1)?;
                let n = self.scalar_atom(&arg(args, 2)?);
                let (acc, at) = lparam(&l, 0, span)?;
                let (i, _) = lparam(&l, 1, span)?;
                let state_flat = self.flat(at, span)?;
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
                        &init,
                        LoopKind::For(i.clone(), n),
                        &body,
                        dests,
                        out,
                    );
                }
                let init_l = self.leaves(&init, span)?;
                let acc_l = self.bind_param(acc, at, span)?;
                self.bind_param(i, &Type::I64, span)?;
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
            E::Prim(Builtin::IReduce, args) => {
                let op = lambda(args, 0)?;
                let ne = arg(args, 1)?;
                let n = self.scalar_atom(&arg(args, 2)?);
                let g = lambda(args, 3)?;
                if flat.iter().any(|(t, _)| matches!(t, DType::Array(..))) {
                    return error(
                        span,
                        "a reduction over arrays (`reduce` whose elements are arrays) is not supported by the C backend yet",
                        "write it as a `build` of scalar reductions, or run with --interp",
                    );
                }
                let ne_l = self.leaves(&ne, span)?;
                let (i, _) = lparam(&g, 0, span)?;
                self.bind_param(i, &Type::I64, span)?;
                let elem = self.body(&g.body, &vec![None; flat.len()])?;
                let (pa, ta) = lparam(&op, 0, span)?;
                let (pb, tb) = lparam(&op, 1, span)?;
                let a = self.bind_param(pa, ta, span)?;
                let b = self.bind_param(pb, tb, span)?;
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
            E::Prim(Builtin::Concat, args) => {
                let a = self.leaves(&arg(args, 0)?, span)?;
                let b = self.leaves(&arg(args, 1)?, span)?;
                for (k, (la, lb)) in a.iter().zip(&b).enumerate() {
                    let d = dest_of(k);
                    let DType::Array(p, r) = la.ty else {
                        return error(
                            span,
                            "internal error: concat of scalars",
                            "please report this",
                        );
                    };
                    let sa = self.shape(la, span)?;
                    let sb = self.shape(lb, span)?;
                    let dsh = self.shapes.get(&d).cloned().unwrap_or_default();
                    let lena = self.resolve_here(&outer(&sa), span)?;
                    let total = Dim::plus(lena.clone(), outer(&sb));
                    let total = self.resolve_here(&total, span)?;
                    let lo = self.emit_dim(&lena, out, span);
                    let hi = self.emit_dim(&total, out, span);
                    for (part, (from, to), src, ssh) in [
                        (0, (Atom::Const(Const::I64(0)), lo.clone()), la, &sa),
                        (1, (lo.clone(), hi.clone()), lb, &sb),
                    ] {
                        let v = self.fresh("x");
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
                            *d = len;
                        }
                        self.shapes.insert(v.clone(), vsh.clone());
                        self.bind_depth(&v);
                        self.guard(ssh, &vsh, "`++`", None, out, span)?;
                        out.push(Stmt::Copy {
                            dest: v,
                            src: src.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                }
                Ok(vec![])
            }
            E::Prim(b @ (Builtin::Scatter | Builtin::ReduceByIndex), args) => {
                // A copy of the destination, then one write (or one step of the
                // operator) per in-bounds index, in order: the interpreter's.
                let scatter = *b == Builtin::Scatter;
                let (ii, vi) = if scatter { (1, 2) } else { (3, 4) };
                let d_l = self.leaves(&arg(args, 0)?, span)?;
                if d_l.iter().any(|l| l.ty.rank() != 1) {
                    return error(
                        span,
                        format!(
                            "a `{}` whose elements are arrays is not supported by the C backend yet",
                            b.name()
                        ),
                        "run with --interp",
                    );
                }
                let is_l = self.leaves(&arg(args, ii)?, span)?;
                let v_l = self.leaves(&arg(args, vi)?, span)?;
                let (Some(is0), Some(v0), Some(d0)) = (is_l.first(), v_l.first(), d_l.first())
                else {
                    return error(
                        span,
                        "internal error: malformed scatter",
                        "please report this",
                    );
                };
                let (is0, v0, d0) = (is0.clone(), v0.clone(), d0.clone());
                let ish = self.shape(&is0, span)?;
                let vsh = self.shape(&v0, span)?;
                let m_dim = self.resolve_here(&outer(&ish), span)?;
                let m = self.emit_dim(&m_dim, out, span);
                if !self.same_shape(&ish[..1.min(ish.len())], &vsh[..1.min(vsh.len())]) {
                    let v_dim = self.resolve_here(&outer(&vsh), span)?;
                    let mv = self.emit_dim(&v_dim, out, span);
                    out.push(Stmt::Check {
                        check: Check {
                            got: mv,
                            want: m.clone(),
                            message: core::SizeCheck {
                                got: Atom::Const(Const::I64(0)),
                                want: Atom::Const(Const::I64(0)),
                                callee: format!("the value array of `{}`", b.name()),
                                param: "dest".into(),
                                size: String::new(),
                            },
                        },
                        span,
                    });
                }
                let dsh = self.shape(&d0, span)?;
                let n_dim = self.resolve_here(&outer(&dsh), span)?;
                let n = self.emit_dim(&n_dim, out, span);
                for (k, l) in d_l.iter().enumerate() {
                    let d = dest_of(k);
                    self.dest_ready(&d, out, span);
                    if l.name() != Some(&d) {
                        out.push(Stmt::Copy {
                            dest: d,
                            src: l.name().cloned().unwrap_or_default(),
                            span,
                        });
                    }
                }
                let j = self.fresh("j");
                self.bind_param(&j, &Type::I64, span)?;
                let ix = self.fresh("ix");
                let lo = self.fresh("lo");
                let hi = self.fresh("hi");
                let inb = self.fresh("inb");
                let var = |n: &Name| Atom::Var(n.clone());
                let mut body = vec![
                    Stmt::Let {
                        var: ix.clone(),
                        ty: PrimType::I64,
                        exp: SExp::Load(is0.name().cloned().unwrap_or_default(), vec![var(&j)]),
                        span,
                    },
                    Stmt::Let {
                        var: lo.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::Ge, var(&ix), Atom::Const(Const::I64(0))),
                        span,
                    },
                    Stmt::Let {
                        var: hi.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::Lt, var(&ix), n.clone()),
                        span,
                    },
                    Stmt::Let {
                        var: inb.clone(),
                        ty: PrimType::Bool,
                        exp: SExp::Bin(BinOp::And, var(&lo), var(&hi)),
                        span,
                    },
                ];
                let mut then = Vec::new();
                if scatter {
                    for (k, v) in v_l.iter().enumerate() {
                        let x = self.fresh("x");
                        then.push(Stmt::Let {
                            var: x.clone(),
                            ty: v.ty.prim(),
                            exp: SExp::Load(v.name().cloned().unwrap_or_default(), vec![var(&j)]),
                            span,
                        });
                        then.push(Stmt::Store {
                            dest: dest_of(k),
                            idx: vec![var(&ix)],
                            val: var(&x),
                            span,
                        });
                    }
                } else {
                    let op = lambda(args, 1)?;
                    let (pa, ta) = lparam(&op, 0, span)?;
                    let (pb, tb) = lparam(&op, 1, span)?;
                    let a_l = self.bind_param(pa, ta, span)?;
                    let b_l = self.bind_param(pb, tb, span)?;
                    for (k, (a, bl)) in a_l.iter().zip(&b_l).enumerate() {
                        then.push(Stmt::Let {
                            var: a.name().cloned().unwrap_or_default(),
                            ty: a.ty.prim(),
                            exp: SExp::Load(dest_of(k), vec![var(&ix)]),
                            span,
                        });
                        let v = v_l
                            .get(k)
                            .and_then(|v| v.name().cloned())
                            .unwrap_or_default();
                        then.push(Stmt::Let {
                            var: bl.name().cloned().unwrap_or_default(),
                            ty: bl.ty.prim(),
                            exp: SExp::Load(v, vec![var(&j)]),
                            span,
                        });
                    }
                    let blk = self.body(&op.body, &vec![None; d_l.len()])?;
                    then.extend(blk.stmts);
                    for (k, r) in blk.results.iter().enumerate() {
                        then.push(Stmt::Store {
                            dest: dest_of(k),
                            idx: vec![var(&ix)],
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
            E::Prim(Builtin::Scan, args) => {
                // An inclusive scan of scalars (or tuples of scalars): a sequential
                // fold whose accumulators are stored into the result after each
                // step, so the order of the operations is the interpreter's.
                let op = lambda(args, 0)?;
                let ne = arg(args, 1)?;
                let a = arg(args, 2)?;
                let a_l = self.leaves(&a, span)?;
                if a_l.iter().any(|l| l.ty.rank() != 1) {
                    return error(
                        span,
                        "a `scan` whose elements are arrays is not supported by the C backend yet",
                        "scan the columns separately (a `build` of scans), or run with --interp",
                    );
                }
                let first = a_l.first().cloned().ok_or_else(|| Error {
                    span,
                    message: "internal error: scan of nothing".into(),
                    help: "please report this".into(),
                })?;
                let sh = self.shape(&first, span)?;
                let len = self.resolve_here(&outer(&sh), span)?;
                let n = self.emit_dim(&len, out, span);
                let ne_l = self.leaves(&ne, span)?;
                let (pa, ta) = lparam(&op, 0, span)?;
                let (pb, tb) = lparam(&op, 1, span)?;
                let acc_l = self.bind_param(pa, ta, span)?;
                let x_l = self.bind_param(pb, tb, span)?;
                let i = self.fresh("i");
                self.bind_param(&i, &Type::I64, span)?;
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
                        let o = self.fresh("o");
                        self.bind_depth(&o);
                        self.scalar_types.insert(o.clone(), l.ty.prim());
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
            E::Prim(b, _) => error(
                span,
                format!("`{}` is not supported by the C backend yet", b.name()),
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
    ) -> R<Vec<Atom>> {
        let span = s.span;
        let flat = self.flat(&s.ty, span)?;
        let init_l = self.leaves(init, span)?;
        // The state's shape is the initial value's (F-tilde rule S-Reduce).
        let mut arrays = Vec::new();
        let mut scalars = Vec::new();
        let st_l = self.bind_param(state, st_ty, span)?;
        let mut body_dests = Vec::new();
        for (k, (l, il)) in st_l.iter().zip(&init_l).enumerate() {
            match l.ty {
                DType::Scalar(p) => {
                    scalars.push((l.name().cloned().unwrap_or_default(), p, il.atom.clone()));
                    body_dests.push(None);
                }
                DType::Array(p, _) => {
                    let d = dests.get(k).cloned().flatten().unwrap_or_default();
                    let ish = self.shape(il, span)?;
                    let dsh = self.shapes.get(&d).cloned().unwrap_or_default();
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
                        let rd = self.resolve_here(dd, span)?;
                        dims.push(self.emit_dim(&rd, out, span));
                    }
                    let var = l.name().cloned().unwrap_or_default();
                    let next = self.fresh("nx");
                    self.shapes.insert(var.clone(), dsh.clone());
                    self.shapes.insert(next.clone(), dsh.clone());
                    self.depth.insert(next.clone(), self.cur + 1);
                    body_dests.push(Some(next.clone()));
                    arrays.push(ArrState {
                        var,
                        next,
                        out: d,
                        elem: p,
                        dims,
                        span,
                    });
                }
            }
        }
        let form = match form {
            LoopKind::For(i, n) => {
                self.bind_param(&i, &Type::I64, span)?;
                LoopForm::For(i, n)
            }
            LoopKind::While(c) => {
                let cond = self.body(&c, &[None])?;
                // Leaving the condition's scope dropped the state's names: the
                // body sees the state too.
                for l in &st_l {
                    if let Some(n) = l.name() {
                        self.depth.insert(n.clone(), self.cur + 1);
                    }
                }
                for st in &arrays {
                    self.depth.insert(st.next.clone(), self.cur + 1);
                }
                LoopForm::While(cond)
            }
        };
        // (S-Reduce): the body must return the same shape.
        let after = self.shape_of_body_result(body)?;
        let mut ai = 0;
        for (l, il) in st_l.iter().zip(&init_l) {
            if let DType::Array(..) = l.ty {
                let before = self.shape(il, span)?;
                if let Some(a) = after.get(ai)
                    && !self.same_shape(&before, a)
                {
                    return error(
                        span,
                        format!(
                            "the state of this loop changes shape: it starts as {} and an iteration returns {}",
                            self.show_shape(&before),
                            self.show_shape(a)
                        ),
                        "Weir reuses the state's storage across iterations, so its shape must stay the same (F-tilde rule S-Reduce); or run with --interp",
                    );
                }
                ai += 1;
            }
        }
        let blk = self.body(body, &body_dests)?;
        let outs = self.outs_for(&flat);
        out.push(Stmt::Loop {
            outs: outs.clone(),
            scalars,
            arrays,
            form,
            body: blk,
        });
        Ok(outs.into_iter().map(|(n, _)| Atom::Var(n)).collect())
    }
}

/// Parameter `k` of a lambda.
fn lparam(l: &core::Lambda, k: usize, span: Span) -> R<&(Name, Type)> {
    match l.params.get(k) {
        Some(p) => Ok(p),
        None => error(
            span,
            "internal error: a lambda with too few parameters",
            "please report this",
        ),
    }
}

/// A size variable for messages: `` `n` ``, or what a `filter`'s count is.
fn size_name(v: &Name) -> String {
    if v.ends_with("_count") {
        "the number of elements a `filter` keeps".to_string()
    } else if v.contains("_ifsize") {
        "the length of the branch an `if` takes".to_string()
    } else {
        format!("`{}`", core::display_name(v))
    }
}

/// The name of the existential length of array leaf `j` of the result of the
/// `if` bound to `var` (branches of different lengths).
fn if_count(var: &Name, j: usize) -> Name {
    format!("{var}_ifsize{j}")
}

/// The name of the existential size of `filter`'s result bound to `var`.
fn filter_count(var: &Name) -> Name {
    format!("{var}_count")
}

/// The outer dimension of a shape (0 for a malformed, empty one).
fn outer(sh: &[Dim]) -> Dim {
    sh.first().cloned().unwrap_or(Dim::Const(0))
}

/// What [`FunTr::expand_by`] does with a variable leaf.
enum LeafRule {
    Keep,
    Replace(Dim),
    Expand,
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
