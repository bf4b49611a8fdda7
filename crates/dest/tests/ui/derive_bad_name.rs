// `#[dest(name = "...")]` becomes part of a method name (`fill_<name>`): a
// string that cannot be an identifier is reported at the attribute, instead
// of making the derive panic; on an enum the attribute belongs on a variant
// (each variant has its own method), and is reported rather than ignored.
use dest::Fill;

#[derive(Fill, Clone, Copy)]
#[dest(name = "not a name")]
struct Point {
    x: u8,
}

#[derive(Fill, Clone, Copy)]
#[repr(u8)]
enum Op {
    #[dest(name = "add-one")]
    AddOne(u8),
}

#[derive(Fill, Clone, Copy)]
#[repr(u8)]
#[dest(name = "whole")]
enum Unit {
    A,
}

fn main() {}
