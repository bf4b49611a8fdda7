//! Builtins applied to their arguments, one typed constructor per builtin.
//!
//! [`Prim`] is what [`crate::Exp::Prim`] holds: every builtin has a constructor with
//! named fields, an [`Atom`] for a value operand and a [`Fun`] for a function
//! operand, so a pass that looks at `build n f` binds `n` and `f` by name and
//! cannot meet a `build` with the wrong number of operands. The arity and kinds
//! are checked once, where a `Prim` is made from a builtin and a list of
//! arguments ([`Prim::from_args`]: the IR parser and the elaborator).
//!
//! Passes that treat every builtin alike (substitution, free variables, the
//! verifier's typing) see the operands in order through [`Prim::args`] and
//! [`Prim::args_mut`]; the positions are those of the text form and of
//! [`Builtin::arg_kinds`] and [`Builtin::index_loop`].
//!
//! The table below is the single description of each builtin's operands: the
//! enum, the generic accessors and `Builtin::arg_kinds` are generated from it.

use crate::{Arg, Atom, Builtin, Fun, Lambda};

/// A borrowed operand of a [`Prim`] (or of a call): a value or a function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgRef<'a> {
    Atom(&'a Atom),
    Fun(&'a Fun),
}

/// A mutably borrowed operand of a [`Prim`] (or of a call).
#[derive(Debug)]
pub enum ArgMut<'a> {
    Atom(&'a mut Atom),
    Fun(&'a mut Fun),
}

impl<'a> ArgRef<'a> {
    pub fn atom(self) -> Option<&'a Atom> {
        match self {
            ArgRef::Atom(a) => Some(a),
            ArgRef::Fun(_) => None,
        }
    }
    pub fn fun(self) -> Option<&'a Fun> {
        match self {
            ArgRef::Fun(f) => Some(f),
            ArgRef::Atom(_) => None,
        }
    }
    /// The lambda, if this operand is one (not a function variable).
    pub fn lambda(self) -> Option<&'a Lambda> {
        match self {
            ArgRef::Fun(Fun::Lambda(l)) => Some(l),
            _ => None,
        }
    }
    pub fn to_arg(self) -> Arg {
        match self {
            ArgRef::Atom(a) => Arg::Atom(a.clone()),
            ArgRef::Fun(f) => Arg::Fun(f.clone()),
        }
    }
}

impl Arg {
    pub fn as_arg_ref(&self) -> ArgRef<'_> {
        match self {
            Arg::Atom(a) => ArgRef::Atom(a),
            Arg::Fun(f) => ArgRef::Fun(f),
        }
    }
    pub fn as_arg_mut(&mut self) -> ArgMut<'_> {
        match self {
            Arg::Atom(a) => ArgMut::Atom(a),
            Arg::Fun(f) => ArgMut::Fun(f),
        }
    }
}

/// Why a list of arguments is not an application of a builtin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArityError {
    pub builtin: Builtin,
    pub got: usize,
}

impl std::fmt::Display for ArityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds = self.builtin.arg_kinds();
        let shape: Vec<String> = kinds
            .iter()
            .map(|k| match k {
                None => "a value".to_string(),
                Some(n) => format!("a function of {n}"),
            })
            .collect();
        write!(
            f,
            "`{}` takes {} arguments ({}), got {}",
            self.builtin.name(),
            kinds.len(),
            shape.join(", "),
            self.got
        )
    }
}

macro_rules! field_ty {
    (Atom) => {
        Atom
    };
    (Fun $n:literal) => {
        Fun
    };
}

macro_rules! field_kind {
    (Atom) => {
        None
    };
    (Fun $n:literal) => {
        Some($n)
    };
}

macro_rules! field_ref {
    (Atom, $x:expr) => {
        ArgRef::Atom($x)
    };
    (Fun $n:literal, $x:expr) => {
        ArgRef::Fun($x)
    };
}

macro_rules! field_mut {
    (Atom, $x:expr) => {
        ArgMut::Atom($x)
    };
    (Fun $n:literal, $x:expr) => {
        ArgMut::Fun($x)
    };
}

macro_rules! field_arg {
    (Atom, $x:expr) => {
        Arg::Atom($x)
    };
    (Fun $n:literal, $x:expr) => {
        Arg::Fun($x)
    };
}

macro_rules! field_take {
    (Atom, $it:expr, $b:expr, $got:expr) => {
        match $it.next() {
            Some(Arg::Atom(x)) => x,
            _ => {
                return Err(ArityError {
                    builtin: $b,
                    got: $got,
                })
            }
        }
    };
    (Fun $n:literal, $it:expr, $b:expr, $got:expr) => {
        match $it.next() {
            Some(Arg::Fun(x)) => x,
            _ => {
                return Err(ArityError {
                    builtin: $b,
                    got: $got,
                })
            }
        }
    };
}

macro_rules! prims {
    ($( $(#[$m:meta])* $V:ident { $($f:ident : $k:ident $($n:literal)?),* } ),* $(,)?) => {
        /// A builtin applied to its operands (see the module documentation).
        #[derive(Clone, Debug, PartialEq)]
        pub enum Prim {
            $( $(#[$m])* $V { $($f: field_ty!($k $($n)?)),* }, )*
        }

        impl Prim {
            /// Which builtin this is.
            pub fn builtin(&self) -> Builtin {
                match self {
                    $( Prim::$V { .. } => Builtin::$V, )*
                }
            }

            /// The operands in order (the positions of the text form).
            pub fn args(&self) -> Vec<ArgRef<'_>> {
                match self {
                    $( Prim::$V { $($f),* } => vec![$(field_ref!($k $($n)?, $f)),*], )*
                }
            }

            /// The operands in order, mutably.
            pub fn args_mut(&mut self) -> Vec<ArgMut<'_>> {
                match self {
                    $( Prim::$V { $($f),* } => vec![$(field_mut!($k $($n)?, $f)),*], )*
                }
            }

            /// The builtin and its operands as an untyped list.
            pub fn into_args(self) -> (Builtin, Vec<Arg>) {
                match self {
                    $( Prim::$V { $($f),* } => (Builtin::$V, vec![$(field_arg!($k $($n)?, $f)),*]), )*
                }
            }

            /// `b` applied to `args`, if they are as many and of the kinds `b`
            /// takes (a function where it takes a function, a value where it
            /// takes a value; the function's arity is the verifier's business).
            pub fn from_args(b: Builtin, args: Vec<Arg>) -> Result<Prim, ArityError> {
                let got = args.len();
                let mut it = args.into_iter();
                let p = match b {
                    $( Builtin::$V => {
                        $( let $f = field_take!($k $($n)?, it, b, got); )*
                        Prim::$V { $($f),* }
                    } )*
                };
                if it.next().is_some() {
                    return Err(ArityError { builtin: b, got });
                }
                Ok(p)
            }
        }

        impl Builtin {
            /// For each operand: `Some(k)` if it is a function of `k` parameters,
            /// `None` for a value.
            pub fn arg_kinds(self) -> &'static [Option<usize>] {
                match self {
                    $( Builtin::$V => &[$(field_kind!($k $($n)?)),*], )*
                }
            }
        }
    };
}

prims! {
    /// `build n f`: `[f 0, ..., f (n - 1)]`.
    Build { n: Atom, f: Fun 1 },
    /// `ifold f init n`: `f (... (f init 0) ...) (n - 1)`.
    IFold { f: Fun 2, init: Atom, n: Atom },
    Length { a: Atom },
    Map { f: Fun 1, a: Atom },
    Map2 { f: Fun 2, a: Atom, b: Atom },
    Map3 { f: Fun 3, a: Atom, b: Atom, c: Atom },
    Zip { a: Atom, b: Atom },
    Zip3 { a: Atom, b: Atom, c: Atom },
    Unzip { a: Atom },
    Unzip3 { a: Atom },
    Fold { op: Fun 2, init: Atom, a: Atom },
    Reduce { op: Fun 2, ne: Atom, a: Atom },
    Scan { op: Fun 2, ne: Atom, a: Atom },
    Filter { p: Fun 1, a: Atom },
    Partition { p: Fun 1, a: Atom },
    Partition2 { p: Fun 1, q: Fun 1, a: Atom },
    Iota { n: Atom },
    Replicate { n: Atom, x: Atom },
    Concat { a: Atom, b: Atom },
    Split { k: Atom, a: Atom },
    Flatten { a: Atom },
    Unflatten { n: Atom, m: Atom, a: Atom },
    Transpose { a: Atom },
    Slide { w: Atom, step: Atom, a: Atom },
    Reverse { a: Atom },
    Rotate { k: Atom, a: Atom },
    Stride { k: Atom, a: Atom },
    Gather { a: Atom, is: Atom },
    /// `pad lo hi x a`: `lo` copies of `x`, then `a`, then `hi` copies of `x`.
    Pad { lo: Atom, hi: Atom, x: Atom, a: Atom },
    Sum { a: Atom },
    Product { a: Atom },
    Maximum { a: Atom },
    Minimum { a: Atom },
    /// `ireduce op ne n f`.
    IReduce { op: Fun 2, ne: Atom, n: Atom, f: Fun 1 },
    Scatter { dest: Atom, is: Atom, vs: Atom },
    ReduceByIndex { dest: Atom, op: Fun 2, ne: Atom, is: Atom, vs: Atom },
    /// `ireduce_by_index dest op ne m f`.
    IReduceByIndex { dest: Atom, op: Fun 2, ne: Atom, m: Atom, f: Fun 1 },
    ArgMax { a: Atom },
    ArgMin { a: Atom },
    Copy { a: Atom },
    /// `update a i v`: `a with [i] = v`.
    Update { a: Atom, i: Atom, v: Atom },
    /// `update2 a i j v`: `a with [i][j] = v`.
    Update2 { a: Atom, i: Atom, j: Atom, v: Atom },
    /// `update3 a i j k v`: `a with [i][j][k] = v`.
    Update3 { a: Atom, i: Atom, j: Atom, k: Atom, v: Atom },
    /// `update_slice a s e v`: `a with [s:e] = v`.
    UpdateSlice { a: Atom, s: Atom, e: Atom, v: Atom },
    /// `update_slice2 a i s e v`: `a with [i][s:e] = v`.
    UpdateSlice2 { a: Atom, i: Atom, s: Atom, e: Atom, v: Atom },
}

impl Prim {
    /// An in-place update: the array it updates (consumed), the indices of
    /// the element or row it writes, the slice `(s, e)` it writes if it
    /// writes one (after the indices), and the value written.
    #[allow(clippy::type_complexity)]
    pub fn update_parts(&self) -> Option<(&Atom, Vec<&Atom>, Option<(&Atom, &Atom)>, &Atom)> {
        Some(match self {
            Prim::Update { a, i, v } => (a, vec![i], None, v),
            Prim::Update2 { a, i, j, v } => (a, vec![i, j], None, v),
            Prim::Update3 { a, i, j, k, v } => (a, vec![i, j, k], None, v),
            Prim::UpdateSlice { a, s, e, v } => (a, vec![], Some((s, e)), v),
            Prim::UpdateSlice2 { a, i, s, e, v } => (a, vec![i], Some((s, e)), v),
            _ => return None,
        })
    }

    /// The builtin writing `v` at `idx` (one to three indices) of `a`.
    pub fn element_update(a: Atom, idx: &[Atom], v: Atom) -> Option<Prim> {
        Some(match idx {
            [i] => Prim::Update { a, i: i.clone(), v },
            [i, j] => Prim::Update2 {
                a,
                i: i.clone(),
                j: j.clone(),
                v,
            },
            [i, j, k] => Prim::Update3 {
                a,
                i: i.clone(),
                j: j.clone(),
                k: k.clone(),
                v,
            },
            _ => return None,
        })
    }

    /// The value operands, in order.
    pub fn atoms(&self) -> Vec<&Atom> {
        self.args().into_iter().filter_map(ArgRef::atom).collect()
    }

    /// The lambdas among the operands, in order.
    pub fn lambdas(&self) -> Vec<&Lambda> {
        self.args().into_iter().filter_map(ArgRef::lambda).collect()
    }

    /// The counted loop this builtin runs, if any: its trip count, the lambda
    /// that is its body, and the position of that lambda's index parameter
    /// (see [`Builtin::index_loop`]).
    pub fn index_loop(&self) -> Option<(&Atom, &Fun, usize)> {
        match self {
            Prim::Build { n, f } => Some((n, f, 0)),
            Prim::IFold { f, n, .. } => Some((n, f, 1)),
            Prim::IReduce { n, f, .. } => Some((n, f, 0)),
            Prim::IReduceByIndex { m, f, .. } => Some((m, f, 0)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Const;

    fn sample(b: Builtin) -> Vec<Arg> {
        b.arg_kinds()
            .iter()
            .enumerate()
            .map(|(i, k)| match k {
                None => Arg::Atom(Atom::Const(Const::I64(i as i64))),
                Some(_) => Arg::Fun(Fun::Var(format!("f{i}"))),
            })
            .collect()
    }

    #[test]
    fn every_builtin_round_trips_through_its_constructor() {
        for b in Builtin::ALL {
            let args = sample(b);
            let p = Prim::from_args(b, args.clone()).unwrap();
            assert_eq!(p.builtin(), b);
            let refs: Vec<Arg> = p.args().into_iter().map(ArgRef::to_arg).collect();
            assert_eq!(refs, args);
            assert_eq!(p.into_args(), (b, args));
        }
    }

    #[test]
    fn wrong_arity_or_kind_is_an_error_not_a_panic() {
        for b in Builtin::ALL {
            let mut args = sample(b);
            args.push(Arg::Atom(Atom::Const(Const::I64(9))));
            assert!(Prim::from_args(b, args.clone()).is_err());
            args.truncate(args.len() - 2);
            assert!(Prim::from_args(b, args).is_err());
            // every operand of the other kind
            let flipped: Vec<Arg> = sample(b)
                .into_iter()
                .map(|a| match a {
                    Arg::Atom(_) => Arg::Fun(Fun::Var("g".into())),
                    Arg::Fun(_) => Arg::Atom(Atom::Const(Const::I64(0))),
                })
                .collect();
            let e = Prim::from_args(b, flipped).unwrap_err();
            assert!(e.to_string().contains(b.name()), "{e}");
        }
    }

    #[test]
    fn index_loops_agree_with_the_positions() {
        for b in Builtin::ALL {
            let p = Prim::from_args(b, sample(b)).unwrap();
            match (b.index_loop(), p.index_loop()) {
                (None, None) => {}
                (Some((c, l, k)), Some((n, f, k2))) => {
                    assert_eq!(p.args()[c], ArgRef::Atom(n));
                    assert_eq!(p.args()[l], ArgRef::Fun(f));
                    assert_eq!(k, k2);
                }
                _ => panic!("{} disagrees", b.name()),
            }
        }
    }
}
#[cfg(test)]
mod size {
    /// A lambda operand is boxed, so a builtin with two function operands
    /// does not make every expression (and statement) larger.
    #[test]
    fn a_prim_is_no_larger_than_a_loop() {
        assert!(std::mem::size_of::<crate::Prim>() <= 128);
        assert!(std::mem::size_of::<crate::Exp>() <= 192);
    }
}
