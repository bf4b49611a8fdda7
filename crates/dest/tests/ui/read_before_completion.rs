// Guarantee: a structure whose holes it carries cannot be read. `complete`
// exists only on `Incomplete<'r, T, ()>`: while the holes side is still a
// `Dest` there is no method that yields the `&T`, and neither `Incomplete`
// nor `Dest` can be dereferenced. (Holes held apart, as `Region::alloc`
// returns them, are checked when completing, dynamically.)
use dest::{List, ListFill, Region};

fn main() {
    let r = Region::new();
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| {
        let (h, t) = d.fill_cons();
        h.fill_leaf(1);
        t // the tail is still a hole
    });
    let list: &List<'_, u8> = inc.complete();
    println!("{list:?}");
}

fn peek(r: &Region) -> u64 {
    let inc = r.alloc_incomplete::<u64>();
    *inc
}
