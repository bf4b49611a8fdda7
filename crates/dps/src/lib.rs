//! Weir's DPS stage (dps-ftilde §3): shape translation, the DPS IR with `alloc`
//! scopes and destinations, and the allocation simplifications of Fig. 8.

pub mod ir;
pub mod print;
pub mod shape;
pub mod simplify;
pub mod translate;
pub mod verify;
