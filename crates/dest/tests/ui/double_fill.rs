// Guarantee: a destination is written at most once. `Dest` is neither `Copy`
// nor `Clone` and every fill takes it by value, so a second fill of the same
// hole is a use of a moved value.
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let v = r.build(|d: Dest<'_, u64>| {
        d.fill_leaf(1);
        d.fill_leaf(2);
    });
    println!("{v}");
}
