//! The README's first commands are what a new user runs on a fresh clone:
//! the test command there is the one CI runs (`.ci/run`), and every
//! `cargo install` in the documentation uses `--locked` (without it cargo
//! re-resolves the dependencies and rebuilds ~45 crates that the lock file
//! already pins).

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The lines of the README's first fenced block.
fn first_block(readme: &str) -> Vec<String> {
    let mut lines = readme.lines().skip_while(|l| !l.starts_with("```")).skip(1);
    let mut out = Vec::new();
    for l in lines.by_ref() {
        if l.starts_with("```") {
            break;
        }
        out.push(l.trim().to_string());
    }
    out
}

#[test]
fn the_readme_test_command_is_the_one_ci_runs() {
    let root = repo();
    let block = first_block(&read(&root.join("README.md")));
    assert_eq!(block.len(), 3, "set-up, main job, tests: {block:?}");
    assert!(block[1].starts_with("cargo run "), "{block:?}");
    let test = &block[2];
    assert!(test.starts_with("cargo test"), "{block:?}");
    let ci = read(&root.join(".ci/run"));
    assert!(
        ci.lines().any(|l| l.trim() == test),
        ".ci/run must run the README's test command `{test}` verbatim"
    );
    let hunt = read(&root.join("scripts/flake-hunt.sh"));
    assert!(
        hunt.contains(&format!("  {test} >")),
        "scripts/flake-hunt.sh must loop over the README's test command `{test}`"
    );
    // The set-up line's scripts are the ones CI runs too.
    for part in block[0].split("&&") {
        let part = part.trim();
        assert!(
            ci.lines().any(|l| l.trim() == part),
            ".ci/run must run the README's set-up step `{part}`"
        );
    }
}

#[test]
fn every_documented_cargo_install_is_locked() {
    let root = repo();
    let mut docs = vec![root.join("README.md"), root.join("python/README.md")];
    for dir in ["docs", "crates"] {
        collect_markdown(&root.join(dir), &mut docs);
    }
    let mut bad = Vec::new();
    for d in &docs {
        for (i, l) in read(d).lines().enumerate() {
            if l.contains("cargo install") && !l.contains("--locked") {
                bad.push(format!("{}:{}: {}", d.display(), i + 1, l.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "`cargo install` without `--locked`:\n{}",
        bad.join("\n")
    );
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                collect_markdown(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}
