//! What the build scripts of Weir's crates share (crates/*/build.rs): a test
//! whose external tool is missing is reported as ignored, with the reason,
//! never as a silent `ok`. Each script probes its tools and calls [`set_cfgs`]:
//! a cfg is set when its tool was found, and always under `CI=true` (or
//! `CI=1`), so there the test runs and fails with a clear message when the
//! tool is missing (`.ci/run` installs them with scripts/install-c-tools.sh).
//!
//! [`rerun_when`] makes cargo rerun the script when `CI`, `PATH`, the given
//! variables, or the system's packages (Debian's `/var/lib/dpkg/status`)
//! change, so installing a tool with apt un-ignores its tests.

use std::path::Path;
use std::process::{Command, Stdio};

/// Rerun the build script when it changes, when `CI`, `PATH` or one of
/// `vars` changes, or when the system's packages do.
pub fn rerun_when(vars: &[&str]) {
    println!("cargo::rerun-if-changed=build.rs");
    for v in ["CI", "PATH"].iter().chain(vars) {
        println!("cargo::rerun-if-env-changed={v}");
    }
    if Path::new("/var/lib/dpkg/status").exists() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
}

/// Under CI (`CI=true` or `CI=1`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v.trim() == "1")
}

/// Does `program args..` run and exit with success (output discarded)?
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The C compiler: `$CC` when set and not blank, else `cc`.
pub fn cc() -> String {
    std::env::var("CC")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "cc".into())
}

/// Declare each cfg, and set it when its tool was found or under CI.
pub fn set_cfgs(found: &[(&str, bool)]) {
    let ci = in_ci();
    for (cfg, ok) in found {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if *ok || ci {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
