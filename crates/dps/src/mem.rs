//! Memory of arrays (funmem-lmad §2–§3): every array of a DPS function is a
//! *memory block* and an *LMAD* index function over it, so that a view is an
//! index-function change and never a copy.
//!
//! An [`Lmad`] (linear memory access descriptor) maps an index
//! `(i0, …, ir-1)`, `0 <= ik < size_k`, to the element offset
//! `offset + Σ ik × stride_k` in its block. The blocks are the storage the
//! program allocates or is given: the function's array parameters and
//! destinations, the buffers of `alloc` scopes, and the two buffers of each
//! array loop state (the state being read, `var`, and the next one, `next`).
//! Each starts with the row-major LMAD of its dims ([`Lmad::row_major`]).
//! A [`View`] composes its source's LMAD with one operation of the algebra:
//!
//! | view | LMAD |
//! | --- | --- |
//! | `x[i]` | offset + i·s0, dim 0 dropped |
//! | `x[lo:hi]`, `placed D[lo:hi] in R` | offset + lo·s0, size0 = hi − lo |
//! | `transpose x` | dims 0 and 1 swapped |
//! | `reverse x` | offset + max(n0 − 1, 0)·s0, s0 = −s0 |
//! | `stride k x` | s0 = k·s0, size0 = n0 / k + min(n0 % k, 1) |
//! | `replicate n x` | a new dim 0 of size n and stride 0 |
//! | `reshape ds x` | row-major over `ds`, from x's offset (x row-major) |
//!
//! A placed view's block is its part's: the storage of the consumer it is
//! computed in (short-circuiting, funmem-lmad §4).
//!
//! Sizes, strides and offsets are [`Dim`]s (the shape language): `dim x k` of
//! a parameter or destination, the `i64` variables of the program, and
//! arithmetic. Two LMADs are compared as linear forms
//! ([`weir_shape::dim::same_dim`]), so the comparisons are symbolic and
//! conservative: "row-major" means provably so for every value of the
//! variables.
//!
//! The C backend keeps each array as a pointer (the block plus the offset)
//! with its dims, and the strides of the arrays that are not row-major
//! ([`crate::ir::strided_views`]); [`check_dense`], run by the verifier,
//! checks that every array the backend addresses as dense and row-major has
//! a row-major LMAD here. `weir dev --dump-after mem FILE` prints the memory
//! of every array of every function ([`program_to_string`]).

use crate::ir::*;
use std::collections::HashMap;
use std::fmt;
use weir_shape::Dim;

/// The integer arithmetic an index function is computed in. The algebra of
/// [`Lmad`] is written once over it: the memory analysis instantiates it
/// with symbolic sizes ([`Dim`]), the C backend with C expressions over its
/// arrays' dim and stride variables, so both address an array the same way.
pub trait IxArith: Clone {
    fn lit(c: i64) -> Self;
    fn add(a: Self, b: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    /// `-a`.
    fn neg(a: Self) -> Self {
        Self::mul(Self::lit(-1), a)
    }
    /// `max(a, 0)`.
    fn max0(a: Self) -> Self;
    /// `ceil(n / k)` for `n >= 0`, `k >= 1` (without overflow).
    fn ceil_div(n: Self, k: Self) -> Self;
}

impl IxArith for Dim {
    fn lit(c: i64) -> Dim {
        Dim::Const(c)
    }
    fn add(a: Dim, b: Dim) -> Dim {
        Dim::plus(a, b)
    }
    fn sub(a: Dim, b: Dim) -> Dim {
        Dim::minus(a, b)
    }
    fn mul(a: Dim, b: Dim) -> Dim {
        Dim::times(a, b)
    }
    fn max0(a: Dim) -> Dim {
        Dim::Max(Box::new(a), Box::new(Dim::Const(0)))
    }
    fn ceil_div(n: Dim, k: Dim) -> Dim {
        Dim::plus(
            Dim::Div(Box::new(n.clone()), Box::new(k.clone())),
            Dim::Min(
                Box::new(Dim::Rem(Box::new(n), Box::new(k))),
                Box::new(Dim::Const(1)),
            ),
        )
    }
}

/// One dimension of an [`Lmad`]: its size and its stride, in elements.
#[derive(Clone, Debug, PartialEq)]
pub struct LmadDim<T = Dim> {
    pub size: T,
    pub stride: T,
}

/// A linear memory access descriptor: element `(i0, …)` is at
/// `offset + Σ ik × dims[k].stride` of its block.
#[derive(Clone, Debug, PartialEq)]
pub struct Lmad<T = Dim> {
    pub offset: T,
    pub dims: Vec<LmadDim<T>>,
}

#[cfg(test)]
fn mul(a: Dim, b: Dim) -> Dim {
    Dim::times(a, b)
}

#[cfg(test)]
fn add(a: Dim, b: Dim) -> Dim {
    Dim::plus(a, b)
}

impl<T: IxArith> Lmad<T> {
    /// The dense row-major layout of an array of these sizes, from `offset`.
    pub fn row_major_at(offset: T, sizes: Vec<T>) -> Lmad<T> {
        let mut dims = Vec::with_capacity(sizes.len());
        let mut stride = T::lit(1);
        for size in sizes.into_iter().rev() {
            dims.push(LmadDim {
                size: size.clone(),
                stride: stride.clone(),
            });
            stride = T::mul(stride, size);
        }
        dims.reverse();
        Lmad { offset, dims }
    }

    /// The sizes.
    pub fn sizes(&self) -> Vec<T> {
        self.dims.iter().map(|d| d.size.clone()).collect()
    }

    /// The strides.
    pub fn strides(&self) -> Vec<T> {
        self.dims.iter().map(|d| d.stride.clone()).collect()
    }

    /// The element offset of an index (one per dimension, outermost first;
    /// fewer than the rank: the start of that sub-array).
    pub fn index(&self, idx: &[T]) -> T {
        idx.iter()
            .zip(&self.dims)
            .fold(self.offset.clone(), |o, (i, d)| {
                T::add(o, T::mul(i.clone(), d.stride.clone()))
            })
    }

    /// `x[i]`: row `i`.
    pub fn row(&self, i: T) -> Option<Lmad<T>> {
        let d0 = self.dims.first()?;
        Some(Lmad {
            offset: T::add(self.offset.clone(), T::mul(i, d0.stride.clone())),
            dims: self.dims[1..].to_vec(),
        })
    }

    /// `x[lo:hi]` along the first dimension.
    pub fn slice(&self, lo: T, hi: T) -> Option<Lmad<T>> {
        let d0 = self.dims.first()?;
        let mut dims = self.dims.clone();
        dims[0].size = T::sub(hi, lo.clone());
        Some(Lmad {
            offset: T::add(self.offset.clone(), T::mul(lo, d0.stride.clone())),
            dims,
        })
    }

    /// `transpose x`: the first two dimensions swapped.
    pub fn transpose(&self) -> Option<Lmad<T>> {
        if self.dims.len() < 2 {
            return None;
        }
        let mut dims = self.dims.clone();
        dims.swap(0, 1);
        Some(Lmad {
            offset: self.offset.clone(),
            dims,
        })
    }

    /// `reverse x`: the rows in reverse order (the offset of the last row,
    /// or of the first where there is none; the outer stride negated).
    pub fn reverse(&self) -> Option<Lmad<T>> {
        let d0 = self.dims.first()?;
        let last = T::max0(T::sub(d0.size.clone(), T::lit(1)));
        let mut dims = self.dims.clone();
        dims[0].stride = T::neg(d0.stride.clone());
        Some(Lmad {
            offset: T::add(self.offset.clone(), T::mul(last, d0.stride.clone())),
            dims,
        })
    }

    /// `stride k x`: every `k`-th row (`k >= 1`).
    pub fn stride(&self, k: T) -> Option<Lmad<T>> {
        let d0 = self.dims.first()?;
        let mut dims = self.dims.clone();
        dims[0] = LmadDim {
            size: T::ceil_div(d0.size.clone(), k.clone()),
            stride: T::mul(d0.stride.clone(), k),
        };
        Some(Lmad {
            offset: self.offset.clone(),
            dims,
        })
    }

    /// `replicate n x`: `n` rows that are all `x` (stride 0).
    pub fn replicate(&self, n: T) -> Lmad<T> {
        let mut dims = vec![LmadDim {
            size: n,
            stride: T::lit(0),
        }];
        dims.extend(self.dims.iter().cloned());
        Lmad {
            offset: self.offset.clone(),
            dims,
        }
    }
}

impl Lmad<Dim> {
    /// The dense row-major layout of an array of these sizes, from offset 0.
    pub fn row_major(sizes: Vec<Dim>) -> Lmad {
        Lmad::row_major_at(Dim::Const(0), sizes)
    }

    /// Is the layout provably the row-major one of its sizes (from its
    /// offset, whatever it is)?
    pub fn is_row_major(&self) -> bool {
        let dense = Lmad::row_major_at(self.offset.clone(), self.sizes());
        dense
            .dims
            .iter()
            .zip(&self.dims)
            .all(|(a, b)| weir_shape::dim::same_dim(&a.stride, &b.stride))
    }

    /// `reshape sizes x`: the same elements, row-major over `sizes`; only of
    /// a row-major `x` (a strided array is copied before it is reshaped).
    pub fn reshape(&self, sizes: Vec<Dim>) -> Option<Lmad> {
        self.is_row_major()
            .then(|| Lmad::row_major_at(self.offset.clone(), sizes))
    }
}

impl fmt::Display for Lmad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{};", self.offset)?;
        for (k, d) in self.dims.iter().enumerate() {
            let sep = if k == 0 { " " } else { ", " };
            write!(f, "{sep}{}:{}", d.size, d.stride)?;
        }
        write!(f, "]")
    }
}

/// Where an array lives: its block, and its index function over it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mem {
    pub block: Name,
    pub ixfun: Lmad,
}

impl fmt::Display for Mem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.block, self.ixfun)
    }
}

/// The memory of every array of `f`, in the order the arrays are bound
/// (parameters, destinations, then the body's buffers, loop states and
/// views). An array whose LMAD the algebra does not give (a reshape of an
/// array not provably row-major, a row of a scalar) is its own block with the
/// row-major layout of its dims, which is what the backend makes of it.
pub fn of_fun(f: &Fun) -> Vec<(Name, Mem)> {
    let mut m = Memory {
        arrays: Vec::new(),
        at: HashMap::new(),
    };
    for p in &f.params {
        if let DType::Array(_, rank) = p.ty {
            m.block(
                &p.name,
                (0..rank).map(|k| Dim::DimOf(p.name.clone(), k)).collect(),
            );
        }
    }
    for d in &f.dests {
        m.block(
            &d.name,
            (0..d.shape.len())
                .map(|k| Dim::DimOf(d.name.clone(), k))
                .collect(),
        );
    }
    m.stmts(&f.body.stmts);
    m.arrays
}

/// The memory of every function of `p`, printed: one line per array,
/// `NAME = BLOCK[OFFSET; SIZE:STRIDE, ...]`.
pub fn program_to_string(p: &Program) -> String {
    let mut out = String::new();
    for f in &p.funs {
        out.push_str(&format!("mem {} {{\n", f.name));
        for (name, mem) in of_fun(f) {
            out.push_str(&format!("  {name} = {mem}\n"));
        }
        out.push_str("}\n\n");
    }
    out
}

struct Memory {
    arrays: Vec<(Name, Mem)>,
    /// Where each name's latest memory is in `arrays`.
    at: HashMap<Name, usize>,
}

fn atom(a: &Atom) -> Dim {
    match a {
        Atom::Const(Const::I64(c)) => Dim::Const(*c),
        Atom::Const(c) => Dim::Var(format!("{c:?}")),
        Atom::Var(v) => Dim::Var(v.clone()),
    }
}

impl Memory {
    fn get(&self, n: &Name) -> Option<&Mem> {
        self.at
            .get(n)
            .and_then(|&k| self.arrays.get(k))
            .map(|(_, x)| x)
    }

    fn push(&mut self, n: &Name, mem: Mem) {
        self.at.insert(n.clone(), self.arrays.len());
        self.arrays.push((n.clone(), mem));
    }

    fn block(&mut self, n: &Name, sizes: Vec<Dim>) {
        self.push(
            n,
            Mem {
                block: n.clone(),
                ixfun: Lmad::row_major(sizes),
            },
        );
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::Alloc { bufs, .. } => {
                    for b in bufs {
                        self.block(&b.var, b.dims.iter().map(atom).collect());
                    }
                }
                Stmt::Loop { arrays, .. } => {
                    for st in arrays {
                        let sizes: Vec<Dim> = st.dims.iter().map(atom).collect();
                        self.block(&st.var, sizes.clone());
                        self.block(&st.next, sizes);
                    }
                }
                Stmt::View {
                    var, rank, view, ..
                } => {
                    let mem = self.view(view).unwrap_or_else(|| Mem {
                        block: var.clone(),
                        ixfun: Lmad::row_major(
                            (0..*rank).map(|k| Dim::DimOf(var.clone(), k)).collect(),
                        ),
                    });
                    self.push(var, mem);
                }
                _ => {}
            }
            for b in nested_blocks(s) {
                self.stmts(b);
            }
        }
    }

    fn view(&self, v: &View) -> Option<Mem> {
        let src = self.get(v.source())?;
        let ixfun = match v {
            View::Alias(_) => Some(src.ixfun.clone()),
            View::Row(_, i) => src.ixfun.row(atom(i)),
            View::Slice(_, lo, hi) | View::Placed { lo, hi, .. } => {
                src.ixfun.slice(atom(lo), atom(hi))
            }
            View::Transpose(_) => src.ixfun.transpose(),
            View::Reverse(_) => src.ixfun.reverse(),
            View::Stride(k, _) => src.ixfun.stride(atom(k)),
            View::Replicate(n, _) => Some(src.ixfun.replicate(atom(n))),
            View::Reshape(_, ds) => src.ixfun.reshape(ds.iter().map(atom).collect()),
        }?;
        Some(Mem {
            block: src.block.clone(),
            ixfun,
        })
    }
}

/// The verifier's obligation for the backend: every array of `f` that is
/// not among [`strided_views`] (addressed as dense and row-major, its
/// strides the products of its inner dims) has a row-major LMAD. The
/// violations, as messages.
pub fn check_dense(f: &Fun) -> Vec<String> {
    let strided = strided_views(&f.body.stmts);
    of_fun(f)
        .into_iter()
        .filter(|(n, m)| !strided.contains(n) && !m.ixfun.is_row_major())
        .map(|(n, m)| {
            format!("`{n}` is addressed as dense and row-major, but its index function is {m}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Dim {
        Dim::Var(s.into())
    }

    fn nm() -> Lmad {
        Lmad::row_major(vec![v("n"), v("m")])
    }

    #[test]
    fn row_major_strides_are_the_products_of_the_inner_sizes() {
        let l = Lmad::row_major(vec![v("n"), v("m"), v("p")]);
        assert_eq!(l.to_string(), "[0; n:(m * p), m:p, p:1]");
        assert!(l.is_row_major());
    }

    #[test]
    fn a_transpose_of_a_transpose_is_the_array() {
        let t = nm().transpose().and_then(|t| t.transpose());
        assert_eq!(t, Some(nm()));
        assert!(!nm().transpose().is_some_and(|t| t.is_row_major()));
    }

    #[test]
    fn a_reverse_of_a_reverse_addresses_the_same_elements() {
        let r = nm().reverse().and_then(|r| r.reverse());
        let Some(r) = r else { panic!("rank 2") };
        for (i, j) in [(v("i"), v("j")), (Dim::Const(0), Dim::Const(0))] {
            let a = r.index(&[i.clone(), j.clone()]);
            let b = nm().index(&[i, j]);
            assert!(weir_shape::dim::same_dim(&a, &b), "{a} vs {b}");
        }
    }

    #[test]
    fn rows_and_slices_of_row_major_arrays_are_row_major() {
        let l = nm();
        let Some(s) = l.slice(v("lo"), v("hi")) else {
            panic!("rank 2")
        };
        assert!(s.is_row_major());
        assert_eq!(s.to_string(), "[(lo * m); (hi - lo):m, m:1]");
        let Some(r) = l.row(v("i")) else {
            panic!("rank 2")
        };
        assert!(r.is_row_major());
        // a slice then a row is the row of the whole array, shifted
        let a = s.row(v("i")).map(|x| x.offset);
        let b = l.row(add(v("lo"), v("i"))).map(|x| x.offset);
        assert!(matches!((a, b), (Some(a), Some(b)) if weir_shape::dim::same_dim(&a, &b)));
    }

    #[test]
    fn a_column_is_strided_and_a_step_multiplies_the_stride() {
        let Some(col) = nm().transpose().and_then(|t| t.row(v("j"))) else {
            panic!("rank 2")
        };
        assert_eq!(col.to_string(), "[j; n:m]");
        assert!(!col.is_row_major());
        let Some(s) = Lmad::row_major(vec![v("n")]).stride(Dim::Const(2)) else {
            panic!("rank 1")
        };
        assert_eq!(s.dims[0].stride, Dim::Const(2));
        assert!(!s.is_row_major());
        // a step of 1 is the array itself
        let one = Lmad::row_major(vec![v("n")]).stride(Dim::Const(1));
        assert!(one.is_some_and(|o| o.is_row_major()));
    }

    /// Views compose their sources' LMADs; a placed piece lives in its
    /// consumer's block; the backend's dense arrays are row-major.
    #[test]
    fn the_memory_of_a_function_follows_its_views() {
        let src = "entry f (out1: dest [(dim a 0 + dim a 1)]f64) (a: [][]f64) -> (dest 0) {
  let n: i64 = dim a 0
  let m: i64 = dim a 1
  let s: i64 = n + m
  view t: [][]f64 = transpose a
  view c: []f64 = t[1i64]
  view r: []f64 = reverse c
  alloc b: [m]f64 {
    view p: []f64 = placed out1[n:s] in out1
    copy p := r
    view q: []f64 = out1[0i64:n]
    copy q := c
  }
}
";
        let p = match crate::parse::parse_program(src) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        let got = program_to_string(&p);
        let want = "mem f {
  a = a[0; dim a 0:dim a 1, dim a 1:1]
  out1 = out1[0; dim out1 0:1]
  t = a[0; dim a 1:1, dim a 0:dim a 1]
  c = a[1; dim a 0:dim a 1]
  r = a[((dim a 1 * max((dim a 0 - 1), 0)) + 1); dim a 0:(0 - dim a 1)]
  b = b[0; m:1]
  p = out1[n; ((0 - n) + s):1]
  q = out1[0; n:1]
}

";
        assert_eq!(got, want);
        let f = &p.funs[0];
        assert!(check_dense(f).is_empty(), "{:?}", check_dense(f));
    }

    #[test]
    fn replicate_has_stride_zero_and_reshape_needs_row_major() {
        let r = Lmad::row_major(vec![v("m")]).replicate(v("n"));
        assert_eq!(r.to_string(), "[0; n:0, m:1]");
        assert!(!r.is_row_major());
        assert!(r.reshape(vec![mul(v("n"), v("m"))]).is_none());
        let Some(flat) = nm().reshape(vec![mul(v("n"), v("m"))]) else {
            panic!("row-major")
        };
        assert!(flat.is_row_major());
        assert!(weir_shape::dim::same_dim(
            &flat.dims[0].size,
            &mul(v("m"), v("n"))
        ));
    }
}
