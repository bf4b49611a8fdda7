// Guarantee: only `Flat` structures (`&'r U`, `Option<&'r U>`, hence `List`
// and `Tree`) can be plugged into a hole with `fill_comp`. Plugging moves the
// child's root into the hole; for a non-`Flat` root such as a tuple or a
// derived struct, a `Dest` could still point into the old root (one of its
// fields), so the move would leave it writing to the wrong place.
use dest::{Dest, Fill, Region};

#[derive(Fill, Clone, Copy)]
struct Point {
    x: u32,
    y: u32,
}

fn main() {
    let r = Region::new();
    let child = r.into_incomplete((1u8, 2u8));
    let _ = r.build(|d: Dest<'_, (u8, u8)>| d.fill_comp(child));

    let half = r.alloc_incomplete::<Point>().map(|d| {
        let (x, y) = d.fill_point();
        x.fill_leaf(1);
        y // still open, and it points into `half`'s root
    });
    let _ = r.alloc_incomplete::<Point>().map(|d| d.fill_comp(half));
}
