// A packed struct may put its fields at unaligned addresses, where a `Dest`
// (which writes aligned values) must never point: `#[derive(Fill)]` rejects
// `#[repr(packed)]`, and also reads past other arguments such as `align(8)`.
use dest::Fill;

#[derive(Fill)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: u64,
}

#[derive(Fill, Clone, Copy)]
#[repr(u8, align(8))]
enum Aligned {
    A(u8),
    B,
}

fn main() {}
