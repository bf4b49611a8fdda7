// Guarantee: structures of two regions can be combined, but the result lives
// only as long as the shorter-lived region. Plugging (`fill_comp`) a structure
// of the short region into a hole of the long region's structure makes the
// region lifetime of the result the short one (`Dest` and `Incomplete` are
// invariant in it), so the combined list cannot be used after the short
// region is dropped: its tail would be freed memory.
use dest::{Dest, List, ListFill, Region};

fn main() {
    let long = Region::new();
    let kept: &List<'_, u8>;
    {
        let short = Region::new();
        let tail = dest::types::from_slice(&short, &[2, 3]);
        kept = long.build(|d: Dest<'_, List<'_, u8>>| {
            let (h, t) = d.fill_cons();
            h.fill_leaf(1);
            t.fill_comp(short.into_incomplete(tail));
        });
    } // `short` is dropped here, with the cells `2` and `3`
    println!("{:?}", dest::types::to_vec(kept));
}

// The same before completion: an incomplete structure of the long region
// holding a plugged structure of the short one cannot be completed after the
// short region is gone (completion reads the plugged structure's header,
// which lives in the short region).
fn plugged_then_dropped() {
    let long = Region::new();
    let inc;
    {
        let short = Region::new();
        let child = short.into_incomplete(dest::types::from_slice(&short, &[2u8]));
        inc = long.alloc_incomplete::<List<'_, u8>>().map(|d| d.fill_comp(child));
    }
    println!("{:?}", inc.complete());
}
