//! Compiles the Weir kernels into static libraries in OUT_DIR and writes
//! their Rust bindings (`kernels.rs`, `extra.rs`).

fn main() {
    // The kernels shared with the C and Python examples: library `kernels`.
    weir_rs::build("../kernels.weir");
    // A second library in the same crate: entries that can fail, and
    // results of unbounded size.
    weir_rs::build("extra.weir");
}
