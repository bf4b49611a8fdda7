//! Weir's shape stage (size slicing §3, dps-ftilde §3.3; docs/ARCHITECTURE.md
//! "Shapes").
//!
//! - [`dim`]: the shape language: size expressions over sizes, scalar
//!   parameters, dims and O(1) element reads of array parameters, with loop
//!   slices; partial evaluation, evaluation and provable equality.
//! - [`env`]: the shape environment of a function being translated and the
//!   reasoning over it (expansion, resolution, bounds, sizes in terms of the
//!   parameters) that the DPS translation consumes.
//! - [`parse`]: the shape language's text form read back.
//! - [`to_core`]: an entry's result shapes as a core IR function (its *shape
//!   function*), which the core verifier checks, the optimizer optimizes and
//!   the interpreter runs.
//! - [`walk`]: the shape of every array of a function, statement by
//!   statement (Fig. 7): leaves of flattened values, existentials named at
//!   their producers with their bounds, loop shape slices, and the E0801
//!   rejections. The DPS translation (`weir_dps::translate`) owns a
//!   [`walk::ShapeWalk`] per function and only consumes its shapes.

pub mod dim;
pub mod env;
pub mod parse;
pub mod to_core;
pub mod walk;

pub use dim::{Dim, SliceDim, same, same_dim, shape_to_string};
