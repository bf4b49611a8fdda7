// Guarantee: a destination cannot outlive its region. Every `Dest` (and
// `Incomplete`) borrows the region, so keeping one after the region is gone is
// a borrow error, not a write into freed memory.
use dest::{Dest, Region};

fn main() {
    let mut kept: Option<Dest<'_, u64>> = None;
    {
        let r = Region::new();
        let (_inc, d) = r.alloc::<u64>();
        kept = Some(d);
    } // `r` is dropped here, freeing the slot `kept` would write
    if let Some(d) = kept {
        d.fill_leaf(1);
    }
}
