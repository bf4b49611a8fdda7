// Guarantee: a hole for a `&'long U` cannot be filled with a shorter-lived
// reference. `Dest<'r, T>` is invariant in `T`: if it were covariant, the
// `Dest<&'static u64>` below could be weakened to a `Dest<&'local u64>`,
// filled with a reference to a local, and the completed structure read as
// `&&'static u64` after the local is gone. Likewise a `Dest<'r, &'r u64>` only
// accepts references that live as long as the region.
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let inc = r.alloc_incomplete::<&'static u64>().map(|d| {
        let local = 5u64;
        let d: Dest<'_, &u64> = d;
        d.fill_leaf(&local);
    });
    let v: &&'static u64 = inc.complete();
    println!("{v}");
}

fn fill_with_local<'r>(d: Dest<'r, &'r u64>) {
    let local = 5u64;
    d.fill_leaf(&local);
}
