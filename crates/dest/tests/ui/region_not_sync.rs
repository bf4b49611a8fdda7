// Guarantee: a region is used from one thread at a time. Allocation bumps a
// pointer through `&Region`, without synchronisation, so `Region` is not
// `Sync`: two threads cannot share it to build structures concurrently
// (moving a whole, unborrowed region to another thread is fine: it is `Send`).
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    std::thread::scope(|s| {
        s.spawn(|| r.build(|d: Dest<'_, u64>| d.fill_leaf(1)));
        s.spawn(|| r.build(|d: Dest<'_, u64>| d.fill_leaf(2)));
    });
}
