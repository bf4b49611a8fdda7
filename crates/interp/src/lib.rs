//! The Weir reference interpreter and value formats.
//!
//! [`Interp`] evaluates the core IR directly; it is the definition of what every
//! compiled program must compute. Values have a text format ([`value`]) and can be
//! read from and written to `.npy` files ([`npy`]).

// Diagnostics are large and returned only on the cold error path; boxing them buys nothing.
#![allow(clippy::result_large_err)]

pub mod eval;
pub mod files;
pub mod npy;
pub mod value;

pub use eval::{Interp, RuntimeError};
pub use value::{
    Value, ValueError, compare, format_value, format_value_as, parse_value, parse_values,
};
