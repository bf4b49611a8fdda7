//! Detects valgrind for `tests/valgrind.rs`: the cfg `weir_has_valgrind` is set
//! when `valgrind --version` runs, and always under `CI=true` (or `CI=1`), so
//! that there the test runs and fails clearly when valgrind is missing; else
//! the test is reported as ignored, with the reason (`weir_toolprobe`).

fn main() {
    weir_toolprobe::rerun_when(&[]);
    weir_toolprobe::set_cfgs(&[(
        "weir_has_valgrind",
        weir_toolprobe::runs("valgrind", &["--version"]),
    )]);
}
