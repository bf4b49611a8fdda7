//! Weir's DPS stage (dps-ftilde §3): the translation to destination-passing
//! style (which still walks each statement's shape as it goes, in the shape
//! language of `weir_shape`, asking `weir_shape::env::ShapeEnv` about sizes),
//! the DPS IR with `alloc` scopes and destinations, its printer, parser and
//! verifier, the allocation simplifications of Fig. 8, the size assertions
//! proved and shared (`checks`), and the memory of every array as a block and
//! an LMAD index function (`mem`, funmem-lmad §3).

pub mod batch;
pub mod checks;
pub mod distribute;
pub mod inplace;
pub mod interchange;
pub mod ir;
pub mod materialize;
pub mod mem;
pub mod parse;
pub mod peel;
pub mod print;
pub mod regblock;
pub mod rename;
pub mod reuse;
pub mod shortcircuit;
pub mod simplify;
pub mod split;
pub mod tile;
pub mod translate;
pub mod verify;
