//! Weir's DPS stage (dps-ftilde §3): the translation to destination-passing
//! style (which still computes each array's shape as it goes, in the shape
//! language of `weir_shape`), the DPS IR with `alloc`
//! scopes and destinations, the allocation simplifications of Fig. 8, and the size assertions proved and
//! shared (`checks`).

pub mod checks;
pub mod ir;
pub mod parse;
pub mod print;
pub mod simplify;
pub mod translate;
pub mod verify;
