//! Sets `weir_has_clang` when clang runs (always under `CI=true`, where
//! `.ci/run` installs it), so the clang-sanitized campaign test is ignored
//! with its reason where clang is missing, never a silent `ok` (as
//! crates/driver/build.rs does for the driver's tests).

use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for v in ["CI", "PATH"] {
        println!("cargo::rerun-if-env-changed={v}");
    }
    // (installing clang with apt un-ignores the test)
    if std::path::Path::new("/var/lib/dpkg/status").exists() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v.trim() == "1");
    let clang = Command::new("clang")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    println!("cargo::rustc-check-cfg=cfg(weir_has_clang)");
    if clang || ci {
        println!("cargo::rustc-cfg=weir_has_clang");
    }
}
