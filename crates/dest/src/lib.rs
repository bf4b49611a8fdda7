//! First-class, write-once destinations (docs in progress).

extern crate self as dest;

pub mod programs;
mod raw;
mod region;
pub mod types;

pub use dest_derive::Fill;
pub use raw::{Ctor, Dest, Fields, Flat, Incomplete, UnfilledHoles, Ur};
pub use region::Region;
pub use types::{Cons, List, ListFill, Node, Tree, TreeFill};
