//! `weir test`: it counts cases (the inputs of test blocks, per entry), not
//! checks per backend, and files that do not compile as files, not cases; each failure names its backend (compiled C is
//! compared with the interpreter, the interpreter with the block); `--format json` is
//! one JSON document; with no path outside the repo it says what it looks for.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(weir())
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run weir test")
}

/// A fresh folder of this test's own: tests of one binary run in parallel
/// threads of one process, so the name carries the test's name and a
/// per-process sequence number, never the process id alone.
fn scratch(name: &str) -> PathBuf {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("test-cmd-{name}-{}-{seq}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch");
    d
}

#[test]
fn cases_are_the_blocks_inputs() {
    // examples/add3.weir has 6 inputs for one entry
    let o = run(&repo(), &["test", "examples/add3.weir"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("examples/add3.weir: ok (6 cases on the interpreter and compiled C)"),
        "{out}"
    );
    assert!(
        out.contains("6 passed, 0 failed (6 cases in 1 file)"),
        "{out}"
    );
}

#[test]
fn json_report_and_failures_name_their_backend() {
    let d = scratch("json");
    std::fs::write(
        d.join("k.weir"),
        "entry twice (x: f64) : f64 = 2.0 * x\n-- ==\n-- input { 1.0 }\n-- output { 2.0 }\n-- input { 2.0 }\n-- output { 5.0 }\n",
    )
    .expect("write");
    let o = run(&d, &["test", "k.weir"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success());
    assert!(out.contains("k.weir: 1 of 2 FAILED"), "{out}");
    assert!(out.contains("(entry `twice`, interpreter)"), "{out}");
    assert!(
        out.contains("1 passed, 1 failed (2 cases in 1 file)"),
        "{out}"
    );

    let o = run(&d, &["test", "--format", "json", "k.weir"]);
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("weir test --format json prints JSON");
    assert_eq!(v["cases"], 2);
    assert_eq!(v["passed"], 1);
    assert_eq!(v["failed"], 1);
    let f = &v["files"][0];
    assert_eq!(f["file"], "k.weir");
    assert_eq!(f["failed"], 1);
    let backends: Vec<&str> = f["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .filter_map(|x| x["backend"].as_str())
        .collect();
    // (compiled C is compared with the interpreter, which it agrees with)
    assert_eq!(backends, ["interpreter"]);
    assert!(f["failures"][0]["line"].as_u64().is_some_and(|l| l > 0));
}

#[test]
fn no_path_outside_the_repo_says_what_it_looks_for() {
    let d = scratch("no-path");
    let o = run(&d, &["test"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no `examples` folder here") && err.contains("weir test kernels.weir"),
        "{err}"
    );
}

/// A file that does not compile counts as a file, never as cases: the
/// summary says how many cases ran in how many files, and how many files
/// did not compile; JSON counts them apart too.
#[test]
fn files_that_do_not_compile_are_counted_as_files() {
    // (a folder of this test's own)
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("test-cmd-uncompiled-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch");
    std::fs::write(
        d.join("a.weir"),
        "entry twice (x: f64) : f64 = 2.0 * x\n-- ==\n-- input { 1.0 }\n-- output { 2.0 }\n-- input { 2.0 }\n-- output { 5.0 }\n",
    )
    .expect("write");
    std::fs::write(
        d.join("b.weir"),
        "entry inc (x: i64) : i64 = x + 1\n-- ==\n-- input { 1 }\n-- output { 2 }\n-- input { 2 }\n-- output { 3 }\n-- input { 3 }\n-- output { 4 }\n",
    )
    .expect("write");
    // three cases in a file that does not compile (`x` is an f64, not an i64)
    std::fs::write(
        d.join("c.weir"),
        "entry bad (x: f64) : i64 = x\n-- ==\n-- input { 1.0 }\n-- output { 1 }\n-- input { 2.0 }\n-- output { 2 }\n-- input { 3.0 }\n-- output { 3 }\n",
    )
    .expect("write");
    let o = run(&d, &["test", "--interp", "a.weir", "b.weir", "c.weir"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("c.weir: FAILED (does not compile"), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert_eq!(
        last, "4 passed, 1 failed (5 cases in 3 files; 1 file did not compile)",
        "{out}"
    );

    // a file that does not compile alone fails the run, with no case failed
    let o = run(&d, &["test", "--interp", "b.weir", "c.weir"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{out}");
    assert_eq!(
        out.lines().last().unwrap_or_default(),
        "3 passed, 0 failed (3 cases in 2 files; 1 file did not compile)",
        "{out}"
    );

    let o = run(
        &d,
        &[
            "test", "--interp", "--format", "json", "a.weir", "b.weir", "c.weir",
        ],
    );
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("weir test --format json prints JSON");
    assert_eq!(v["cases"], 5);
    assert_eq!(v["passed"], 4);
    assert_eq!(v["failed"], 1);
    assert_eq!(v["files_not_compiled"], 1);
    assert_eq!(v["files_not_read"], 0);
}
