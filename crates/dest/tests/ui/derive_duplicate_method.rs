// Guarantee: every constructor gets its own method. `HTTPCode` and
// `HttpCode` both become `fill_http_code` in snake case (and a
// `#[dest(name = "...")]` may repeat a name); instead of a "duplicate
// definitions" error inside the expansion, the derive names both
// constructors and suggests a rename.
use dest::Fill;

#[derive(Fill, Clone, Copy)]
#[repr(u8)]
enum Status {
    HTTPCode(u16),
    HttpCode(u32),
}

#[derive(Fill, Clone, Copy)]
#[repr(u8)]
enum Renamed {
    #[dest(name = "same")]
    A(u8),
    #[dest(name = "same")]
    B,
}

fn main() {}
