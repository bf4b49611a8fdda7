// Guarantee (once region data must be `Copy`): a value that owns heap memory
// never enters a region, even behind `ManuallyDrop`. `ManuallyDrop<String>`
// has no drop glue, so the current `!needs_drop` check accepts it and the
// string's buffer leaks when the region is freed; a `T: Copy` bound on fills
// rejects it (`String` is not `Copy`).
use std::mem::ManuallyDrop;

use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let s = r.build(|d: Dest<'_, ManuallyDrop<String>>| {
        d.fill_leaf(ManuallyDrop::new(String::from("never freed")))
    });
    let t = r.alloc_value(ManuallyDrop::new(String::from("never freed either")));
    println!("{} {}", s.as_str(), t.as_str());
}
