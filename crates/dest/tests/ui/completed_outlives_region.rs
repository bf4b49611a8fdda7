// Guarantee: a completed structure cannot outlive its region. `complete`
// returns `&'r T`, a borrow of the region, so the region cannot be dropped
// (its memory freed) while the structure is still used.
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let (inc, d): (_, Dest<'_, u64>) = r.alloc();
    d.fill_leaf(5);
    let v: &u64 = inc.complete();
    drop(r);
    println!("{v}");
}
