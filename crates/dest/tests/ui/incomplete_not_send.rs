// Guarantee: a structure under construction stays on the thread of its
// region. `Incomplete` holds its header (a `Cell` hole counter in the region)
// by reference, so it is not `Send`: it cannot be moved to another thread to
// be filled or completed there, even by a scoped thread that cannot outlive
// it.
use dest::{List, ListFill, Region};

fn main() {
    let r = Region::new();
    let inc = r.alloc_incomplete::<List<'_, u8>>().map(|d| d.fill_nil());
    std::thread::scope(|s| {
        s.spawn(move || {
            let _ = inc.complete();
        });
    });
}
