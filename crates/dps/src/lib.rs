//! Weir's DPS stage (dps-ftilde §3): the translation to destination-passing
//! style (which still walks each statement's shape as it goes, in the shape
//! language of `weir_shape`, asking `weir_shape::env::ShapeEnv` about sizes),
//! the DPS IR with `alloc` scopes and destinations, its printer, parser and
//! verifier, the allocation simplifications of Fig. 8, and the size
//! assertions proved and shared (`checks`).

pub mod checks;
pub mod ir;
pub mod materialize;
pub mod parse;
pub mod print;
pub mod shortcircuit;
pub mod simplify;
pub mod translate;
pub mod verify;
