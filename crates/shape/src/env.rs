//! The shape environment of a function being translated (issue 15,
//! deliverable 1): what is known about its sizes, and the reasoning over
//! them that the DPS translation consumes. Locals are named by their
//! definitions ([`ShapeEnv::defs`]), existentials by their upper bounds
//! ([`ShapeEnv::exist_bounds`]), integers read from array parameters by
//! their reads ([`ShapeEnv::reads`], the O(1) shape slices of size slicing's
//! cost model), each name by the depth of the block binding it; from these
//! a size is expanded, resolved to what is in scope at some depth, bounded
//! from above or below, or written in terms of the parameters (a result's
//! shape, the shape function's).
//!
//! The walk that fills the environment statement by statement is still in
//! the DPS translation (`weir_dps::translate`).

use crate::dim::Dim;
use std::collections::HashMap;
use weir_ir::{Name, Span};

/// A read (or a view) of an array parameter: see [`ShapeEnv::reads`].
#[derive(Clone, Debug)]
pub struct Read {
    pub arr: Name,
    pub idx: Vec<Dim>,
    pub off: Dim,
    pub rank: usize,
}

/// What [`ShapeEnv::expand_by`] does with a variable leaf.
pub enum LeafRule {
    Keep,
    Replace(Dim),
    Expand,
}

/// See the module documentation.
#[derive(Default)]
pub struct ShapeEnv {
    /// Is the function an entry point (its shape function reads elements of
    /// its array parameters)?
    pub entry: bool,
    /// `i64` scalar → its definition as a shape expression (for expansion).
    pub defs: HashMap<Name, Dim>,
    /// Name → nesting depth of its binding.
    pub depth: HashMap<Name, usize>,
    /// The current nesting depth.
    pub cur: usize,
    /// Where each size parameter is read from (a dim of an array parameter).
    pub size_home: HashMap<Name, Dim>,
    /// Sizes computed by constructs, in terms of the parameters, with the
    /// construct's location (first one wins): the locations the shape function
    /// reports a negative or overflowing size at.
    pub origins: Vec<(Dim, Span)>,
    /// An upper bound of each existential size (a filter's count: its input's
    /// length; an `if`'s length: the longer branch's), in shape terms.
    pub exist_bounds: HashMap<Name, Dim>,
    /// Reads of the function's array parameters: an integer scalar or a view
    /// of a parameter (rows, slices) → the parameter, the indices fixed so
    /// far, the offset of the next one, and the parameter's rank. A result
    /// size computed from them is an O(1) shape slice ([`Dim::Elem`]).
    pub reads: HashMap<Name, Read>,
}

impl ShapeEnv {
    /// Remember that the construct at `span` computes the size `d` (when it can
    /// be said in terms of the parameters).
    pub fn record_origin(&mut self, d: &Dim, span: Span) {
        let Ok(e) = self.expand_to_params(d, &self.size_home) else {
            return;
        };
        if self.origin_of(&e).is_some() {
            return;
        }
        self.origins.push((e, span));
    }

    /// The construct that computes the size `d` (in terms of the parameters).
    pub fn origin_of(&self, d: &Dim) -> Option<Span> {
        self.origins
            .iter()
            .find(|(o, _)| crate::same_dim(o, d))
            .map(|(_, s)| *s)
    }

    /// Leave a block: the names bound in it go out of scope (a shape that
    /// mentions them is expanded through their definitions from now on).
    pub fn leave_scope(&mut self) {
        self.cur -= 1;
        let c = self.cur;
        self.depth.retain(|_, d| *d <= c);
    }

    /// Rewrite the variable leaves of `d` as `decide` says; `Expand` replaces a
    /// variable by its definition (recursively) and fails with its name if it has none.
    pub fn expand_by(&self, d: &Dim, decide: &dyn Fn(&Dim) -> LeafRule) -> Result<Dim, Name> {
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

    /// An upper (`up`) or lower bound of the size `d`, with every existential
    /// replaced by its bound ([`ShapeEnv::exist_bounds`]; an existential is at
    /// least 0) and every local by its definition; `None` where no bound
    /// follows (a product or quotient of existentials, no fuel left).
    pub fn bound(&self, d: &Dim, up: bool, fuel: usize) -> Option<Dim> {
        let fuel = fuel.checked_sub(1)?;
        let b = |x: &Dim, u: bool| self.bound(x, u, fuel);
        let exact = |x: &Dim| -> Option<Dim> {
            let hi = b(x, true)?;
            (hi == b(x, false)?).then_some(hi)
        };
        let bx = |x: Dim| Box::new(x);
        Some(match d {
            Dim::Const(_) | Dim::DimOf(..) => d.clone(),
            // an element read at exact indices is exact
            Dim::Elem(a, idx) => Dim::Elem(
                a.clone(),
                idx.iter().map(exact).collect::<Option<Vec<_>>>()?,
            ),
            Dim::Var(v) => match (self.exist_bounds.get(v), self.defs.get(v)) {
                (Some(_), _) if !up => Dim::Const(0),
                (Some(e), _) => b(e, true)?,
                (None, Some(def)) => b(def, up)?,
                (None, None) => d.clone(),
            },
            Dim::Add(x, y) => Dim::Add(bx(b(x, up)?), bx(b(y, up)?)),
            Dim::Sub(x, y) => Dim::Sub(bx(b(x, up)?), bx(b(y, !up)?)),
            Dim::Max(x, y) => Dim::Max(bx(b(x, up)?), bx(b(y, up)?)),
            Dim::Min(x, y) => Dim::Min(bx(b(x, up)?), bx(b(y, up)?)),
            Dim::Mul(x, y) => match (exact(x), exact(y)) {
                (Some(x), Some(y)) => Dim::Mul(bx(x), bx(y)),
                (Some(c @ Dim::Const(k)), None) if k >= 0 => Dim::Mul(bx(c), bx(b(y, up)?)),
                (None, Some(c @ Dim::Const(k))) if k >= 0 => Dim::Mul(bx(b(x, up)?), bx(c)),
                // factors that are never negative (sizes: a product of an
                // existential and a dim, `flatten` of filtered rows): the
                // product of their bounds, the same way
                _ => {
                    let nonneg = |x: &Dim| {
                        b(x, false).is_some_and(|lo| {
                            matches!(lo.simplify(), Dim::DimOf(..))
                                || lo.as_const().is_some_and(|c| c >= 0)
                        })
                    };
                    if !(nonneg(x) && nonneg(y)) {
                        return None;
                    }
                    Dim::Mul(bx(b(x, up)?), bx(b(y, up)?))
                }
            },
            Dim::Rem(x, y) => match (exact(x), exact(y)) {
                (Some(x), Some(y)) => Dim::Rem(bx(x), bx(y)),
                _ => return None,
            },
            Dim::Div(x, y) => match (exact(x), exact(y)) {
                (Some(x), Some(y)) => Dim::Div(bx(x), bx(y)),
                (None, Some(c @ Dim::Const(k))) if k > 0 => Dim::Div(bx(b(x, up)?), bx(c)),
                _ => return None,
            },
            // a loop's lengths, run: exact when its parts are
            Dim::Slice(sl) => {
                let mut ok = true;
                let r = sl.map_parts(&mut |x| {
                    exact(x).unwrap_or_else(|| {
                        ok = false;
                        x.clone()
                    })
                });
                if !ok {
                    return None;
                }
                Dim::Slice(Box::new(r))
            }
        })
    }

    /// An upper (`up`) or lower bound of `d` in terms of the parameters,
    /// where [`ShapeEnv::bound`] keeps a value computed from data: such a value
    /// bounds nothing, but a remainder by a divisor known from the arguments
    /// is less than it in magnitude (`(sum xs) % 4` is at most 3), a `min`
    /// is at most either side and a `max` at least either side.
    pub fn param_bound(
        &self,
        d: &Dim,
        up: bool,
        homes: &HashMap<Name, Dim>,
        fuel: usize,
    ) -> Option<Dim> {
        let fuel = fuel.checked_sub(1)?;
        if let Some(b) = self.bound(d, up, 64)
            && let Ok(e) = self.expand_to_params(&b, homes)
        {
            return Some(e);
        }
        let b = |x: &Dim, u: bool| self.param_bound(x, u, homes, fuel);
        let bx = |x: Dim| Box::new(x);
        Some(
            match d {
                Dim::Var(v) => match (self.exist_bounds.get(v), self.defs.get(v)) {
                    (Some(_), _) if !up => Dim::Const(0),
                    (Some(e), _) => b(e, true)?,
                    (None, Some(def)) => b(def, up)?,
                    (None, None) => return None,
                },
                Dim::Rem(_, y) => {
                    // |x % y| <= |y| - 1 (and 0 for y = 0), |y| <= max(hi, -lo)
                    let (hi, lo) = (b(y, true)?, b(y, false)?);
                    let one = || bx(Dim::Const(1));
                    let mag = Dim::Max(
                        bx(Dim::Max(
                            bx(Dim::Sub(bx(hi), one())),
                            bx(Dim::Sub(bx(Dim::Sub(bx(Dim::Const(0)), bx(lo))), one())),
                        )),
                        bx(Dim::Const(0)),
                    );
                    if up {
                        mag
                    } else {
                        Dim::Sub(bx(Dim::Const(0)), bx(mag))
                    }
                }
                Dim::Min(x, y) if up => match (b(x, true), b(y, true)) {
                    (Some(p), Some(q)) => Dim::Min(bx(p), bx(q)),
                    (Some(p), None) | (None, Some(p)) => p,
                    (None, None) => return None,
                },
                Dim::Max(x, y) if !up => match (b(x, false), b(y, false)) {
                    (Some(p), Some(q)) => Dim::Max(bx(p), bx(q)),
                    (Some(p), None) | (None, Some(p)) => p,
                    (None, None) => return None,
                },
                Dim::Min(x, y) => Dim::Min(bx(b(x, up)?), bx(b(y, up)?)),
                Dim::Max(x, y) => Dim::Max(bx(b(x, up)?), bx(b(y, up)?)),
                Dim::Add(x, y) => Dim::Add(bx(b(x, up)?), bx(b(y, up)?)),
                Dim::Sub(x, y) => Dim::Sub(bx(b(x, up)?), bx(b(y, !up)?)),
                Dim::Mul(x, c) if c.as_const().is_some_and(|k| k >= 0) => {
                    Dim::Mul(bx(b(x, up)?), c.clone())
                }
                Dim::Mul(c, x) if c.as_const().is_some_and(|k| k >= 0) => {
                    Dim::Mul(bx(b(x, up)?), c.clone())
                }
                Dim::Div(x, c) if c.as_const().is_some_and(|k| k > 0) => {
                    Dim::Div(bx(b(x, up)?), c.clone())
                }
                _ => return None,
            }
            .simplify(),
        )
    }

    /// Expand a shape so that it only mentions parameters (for result templates).
    /// In an entry, a read of an array parameter ([`ShapeEnv::reads`]) becomes
    /// [`Dim::Elem`], its indices expanded the same way (the shape function
    /// reads it; a caller of another function could not: it names the
    /// callee's parameter).
    pub fn expand_to_params(&self, d: &Dim, homes: &HashMap<Name, Dim>) -> Result<Dim, Name> {
        self.expand_by(d, &|l| match l {
            Dim::Var(v) => match homes.get(v) {
                Some(h) => LeafRule::Replace(h.clone()),
                None if self.depth.get(v) == Some(&0) && !self.defs.contains_key(v) => {
                    LeafRule::Keep
                }
                None => match self.read_of(v).filter(|_| self.entry) {
                    Some(r) => match r
                        .idx
                        .iter()
                        .map(|i| self.expand_to_params(i, homes))
                        .collect::<Result<Vec<_>, _>>()
                    {
                        Ok(idx) => LeafRule::Replace(Dim::Elem(r.arr.clone(), idx)),
                        Err(_) => LeafRule::Expand,
                    },
                    None => LeafRule::Expand,
                },
            },
            _ => LeafRule::Keep,
        })
        .map(|r| r.simplify())
    }

    /// `d` in terms of names bound at depth `max` or less: locals expanded
    /// into their definitions, reads of parameters ([`ShapeEnv::reads`]) into
    /// [`Dim::Elem`] (a load that gives 0 out of bounds, so it may run
    /// before the read it stands for, or where that read never runs).
    pub fn resolve(&self, d: &Dim, max: usize) -> Result<Dim, Name> {
        self.resolve_keeping(d, max, None)
    }

    /// [`ShapeEnv::resolve`], keeping `keep` (a `build`'s index) as a name too.
    pub fn resolve_keeping(&self, d: &Dim, max: usize, keep: Option<&Name>) -> Result<Dim, Name> {
        self.expand_by(d, &|l| match l {
            Dim::Var(v) | Dim::DimOf(v, _) if self.depth.get(v).is_some_and(|x| *x <= max) => {
                LeafRule::Keep
            }
            Dim::Var(v) if Some(v) == keep => LeafRule::Keep,
            Dim::Var(v) if !self.defs.contains_key(v) => match self.read_of(v).and_then(|r| {
                r.idx
                    .iter()
                    .map(|i| self.resolve_keeping(i, max, keep).ok())
                    .collect::<Option<Vec<_>>>()
                    .map(|idx| Dim::Elem(r.arr.clone(), idx))
            }) {
                Some(e) => LeafRule::Replace(e),
                None => LeafRule::Expand,
            },
            _ => LeafRule::Expand,
        })
    }

    /// A complete read of an integer of an array parameter ([`ShapeEnv::reads`]).
    pub fn read_of(&self, v: &Name) -> Option<&Read> {
        self.reads.get(v).filter(|r| r.idx.len() == r.rank)
    }

    /// Fully expanded (for equality tests).
    pub fn expand(&self, d: &Dim) -> Dim {
        d.map_leaves(&mut |l| match l {
            Dim::Var(v) => match self.defs.get(v) {
                Some(def) => Some(self.expand(def)),
                None => self.read_of(v).map(|r| {
                    Dim::Elem(
                        r.arr.clone(),
                        r.idx.iter().map(|i| self.expand(i)).collect(),
                    )
                }),
            },
            _ => None,
        })
    }

    pub fn same_shape(&self, a: &[Dim], b: &[Dim]) -> bool {
        let ea: Vec<Dim> = a.iter().map(|d| self.expand(d)).collect();
        let eb: Vec<Dim> = b.iter().map(|d| self.expand(d)).collect();
        crate::same(&ea, &eb)
    }
}
