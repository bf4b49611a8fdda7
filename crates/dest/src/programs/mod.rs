//! The paper's programs, each next to the idiomatic Rust it is measured
//! against (see the crate README for the results).
//!
//! * [`dlist`]: difference lists (`append`, `concat`, `to_list`; the
//!   header-free [`DList`](crate::DList) and the paper's literal encoding on
//!   `fill_comp`) against `Vec`, a `Vec` linked into a list, and the paper's
//!   own baseline, function-encoded difference lists (boxed closures, and
//!   closures in the region).
//! * [`map`]: a tail-recursive map into a destination list against
//!   accumulate-then-reverse, a `Vec` linked into a list, tail-pointer loops
//!   (`&mut` into a bumpalo arena, and `Option<Box<_>>`), and `Vec`.
//! * [`bfs`]: breadth-first relabelling `map_accum_bfs` in one pass against
//!   the same one-pass algorithm on `&mut` slots (`Box` nodes, and bumpalo
//!   nodes), and a recursive `Box` rebuild plus a `VecDeque` pass.
//! * [`sexpr`]: an S-expression parser writing into destinations against one
//!   building `Vec<SExpr>` and `String`s, and the same region parser built
//!   bottom-up (a scratch `Vec` per list).
//!
//! [`inputs`] makes the deterministic inputs (seeded, several shapes).

pub mod bfs;
pub mod dlist;
pub mod inputs;
pub mod map;
pub mod sexpr;
