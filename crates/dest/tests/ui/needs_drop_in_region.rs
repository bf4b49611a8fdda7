// Guarantee: values with drop glue never enter a region. A region is freed as
// a block without running destructors, so a `String` (or `Vec`, `Box`, ...)
// stored there would leak. `alloc_value`, `fill_leaf`, `alloc` and the other
// entry points assert `!needs_drop::<T>()` in a `const` block, which fails
// when the generic function is instantiated with such a type (an error of
// `cargo build`, not of `cargo check`).
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let s: &String = r.alloc_value(String::from("leaked"));
    let v = r.build(|d: Dest<'_, Vec<u8>>| d.fill_leaf(vec![1, 2, 3]));
    println!("{s} {v:?}");
}
