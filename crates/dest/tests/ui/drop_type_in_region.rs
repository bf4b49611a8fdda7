// Guarantee: a user type with a destructor never enters a region, whether it
// is written whole (`fill_leaf`), as a field of a derived constructor, or
// moved in (`alloc_value`). A region is freed as a block without running
// destructors, so `Guard::drop` (releasing a lock, flushing a file, ...) would
// silently never run.
use dest::{Dest, Fill, Region};

struct Guard(u32);

impl Drop for Guard {
    fn drop(&mut self) {
        println!("released {}", self.0);
    }
}

#[derive(Fill)]
struct Holder {
    guard: Guard,
    count: u32,
}

fn main() {
    let r = Region::new();
    let g = r.build(|d: Dest<'_, Guard>| d.fill_leaf(Guard(1)));
    let h = r.build(|d: Dest<'_, Holder>| {
        let (guard, count) = d.fill_holder();
        guard.fill_leaf(Guard(2));
        count.fill_leaf(3);
    });
    let v = r.alloc_value(Guard(4));
    println!("{} {} {}", g.0, h.count, v.0);
}
