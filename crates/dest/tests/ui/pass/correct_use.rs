// The counterpart of the compile-fail cases: the same operations used
// correctly compile (and run). Its presence also makes trybuild use
// `cargo build` rather than `cargo check` (see `tests/compile_fail.rs`).
use dest::{Dest, List, ListFill, Region};

fn main() {
    let r = Region::new();
    let tail = dest::types::from_slice(&r, &[2u8, 3]);
    let l = r.build(|d: Dest<'_, List<'_, u8>>| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        t.fill_comp(r.into_incomplete(tail));
    });
    assert_eq!(dest::types::to_vec(l), vec![1, 2, 3]);
    let s: &&str = r.alloc_value(r.alloc_str("kept"));
    assert_eq!(*s, "kept");
}
