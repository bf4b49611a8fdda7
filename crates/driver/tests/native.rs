//! Differential tests of the C backend: every example's test blocks run through
//! the reference interpreter and through compiled C (default variant, DFBs), and
//! must agree. Also: the generated C compiles warning-free (`-Wall -Wextra
//! -Werror`) under gcc and clang, runs clean under ASan/UBSan and valgrind, every
//! ablation variant agrees, and the region's peak stays constant over calls.

use std::path::{Path, PathBuf};
use weir_driver::native::{BuildOptions, VARIANTS, build_c, c_source, run_exe, variant};
use weir_driver::pipeline::Compiled;
use weir_driver::testblock::{parse_blocks, run_cases_native};
#[allow(unused_imports)]
use weir_interp as _;

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

#[test]
fn every_example_agrees_clang_werror() {
    if !have("clang") {
        eprintln!("clang not installed (.ci/run installs it); skipped");
        return;
    }
    check_all(&werror("clang", &["-O3", "-march=native"]), &[], None);
}

#[test]
fn every_example_is_clean_under_asan_and_ubsan() {
    let mut o = werror("gcc", &["-O1", "-g"]);
    o.extra_flags.extend(
        [
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    check_all(&o, &[], None);
}

#[test]
fn examples_are_clean_under_valgrind() {
    if !have("valgrind") {
        eprintln!("valgrind not installed (.ci/run installs it); skipped");
        return;
    }
    // valgrind rejects AVX-512 code: build for x86-64-v3.
    let o = werror("gcc", &["-O2", "-g", "-march=x86-64-v3"]);
    check_all(
        &o,
        &[
            "valgrind",
            "-q",
            "--error-exitcode=99",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect",
        ],
        Some(&["add3", "cross", "ht", "linalg", "mm"]),
    );
}

#[test]
fn every_ablation_variant_agrees() {
    for v in VARIANTS {
        if v.name == "CG" && !Path::new("/usr/include/gc.h").exists() {
            eprintln!("libgc-dev not installed (.ci/run installs it); CG skipped");
            continue;
        }
        let o = BuildOptions {
            variant: *v,
            opt_flags: vec!["-O1".into()],
            extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
            ..Default::default()
        };
        check_all(
            &o,
            &[],
            Some(&[
                "add3", "cross", "ba", "gmm", "ht", "jacobi1d", "seidel2d", "linalg",
            ]),
        );
    }
}

fn add3_args(n: usize) -> Vec<weir_interp::Value> {
    let v = |k: f64| {
        weir_interp::Value::array(
            (0..n)
                .map(|i| weir_interp::Value::F64(i as f64 * k))
                .collect(),
        )
    };
    vec![v(1.0), v(2.0), v(0.5)]
}

/// Run an entry `runs` times in one process; the stats of the run.
fn stats_of(
    file: &str,
    entry: &str,
    args: &[weir_interp::Value],
    variant_name: &str,
    runs: u64,
) -> weir_driver::native::Stats {
    cache();
    let f = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(file);
    let c = weir_driver::compile_file(&f).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let o = BuildOptions {
        variant: variant(variant_name).expect("variant"),
        ..Default::default()
    };
    let exe = build_c(&c_source(&c, &o, true).expect("C source"), &o).expect("build");
    let d = c.program.find(entry).expect("entry");
    let (_, st) = run_exe(&exe, d, args, runs, &[]).expect("run");
    st.expect("stats")
}

#[test]
fn add3_region_peak_is_constant_over_calls_and_leaky_grows() {
    let args = add3_args(100);
    let dfbs: Vec<_> = [10, 1000, 100_000]
        .iter()
        .map(|&r| stats_of("add3.weir", "add3", &args, "DFBs", r))
        .collect();
    assert!(
        dfbs.windows(2).all(|w| w[0].peak_bytes == w[1].peak_bytes),
        "{dfbs:?}"
    );
    assert!(dfbs.iter().all(|s| s.sys_allocs_last_run == 0), "{dfbs:?}");
    // Unfused DPS with the region: one intermediate per call, reused: constant.
    let d: Vec<_> = [10, 1000]
        .iter()
        .map(|&r| stats_of("add3.weir", "add3", &args, "D", r))
        .collect();
    assert_eq!(d[0].peak_bytes, d[1].peak_bytes, "{d:?}");
    assert!(
        d[0].peak_bytes >= 800,
        "D allocates its intermediate: {d:?}"
    );
    let cl: Vec<_> = [10, 1000, 100_000]
        .iter()
        .map(|&r| stats_of("add3.weir", "add3", &args, "CL", r))
        .collect();
    assert!(
        cl[0].peak_bytes < cl[1].peak_bytes && cl[1].peak_bytes < cl[2].peak_bytes,
        "{cl:?}"
    );
    assert!(cl[2].peak_bytes >= 100_000 * 800, "{cl:?}");
}

#[test]
fn default_variant_makes_no_system_allocation_per_call_in_steady_state() {
    let cases: &[(&str, &str)] = &[
        ("add3.weir", "add3"),
        ("cross.weir", "cross"),
        ("ba.weir", "ba_project"),
        ("ba.weir", "ba_objective"),
        ("gmm.weir", "gmm_objective"),
        ("ht.weir", "angle_axis_to_rotation_matrix"),
    ];
    for (file, entry) in cases {
        let f = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join(file);
        let text = std::fs::read_to_string(&f).expect("read");
        let c = weir_driver::compile_file(&f).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let cases = parse_blocks(&text, f.parent().unwrap_or(Path::new("."))).expect("blocks");
        let case = cases
            .iter()
            .find(|k| {
                (k.entries.is_empty() || k.entries.iter().any(|e| e == entry))
                    && matches!(k.expect, weir_driver::testblock::Expect::Output(_))
            })
            .expect("a test input");
        let args = weir_driver::testblock::case_args(&c, entry, &case.input).expect("args");
        let st = stats_of(file, entry, &args, "DFBs", 5);
        assert_eq!(st.sys_allocs_last_run, 0, "{file} {entry}: {st:?}");
    }
}
