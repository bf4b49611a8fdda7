//! Detects the C tools some of the tests need, so that a test whose tool is
//! missing is reported as ignored (with the reason), never as a silent `ok`:
//! `weir_has_clang` (clang runs), `weir_has_valgrind` (valgrind runs) and
//! `weir_has_libgc` (a program including `<gc.h>` links with `-lgc`). Under
//! `CI=true` (or `CI=1`) every cfg is set whatever is installed, so there the
//! tests run and fail with a clear message when a tool is missing
//! (`.ci/run` installs them with scripts/install-c-tools.sh).
//!
//! Rerun when `CI`, `PATH` or `CC` change, and when the system's packages
//! change (Debian's `/var/lib/dpkg/status`), so that installing a tool with
//! apt un-ignores its tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether a program using Boehm GC compiles and links with the C compiler.
fn libgc_links(out: &Path) -> bool {
    let cc = std::env::var("CC")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "cc".into());
    let src = out.join("weir_gc_probe.c");
    let exe = out.join("weir_gc_probe");
    let text = "#include <gc.h>\nint main(void) { GC_INIT(); return GC_MALLOC(8) == 0; }\n";
    if std::fs::write(&src, text).is_err() {
        return false;
    }
    Command::new(&cc)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg("-lgc")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for v in ["CI", "PATH", "CC"] {
        println!("cargo::rerun-if-env-changed={v}");
    }
    if Path::new("/var/lib/dpkg/status").exists() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v.trim() == "1");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let tools = [
        ("weir_has_clang", runs("clang", &["--version"])),
        ("weir_has_valgrind", runs("valgrind", &["--version"])),
        ("weir_has_libgc", libgc_links(&out)),
    ];
    for (cfg, found) in tools {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if found || ci {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
