// Guarantee: a derived constructor method never silently loses to an
// inherent method of `Dest`. A variant `Leaf` would generate `fill_leaf`,
// which `Dest::fill_leaf` shadows (calls would fill the whole value instead of
// the constructor), so the derive reports the collision and suggests
// `#[dest(name = "...")]`.
use dest::Fill;

#[derive(Fill, Clone, Copy)]
#[repr(u8)]
enum Tree {
    Leaf,
    Fork(u32),
}

fn main() {}
