//! `weir fuzz --mutants` (issue 46): runs a small campaign over the
//! examples, and classifies planted misbehaviour (a hang, a panic, an
//! abort, an allocation past the memory limit) as timeout, panic, crash and
//! memory blow-up, saving each.

#![cfg(feature = "fuzz")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("weir-mutants-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn mutants(args: &[&str], out: &Path, plant: Option<&str>) -> Output {
    let mut c = Command::new(weir());
    c.current_dir(root())
        .args(["fuzz", "--mutants", "--no-progress", "--out"])
        .arg(out)
        .args(args);
    match plant {
        Some(p) => c.env("WEIR_MUTANT_PLANT", p),
        None => c.env_remove("WEIR_MUTANT_PLANT"),
    };
    c.output().expect("run weir fuzz --mutants")
}

/// The count of a class in the report.
fn count(report: &str, class: &str) -> u64 {
    report
        .lines()
        .find_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix(class)?;
            rest.trim().parse().ok()
        })
        .unwrap_or_else(|| panic!("no `{class}` line in:\n{report}"))
}

const CLASSES: [&str; 7] = [
    "ok",
    "clean error",
    "internal error",
    "panic",
    "crash",
    "timeout",
    "memory blow-up",
];

#[test]
fn a_small_campaign_runs_and_counts_every_mutant() {
    let out = scratch("small");
    let o = mutants(
        &["-n", "50", "--seed", "7", "-j", "2", "--dirs", "examples"],
        &out,
        None,
    );
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.starts_with("50 mutants of "),
        "{report}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let total: u64 = CLASSES.iter().map(|c| count(&report, c)).sum();
    assert_eq!(total, 50, "{report}");
    // (most mutants are rejected cleanly)
    assert!(count(&report, "clean error") > 0, "{report}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn planted_misbehaviour_is_classified() {
    let out = scratch("planted");
    let o = mutants(
        &[
            "-n",
            "8",
            "--seed",
            "1",
            "-j",
            "2",
            "--time-limit",
            "2",
            "--mem-limit",
            "1024",
            "--dirs",
            "examples",
        ],
        &out,
        Some("hang:1,panic:2,abort:3,oom:4"),
    );
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "bad mutants exit with 1:\n{report}");
    assert_eq!(count(&report, "timeout"), 1, "{report}");
    assert_eq!(count(&report, "panic"), 1, "{report}");
    assert_eq!(count(&report, "crash"), 1, "{report}");
    assert_eq!(count(&report, "memory blow-up"), 1, "{report}");
    for (i, tag) in [(1, "timeout"), (2, "panic"), (3, "crash"), (4, "memory")] {
        let p = out.join(format!("seed1-{i}-{tag}.weir"));
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(text.starts_with("-- weir fuzz --mutants: "), "{text}");
    }
    assert!(report.contains("planted panic"), "{report}");
    assert!(report.contains("memory allocation of"), "{report}");
    let _ = std::fs::remove_dir_all(&out);
}
