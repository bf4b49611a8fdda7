//! Misuses of destinations that the compiler must reject.
//!
//! Each file of `tests/ui/` is one misuse, with a comment saying which
//! guarantee it shows; its `.stderr` is the expected compiler output
//! (regenerate with `TRYBUILD=overwrite cargo test -p dest --test compile_fail`
//! after a compiler upgrade, and read the diff: each case must still fail for
//! its stated reason).
//!
//! A `pass` case is included on purpose: with one, trybuild runs `cargo build`
//! instead of `cargo check` for every case, and only a build reports the
//! post-monomorphisation `const` assertion that keeps types with drop glue out
//! of regions (`ui/needs_drop_in_region.rs`).

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

/// Misuse cases that the representation change making region data `Copy`
/// (`T: Copy` on every fill) turns into errors; today they compile (a
/// `ManuallyDrop<String>` has no drop glue, so the `!needs_drop` assertion
/// lets it in and its buffer leaks). Move them into `ui/` with that change.
#[test]
#[ignore = "needs the `T: Copy` bound on region data (pending representation change)"]
fn ui_after_copy_bound() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/after_copy_bound/*.rs");
}
