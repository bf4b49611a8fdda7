// Guarantee: `Dest` is invariant in the type of its hole, so no subtyping can
// turn a hole for a long-lived reference into a hole for a shorter one (which
// would let a dangling reference be written where a longer one is read). The
// same holds for `Incomplete`.
use dest::{Dest, Incomplete};

fn shorten<'r, 'short, 'long: 'short>(d: Dest<'r, &'long u64>) -> Dest<'r, &'short u64> {
    d
}

fn shorten_incomplete<'r, 'short, 'long: 'short>(
    i: Incomplete<'r, &'long u64, ()>,
) -> Incomplete<'r, &'short u64, ()> {
    i
}

fn main() {}
