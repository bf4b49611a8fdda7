//! Compiled Weir kernels called from Rust: `build.rs` compiles
//! `../kernels.weir` (library `kernels`) and `extra.weir` (library `extra`)
//! with `weir_rs::build`, and the typed bindings it generates are included
//! here as the modules [`kernels`] and [`extra`].
//!
//! ```
//! use weir_rs::ndarray::array;
//! use weir_embed_example::kernels;
//!
//! let mut ctx = weir_rs::Context::new()?;
//! let (a, b, c) = (array![1.0, 2.0], array![10.0, 20.0], array![100.0, 200.0]);
//! let s = kernels::add3(&mut ctx, a.view(), b.view(), c.view())?;
//! assert_eq!(s, array![111.0, 222.0]);
//! # Ok::<(), weir_rs::Error>(())
//! ```
//!
//! The element type is part of the signature: an `f32` array where the
//! entry takes `[n]f64` does not compile.
//!
//! ```compile_fail
//! use weir_rs::ndarray::array;
//! use weir_embed_example::kernels;
//!
//! let mut ctx = weir_rs::Context::new().unwrap();
//! let a = array![1.0f32, 2.0];
//! let b = array![1.0f64, 2.0];
//! let _ = kernels::add3(&mut ctx, a.view(), b.view(), b.view());
//! ```
//!
//! So is the rank: a matrix where the entry takes a vector.
//!
//! ```compile_fail
//! use weir_rs::ndarray::array;
//! use weir_embed_example::kernels;
//!
//! let mut ctx = weir_rs::Context::new().unwrap();
//! let m = array![[1.0, 2.0]];
//! let _ = kernels::add3(&mut ctx, m.view(), m.view(), m.view());
//! ```

include!(concat!(env!("OUT_DIR"), "/kernels.rs"));
include!(concat!(env!("OUT_DIR"), "/extra.rs"));
