//! Differential tests of the C backend: every example's test blocks run through
//! the reference interpreter and through compiled C (default variant, DFBs), and
//! must agree. Also: the generated C compiles warning-free (`-Wall -Wextra
//! -Werror`) under gcc and clang, runs clean under ASan/UBSan and valgrind, every
//! ablation variant agrees, and the region's peak stays constant over calls.

use std::path::{Path, PathBuf};
use weir_driver::native::{BuildOptions, VARIANTS, build_c, c_source, run_exe, variant};
use weir_driver::pipeline::Compiled;
use weir_driver::testblock::{parse_blocks, run_cases_native};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "weir"))
        .collect();
    v.sort();
    v
}

fn cache() {
    // A per-test-run cache keeps the tests independent of the user's cache.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache");
    // SAFETY-free: tests set the variable before any build; all tests use the same value.
    unsafe { std::env::set_var("WEIR_CACHE", dir) };
}

fn werror(cc: &str, opt: &[&str]) -> BuildOptions {
    BuildOptions {
        cc: Some(cc.into()),
        opt_flags: opt.iter().map(|s| s.to_string()).collect(),
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        ..Default::default()
    }
}

fn have(cc: &str) -> bool {
    std::process::Command::new(cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Run every test case of every example on `exe`s built with `opts`.
fn check_all(opts: &BuildOptions, wrapper: &[&str], only: Option<&[&str]>) -> usize {
    cache();
    let mut failures = Vec::new();
    let mut n = 0;
    for f in examples() {
        let name = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        if only.is_some_and(|o| !o.contains(&name.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read example");
        let c: Compiled = match weir_driver::compile_file(&f) {
            Ok(c) => c,
            Err(e) => panic!("{}: {}", f.display(), e.render(false)),
        };
        let src = c_source(&c, opts, true).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let exe = build_c(&src, opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let cases = parse_blocks(&text, f.parent().unwrap_or(Path::new("."))).expect("test blocks");
        for o in run_cases_native(&c, &cases, &exe, wrapper) {
            n += 1;
            if let Some(m) = o.failure {
                failures.push(format!("{}:{} ({}): {m}", f.display(), o.line, o.entry));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    n
}

#[test]
fn every_example_agrees_with_the_interpreter_gcc_werror() {
    let n = check_all(&werror("gcc", &["-O3", "-march=native"]), &[], None);
    assert!(n > 150, "only {n} cases ran");
}
