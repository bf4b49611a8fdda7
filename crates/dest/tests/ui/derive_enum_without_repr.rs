// Guarantee: `#[derive(Fill)]` only accepts enums whose layout the language
// specifies. Writing a variant's tag and then its fields separately is only
// defined for a primitive representation such as `#[repr(u8)]`; without one
// (or with `repr(C, u8)`, a different layout) the derive refuses.
use dest::Fill;

#[derive(Fill, Clone, Copy)]
enum Shape {
    Dot,
    Circle(f64),
}

#[derive(Fill, Clone, Copy)]
#[repr(C, u8)]
enum Mixed {
    A(u8),
    B(u32),
}

fn main() {}
