//! Sets `weir_has_clang` when clang runs (always under `CI=true`, where
//! `.ci/run` installs it), so the clang-sanitized campaign test is ignored
//! with its reason where clang is missing, never a silent `ok`
//! (`weir_toolprobe`).

fn main() {
    weir_toolprobe::rerun_when(&[]);
    weir_toolprobe::set_cfgs(&[(
        "weir_has_clang",
        weir_toolprobe::runs("clang", &["--version"]),
    )]);
}
