//! `weir bench --suite FILE`: a user's own suite in a folder outside the
//! repository, with its inputs given directly (an `.npy` file, a value file,
//! an inline value), a hand-written C peer against the embedded harness.h,
//! and a workload checked against the interpreter; and a workload whose
//! entry does not exist, which fails the run with a clear message.

use std::path::{Path, PathBuf};
use std::process::Command;

const N: usize = 1000;

const PROG: &str = "\
entry add3 [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) : [n]f64 =
  build n (\\i -> (a[i] + b[i]) + c[i])
entry scale [n] (k: f64) (a: [n]f64) : [n]f64 = map (\\x -> k * x) a
";

/// The C peer of `add3`, written against bench/handwritten/harness.h.
const PEER: &str = r#"#include "harness.h"

static int64_t n;
static double *a, *b, *c, *out;

static void bench_read(FILE *in) {
    int64_t nb, nc;
    a = h_read_array_f64(in, 1, &n, "a");
    b = h_read_array_f64(in, 1, &nb, "b");
    c = h_read_array_f64(in, 1, &nc, "c");
    h_expect_dim("b", nb, n);
    h_expect_dim("c", nc, n);
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) {
    for (int64_t i = 0; i < n; i++) out[i] = (a[i] + b[i]) + c[i];
}

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, out); }
"#;

/// A fresh folder outside the repository (the system's temporary folder).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "weir-bench-suite-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).expect("scratch directory");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository");
    assert!(
        !dir.canonicalize().expect("scratch").starts_with(&repo),
        "the temporary folder {} is inside the repository",
        dir.display()
    );
    dir
}

/// A one-dimensional f64 `.npy` file (format 1.0).
fn write_npy(path: &Path, xs: &[f64]) {
    let mut header = format!(
        "{{'descr': '<f8', 'fortran_order': False, 'shape': ({},), }}",
        xs.len()
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    for x in xs {
        bytes.extend(x.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write the .npy file");
}

fn list(xs: impl Iterator<Item = f64>) -> String {
    let v: Vec<String> = xs.map(|x| format!("{x:?}")).collect();
    format!("[{}]", v.join(", "))
}

fn bench(dir: &Path, suite: &str, out: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_weir"))
        .current_dir(dir)
        .args([
            "bench",
            "--suite",
            suite,
            "--reps",
            "1",
            "--budget-ms",
            "20",
            "--no-machine",
            "--no-plots",
            "--no-progress",
            "--out",
            out,
        ])
        .output()
        .expect("run weir bench")
}

#[test]
fn a_users_suite_outside_the_repository() {
    let dir = scratch("ok");
    let suite_dir = dir.join("mine");
    std::fs::create_dir_all(suite_dir.join("data")).expect("suite folder");
    std::fs::write(suite_dir.join("kernels.weir"), PROG).expect("write the program");
    std::fs::write(suite_dir.join("add3.c"), PEER).expect("write the peer");
    write_npy(
        &suite_dir.join("data/a.npy"),
        &(0..N).map(|i| i as f64 * 0.5).collect::<Vec<_>>(),
    );
    std::fs::write(
        suite_dir.join("b.txt"),
        list((0..N).map(|i| 1.0 / (i as f64 + 1.0))),
    )
    .expect("write the value file");
    let c = list((0..N).map(|i| (i % 7) as f64 - 3.25));
    let suite = format!(
        "[settings]\nreps = 3\n\n\
         [[workload]]\nname = \"add3\"\nweir = \"kernels.weir:add3\"\n\
         inputs = [\"data/a.npy\", \"b.txt\", \"{c}\"]\nc = \"add3.c\"\ncalls = 1000\n\n\
         [[workload]]\nname = \"scale\"\ntitle = \"k * a, checked against the interpreter\"\n\
         weir = \"kernels.weir:scale\"\ninputs = [\"2.5\", \"data/a.npy\"]\n"
    );
    std::fs::write(suite_dir.join("suite.toml"), suite).expect("write the suite");

    // run from the folder above the suite: paths are the suite file's
    let o = bench(&dir, "mine/suite.toml", "results/run1");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "weir bench failed:\n{stderr}\n{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let out = dir.join("results/run1");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("results.json")).expect("results.json"),
    )
    .expect("results.json parses");
    let workloads = json["workloads"].as_array().expect("workloads");
    assert_eq!(workloads.len(), 2);
    let status = |w: &serde_json::Value, id: &str| -> String {
        w["impls"]
            .as_array()
            .and_then(|is| is.iter().find(|i| i["id"] == id))
            .and_then(|i| i["status"].as_str())
            .unwrap_or("(missing)")
            .to_string()
    };
    let add3 = &workloads[0];
    assert_eq!(add3["name"], "add3");
    assert_eq!(status(add3, "weir"), "ok");
    assert_eq!(status(add3, "c"), "ok");
    assert_eq!(add3["reference"], "c");
    assert_eq!(status(add3, "cpp"), "skipped: not given in the suite");
    let scale = &workloads[1];
    assert_eq!(status(scale, "weir"), "ok");
    assert_eq!(status(scale, "c"), "skipped: not given in the suite");
    assert_eq!(scale["reference"], "interpreter");
    for w in workloads {
        let weir = w["impls"]
            .as_array()
            .and_then(|is| is.iter().find(|i| i["id"] == "weir"))
            .expect("weir");
        assert_eq!(weir["check"]["agrees"], true, "{w}");
        assert_eq!(weir["samples_ns"].as_array().map(Vec::len), Some(1));
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    let row = summary
        .lines()
        .find(|l| l.starts_with("| add3 |"))
        .expect("a row of add3 in summary.md");
    assert!(
        !row.contains("failed") && row.contains("ns"),
        "add3's row: {row}"
    );
    // the input, encoded once, and the builds are under --out
    assert!(
        std::fs::read_dir(out.join("build/inputs"))
            .expect("inputs")
            .any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("add3-")))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_entry_fails_the_run() {
    let dir = scratch("missing");
    std::fs::write(dir.join("kernels.weir"), PROG).expect("write the program");
    std::fs::write(
        dir.join("suite.toml"),
        "[[workload]]\nname = \"nope\"\nweir = \"kernels.weir:add4\"\ninputs = [\"[1.0]\"]\n",
    )
    .expect("write the suite");
    let o = bench(&dir, "suite.toml", "out");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "weir bench succeeded:\n{stderr}");
    assert!(
        stderr.contains("kernels.weir has no entry `add4` (its entries: add3, scale)"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // a missing suite file is an error too, not a panic
    let o = bench(&dir, "absent.toml", "out");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains("no suite file"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
