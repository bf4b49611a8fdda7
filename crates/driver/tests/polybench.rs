//! The PolyBench/C 4.2.1 kernels of `examples/polybench/` (the ones the
//! benchmark suite compares with PolyBench's own loop nests, bench/suite.toml
//! `pb-*`) and of `examples/natural/` (bench/natural.toml): every file compiles, its core IR verifies, and its test blocks
//! (hand-checked cases, MINI and SMALL inputs with exact outputs from the
//! independent oracle tools/oracles/polybench_more.py, error cases, structure
//! counts) pass on the reference interpreter and on compiled C (gcc,
//! `-Wall -Wextra -Werror`), also under AddressSanitizer and
//! UndefinedBehaviorSanitizer. (floyd_warshall's SMALL case runs only in the
//! benchmark's cross-check: one element update at a time, it takes the
//! interpreter a minute.)

use std::path::{Path, PathBuf};
use weir_driver::native::{BuildOptions, build_c, c_source};
use weir_driver::testblock::{check_structures, parse_blocks_full, run_cases, run_cases_native};

/// The kernels PolyBench 4.2.1 has beyond the eight in `examples/`.
const KERNELS: usize = 22;

/// The files of `examples/natural/`: PolyBench kernels written as a user
/// writes them (slices, slice and block updates, `transpose` in a dot, step
/// functions; issue 47), which bench/natural.toml times against PolyBench's C.
const NATURAL: usize = 12;

fn files() -> Vec<PathBuf> {
    let mut v = files_in("polybench", KERNELS);
    v.extend(files_in("natural", NATURAL));
    v
}

fn files_in(sub: &str, count: usize) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(sub);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "weir"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    assert_eq!(v.len(), count, "the kernels in {}", dir.display());
    v
}

fn check(native: bool) {
    check_with(native, &[]);
}

fn check_with(native: bool, extra: &[&str]) {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache");
    // SAFETY-free: every test of this binary sets the same value first.
    unsafe { std::env::set_var("WEIR_CACHE", cache) };
    let opts = BuildOptions {
        cc: Some("gcc".into()),
        opt_flags: vec!["-O2".into(), "-march=native".into()],
        extra_flags: ["-Wall", "-Wextra", "-Werror"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect(),
        ..Default::default()
    };
    let mut failures = Vec::new();
    let mut total = 0;
    for f in files() {
        let c = match weir_driver::compile_file(&f) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {}", f.display(), e.render(false)));
                continue;
            }
        };
        weir_driver::pipeline::verify(&c.program, "elaborate")
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let (cases, structures) = parse_blocks_full(&text, f.parent().unwrap_or(Path::new(".")))
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(cases.len() >= 3, "{} has too few cases", f.display());
        let outcomes = if native {
            let src = c_source(&c, &opts, true).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let exe = build_c(&src, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let mut o = run_cases_native(&c, &cases, &exe, &[]);
            o.extend(check_structures(&c, &structures));
            o
        } else {
            run_cases(&c, &cases)
        };
        for o in outcomes {
            total += 1;
            if let Some(msg) = o.failure {
                failures.push(format!("{}:{} ({}): {msg}", f.display(), o.line, o.entry));
            }
        }
    }
    assert!(total > 100, "only {total} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn polybench_kernels_pass_on_the_interpreter() {
    check(false);
}

#[test]
fn polybench_kernels_pass_compiled() {
    check(true);
}

#[test]
fn polybench_kernels_are_clean_under_asan_and_ubsan() {
    check_with(
        true,
        &[
            "-g",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ],
    );
}
