//! Calling compiled Weir kernels from Rust.
//!
//! A crate that calls Weir code has a build script
//!
//! ```ignore
//! // build.rs (with `weir-rs = { ..., features = ["build"] }` in [build-dependencies])
//! fn main() {
//!     weir_rs::build("kernels.weir");
//! }
//! ```
//!
//! which runs the Weir compiler (`weir lib`: an installed `weir` binary,
//! `$WEIR` else `weir` on `PATH`; see `Builder` and the `compiler`
//! feature) to compile `kernels.weir` into a static library in `OUT_DIR`
//! (the generated C and Weir's runtime, built with the C compiler `$CC` or
//! `cc`), links it, and writes `OUT_DIR/kernels.rs`: a module `kernels`
//! with a typed function per entry, generated from the library's manifest
//! (`kernels.json`, its ABI model). The crate includes it
//!
//! ```ignore
//! include!(concat!(env!("OUT_DIR"), "/kernels.rs"));
//! ```
//!
//! and calls the entries with a [`Context`]:
//!
//! ```ignore
//! let mut ctx = weir_rs::Context::new()?;
//! let s = kernels::add3(&mut ctx, a.view(), b.view(), c.view())?;       // allocates the result
//! kernels::add3_into(&mut ctx, out.view_mut(), a.view(), b.view(), c.view())?; // into `out`
//! let [n] = kernels::add3_shape(&mut ctx, a.view(), b.view(), c.view())?; // the result's dims
//! ```
//!
//! Arrays are [`ndarray`] views of the entry's element type and rank
//! (`[n][m]f64` is an `ArrayView2<f64>`, `[n]bool` an `ArrayView1<bool>`);
//! scalars are passed by value. A view in standard (row-major contiguous)
//! layout is passed to Weir as it is; any other is copied first. Every
//! function returns `Result<_, Error>`: Weir checks the arguments' sizes
//! against the entry's types, the destinations' dims against the shape
//! function, and reports the program's own failures (an index out of
//! bounds, a failed assertion) with their source location. A tuple or
//! record parameter is one argument per component (`xs_a`, `xs_b` for
//! `xs: []{a: f64, b: i64}`); those of an array of tuples or records must
//! agree in the array's dims, else [`ErrorCode::Argument`] ("argument `xs`:
//! field `b` has 4 elements, field `a` 3").
//!
//! The `ndarray` of the bindings is this crate's, re-exported as
//! [`weir_rs::ndarray`](ndarray): the generated code names only
//! `::weir_rs::ndarray::...`, so a crate calling Weir needs no `ndarray`
//! dependency of its own (`use weir_rs::ndarray::array;`). A crate that
//! has one passes arrays of it only if it is the same version as
//! weir-rs's (0.17); arrays of another version are other types.
//!
//! This half of the crate (contexts, errors, the helpers the generated code
//! calls) links against the runtime inside the generated static library; the
//! build side is behind the `build` feature.
//!
//! Features:
//! - `build`: the build-script side (`build`, `Builder`), running an
//!   installed `weir`. It depends on nothing more than the runtime half.
//! - `compiler`: `build`, with the Weir compiler compiled into the build
//!   script, used when `$WEIR` is not set (no `weir` binary needed, but the
//!   build compiles the whole compiler, for every profile).
//!
//! Without a compiler (no `$WEIR`, no `weir` on `PATH`, no `compiler`
//! feature) the build fails saying how to install one: `cargo install
//! --locked --path crates/cli` in the Weir repository.

use std::ffi::{CStr, c_char};
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

pub use ndarray;

// (also compiled for the unit tests, where what only a build script calls
// is unused)
#[cfg(any(feature = "build", test))]
#[cfg_attr(not(feature = "build"), allow(dead_code))]
mod builder;
#[cfg(any(feature = "build", test))]
#[cfg_attr(not(feature = "build"), allow(dead_code))]
mod codegen;
#[cfg(any(feature = "build", test))]
#[cfg_attr(not(feature = "build"), allow(dead_code))]
mod json;
#[cfg(any(feature = "build", test))]
#[cfg_attr(not(feature = "build"), allow(dead_code))]
mod manifest;
#[cfg(feature = "build")]
pub use builder::{BuildError, BuildOptions, Builder, Built, INSTALL_HINT, build, default_name};
#[cfg(feature = "build")]
pub use codegen::generate;

/// The declarations of Weir's runtime API (`weir.h`). The symbols are
/// defined by the runtime object inside every library `weir_rs::build`
/// links (all libraries of one program must come from one `weir`).
pub mod sys {
    use std::ffi::{c_char, c_int};

    /// A context (opaque).
    #[repr(C)]
    pub struct weir_ctx {
        _private: [u8; 0],
    }

    /// Memory counters of a context.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct weir_stats {
        /// System allocations (region chunks too).
        pub sys_allocs: u64,
        /// System frees.
        pub sys_frees: u64,
        /// Bytes in use.
        pub cur_bytes: u64,
        /// High-water mark of `cur_bytes`.
        pub peak_bytes: u64,
        /// Total capacity of the region chunks.
        pub reserved_bytes: u64,
    }

    /// Options of a new context; zero means the default.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct weir_options {
        /// Size of the first region chunk (default 1 MiB).
        pub region_bytes: usize,
        /// Reserved: 0 or 1.
        pub threads: c_int,
    }

    pub const WEIR_OK: c_int = 0;
    pub const WEIR_ERR_PROGRAM: c_int = 1;
    pub const WEIR_ERR_ARGUMENT: c_int = 2;
    pub const WEIR_ERR_NOMEM: c_int = 3;
    pub const WEIR_ERR_OPTIONS: c_int = 4;

    unsafe extern "C" {
        pub fn weir_ctx_new() -> *mut weir_ctx;
        pub fn weir_ctx_new_with(opts: *const weir_options) -> *mut weir_ctx;
        pub fn weir_ctx_free(ctx: *mut weir_ctx);
        pub fn weir_ctx_release(ctx: *mut weir_ctx);
        pub fn weir_error(ctx: *const weir_ctx) -> *const c_char;
        pub fn weir_error_code(ctx: *const weir_ctx) -> c_int;
        pub fn weir_error_location(ctx: *const weir_ctx) -> *const c_char;
        pub fn weir_error_message(ctx: *const weir_ctx) -> *const c_char;
        pub fn weir_error_clear(ctx: *mut weir_ctx);
        pub fn weir_retry_rows(ctx: *const weir_ctx, k: c_int) -> i64;
        pub fn weir_ctx_stats(ctx: *const weir_ctx) -> *const weir_stats;
        pub fn weir_stats_reset(ctx: *mut weir_ctx);
        pub fn weir_version() -> *const c_char;
        pub fn weir_abi_version() -> c_int;
    }
}

/// The ABI version (`WEIR_ABI_VERSION`) the generated bindings follow.
pub const ABI_VERSION: i32 = 1;

pub use sys::weir_stats as Stats;

/// The kind of an [`Error`] (`weir_error_code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The program failed: an index out of bounds, a negative size, a
    /// division by zero, a failed assertion.
    Program,
    /// The caller's arrays: a dim that does not match the entry's types, a
    /// destination of the wrong dims.
    Argument,
    /// Out of memory (also a result too large for memory).
    OutOfMemory,
    /// Another code (invalid context options, an inconsistent runtime).
    Other(i32),
}

impl ErrorCode {
    /// The kind of the C code `code`.
    pub fn from_raw(code: i32) -> ErrorCode {
        match code {
            sys::WEIR_ERR_PROGRAM => ErrorCode::Program,
            sys::WEIR_ERR_ARGUMENT => ErrorCode::Argument,
            sys::WEIR_ERR_NOMEM => ErrorCode::OutOfMemory,
            c => ErrorCode::Other(c),
        }
    }

    /// The C code (`enum weir_error_code`).
    pub fn raw(self) -> i32 {
        match self {
            ErrorCode::Program => sys::WEIR_ERR_PROGRAM,
            ErrorCode::Argument => sys::WEIR_ERR_ARGUMENT,
            ErrorCode::OutOfMemory => sys::WEIR_ERR_NOMEM,
            ErrorCode::Other(c) => c,
        }
    }
}

/// An error of a Weir call: its kind, its Weir source location
/// (`file.weir:LINE:COL`, empty when it has none) and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub location: String,
    pub message: String,
}

impl Error {
    /// An error raised on the Rust side (no Weir location).
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error {
            code,
            location: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.location, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// A C string of the runtime as a `String` ("" for NULL).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string valid for the call.
#[inline]
unsafe fn c_string(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the caller's contract.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

// The functions calling the runtime are `#[inline]`, so that they are
// compiled into the crate calling them: its references to the runtime then
// come before the Weir libraries (inside that crate or a dependency) on the
// link line, and a one-pass linker (GNU ld) resolves them even in a
// program that makes a context but calls no entry.

/// A Weir context: the memory the kernels work in (a region kept across
/// calls), counters and the last error. One thread at a time: a context
/// may move to another thread (`Send`) but not be shared (`!Sync`); threads
/// use one each. Freed on drop.
pub struct Context {
    ptr: NonNull<sys::weir_ctx>,
    // a raw pointer's auto traits: `!Sync` (and `Send` below)
    _not_sync: PhantomData<*mut sys::weir_ctx>,
}

// SAFETY: a context is used by one thread at a time (`&mut self` for every
// call), and the runtime keeps no thread-local state about it.
unsafe impl Send for Context {}

impl Context {
    #[inline]
    fn check_abi() -> Result<(), Error> {
        // SAFETY: no arguments; the runtime's constant.
        let v = unsafe { sys::weir_abi_version() };
        if v != ABI_VERSION {
            return Err(Error::new(
                ErrorCode::Other(0),
                format!(
                    "the Weir runtime linked in has ABI {v}, these bindings follow ABI {ABI_VERSION}: rebuild with one weir"
                ),
            ));
        }
        Ok(())
    }

    /// A new context with the default options.
    #[inline]
    pub fn new() -> Result<Context, Error> {
        Context::check_abi()?;
        // SAFETY: no arguments; NULL is handled.
        let p = unsafe { sys::weir_ctx_new() };
        NonNull::new(p)
            .map(|ptr| Context {
                ptr,
                _not_sync: PhantomData,
            })
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::OutOfMemory,
                    "out of memory creating a Weir context",
                )
            })
    }

    /// A new context whose first region chunk has `bytes` bytes (a caller
    /// that knows its kernels' working set sizes it so that no chunk is
    /// added on the first calls; 0: the default, 1 MiB).
    #[inline]
    pub fn with_region_bytes(bytes: usize) -> Result<Context, Error> {
        Context::check_abi()?;
        let opts = sys::weir_options {
            region_bytes: bytes,
            threads: 0,
        };
        // SAFETY: `opts` is a valid options struct for the call.
        let p = unsafe { sys::weir_ctx_new_with(&opts) };
        NonNull::new(p)
            .map(|ptr| Context {
                ptr,
                _not_sync: PhantomData,
            })
            .ok_or_else(|| {
                Error::new(
                    ErrorCode::OutOfMemory,
                    format!(
                        "cannot create a Weir context with a region of {bytes} bytes (out of memory)"
                    ),
                )
            })
    }

    /// The C context, for calling the library's C functions directly.
    #[inline]
    pub fn as_ptr(&mut self) -> *mut sys::weir_ctx {
        self.ptr.as_ptr()
    }

    /// The last error, if the last call failed.
    #[inline]
    pub fn last_error(&self) -> Option<Error> {
        let c = self.ptr.as_ptr();
        // SAFETY: a live context; the strings are valid until the next call,
        // and are copied here.
        unsafe {
            let code = sys::weir_error_code(c);
            if code == sys::WEIR_OK {
                return None;
            }
            Some(Error {
                code: ErrorCode::from_raw(code),
                location: c_string(sys::weir_error_location(c)),
                message: c_string(sys::weir_error_message(c)),
            })
        }
    }

    /// The memory counters.
    #[inline]
    pub fn stats(&self) -> Stats {
        // SAFETY: a live context; the counters are copied.
        let p = unsafe { sys::weir_ctx_stats(self.ptr.as_ptr()) };
        if p.is_null() {
            return Stats::default();
        }
        // SAFETY: non-NULL, pointing into the context.
        unsafe { *p }
    }

    /// Zero the counts (the peak set to the current use).
    #[inline]
    pub fn reset_stats(&mut self) {
        // SAFETY: a live context.
        unsafe { sys::weir_stats_reset(self.ptr.as_ptr()) }
    }

    /// Give the region's memory back to the system (the next calls
    /// allocate it again). Results are the caller's, so none is lost.
    #[inline]
    pub fn release(&mut self) {
        // SAFETY: a live context.
        unsafe { sys::weir_ctx_release(self.ptr.as_ptr()) }
    }
}

impl Drop for Context {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the context is live and freed once.
        unsafe { sys::weir_ctx_free(self.ptr.as_ptr()) }
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("ptr", &self.ptr)
            .finish_non_exhaustive()
    }
}

/// The version of the Weir runtime linked in (`WEIR_VERSION`).
#[inline]
pub fn runtime_version() -> String {
    // SAFETY: a static string of the runtime.
    unsafe { c_string(sys::weir_version()) }
}

/// The helpers the generated bindings call; not a stable API.
#[doc(hidden)]
pub mod __private {
    use super::{Context, Error, ErrorCode, sys};
    use ndarray::{Array, ArrayView, ArrayViewMut, CowArray, Dimension, IxDyn};
    use std::ffi::c_int;

    pub use super::sys::weir_ctx;
    pub use std::ffi::c_int as Status;

    /// An argument in standard layout: the view itself (zero-copy) or a
    /// contiguous copy.
    #[inline]
    pub fn arg<'a, T: Clone, D: Dimension>(v: &'a ArrayView<'_, T, D>) -> CowArray<'a, T, D> {
        v.as_standard_layout()
    }

    /// Dim `k` of an array, as the C ABI's `int64_t`.
    #[inline]
    pub fn dim<T, D: Dimension>(a: &CowArray<'_, T, D>, k: usize) -> i64 {
        a.shape().get(k).map_or(0, |&d| d as i64)
    }

    /// The Weir error of a failed call (status not 0).
    #[inline]
    pub fn check(ctx: &Context, status: c_int) -> Result<(), Error> {
        if status == 0 {
            return Ok(());
        }
        Err(error(ctx))
    }

    #[cold]
    #[inline]
    fn error(ctx: &Context) -> Error {
        ctx.last_error().unwrap_or_else(|| {
            Error::new(
                ErrorCode::Other(0),
                "a Weir call failed without reporting an error",
            )
        })
    }

    /// After a failed call: the rows the unbounded result in destination
    /// `k` needs, if that is why it failed.
    #[inline]
    pub fn retry_rows(ctx: &mut Context, status: c_int, k: c_int) -> Option<i64> {
        if status == 0 {
            return None;
        }
        let c = ctx.as_ptr();
        // SAFETY: a live context.
        unsafe {
            if sys::weir_error_code(c) != sys::WEIR_ERR_NOMEM {
                return None;
            }
            let r = sys::weir_retry_rows(c, k);
            (r >= 0).then_some(r)
        }
    }

    fn elems(dims: &[i64]) -> Result<usize, Error> {
        let mut n: usize = 1;
        for &d in dims {
            let d = usize::try_from(d).map_err(|_| {
                Error::new(
                    ErrorCode::Other(0),
                    format!("the shape function gave a negative dim {d}"),
                )
            })?;
            n = n.checked_mul(d).ok_or_else(|| {
                Error::new(
                    ErrorCode::OutOfMemory,
                    format!("a result of dims {dims:?} is too large for memory"),
                )
            })?;
        }
        Ok(n)
    }

    /// The dims a shape function gave.
    #[inline]
    pub fn dims<const N: usize>(d: [i64; N]) -> Result<[usize; N], Error> {
        let mut out = [0usize; N];
        for (o, &x) in out.iter_mut().zip(&d) {
            *o = usize::try_from(x).map_err(|_| {
                Error::new(
                    ErrorCode::Other(0),
                    format!("the shape function gave a negative dim {x}"),
                )
            })?;
        }
        Ok(out)
    }

    /// Storage for a result of dims `dims`.
    #[inline]
    pub fn buffer<T: Clone + Default>(dims: &[i64]) -> Result<Vec<T>, Error> {
        let n = elems(dims)?;
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| {
            Error::new(
                ErrorCode::OutOfMemory,
                format!("out of memory allocating a result of dims {dims:?}"),
            )
        })?;
        v.resize(n, T::default());
        Ok(v)
    }

    /// The result in `buf` of dims `dims`; `sizes`: (dim, size) of its
    /// existential dims (the entry wrote the result densely at the front of
    /// the upper bound `dims`, with those dims' sizes).
    #[inline]
    pub fn finish<T, D: Dimension>(
        mut buf: Vec<T>,
        dims: &[i64],
        sizes: &[(usize, i64)],
    ) -> Result<Array<T, D>, Error> {
        let mut shape: Vec<usize> = Vec::with_capacity(dims.len());
        for &d in dims {
            shape.push(usize::try_from(d).unwrap_or(0));
        }
        if !sizes.is_empty() {
            for &(j, r) in sizes {
                let bound = dims.get(j).copied().unwrap_or(0);
                if r < 0 || r > bound {
                    return Err(Error::new(
                        ErrorCode::Other(0),
                        format!(
                            "the entry returned size {r} for dim {j} of a destination of {bound}"
                        ),
                    ));
                }
                if let Some(s) = shape.get_mut(j) {
                    *s = r as usize;
                }
            }
            buf.truncate(shape.iter().product());
        }
        let bad = |e: ndarray::ShapeError| {
            Error::new(
                ErrorCode::Other(0),
                format!(
                    "a result of dims {shape:?} does not fit its type: {e}",
                    shape = dims
                ),
            )
        };
        match D::NDIM {
            Some(n) if n == shape.len() => {
                let mut d = D::zeros(n);
                for (x, s) in d.slice_mut().iter_mut().zip(&shape) {
                    *x = *s;
                }
                Array::from_shape_vec(d, buf).map_err(bad)
            }
            _ => Array::from_shape_vec(IxDyn(&shape), buf)
                .map_err(bad)?
                .into_dimensionality::<D>()
                .map_err(bad),
        }
    }

    /// A caller's destination: the view itself when in standard layout,
    /// else a contiguous copy written back by [`Dest::finish`].
    pub struct Dest<'a, T, D: Dimension> {
        view: ArrayViewMut<'a, T, D>,
        copy: Option<Array<T, D>>,
    }

    impl<'a, T: Clone, D: Dimension> Dest<'a, T, D> {
        #[inline]
        pub fn new(view: ArrayViewMut<'a, T, D>) -> Self {
            let copy = if view.is_standard_layout() {
                None
            } else {
                Some(view.as_standard_layout().into_owned())
            };
            Dest { view, copy }
        }

        #[inline]
        pub fn ptr(&mut self) -> *mut T {
            match &mut self.copy {
                Some(c) => c.as_mut_ptr(),
                None => self.view.as_mut_ptr(),
            }
        }

        #[inline]
        pub fn dim(&self, k: usize) -> i64 {
            self.view.shape().get(k).map_or(0, |&d| d as i64)
        }

        /// Write a copy back.
        #[inline]
        pub fn finish(mut self) {
            if let Some(c) = &self.copy {
                self.view.assign(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for c in 0..6 {
            assert_eq!(ErrorCode::from_raw(c).raw(), c);
        }
        assert_eq!(ErrorCode::from_raw(2), ErrorCode::Argument);
        assert_eq!(ErrorCode::from_raw(9), ErrorCode::Other(9));
    }

    #[test]
    fn display_is_location_then_message() {
        let e = Error {
            code: ErrorCode::Program,
            location: "k.weir:3:5".into(),
            message: "index out of bounds".into(),
        };
        assert_eq!(e.to_string(), "k.weir:3:5: index out of bounds");
        assert_eq!(Error::new(ErrorCode::Argument, "bad").to_string(), "bad");
    }

    #[test]
    fn finish_truncates_existential_rows() {
        let buf: Vec<f64> = (0..6).map(f64::from).collect();
        let a: ndarray::Array2<f64> = __private::finish(buf, &[3, 2], &[(0, 2)]).unwrap();
        assert_eq!(a, ndarray::array![[0.0, 1.0], [2.0, 3.0]]);
        // an existential inner dim: dense at the front
        let buf: Vec<f64> = (0..6).map(f64::from).collect();
        let a: ndarray::Array2<f64> = __private::finish(buf, &[2, 3], &[(1, 2)]).unwrap();
        assert_eq!(a, ndarray::array![[0.0, 1.0], [2.0, 3.0]]);
        let buf: Vec<f64> = vec![0.0; 3];
        let e = __private::finish::<f64, ndarray::Ix1>(buf, &[3], &[(0, 4)]);
        assert!(e.is_err());
    }

    #[test]
    fn buffer_rejects_negative_and_huge_dims() {
        assert!(__private::buffer::<f64>(&[-1]).is_err());
        let e = __private::buffer::<f64>(&[i64::MAX, i64::MAX]).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutOfMemory);
        assert_eq!(__private::buffer::<i32>(&[2, 3]).unwrap().len(), 6);
    }

    #[test]
    fn dest_copies_non_standard_layout_back() {
        let mut a = ndarray::Array2::<f64>::zeros((2, 3));
        let mut d = __private::Dest::new(a.view_mut().reversed_axes());
        let p = d.ptr();
        // SAFETY: the copy has 6 elements.
        unsafe {
            for i in 0..6 {
                *p.add(i) = i as f64;
            }
        }
        d.finish();
        assert_eq!(a, ndarray::array![[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]);
    }
}
