// Guarantee: a value that owns heap memory never enters a region, even
// behind `ManuallyDrop`. `ManuallyDrop<String>` has no drop glue, so a
// `!needs_drop` check would accept it and the string's buffer would leak when
// the region is freed; region data must be `Copy`, and `String` is not.
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
