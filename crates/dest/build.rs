//! Detects valgrind for `tests/valgrind.rs`: the cfg `weir_has_valgrind` is set
//! when `valgrind --version` runs, and always under `CI=true` (or `CI=1`), so
//! that there the test runs and fails clearly when valgrind is missing; else
//! the test is reported as ignored, with the reason. Rerun when `CI` or `PATH`
//! change, or the system's packages do (Debian's `/var/lib/dpkg/status`).

use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=PATH");
    if std::path::Path::new("/var/lib/dpkg/status").exists() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
    println!("cargo::rustc-check-cfg=cfg(weir_has_valgrind)");
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v.trim() == "1");
    let valgrind = Command::new("valgrind")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if valgrind || ci {
        println!("cargo::rustc-cfg=weir_has_valgrind");
    }
}
