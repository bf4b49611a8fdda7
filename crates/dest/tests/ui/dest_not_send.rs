// Guarantee: destinations stay on the thread of their region. A region is not
// thread-safe (allocation bumps a pointer through `&self`) and hole accounting
// uses `Cell`s, so `Dest` and `Incomplete` are not `Send`: they cannot be
// filled from another thread, even a scoped one that cannot outlive them.
use dest::{Dest, Region};

fn main() {
    let r = Region::new();
    let v = r.build(|d: Dest<'_, u64>| {
        std::thread::scope(|s| {
            s.spawn(move || d.fill_leaf(1));
        });
    });
    println!("{v}");
}
