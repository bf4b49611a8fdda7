//! The C runtime's own test (`runtime/rt_test.c`), compiled with
//! `-Wall -Wextra -Werror` in the memory modes that need no library (region,
//! malloc, leak) and under AddressSanitizer + UBSan, and run: every check passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn runtime_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime")
}

fn build_and_run(name: &str, flags: &[&str], env: &[(&str, &str)]) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let exe = dir.join(name);
    let cc = std::env::var("CC")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
        .args(flags)
        .arg(runtime_dir().join("rt_test.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{cc}` (a C compiler is needed): {e}"));
    assert!(
        out.status.success(),
        "rt_test.c does not compile with {flags:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .envs(env.iter().copied())
        .output()
        .expect("run rt_test");
    assert!(
        run.status.success(),
        "rt_test ({flags:?}) failed:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("checks passed"));
}

#[test]
fn runtime_self_test_passes_in_every_memory_mode() {
    for m in 0..3 {
        build_and_run(
            &format!("rt{m}"),
            &["-O2", &format!("-DWEIR_MEM={m}")],
            // Mode 2 leaks by design.
            &[("ASAN_OPTIONS", "detect_leaks=0")],
        );
    }
}

#[test]
fn runtime_self_test_is_clean_under_asan_and_ubsan() {
    build_and_run(
        "rt-san",
        &[
            "-O1",
            "-g",
            "-DWEIR_MEM=0",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ],
        &[],
    );
}
