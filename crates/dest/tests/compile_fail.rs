//! Misuses of destinations that the compiler must reject.
//!
//! Each file of `tests/ui/` is one misuse, with a comment saying which
//! guarantee it shows; its `.stderr` is the expected compiler output
//! (regenerate with `TRYBUILD=overwrite cargo test -p dest --test compile_fail`
//! after a compiler upgrade, and read the diff: each case must still fail for
//! its stated reason).
//!
//! A `pass` case is included on purpose: with one, trybuild runs `cargo build`
//! instead of `cargo check` for every case, so that an error reported only
//! after monomorphisation would be caught too. (Types with drop glue are kept
//! out of regions by a `Copy` bound, an error of `cargo check` already:
//! `ui/needs_drop_in_region.rs`.)

#[test]
#[cfg_attr(
    miri,
    ignore = "trybuild runs cargo and rustc: not possible inside Miri"
)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/correct_use.rs");
    t.compile_fail("tests/ui/*.rs");
}
