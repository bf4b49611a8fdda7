//! Detects what the suite's tests need, so that a test whose tool is missing is
//! reported as ignored (with the reason), never as a silent `ok`:
//! `weir_has_cc` (`$CC`, else `cc`, runs) and `weir_has_font` (a TrueType font
//! for the figures: `$WEIR_BENCH_FONT` or one of plot.rs's `FONT_FILES`).
//! Under `CI=true` (or `CI=1`) both are set whatever is installed, so there
//! the tests run and fail clearly when something is missing. Rerun when `CI`,
//! `PATH`, `CC` or `WEIR_BENCH_FONT` change, or the system's packages do
//! (Debian's `/var/lib/dpkg/status`).

use std::path::Path;
use std::process::{Command, Stdio};

/// The same list as `FONT_FILES` in src/plot.rs.
const FONT_FILES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for v in ["CI", "PATH", "CC", "WEIR_BENCH_FONT"] {
        println!("cargo::rerun-if-env-changed={v}");
    }
    if Path::new("/var/lib/dpkg/status").exists() {
        println!("cargo::rerun-if-changed=/var/lib/dpkg/status");
    }
    let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v.trim() == "1");
    let cc = std::env::var("CC")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "cc".into());
    let has_cc = Command::new(cc)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let has_font = std::env::var_os("WEIR_BENCH_FONT").is_some_and(|f| Path::new(&f).is_file())
        || FONT_FILES.iter().any(|f| Path::new(f).is_file());
    for (cfg, found) in [("weir_has_cc", has_cc), ("weir_has_font", has_font)] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if found || ci {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
