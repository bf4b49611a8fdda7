//! Differential tests of the C backend: every example's test blocks run through
//! the reference interpreter and through compiled C (default variant, DFBs), and
//! must agree. Also: the generated C compiles warning-free (`-Wall -Wextra
//! -Werror`) under gcc and clang, runs clean under ASan/UBSan and valgrind, every
//! ablation variant agrees, and the region's peak stays constant over calls.
//! The build cache uses only complete entries, survives concurrent builds and
//! evicts by size; a compiled program gets a time limit.
//!
//! Tests that need clang, valgrind or libgc are `#[ignore]`d with the reason
//! when build.rs did not find the tool, and fail when it is missing under
//! `CI=true` (build.rs then sets every `weir_has_*` cfg).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};
use weir_driver::native::{
    BuildOptions, NativeError, VARIANTS, build_c, build_c_in, c_source, evict_cache, run_exe,
    run_exe_limited, variant,
};
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

/// The test's tool must be there: it runs only when build.rs found it, or
/// under `CI=true`, where a missing tool is a failure.
fn require(tool: &str) {
    assert!(
        have(tool),
        "`{tool} --version` does not run: install {tool} (scripts/install-c-tools.sh does; CI=true requires it)"
    );
}

/// Whether a program using Boehm GC compiles and links (libgc-dev).
fn libgc_links() -> bool {
    let dir = scratch("gc-probe");
    let src = dir.join("probe.c");
    std::fs::write(
        &src,
        "#include <gc.h>\nint main(void) { GC_INIT(); return GC_MALLOC(8) == 0; }\n",
    )
    .expect("write the probe");
    std::process::Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg(&src)
        .arg("-o")
        .arg(dir.join("probe"))
        .arg("-lgc")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh directory of the test run's own.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "native-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
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
#[cfg_attr(
    not(weir_has_clang),
    ignore = "clang not found when weir-driver was built: install it with scripts/install-c-tools.sh"
)]
fn every_example_agrees_clang_werror() {
    require("clang");
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
#[cfg_attr(
    not(weir_has_valgrind),
    ignore = "valgrind not found when weir-driver was built: install it with scripts/install-c-tools.sh"
)]
fn examples_are_clean_under_valgrind() {
    require("valgrind");
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

fn check_variant(name: &str) {
    let o = BuildOptions {
        variant: variant(name).expect("variant"),
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

/// Every variant but CG (Boehm GC, which needs libgc: the next test).
#[test]
fn every_ablation_variant_agrees() {
    for v in VARIANTS.iter().filter(|v| v.name != "CG") {
        check_variant(v.name);
    }
}

#[test]
#[cfg_attr(
    not(weir_has_libgc),
    ignore = "libgc (Boehm GC) not found when weir-driver was built: install libgc-dev with scripts/install-c-tools.sh"
)]
fn the_boehm_gc_variant_agrees() {
    assert!(
        libgc_links(),
        "a program using <gc.h> does not link with -lgc: install libgc-dev (scripts/install-c-tools.sh does; CI=true requires it)"
    );
    check_variant("CG");
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

// ---- The build cache and the time limit ----

/// add3's C with a comment of the test's own, so that its cache key is too.
fn add3_c(marker: &str) -> (Compiled, String) {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/add3.weir");
    let c = weir_driver::compile_file(&f).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let src = c_source(&c, &BuildOptions::default(), true).expect("C source");
    (c, format!("{src}\n/* {marker} */\n"))
}

/// Quicker builds than `-O3 -march=native`.
fn o1() -> BuildOptions {
    BuildOptions {
        opt_flags: vec!["-O1".into()],
        ..Default::default()
    }
}

/// `exe` computes add3 as the interpreter does.
fn runs_add3(c: &Compiled, exe: &Path) {
    let d = c.program.find("add3").expect("entry");
    let (got, _) = run_exe(exe, d, &add3_args(5), 1, &[]).expect("run the cached executable");
    let want = weir_driver::pipeline::run_entry_optimized(c, "add3", add3_args(5)).expect("interp");
    assert_eq!(got, want);
}

/// The names in a directory, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read the cache")
        .filter_map(|e| {
            e.ok()
                .and_then(|e| e.file_name().to_str().map(String::from))
        })
        .collect();
    v.sort();
    v
}

fn set_mtime(p: &Path, t: SystemTime) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(p)
        .and_then(|f| f.set_modified(t))
        .expect("set the modification time");
}

#[test]
fn a_truncated_or_corrupted_cache_entry_is_rebuilt() {
    let dir = scratch("corrupt");
    let (c, src) = add3_c("corrupt");
    let exe = build_c_in(&dir, &src, &o1()).expect("build");
    runs_add3(&c, &exe);
    let key = exe
        .file_name()
        .and_then(|n| n.to_str())
        .expect("name")
        .to_string();
    assert_eq!(
        names(&dir),
        [key.clone(), format!("{key}.c"), format!("{key}.meta")]
    );
    let len = std::fs::metadata(&exe).expect("exe").len();

    // Truncated (a full disk, a killed copy): rebuilt, and it runs.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&exe)
        .and_then(|f| f.set_len(len / 2))
        .expect("truncate");
    let again = build_c_in(&dir, &src, &o1()).expect("rebuild");
    assert_eq!(again, exe);
    assert_eq!(std::fs::metadata(&exe).expect("exe").len(), len);
    runs_add3(&c, &exe);

    // The same size, other bytes: the hash tells.
    let mut bytes = std::fs::read(&exe).expect("read");
    for b in &mut bytes[len as usize / 3..] {
        *b = 0xcc;
    }
    std::fs::write(&exe, &bytes).expect("overwrite");
    build_c_in(&dir, &src, &o1()).expect("rebuild");
    assert_ne!(std::fs::read(&exe).expect("read"), bytes);
    runs_add3(&c, &exe);

    // No record (an interrupted build of an older weir): rebuilt.
    std::fs::remove_file(dir.join(format!("{key}.meta"))).expect("remove the record");
    build_c_in(&dir, &src, &o1()).expect("rebuild");
    runs_add3(&c, &exe);

    // A hit marks the entry as used (the eviction's clock).
    let meta = dir.join(format!("{key}.meta"));
    set_mtime(&meta, SystemTime::now() - Duration::from_secs(7200));
    build_c_in(&dir, &src, &o1()).expect("hit");
    let used = std::fs::metadata(&meta)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert!(used > SystemTime::now() - Duration::from_secs(600));
    // Nothing left over by the rebuilds.
    assert_eq!(
        names(&dir),
        [key.clone(), format!("{key}.c"), format!("{key}.meta")]
    );
}

#[test]
fn concurrent_builds_of_one_program_do_not_collide() {
    let dir = scratch("concurrent");
    let (c, src) = add3_c("concurrent");
    let d = c.program.find("add3").expect("entry");
    let input = weir_driver::native::encode_args(d, &add3_args(5)).expect("input");
    // Each thread builds the same program into an empty cache and runs it at
    // once, while the others are still compiling and publishing.
    let outputs: Vec<Vec<u8>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    let exe = build_c_in(&dir, &src, &o1()).expect("concurrent build");
                    let mut child = std::process::Command::new(&exe)
                        .args(["-e", "add3", "--raw"])
                        .stdin(std::process::Stdio::piped())
                        .stdout(std::process::Stdio::piped())
                        .spawn()
                        .expect("run the executable");
                    if let Some(mut stdin) = child.stdin.take() {
                        use std::io::Write;
                        stdin.write_all(&input).expect("input");
                    }
                    let out = child.wait_with_output().expect("output");
                    assert!(out.status.success(), "{}", out.status);
                    out.stdout
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("a builder panicked"))
            .collect()
    });
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let exe = build_c_in(&dir, &src, &o1()).expect("hit");
    runs_add3(&c, &exe);
    // One entry, no temporary file left.
    assert_eq!(names(&dir).len(), 3, "{:?}", names(&dir));
}

#[test]
fn the_cache_evicts_least_recently_used_entries_past_its_bound() {
    let dir = scratch("evict");
    let now = SystemTime::now();
    let hours = |h: u64| now - Duration::from_secs(3600 * h);
    let file = |name: &str, len: usize, t: SystemTime| {
        let p = dir.join(name);
        std::fs::write(&p, vec![0u8; len]).expect("write");
        set_mtime(&p, t);
    };
    let key = |k: u8| format!("w{:016x}", k);
    // Four entries of 1550 bytes each, used 4, 3, 2 hours ago and now; one
    // has a C file left by an older weir.
    for (k, t) in [(1, hours(4)), (2, hours(3)), (3, hours(2)), (4, now)] {
        file(&key(k), 1000, t);
        file(&format!("{}.meta", key(k)), 50, t);
        file(&format!("{}.c", key(k)), 500, t);
    }
    file(&format!("{}.77.3.c", key(1)), 100, hours(5));
    // The record was used recently: the entry is recent.
    set_mtime(&dir.join(format!("{}.meta", key(2))), hours(1));
    // A temporary file of a build interrupted long ago, one of a build under
    // way, and a file that is not the cache's.
    file(&format!("{}.9.1.0badf00d.tmp", key(5)), 700, hours(2));
    file(&format!("{}.9.2.0badf00d.tmp", key(6)), 700, now);
    file("notes.txt", 100_000, hours(9));

    let ev = evict_cache(&dir, 2 * 1550).expect("evict");
    // Entry 1 (with its old C file) and entry 3 are the least recently used.
    assert_eq!(ev.entries, 2, "{ev:?}");
    assert_eq!(ev.bytes, 1650 + 1550 + 700);
    assert_eq!(ev.left, 2 * 1550);
    let left = names(&dir);
    for k in [2, 4] {
        for ext in ["", ".meta", ".c"] {
            assert!(left.contains(&format!("{}{ext}", key(k))), "{left:?}");
        }
    }
    assert!(
        !left
            .iter()
            .any(|n| n.starts_with(&key(1)) || n.starts_with(&key(3)))
    );
    assert!(!left.iter().any(|n| n.starts_with(&key(5))), "{left:?}");
    assert!(left.iter().any(|n| n.starts_with(&key(6))), "{left:?}");
    assert!(left.contains(&"notes.txt".to_string()));

    // A bound of nothing: everything but what was used in the last minute.
    let ev = evict_cache(&dir, 0).expect("evict");
    assert_eq!(ev.entries, 1);
    assert_eq!(ev.left, 1550);
    assert!(names(&dir).contains(&key(4)));
}

#[test]
fn a_compiled_program_past_its_time_limit_is_killed() {
    let c = weir_driver::pipeline::compile_source(
        "spin.weir",
        "entry spin (x: i64) : i64 =\n  loop s = x while s >= 0 do s + 1\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    // -O0: the loop runs for 2^63 steps, not folded away.
    let o = BuildOptions {
        opt_flags: vec!["-O0".into()],
        ..Default::default()
    };
    let exe =
        build_c_in(&scratch("timeout"), &c_source(&c, &o, true).expect("C"), &o).expect("build");
    let d = c.program.find("spin").expect("entry");
    let start = Instant::now();
    let limit = Duration::from_millis(500);
    match run_exe_limited(&exe, d, &[weir_interp::Value::I64(0)], 1, &[], Some(limit)) {
        Err(e @ NativeError::Timeout(_)) => assert_eq!(
            e.to_string(),
            "error: the compiled program exceeded the time limit of 0.5 s"
        ),
        other => panic!("expected a time-out, got {other:?}"),
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    // Within its limit, the result comes back.
    let (v, _) = run_exe_limited(
        &exe,
        d,
        &[weir_interp::Value::I64(-5)],
        1,
        &[],
        Some(Duration::from_secs(60)),
    )
    .expect("run");
    assert_eq!(v, weir_interp::Value::I64(-5));
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
