//! Detects the C tools some of the tests need, so that a test whose tool is
//! missing is reported as ignored (with the reason), never as a silent `ok`:
//! `weir_has_clang` (clang runs), `weir_has_valgrind` (valgrind runs) and
//! `weir_has_libgc` (a program including `<gc.h>` links with `-lgc`). Under
//! `CI=true` (or `CI=1`) every cfg is set whatever is installed, so there the
//! tests run and fail with a clear message when a tool is missing
//! (`.ci/run` installs them with scripts/install-c-tools.sh). Shared with the
//! other crates' build scripts: `weir_toolprobe`.

use std::path::{Path, PathBuf};
use weir_toolprobe::{cc, runs};

/// Whether a program using Boehm GC compiles and links with the C compiler.
fn libgc_links(out: &Path) -> bool {
    let src = out.join("weir_gc_probe.c");
    let exe = out.join("weir_gc_probe");
    let text = "#include <gc.h>\nint main(void) { GC_INIT(); return GC_MALLOC(8) == 0; }\n";
    if std::fs::write(&src, text).is_err() {
        return false;
    }
    match (src.to_str(), exe.to_str()) {
        (Some(s), Some(e)) => runs(&cc(), &[s, "-o", e, "-lgc"]),
        _ => false,
    }
}

fn main() {
    weir_toolprobe::rerun_when(&["CC"]);
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    weir_toolprobe::set_cfgs(&[
        ("weir_has_clang", runs("clang", &["--version"])),
        ("weir_has_valgrind", runs("valgrind", &["--version"])),
        ("weir_has_libgc", libgc_links(&out)),
    ]);
}
