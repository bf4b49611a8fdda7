//! The Python package (python/) and the Dask example, through pytest in the
//! environment `scripts/install-python.sh` makes (`python/.venv`: NumPy,
//! Dask, pytest and the package): kernels of examples/embed/kernels.weir and
//! examples/gmm.weir against NumPy, zero-copy arguments, errors as
//! exceptions (too-small destination, wrong dtype, wrong shape), pickling,
//! threads, and `map_blocks` on a two-worker LocalCluster. Without the
//! environment the test is skipped with a note, except under CI=true, where
//! it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

#[test]
fn python_package_and_dask_tests_pass() {
    let root = repo();
    let python = root.join("python/.venv/bin/python");
    if !python.exists() {
        assert!(
            std::env::var("CI").is_err(),
            "python/.venv is missing: run scripts/install-python.sh (CI runs it)"
        );
        eprintln!("note: python/.venv missing (scripts/install-python.sh): Python tests skipped");
        return;
    }
    let cache =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pycache-{}", std::process::id()));
    let out = Command::new(&python)
        .current_dir(&root)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "python/tests",
        ])
        .env("WEIR", env!("CARGO_BIN_EXE_weir"))
        .env("WEIR_CACHE", &cache)
        .output()
        .expect("run pytest");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pytest failed:\n{text}");
    assert!(text.contains("passed"), "pytest ran nothing:\n{text}");
    let _ = std::fs::remove_dir_all(&cache);
}
