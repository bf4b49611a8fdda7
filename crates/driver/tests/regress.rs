//! Regression tests as data: every `tests/regress/*.weir` file's test blocks run
//! on the reference interpreter (unoptimized and optimized, which must agree bit
//! for bit) and on compiled C, which must agree with the interpreter. A file
//! whose name ends in `_interp.weir` uses builtins the C backend does not
//! compile yet, and runs on the interpreter only.

use std::path::{Path, PathBuf};
use weir_driver::native::{BuildOptions, NativeError, build_c, c_source};
use weir_driver::testblock::{run_cases, run_cases_native};

fn files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/regress");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/regress")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "weir"))
        .collect();
    v.sort();
    v
}

#[test]
fn regressions_pass_on_the_interpreter_and_in_c() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache-regress");
    // SAFETY-free: set before any build, the same value in every test of this file.
    unsafe { std::env::set_var("WEIR_CACHE", dir) };
    let mut failures = Vec::new();
    let (mut interp, mut native) = (0, 0);
    for f in files() {
        let text = std::fs::read_to_string(&f).expect("read");
        let c = match weir_driver::compile_file(&f) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{}: {}", f.display(), e.render(false)));
                continue;
            }
        };
        let (cases, structures) =
            weir_driver::testblock::parse_blocks_full(&text, f.parent().unwrap_or(Path::new(".")))
                .expect("blocks");
        assert!(!cases.is_empty(), "{} has no test cases", f.display());
        let mut outcomes = run_cases(&c, &cases);
        outcomes.extend(weir_driver::testblock::check_structures(&c, &structures));
        for o in outcomes {
            interp += 1;
            if let Some(m) = o.failure {
                failures.push(format!("{}:{} ({}): {m}", f.display(), o.line, o.entry));
            }
        }
        let opts = BuildOptions::default();
        let src = match c_source(&c, &opts, true) {
            Ok(s) => s,
            // outside what the C backend compiles (the file says so in its name)
            Err(NativeError::Backend(_)) if f.to_string_lossy().ends_with("_interp.weir") => {
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: the C backend fails: {e}", f.display()));
                continue;
            }
        };
        let exe = match build_c(&src, &opts) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        for o in run_cases_native(&c, &cases, &exe, &[]) {
            native += 1;
            if let Some(m) = o.failure {
                failures.push(format!(
                    "{}:{} ({}) in C: {m}",
                    f.display(),
                    o.line,
                    o.entry
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        interp >= 40 && native >= 20,
        "{interp} interpreter and {native} C cases ran"
    );
}

/// The loop rules' regression files (interchange, distribution, tiling with
/// its register blocks, batching across points, peeling) run clean under
/// AddressSanitizer and UndefinedBehaviorSanitizer at -O2 (vectorised code):
/// the blocks' remainders, the lane columns and the peeled ranges never read
/// or write outside their arrays.
#[test]
fn loop_rules_are_clean_under_asan_and_ubsan() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache-regress");
    // SAFETY-free: set before any build, the same value in every test of this file.
    unsafe { std::env::set_var("WEIR_CACHE", dir) };
    let opts = BuildOptions {
        cc: Some("gcc".into()),
        opt_flags: vec!["-O2".into(), "-march=native".into(), "-g".into()],
        extra_flags: [
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        ..Default::default()
    };
    let mut failures = Vec::new();
    let mut n = 0;
    for name in ["interchange", "distribute", "tile", "batch", "peel"] {
        let f = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/regress")
            .join(format!("{name}.weir"));
        let text = std::fs::read_to_string(&f).expect("read");
        let c = weir_driver::compile_file(&f).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let cases =
            weir_driver::testblock::parse_blocks(&text, f.parent().unwrap_or(Path::new(".")))
                .expect("blocks");
        let src = c_source(&c, &opts, true).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let exe = build_c(&src, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for o in run_cases_native(&c, &cases, &exe, &[]) {
            n += 1;
            if let Some(m) = o.failure {
                failures.push(format!("{}:{} ({}): {m}", f.display(), o.line, o.entry));
            }
        }
    }
    assert!(n > 60, "only {n} cases ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The integer types, bitwise operators and conversions (issue 20): their
/// regression files build with `-Wall -Wextra -Werror` and run clean under
/// AddressSanitizer and UndefinedBehaviorSanitizer (gcc, and clang where
/// installed): no signed overflow, no shift out of range, no out-of-range
/// float-to-integer conversion in the generated C or its runtime, and the
/// same results as the interpreter.
#[test]
fn integer_files_are_clean_under_ubsan_and_werror() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache-regress");
    // SAFETY-free: set before any build, the same value in every test of this file.
    unsafe { std::env::set_var("WEIR_CACHE", dir) };
    let mut compilers = vec!["gcc"];
    if cfg!(weir_has_clang) {
        compilers.push("clang");
    }
    let mut failures = Vec::new();
    let mut n = 0;
    for cc in compilers {
        let opts = BuildOptions {
            cc: Some(cc.into()),
            opt_flags: vec!["-O2".into(), "-g".into()],
            extra_flags: [
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsanitize=address,undefined,float-cast-overflow",
                "-fno-sanitize-recover=all",
                "-fno-omit-frame-pointer",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            ..Default::default()
        };
        for name in ["int_types", "bit_ops", "conversions", "f32_everywhere"] {
            let f = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/regress")
                .join(format!("{name}.weir"));
            let text = std::fs::read_to_string(&f).expect("read");
            let c = weir_driver::compile_file(&f).unwrap_or_else(|e| panic!("{}", e.render(false)));
            let cases =
                weir_driver::testblock::parse_blocks(&text, f.parent().unwrap_or(Path::new(".")))
                    .expect("blocks");
            let src = c_source(&c, &opts, true).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let exe = match build_c(&src, &opts) {
                Ok(e) => e,
                Err(e) => {
                    failures.push(format!("{cc}: {}: {e}", f.display()));
                    continue;
                }
            };
            for o in run_cases_native(&c, &cases, &exe, &[]) {
                n += 1;
                if let Some(m) = o.failure {
                    failures.push(format!(
                        "{cc}: {}:{} ({}): {m}",
                        f.display(),
                        o.line,
                        o.entry
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(n > 2000, "only {n} cases ran");
}
