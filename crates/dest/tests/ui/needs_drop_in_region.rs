// Guarantee: values with drop glue never enter a region. A region is freed as
// a block without running destructors, so a `String` (or `Vec`, `Box`, ...)
// stored there would leak. Region data must be `Copy`, which no type with a
// destructor can be: `alloc_value`, `fill_leaf`, `build` and the other entry
// points reject such a type when the program is type-checked (`cargo check`).
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let s: &String = r.alloc_value(String::from("leaked"));
    let v = r.build(|d: Dest<'_, Vec<u8>>| d.fill_leaf(vec![1, 2, 3]));
    println!("{s} {v:?}");
}
