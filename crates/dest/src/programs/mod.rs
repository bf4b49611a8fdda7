//! The paper's programs, each next to the idiomatic Rust it is measured
//! against (see the crate README for the results).
//!
//! * [`dlist`]: difference lists (`append`, `concat`, `to_list`) against `Vec`.
//! * [`map`]: a tail-recursive map into a destination list against
//!   accumulate-then-reverse and `Vec`.
//! * [`bfs`]: breadth-first relabelling `map_accum_bfs` in one pass against a
//!   recursive `Box` rebuild plus a `VecDeque` pass.
//! * [`sexpr`]: an S-expression parser writing into destinations against one
//!   building `Vec<SExpr>`.
//!
//! [`inputs`] makes the deterministic inputs (seeded, several shapes).

pub mod bfs;
pub mod dlist;
pub mod inputs;
pub mod map;
pub mod sexpr;
