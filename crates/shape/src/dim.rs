//! The shape language (dps-ftilde §3.3, Fig. 7; size slicing §3): every
//! array has a shape, one [`Dim`] per dimension, computed from sizes, scalar
//! parameters, the dims of array parameters and O(1) reads of their integer
//! elements, never from array contents the program computes and without
//! allocating; a loop whose array state changes length contributes its shape
//! slice ([`SliceDim`]).
//!
//! This module is the language: expressions, partial evaluation
//! ([`Dim::simplify`]), evaluation ([`Dim::eval`]) and the equality test used
//! by F-tilde's rules (S-If) and (S-Reduce) ([`same`]). [`crate::to_core`]
//! lowers shapes to core IR.

use std::collections::BTreeMap;
use std::fmt;
use weir_ir::Name;

/// A cardinality expression (F-tilde's `Card`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    Const(i64),
    /// An `i64` variable (a size or scalar parameter, a loop counter, a local).
    Var(Name),
    /// Dimension `k` of an array parameter (x^shp of the paper).
    DimOf(Name, usize),
    Add(Box<Dim>, Box<Dim>),
    Sub(Box<Dim>, Box<Dim>),
    Mul(Box<Dim>, Box<Dim>),
    Div(Box<Dim>, Box<Dim>),
    /// `a % b` (truncated, as the language's `%`).
    Rem(Box<Dim>, Box<Dim>),
    Max(Box<Dim>, Box<Dim>),
    Min(Box<Dim>, Box<Dim>),
    /// The shape slice of a counted loop whose array state changes length
    /// (size slicing §3), run: see [`SliceDim`].
    Slice(Box<SliceDim>),
    /// `a[i0, i1, ...]`: an integer element of the entry's array parameter
    /// `a`, one index per dimension, as an `i64` (size slicing's O(1) shape
    /// slice: a size read from the input, `iota a[0]`). Shape arithmetic: an
    /// index out of bounds reads 0 (the program's own read reports it).
    Elem(Name, Vec<Dim>),
}

/// The lengths `lens` of a loop's changing array leaves start at `init`; each
/// of `trips` iterations (counter `index`) replaces them by `step` (in terms of
/// `lens`, `index` and names outside the loop, evaluated simultaneously). The
/// value: the largest length leaf `which` ever has (`most`), or its final one.
/// Shape arithmetic: it never fails (a division by zero gives 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SliceDim {
    pub lens: Vec<Name>,
    pub index: Name,
    pub init: Vec<Dim>,
    pub step: Vec<Dim>,
    pub trips: Dim,
    pub which: usize,
    pub most: bool,
}

impl SliceDim {
    /// The same slice with `f` applied to its parts (`step` with the loop's
    /// own names left alone).
    pub fn map_parts(&self, f: &mut dyn FnMut(&Dim) -> Dim) -> SliceDim {
        SliceDim {
            lens: self.lens.clone(),
            index: self.index.clone(),
            init: self.init.iter().map(&mut *f).collect(),
            step: self.step.iter().map(&mut *f).collect(),
            trips: f(&self.trips),
            which: self.which,
            most: self.most,
        }
    }
    /// Is `v` one of the loop's own names (a length or the counter)?
    pub fn binds(&self, v: &str) -> bool {
        self.index == v || self.lens.iter().any(|l| l == v)
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Const(c) => write!(f, "{c}"),
            Dim::Var(v) => write!(f, "{v}"),
            Dim::DimOf(a, k) => write!(f, "dim {a} {k}"),
            Dim::Add(a, b) => write!(f, "({a} + {b})"),
            Dim::Sub(a, b) => write!(f, "({a} - {b})"),
            Dim::Mul(a, b) => write!(f, "({a} * {b})"),
            Dim::Div(a, b) => write!(f, "({a} / {b})"),
            Dim::Rem(a, b) => write!(f, "({a} % {b})"),
            Dim::Max(a, b) => write!(f, "max({a}, {b})"),
            Dim::Min(a, b) => write!(f, "min({a}, {b})"),
            Dim::Elem(a, idx) => {
                let parts: Vec<String> = idx.iter().map(|x| x.to_string()).collect();
                write!(f, "{a}[{}]", parts.join(", "))
            }
            Dim::Slice(sl) => {
                let show = |xs: &[Dim]| -> String {
                    xs.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                write!(
                    f,
                    "{}(({}) = ({}); for {} < {} do ({}))#{}",
                    if sl.most { "most" } else { "last" },
                    sl.lens.join(", "),
                    show(&sl.init),
                    sl.index,
                    sl.trips,
                    show(&sl.step),
                    sl.which
                )
            }
        }
    }
}

/// A shape as text: `[n, (m + 1)]`.
pub fn shape_to_string(s: &[Dim]) -> String {
    let parts: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// A linear form: constant + Σ coefficient × term (terms are opaque products).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Linear {
    c: i64,
    terms: BTreeMap<Vec<Dim>, i64>,
}

impl Linear {
    fn constant(c: i64) -> Linear {
        Linear {
            c,
            terms: BTreeMap::new(),
        }
    }
    fn term(d: Dim) -> Linear {
        let mut terms = BTreeMap::new();
        terms.insert(vec![d], 1);
        Linear { c: 0, terms }
    }
    fn add(mut self, o: &Linear, sign: i64) -> Linear {
        self.c = self.c.wrapping_add(sign.wrapping_mul(o.c));
        for (t, k) in &o.terms {
            let e = self.terms.entry(t.clone()).or_insert(0);
            *e = e.wrapping_add(sign.wrapping_mul(*k));
        }
        self.terms.retain(|_, k| *k != 0);
        self
    }
    fn mul(&self, o: &Linear) -> Linear {
        let mut r = Linear::constant(self.c.wrapping_mul(o.c));
        let mut add = |t: Vec<Dim>, k: i64| {
            if k != 0 {
                let e = r.terms.entry(t).or_insert(0);
                *e = e.wrapping_add(k);
            }
        };
        for (t, k) in &self.terms {
            add(t.clone(), k.wrapping_mul(o.c));
        }
        for (t, k) in &o.terms {
            add(t.clone(), k.wrapping_mul(self.c));
        }
        for (t1, k1) in &self.terms {
            for (t2, k2) in &o.terms {
                let mut t = t1.clone();
                t.extend(t2.iter().cloned());
                t.sort();
                add(t, k1.wrapping_mul(*k2));
            }
        }
        r.terms.retain(|_, k| *k != 0);
        r
    }
    fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.c)
    }
}

fn linear(d: &Dim) -> Linear {
    match d {
        Dim::Const(c) => Linear::constant(*c),
        Dim::Add(a, b) => linear(a).add(&linear(b), 1),
        Dim::Sub(a, b) => linear(a).add(&linear(b), -1),
        Dim::Mul(a, b) => linear(a).mul(&linear(b)),
        Dim::Var(_) | Dim::DimOf(..) => Linear::term(d.clone()),
        Dim::Slice(_) | Dim::Elem(..) => Linear::term(rebuild_opaque(d)),
        Dim::Div(a, b) | Dim::Rem(a, b) | Dim::Max(a, b) | Dim::Min(a, b) => {
            let (la, lb) = (linear(a), linear(b));
            match (la.as_const(), lb.as_const()) {
                (Some(x), Some(y)) => match d {
                    Dim::Div(..) if y != 0 => Linear::constant(x.wrapping_div(y)),
                    Dim::Rem(..) if y != 0 => Linear::constant(x.wrapping_rem(y)),
                    Dim::Max(..) => Linear::constant(x.max(y)),
                    Dim::Min(..) => Linear::constant(x.min(y)),
                    _ => Linear::term(d.clone()),
                },
                _ => {
                    if matches!(d, Dim::Max(..) | Dim::Min(..)) && la == lb {
                        return la;
                    }
                    Linear::term(rebuild_opaque(d))
                }
            }
        }
    }
}

/// An opaque term with simplified operands (so equal terms compare equal).
fn rebuild_opaque(d: &Dim) -> Dim {
    let f = |a: &Dim| Box::new(a.simplify());
    match d {
        Dim::Div(a, b) => Dim::Div(f(a), f(b)),
        Dim::Rem(a, b) => Dim::Rem(f(a), f(b)),
        Dim::Max(a, b) => Dim::Max(f(a), f(b)),
        Dim::Min(a, b) => Dim::Min(f(a), f(b)),
        Dim::Slice(sl) => Dim::Slice(Box::new(sl.map_parts(&mut |x| x.simplify()))),
        Dim::Elem(a, idx) => Dim::Elem(a.clone(), idx.iter().map(|x| x.simplify()).collect()),
        _ => d.clone(),
    }
}

fn from_linear(l: &Linear) -> Dim {
    let mut acc: Option<Dim> = None;
    for (t, k) in &l.terms {
        let mut prod = t[0].clone();
        for x in &t[1..] {
            prod = Dim::Mul(Box::new(prod), Box::new(x.clone()));
        }
        let (term, neg) = match *k {
            1 => (prod, false),
            -1 => (prod, true),
            // (`i64::MIN` has no negation: added as it is, so that simplifying
            // the result gives it back, fuzz seed 109, program 19170)
            k if k < 0 && k != i64::MIN => {
                (Dim::Mul(Box::new(Dim::Const(-k)), Box::new(prod)), true)
            }
            k => (Dim::Mul(Box::new(Dim::Const(k)), Box::new(prod)), false),
        };
        acc = Some(match (acc, neg) {
            (None, false) => term,
            (None, true) => Dim::Sub(Box::new(Dim::Const(0)), Box::new(term)),
            (Some(a), false) => Dim::Add(Box::new(a), Box::new(term)),
            (Some(a), true) => Dim::Sub(Box::new(a), Box::new(term)),
        });
    }
    match acc {
        None => Dim::Const(l.c),
        Some(a) if l.c == 0 => a,
        Some(a) if l.c > 0 => Dim::Add(Box::new(a), Box::new(Dim::Const(l.c))),
        Some(a) => Dim::Sub(Box::new(a), Box::new(Dim::Const(l.c.wrapping_neg()))),
    }
}

impl Dim {
    pub fn plus(a: Dim, b: Dim) -> Dim {
        Dim::Add(Box::new(a), Box::new(b)).simplify()
    }
    pub fn minus(a: Dim, b: Dim) -> Dim {
        Dim::Sub(Box::new(a), Box::new(b)).simplify()
    }
    pub fn times(a: Dim, b: Dim) -> Dim {
        Dim::Mul(Box::new(a), Box::new(b)).simplify()
    }
    /// Partial evaluation: constant folding and normalisation to a sum of terms.
    pub fn simplify(&self) -> Dim {
        from_linear(&linear(self))
    }
    pub fn as_const(&self) -> Option<i64> {
        linear(self).as_const()
    }
    /// Replace leaves.
    pub fn map_leaves(&self, f: &mut dyn FnMut(&Dim) -> Option<Dim>) -> Dim {
        if let Some(d) = f(self) {
            return d;
        }
        let mut g = |a: &Dim| Box::new(a.map_leaves(f));
        match self {
            Dim::Const(_) | Dim::Var(_) | Dim::DimOf(..) => self.clone(),
            Dim::Add(a, b) => Dim::Add(g(a), g(b)),
            Dim::Sub(a, b) => Dim::Sub(g(a), g(b)),
            Dim::Mul(a, b) => Dim::Mul(g(a), g(b)),
            Dim::Div(a, b) => Dim::Div(g(a), g(b)),
            Dim::Rem(a, b) => Dim::Rem(g(a), g(b)),
            Dim::Max(a, b) => Dim::Max(g(a), g(b)),
            Dim::Min(a, b) => Dim::Min(g(a), g(b)),
            Dim::Elem(a, idx) => {
                Dim::Elem(a.clone(), idx.iter().map(|x| x.map_leaves(f)).collect())
            }
            // the loop's own names are not leaves
            Dim::Slice(sl) => Dim::Slice(Box::new(sl.map_parts(&mut |x| {
                x.map_leaves(&mut |l| match l {
                    Dim::Var(v) if sl.binds(v) => Some(l.clone()),
                    _ => f(l),
                })
            }))),
        }
    }
    /// The value of a shape given its leaves (`leaf` gives a `Var`'s or a
    /// `DimOf`'s value), with the shape function's arithmetic: wrapping, a
    /// division or remainder by zero giving 0, a slice run as its loop.
    /// `None` where a leaf has no value (`leaf` also gives an `Elem`'s value).
    pub fn eval(&self, leaf: &dyn Fn(&Dim) -> Option<i64>) -> Option<i64> {
        let e = |d: &Dim| d.eval(leaf);
        Some(match self {
            Dim::Const(c) => *c,
            Dim::Var(_) | Dim::DimOf(..) => leaf(self)?,
            // the indices evaluated here (a loop slice's counter may be one)
            Dim::Elem(a, idx) => {
                let idx = idx
                    .iter()
                    .map(|x| e(x).map(Dim::Const))
                    .collect::<Option<Vec<_>>>()?;
                leaf(&Dim::Elem(a.clone(), idx))?
            }
            Dim::Add(a, b) => e(a)?.wrapping_add(e(b)?),
            Dim::Sub(a, b) => e(a)?.wrapping_sub(e(b)?),
            Dim::Mul(a, b) => e(a)?.wrapping_mul(e(b)?),
            Dim::Div(a, b) => match e(b)? {
                0 => 0,
                y => e(a)?.wrapping_div(y),
            },
            Dim::Rem(a, b) => match e(b)? {
                0 | -1 => 0,
                y => e(a)?.wrapping_rem(y),
            },
            Dim::Max(a, b) => e(a)?.max(e(b)?),
            Dim::Min(a, b) => e(a)?.min(e(b)?),
            Dim::Slice(sl) => {
                let mut lens: Vec<i64> = sl.init.iter().map(e).collect::<Option<_>>()?;
                let mut most = *lens.get(sl.which)?;
                for i in 0..e(&sl.trips)? {
                    let env = |d: &Dim| match d {
                        Dim::Var(v) if *v == sl.index => Some(i),
                        Dim::Var(v) => match sl.lens.iter().position(|l| l == v) {
                            Some(k) => lens.get(k).copied(),
                            None => leaf(d),
                        },
                        _ => leaf(d),
                    };
                    lens = sl
                        .step
                        .iter()
                        .map(|x| x.eval(&env))
                        .collect::<Option<_>>()?;
                    most = most.max(*lens.get(sl.which)?);
                }
                if sl.most { most } else { *lens.get(sl.which)? }
            }
        })
    }
    /// Every variable leaf (`Var` names and `DimOf` arrays).
    pub fn leaves(&self, out: &mut Vec<Name>) {
        match self {
            Dim::Const(_) => {}
            Dim::Slice(sl) => {
                let mut inner = Vec::new();
                for x in sl.init.iter().chain(&sl.step).chain([&sl.trips]) {
                    x.leaves(&mut inner);
                }
                out.extend(inner.into_iter().filter(|v| !sl.binds(v)));
            }
            Dim::Var(v) | Dim::DimOf(v, _) => out.push(v.clone()),
            Dim::Elem(a, idx) => {
                out.push(a.clone());
                for x in idx {
                    x.leaves(out);
                }
            }
            Dim::Add(a, b)
            | Dim::Sub(a, b)
            | Dim::Mul(a, b)
            | Dim::Div(a, b)
            | Dim::Rem(a, b)
            | Dim::Max(a, b)
            | Dim::Min(a, b) => {
                a.leaves(out);
                b.leaves(out);
            }
        }
    }
}

/// Are the two dims equal for all values of their leaves (as linear forms)?
pub fn same_dim(a: &Dim, b: &Dim) -> bool {
    linear(a) == linear(b)
}

/// Are two shapes provably equal?
pub fn same(a: &[Dim], b: &[Dim]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_dim(x, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    fn v(s: &str) -> Dim {
        Dim::Var(s.into())
    }
    #[test]
    fn seidel_concat_shape_is_invariant() {
        // (j + 1) - 0 + 1 + (d - (j + 1 + 1)) == d  (slices and concat of seidel)
        let j1 = Dim::plus(v("j"), Dim::Const(1));
        let left = Dim::minus(j1.clone(), Dim::Const(0));
        let right = Dim::minus(Dim::DimOf("a".into(), 0), Dim::plus(j1, Dim::Const(1)));
        let total = Dim::plus(left, Dim::plus(Dim::Const(1), right));
        assert!(same_dim(&total, &Dim::DimOf("a".into(), 0)));
        assert!(!same_dim(&total, &v("j")));
    }
    #[test]
    fn products_and_constants() {
        let nm = Dim::times(v("n"), v("m"));
        let mn = Dim::times(v("m"), v("n"));
        assert!(same_dim(&nm, &mn));
        assert_eq!(
            Dim::times(Dim::Const(3), Dim::Const(4)).as_const(),
            Some(12)
        );
        let mx = Dim::Max(
            Box::new(Dim::Const(0)),
            Box::new(Dim::minus(v("n"), Dim::Const(2))),
        );
        assert!(same_dim(&mx, &mx.simplify()));
        assert!(!same_dim(&mx, &v("n")));
    }
    #[test]
    fn simplify_is_idempotent_at_the_extremes() {
        // (a coefficient of i64::MIN has no negation: fuzz seed 109,
        // program 19170 recursed forever emitting it)
        for k in [i64::MIN, i64::MIN + 1, -1, i64::MAX] {
            let d = Dim::Sub(
                Box::new(Dim::Const(k)),
                Box::new(Dim::times(Dim::Const(k), v("n"))),
            );
            let once = d.simplify();
            assert_eq!(once.simplify(), once, "{k}");
            // every sub-term simplifies to something no larger
            fn size(d: &Dim) -> usize {
                match d {
                    Dim::Add(a, b) | Dim::Sub(a, b) | Dim::Mul(a, b) => 1 + size(a) + size(b),
                    _ => 1,
                }
            }
            if let Dim::Sub(a, b) | Dim::Add(a, b) | Dim::Mul(a, b) = &once {
                assert!(size(&a.simplify()) <= size(a), "{k}");
                assert!(size(&b.simplify()) <= size(b), "{k}");
            }
        }
    }
}
