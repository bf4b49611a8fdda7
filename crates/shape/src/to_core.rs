//! Shape functions as core IR (issue 15, deliverable 1): an entry's result
//! shapes, lowered to a core function of the entry's flattened parameters that
//! returns every result dim, in order, as one `[k]i64` array. The function is
//! ordinary core IR: it has the core printer and parser, the core verifier
//! checks it, `weir_opt` optimizes it and the interpreter runs it, so a test
//! compares a shape slice with the shape of the value the interpreter
//! computes by running both (`crates/driver/tests/shape_slices.rs`), and
//! `weir dev --dump-after shape FILE` prints it.
//!
//! The lowering keeps the shape arithmetic of [`Dim::eval`] (and of the C
//! shape function): wrapping `+ - *`, a division or remainder by zero (and a
//! remainder by -1) giving 0, an element read out of bounds giving 0, a loop
//! slice ([`SliceDim`]) run as a `for` loop over its lengths.

use crate::dim::{Dim, SliceDim};
use std::collections::{HashMap, HashSet};
use weir_ir::{
    Atom, BinOp, Body, Const, Exp, FunDef, LoopForm, MathFn, Name, PrimType, Size, Span, Stmt, Type,
};

/// An entry's shape signature: its flattened parameters (scalars and dense
/// arrays of a primitive type, as the DPS translation flattens them) and the
/// shape of each array result.
#[derive(Clone, Debug)]
pub struct ShapeSig {
    /// The entry's name; the shape function is `{name}_shape`.
    pub name: Name,
    /// `(name, element type, rank)`; rank 0 is a scalar.
    pub params: Vec<(Name, PrimType, usize)>,
    pub results: Vec<Vec<Dim>>,
    pub span: Span,
}

/// The core type of a flattened parameter: sizes are not named (the shape
/// function reads them with `dim`).
pub fn param_type(elem: PrimType, rank: usize) -> Type {
    let mut t = Type::Prim(elem);
    for _ in 0..rank {
        t = Type::array(Size::Unknown, t);
    }
    t
}

/// The shape function of `sig`: `{name}_shape`, an entry of the flattened
/// parameters returning `[k]i64`, the `k` result dims in order. `None` when
/// the entry has no array result (a core array literal is never empty), or a
/// shape names something that is not a parameter (a bug in the caller's
/// shapes, reported by the caller's test).
pub fn shape_fun(sig: &ShapeSig) -> Option<FunDef> {
    let total: usize = sig.results.iter().map(Vec::len).sum();
    if total == 0 {
        return None;
    }
    let mut b = Builder {
        stmts: Vec::new(),
        params: sig
            .params
            .iter()
            .map(|(n, p, r)| (n.clone(), (*p, *r)))
            .collect(),
        taken: sig.params.iter().map(|(n, ..)| n.clone()).collect(),
        next: 0,
        span: sig.span,
    };
    let mut dims = Vec::with_capacity(total);
    for shape in &sig.results {
        for d in shape {
            dims.push(b.dim(d, &HashMap::new())?);
        }
    }
    let out = b.bind(
        Type::array(Size::Const(i64::try_from(total).ok()?), Type::I64),
        Exp::ArrayLit(dims),
    );
    Some(FunDef {
        name: format!("{}_shape", sig.name),
        entry: true,
        size_params: Vec::new(),
        params: sig
            .params
            .iter()
            .map(|(n, p, r)| (n.clone(), param_type(*p, *r)))
            .collect(),
        ret: Type::array(Size::Const(i64::try_from(total).ok()?), Type::I64),
        body: Body {
            stmts: b.stmts,
            result: out,
        },
        span: sig.span,
    })
}

struct Builder {
    stmts: Vec<Stmt>,
    params: HashMap<Name, (PrimType, usize)>,
    /// Every name bound so far (the parameters first): fresh names avoid them.
    taken: HashSet<Name>,
    next: usize,
    span: Span,
}

fn int(c: i64) -> Atom {
    Atom::Const(Const::I64(c))
}

impl Builder {
    fn fresh(&mut self, hint: &str) -> Name {
        loop {
            self.next += 1;
            let n = format!("{hint}_s{}", self.next);
            if self.taken.insert(n.clone()) {
                return n;
            }
        }
    }

    fn bind(&mut self, ty: Type, exp: Exp) -> Atom {
        let var = self.fresh("shp");
        self.stmts.push(Stmt {
            var: var.clone(),
            ty,
            exp,
            span: self.span,
        });
        Atom::Var(var)
    }

    fn i64(&mut self, exp: Exp) -> Atom {
        self.bind(Type::I64, exp)
    }

    fn bool(&mut self, exp: Exp) -> Atom {
        self.bind(Type::BOOL, exp)
    }

    /// Statements built by `f` in a body of their own (a branch, a loop body).
    fn nested(&mut self, f: impl FnOnce(&mut Builder) -> Option<Atom>) -> Option<Body> {
        let outer = std::mem::take(&mut self.stmts);
        let result = f(self);
        let stmts = std::mem::replace(&mut self.stmts, outer);
        Some(Body {
            stmts,
            result: result?,
        })
    }

    /// An `i64` scalar parameter (an `i32` one converted).
    fn scalar(&mut self, v: &str) -> Option<Atom> {
        match self.params.get(v)? {
            (PrimType::I64, 0) => Some(Atom::Var(v.to_string())),
            (PrimType::I32, 0) => Some(self.i64(Exp::Convert(PrimType::I64, Atom::Var(v.into())))),
            _ => None,
        }
    }

    /// `x / y` or `x % y` with the shape function's rule for a zero (and, for
    /// `%`, a -1) divisor: 0.
    fn divide(&mut self, op: BinOp, x: Atom, y: Atom) -> Option<Atom> {
        let mut zero = self.bool(Exp::Bin(BinOp::Eq, y.clone(), int(0)));
        if op == BinOp::Rem {
            let m1 = self.bool(Exp::Bin(BinOp::Eq, y.clone(), int(-1)));
            zero = self.bool(Exp::Bin(BinOp::Or, zero, m1));
        }
        let q = self.nested(|b| Some(b.i64(Exp::Bin(op, x, y))))?;
        let t = Body {
            stmts: Vec::new(),
            result: int(0),
        };
        Some(self.i64(Exp::If(zero, t, q)))
    }

    /// `a[idx..]` as an `i64`, 0 when an index is out of bounds.
    fn elem(&mut self, a: &str, idx: &[Atom]) -> Option<Atom> {
        let (elem, rank) = *self.params.get(a)?;
        if rank != idx.len() || !matches!(elem, PrimType::I64 | PrimType::I32) {
            return None;
        }
        let mut inside: Option<Atom> = None;
        for (k, i) in idx.iter().enumerate() {
            let n = self.i64(Exp::Dim(Atom::Var(a.into()), k));
            let lo = self.bool(Exp::Bin(BinOp::Le, int(0), i.clone()));
            let hi = self.bool(Exp::Bin(BinOp::Lt, i.clone(), n));
            let both = self.bool(Exp::Bin(BinOp::And, lo, hi));
            inside = Some(match inside {
                None => both,
                Some(prev) => self.bool(Exp::Bin(BinOp::And, prev, both)),
            });
        }
        let inside = inside?;
        let read = self.nested(|b| {
            let mut cur = Atom::Var(a.to_string());
            for (k, i) in idx.iter().enumerate() {
                let ty = param_type(elem, rank - k - 1);
                cur = b.bind(ty, Exp::Index(cur, i.clone()));
            }
            Some(if elem == PrimType::I32 {
                b.i64(Exp::Convert(PrimType::I64, cur))
            } else {
                cur
            })
        })?;
        let zero = Body {
            stmts: Vec::new(),
            result: int(0),
        };
        Some(self.i64(Exp::If(inside, read, zero)))
    }

    /// The value of `d`; `local` maps a loop slice's own names (its counter
    /// and lengths) to the names bound for them.
    fn dim(&mut self, d: &Dim, local: &HashMap<Name, Name>) -> Option<Atom> {
        let two = |b: &mut Builder, x: &Dim, y: &Dim| -> Option<(Atom, Atom)> {
            Some((b.dim(x, local)?, b.dim(y, local)?))
        };
        Some(match d {
            Dim::Const(c) => int(*c),
            Dim::Var(v) => match local.get(v) {
                Some(l) => Atom::Var(l.clone()),
                None => self.scalar(v)?,
            },
            Dim::DimOf(a, k) => {
                let (_, rank) = *self.params.get(a)?;
                if *k >= rank {
                    return None;
                }
                self.i64(Exp::Dim(Atom::Var(a.clone()), *k))
            }
            Dim::Add(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.i64(Exp::Bin(BinOp::Add, x, y))
            }
            Dim::Sub(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.i64(Exp::Bin(BinOp::Sub, x, y))
            }
            Dim::Mul(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.i64(Exp::Bin(BinOp::Mul, x, y))
            }
            Dim::Div(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.divide(BinOp::Div, x, y)?
            }
            Dim::Rem(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.divide(BinOp::Rem, x, y)?
            }
            Dim::Max(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.i64(Exp::Math(MathFn::Max, vec![x, y]))
            }
            Dim::Min(x, y) => {
                let (x, y) = two(self, x, y)?;
                self.i64(Exp::Math(MathFn::Min, vec![x, y]))
            }
            Dim::Elem(a, idx) => {
                let idx = idx
                    .iter()
                    .map(|i| self.dim(i, local))
                    .collect::<Option<Vec<_>>>()?;
                self.elem(a, &idx)?
            }
            Dim::Slice(sl) => self.slice(sl, local)?,
        })
    }

    /// A loop slice: `loop (lens.., most) = (init.., init[which]) for index <
    /// trips do (step.., max(most, step[which]))`, then `most` or the final
    /// `lens[which]`.
    fn slice(&mut self, sl: &SliceDim, local: &HashMap<Name, Name>) -> Option<Atom> {
        let n = sl.lens.len();
        if sl.which >= n || sl.init.len() != n || sl.step.len() != n {
            return None;
        }
        let init = sl
            .init
            .iter()
            .map(|x| self.dim(x, local))
            .collect::<Option<Vec<_>>>()?;
        let trips = self.dim(&sl.trips, local)?;
        let state_ty = Type::Tuple(vec![Type::I64; n + 1]);
        let mut start = init.clone();
        start.push(init[sl.which].clone());
        let start = self.bind(state_ty.clone(), Exp::Tuple(start));
        let state = self.fresh("slice");
        let index = self.fresh(&sl.index);
        let mut inner = local.clone();
        inner.insert(sl.index.clone(), index.clone());
        let body = self.nested(|b| {
            let mut lens = Vec::with_capacity(n);
            for (k, l) in sl.lens.iter().enumerate() {
                let name = b.fresh(l);
                b.stmts.push(Stmt {
                    var: name.clone(),
                    ty: Type::I64,
                    exp: Exp::Proj(Atom::Var(state.clone()), k),
                    span: b.span,
                });
                inner.insert(l.clone(), name.clone());
                lens.push(name);
            }
            let most = b.i64(Exp::Proj(Atom::Var(state.clone()), n));
            let mut next = sl
                .step
                .iter()
                .map(|x| b.dim(x, &inner))
                .collect::<Option<Vec<_>>>()?;
            let m = b.i64(Exp::Math(MathFn::Max, vec![most, next[sl.which].clone()]));
            next.push(m);
            Some(b.bind(state_ty.clone(), Exp::Tuple(next)))
        })?;
        let done = self.bind(
            state_ty.clone(),
            Exp::Loop {
                state: (state, state_ty),
                init: start,
                form: LoopForm::For(index, trips),
                body,
            },
        );
        let pick = if sl.most { n } else { sl.which };
        Some(self.i64(Exp::Proj(done, pick)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Dim {
        Dim::Var(s.into())
    }

    #[test]
    fn lowers_every_form_and_verifies() {
        let x = Dim::DimOf("a".into(), 0);
        let slice = Dim::Slice(Box::new(SliceDim {
            lens: vec!["len".into()],
            index: "i".into(),
            init: vec![x.clone()],
            step: vec![Dim::plus(v("len"), v("i"))],
            trips: v("k"),
            which: 0,
            most: true,
        }));
        let sig = ShapeSig {
            name: "f".into(),
            params: vec![
                ("a".into(), PrimType::I64, 1),
                ("k".into(), PrimType::I32, 0),
            ],
            results: vec![
                vec![
                    Dim::Div(Box::new(x.clone()), Box::new(v("k"))),
                    Dim::Rem(Box::new(x.clone()), Box::new(Dim::Const(3))),
                ],
                vec![
                    Dim::Elem("a".into(), vec![Dim::Const(2)]),
                    Dim::Max(Box::new(slice.clone()), Box::new(slice)),
                    Dim::Min(Box::new(x), Box::new(Dim::Const(1))),
                ],
            ],
            span: Span::default(),
        };
        let f = shape_fun(&sig).expect("lowers");
        let prog = weir_ir::Program {
            defs: vec![f],
            effects: vec![],
            ..Default::default()
        };
        weir_ir::verify::verify_program(&prog).expect("verifies");
        let text = weir_ir::print::program_to_string(&prog);
        assert!(text.contains("f_shape"), "{text}");
        assert!(text.contains("loop"), "{text}");
    }

    #[test]
    fn names_outside_the_parameters_are_refused() {
        let sig = ShapeSig {
            name: "g".into(),
            params: vec![("a".into(), PrimType::F64, 1)],
            results: vec![vec![v("nowhere")]],
            span: Span::default(),
        };
        assert!(shape_fun(&sig).is_none());
        let sig = ShapeSig {
            results: vec![vec![Dim::Elem("a".into(), vec![Dim::Const(0)])]],
            ..sig
        };
        assert!(shape_fun(&sig).is_none(), "f64 elements are not sizes");
    }

    /// The lowered function, run by the interpreter (after a print and parse
    /// round trip), computes what [`Dim::eval`] computes, at the edges of the
    /// shape arithmetic too: a zero divisor, a remainder by -1, an element
    /// out of bounds, a slice of no or negative trips.
    #[test]
    fn the_interpreter_agrees_with_eval() {
        use weir_interp::{Interp, Value};
        let a = || Dim::DimOf("a".into(), 0);
        let slice = |most: bool| {
            Dim::Slice(Box::new(SliceDim {
                lens: vec!["p".into(), "q".into()],
                index: "i".into(),
                init: vec![a(), Dim::Const(1)],
                step: vec![
                    Dim::minus(Dim::plus(v("p"), v("i")), v("q")),
                    Dim::plus(v("q"), Dim::Const(1)),
                ],
                trips: v("k"),
                which: 0,
                most,
            }))
        };
        let dims = vec![
            Dim::Div(Box::new(a()), Box::new(v("k"))),
            Dim::Rem(Box::new(Dim::Const(-7)), Box::new(v("k"))),
            Dim::Rem(
                Box::new(a()),
                Box::new(Dim::Sub(Box::new(v("k")), Box::new(Dim::Const(2)))),
            ),
            Dim::Elem("a".into(), vec![v("k")]),
            Dim::Elem("b".into(), vec![Dim::Const(1), v("k")]),
            Dim::Max(Box::new(slice(true)), Box::new(Dim::Const(-1))),
            slice(false),
            Dim::Min(Box::new(Dim::times(a(), v("k"))), Box::new(Dim::Const(5))),
        ];
        let sig = ShapeSig {
            name: "f".into(),
            params: vec![
                ("a".into(), PrimType::I64, 1),
                ("b".into(), PrimType::I32, 2),
                ("k".into(), PrimType::I64, 0),
            ],
            results: vec![dims.clone()],
            span: Span::default(),
        };
        let f = shape_fun(&sig).expect("lowers");
        let text = weir_ir::print::program_to_string(&weir_ir::Program {
            defs: vec![f],
            effects: vec![],
            ..Default::default()
        });
        let prog = weir_ir::parse::parse_program(&text).expect("parses back");
        weir_ir::verify::verify_program(&prog).expect("verifies");
        let av = [3i64, 9, -4];
        let bv = [[1i32, 2, 3], [4, 5, 6]];
        for k in [-3i64, -1, 0, 1, 2, 3, 7] {
            let leaf = |d: &Dim| match d {
                Dim::Var(x) if x == "k" => Some(k),
                Dim::DimOf(x, 0) if x == "a" => Some(3),
                Dim::Elem(x, idx) if x == "a" => {
                    let i = idx[0].eval(&|_| Some(k))?;
                    Some(
                        usize::try_from(i)
                            .ok()
                            .and_then(|i| av.get(i).copied())
                            .unwrap_or(0),
                    )
                }
                Dim::Elem(x, idx) if x == "b" => {
                    let j = idx[1].eval(&|_| Some(k))?;
                    Some(
                        usize::try_from(j)
                            .ok()
                            .and_then(|j| bv[1].get(j).copied())
                            .map_or(0, i64::from),
                    )
                }
                _ => None,
            };
            let want: Vec<i64> = dims
                .iter()
                .map(|d| d.eval(&leaf).expect("evaluates"))
                .collect();
            let ints = |xs: &[i64]| Value::array(xs.iter().map(|x| Value::I64(*x)).collect());
            let rows = bv
                .iter()
                .map(|r| Value::array(r.iter().map(|x| Value::I32(*x)).collect()))
                .collect();
            let args = vec![ints(&av), Value::array(rows), Value::I64(k)];
            let got = Interp::new(&prog).call("f_shape", args).expect("runs");
            assert_eq!(got, ints(&want), "k = {k}");
        }
    }
}
