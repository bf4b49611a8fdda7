//! Issue 14: every size that enters generated C is checked, and errors keep
//! their meaning and location.
//!
//! - `tests/regress_c/*.weir`: each bug as data (test blocks). Every case runs
//!   on the interpreter (unoptimized and optimized) and on compiled C, built
//!   with `-Wall -Wextra -Werror` (gcc; clang too where installed) and under
//!   AddressSanitizer + UBSan; results agree, and an error is an error of the
//!   same kind at the same `file:line:col` on both.
//! - A `weir build` executable given hostile `--in` files (dims claiming 2^61
//!   elements, negative dims, data shorter than the dims say) exits with a
//!   clear message, never a signal; also under the sanitizers, from a file
//!   and from a pipe.
//! - A C program calling the generated entry point directly: a destination
//!   whose inner dimension is too small is refused (return 1, nothing
//!   written), so are invalid array arguments; the shape function reports a
//!   negative or overflowing size with the location of the construct that
//!   computed it, and accepts negative sizes that are never evaluated.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use weir_driver::native::{BuildOptions, NativeError, build_c_in, c_source, locate, run_exe};
use weir_driver::pipeline::{Compiled, run_entry_optimized};
use weir_driver::testblock::{Case, Expect, case_args, parse_blocks, run_cases};
#[allow(unused_imports)]
use weir_interp as _;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh directory of this test run's own.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "c_safety-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn regress_files() -> Vec<PathBuf> {
    let dir = root().join("tests/regress_c");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/regress_c")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "weir"))
        .collect();
    v.sort();
    assert!(v.len() >= 5, "regression files missing: {v:?}");
    v
}

fn werror(cc: &str, opt: &[&str]) -> BuildOptions {
    BuildOptions {
        cc: Some(cc.into()),
        opt_flags: opt.iter().map(|s| s.to_string()).collect(),
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        ..Default::default()
    }
}

fn sanitized() -> BuildOptions {
    sanitized_with("gcc")
}

fn sanitized_with(cc: &str) -> BuildOptions {
    let mut o = werror(cc, &["-O1", "-g"]);
    o.extra_flags.extend(
        [
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    o
}

/// Sanitized executables run under this: an allocation of 2^61 bytes must
/// fail (and be reported by the program), not abort in ASan's allocator.
const SAN_ENV: &[&str] = &[
    "env",
    "ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1",
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1",
];

/// The first words of a message (its kind: `index out`, `size mismatch`, ...).
fn kind(m: &str) -> String {
    m.split(':')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One case on compiled C against the optimized interpreter: same value, or
/// an error of the same kind at the same location.
fn compare_case(
    c: &Compiled,
    entry: &str,
    case: &Case,
    exe: &Path,
    wrapper: &[&str],
) -> Result<(), String> {
    let Ok(args) = case_args(c, entry, &case.input) else {
        return Ok(()); // bad input: the interpreter run reports it
    };
    let d = c.program.find(entry).ok_or("no such entry")?;
    let reference = run_entry_optimized(c, entry, args.clone());
    match (reference, run_exe(exe, d, &args, 1, wrapper)) {
        (Ok(v), Ok((w, _))) => weir_interp::value::compare(&w, &v, case.tolerance.max(1e-9))
            .map_err(|e| format!("compiled C differs from the interpreter: {e}")),
        (Err(e), Err(NativeError::Runtime(m))) => {
            let want_loc = locate(c, e.span);
            let mut parts = m.splitn(4, ':');
            let loc: Vec<&str> = parts.by_ref().take(3).collect();
            let msg = parts.next().unwrap_or("").trim();
            if loc.join(":") != want_loc {
                return Err(format!(
                    "compiled C fails at `{m}`, the interpreter at {want_loc}: {}",
                    e.message
                ));
            }
            if kind(msg) != kind(&e.message) {
                return Err(format!(
                    "compiled C fails with `{msg}`, the interpreter with `{}`",
                    e.message
                ));
            }
            if let Expect::Error(want) = &case.expect
                && !msg.contains(want.as_str())
            {
                return Err(format!("compiled C fails with `{msg}`, expected `{want}`"));
            }
            Ok(())
        }
        (Ok(v), Err(e)) => Err(format!(
            "compiled C fails where the interpreter returns {}: {e}",
            weir_interp::format_value(&v)
        )),
        (Err(e), Err(other)) => Err(format!(
            "compiled C fails with `{other}` where the interpreter fails with `{}`",
            e.message
        )),
        (Err(e), Ok((w, _))) => Err(format!(
            "compiled C returns {} where the interpreter fails with `{}`",
            weir_interp::format_value(&w),
            e.message
        )),
    }
}

/// Every regression case, on the interpreter and on C built with `opts`.
fn check_regressions(opts: &BuildOptions, wrapper: &[&str], cache: &Path) -> usize {
    let mut failures = Vec::new();
    let mut n = 0;
    for f in regress_files() {
        let text = std::fs::read_to_string(&f).expect("read");
        let c = weir_driver::compile_file(&f)
            .unwrap_or_else(|e| panic!("{}: {}", f.display(), e.render(false)));
        let cases = parse_blocks(&text, f.parent().unwrap_or(Path::new("."))).expect("test blocks");
        assert!(!cases.is_empty(), "{}: no test cases", f.display());
        for o in run_cases(&c, &cases) {
            if let Some(m) = o.failure {
                failures.push(format!(
                    "{}:{} ({}, interpreter): {m}",
                    f.display(),
                    o.line,
                    o.entry
                ));
            }
        }
        let src = c_source(&c, opts, true).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let exe = match build_c_in(cache, &src, opts) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let first = c.program.entries().next().map(|d| d.name.clone());
        for case in &cases {
            let entries = if case.entries.is_empty() {
                first.iter().cloned().collect()
            } else {
                case.entries.clone()
            };
            for entry in entries {
                n += 1;
                if let Err(m) = compare_case(&c, &entry, case, &exe, wrapper) {
                    failures.push(format!("{}:{} ({entry}): {m}", f.display(), case.line));
                }
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
fn regressions_agree_with_the_interpreter_gcc_werror() {
    let n = check_regressions(
        &werror("gcc", &["-O3", "-march=native"]),
        &[],
        &scratch("gcc"),
    );
    assert!(n > 50, "only {n} cases ran");
}

#[test]
#[cfg_attr(
    not(weir_has_clang),
    ignore = "clang not found when weir-driver was built: install it with scripts/install-c-tools.sh"
)]
fn regressions_agree_with_the_interpreter_clang_werror() {
    check_regressions(
        &werror("clang", &["-O3", "-march=native"]),
        &[],
        &scratch("clang"),
    );
}

#[test]
fn regressions_are_clean_under_asan_and_ubsan() {
    check_regressions(&sanitized(), SAN_ENV, &scratch("san"));
}

/// clang's UBSan checks more than gcc's: arithmetic on a NULL pointer, even
/// with a zero offset (a result too large for memory, passed as NULL, had
/// its row views computed; tests/regress_c/result_too_large.weir).
#[test]
#[cfg_attr(
    not(weir_has_clang),
    ignore = "clang not found when weir-driver was built: install it with scripts/install-c-tools.sh"
)]
fn regressions_are_clean_under_clang_asan_and_ubsan() {
    check_regressions(&sanitized_with("clang"), SAN_ENV, &scratch("san-clang"));
}

/// Fuzz finding 25844 (seed 19): gcc at `-O3` with the sanitizers and
/// `-Werror` must accept the generated C (it once rejected a copy with a
/// bogus -Warray-bounds).
#[test]
fn sanitized_o3_builds_compile() {
    let mut opts = werror("gcc", &["-O3", "-march=native"]);
    opts.extra_flags.extend(
        ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
            .iter()
            .map(|s| s.to_string()),
    );
    let dir = scratch("san-o3");
    let src = std::fs::read_to_string(root().join("tests/regress_c/o3_sanitized_copy.weir"))
        .expect("tests/regress_c/o3_sanitized_copy.weir");
    build_exe(&src, &opts, &dir);
}

/// Build `src` (a Weir program) as an executable with `opts`.
fn build_exe(src: &str, opts: &BuildOptions, dir: &Path) -> PathBuf {
    let path = dir.join("prog.weir");
    std::fs::write(&path, src).expect("write the program");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let c_src = c_source(&c, opts, true).unwrap_or_else(|e| panic!("{e}"));
    build_c_in(dir, &c_src, opts).unwrap_or_else(|e| panic!("{e}"))
}

fn i64s(xs: &[i64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Run `exe -e entry` on `input`, from a file (`--in`) or a pipe: the exit
/// status (None: killed by a signal) and stderr.
fn run_input(
    exe: &Path,
    wrapper: &[&str],
    entry: &str,
    input: &[u8],
    pipe: bool,
) -> (Option<i32>, String) {
    let dir = exe.parent().unwrap_or(Path::new("."));
    let file = dir.join(format!("{entry}.in"));
    std::fs::write(&file, input).expect("write the input");
    let mut cmd = match wrapper.split_first() {
        Some((w, rest)) => {
            let mut c = Command::new(w);
            c.args(rest).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    cmd.arg("-e").arg(entry).arg("--raw");
    if !pipe {
        cmd.arg("--in").arg(&file);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run the executable");
    // (wait_with_output closes stdin.)
    if pipe && let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

const HOSTILE: &str = "\
entry total [n] (a: [n]f64) : f64 = reduce (+) 0.0 a
entry rows [n][m] (a: [n][m]i64) : [n]i64 = map (\\r -> reduce (+) 0 r) a
entry flags [n] (b: [n]bool) (c: bool) : i64 = ifold (\\acc i -> if b[i] && c then acc + 1 else acc) 0 n
";

fn check_hostile_inputs(opts: &BuildOptions, wrapper: &[&str], dir: &Path) {
    let exe = build_exe(HOSTILE, opts, dir);
    let bad: Vec<(&str, Vec<u8>, &str)> = vec![
        // 8 bytes: dims claiming 2^61 doubles (2^64 bytes: the size wraps).
        ("total", i64s(&[1 << 61]), "bad input"),
        ("total", i64s(&[1 << 59]), "bad input"),
        ("total", i64s(&[-5]), "negative"),
        ("total", i64s(&[i64::MIN]), "negative"),
        // 3 elements claimed, 1 present.
        (
            "total",
            [i64s(&[3]), 1.0f64.to_le_bytes().to_vec()].concat(),
            "bad input",
        ),
        // dims whose product overflows.
        ("rows", i64s(&[1 << 32, 1 << 32]), "bad input"),
        ("rows", i64s(&[3, -1]), "negative"),
        ("rows", i64s(&[1 << 40]), "ended early"),
        (
            "flags",
            [i64s(&[1 << 62]), vec![1, 2]].concat(),
            "bad input",
        ),
        ("flags", vec![], "ended early"),
    ];
    for (entry, input, want) in &bad {
        for pipe in [false, true] {
            let (code, err) = run_input(&exe, wrapper, entry, input, pipe);
            assert_eq!(
                code,
                Some(2),
                "{entry} on {input:?} (pipe: {pipe}): want a clean exit 2, got {code:?}: {err}"
            );
            assert!(
                err.contains(want) && !err.contains("Sanitizer") && !err.contains("runtime error"),
                "{entry} on {input:?} (pipe: {pipe}): stderr `{err}` should say `{want}`"
            );
        }
    }
    // Good inputs still work; bools that are not 0/1 are read as true.
    let (code, err) = run_input(
        &exe,
        wrapper,
        "flags",
        &[i64s(&[3]), vec![7, 0, 255, 9]].concat(),
        false,
    );
    assert_eq!(code, Some(0), "{err}");
    let good = [
        i64s(&[2]),
        1.5f64.to_le_bytes().to_vec(),
        2.0f64.to_le_bytes().to_vec(),
    ]
    .concat();
    for pipe in [false, true] {
        let (code, err) = run_input(&exe, wrapper, "total", &good, pipe);
        assert_eq!(code, Some(0), "{err}");
    }
}

#[test]
fn hostile_inputs_are_clean_errors() {
    let dir = scratch("hostile");
    check_hostile_inputs(&werror("gcc", &["-O2"]), &[], &dir);
}

#[test]
fn hostile_inputs_are_clean_errors_under_asan_and_ubsan() {
    let dir = scratch("hostile-san");
    check_hostile_inputs(&sanitized(), SAN_ENV, &dir);
}

const HARNESS_PROG: &str = "\
entry scale [n][k] (a: [n][k]f64) (s: f64) : [n][k]f64 = map (\\r -> map (\\x -> x * s) r) a
entry rep (k: i64) : []f64 = replicate k 1.0
entry grid (m: i64) (k: i64) : [][]f64 = replicate m (replicate k 0.5)
entry rows (n: i64) : [][]i64 = build 0 (\\i -> iota (n - 1))
entry ramp (a: []i64) : []i64 = iota (reduce (+) 0 a)
entry head (a: []i64) : []i64 = iota a[0]
entry flip (t: bool) (a: [][]f64) : [][]f64 = if t then transpose a else a
entry two [n] (a: [n]f64) : ([n]f64, [n]f64) = (map (\\x -> x + 1.0) a, map (\\x -> x * 2.0) a)
";

/// A C program calling the entry points directly.
const HARNESS_MAIN: &str = r#"
#include <assert.h>
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "failed: %s (line %d): %s\n", #c, __LINE__, weir_error(ctx)); return 1; } } while (0)
int main(void) {
    weir_ctx *ctx = weir_ctx_new();
    double a[6] = {1, 2, 3, 4, 5, 6};
    int64_t dims[2];
    /* The shape function and a destination of exactly that shape. */
    EXPECT(weir_scale_shape(ctx, a, 2, 3, 2.0, dims) == 0);
    EXPECT(dims[0] == 2 && dims[1] == 3);
    double *out = malloc(6 * sizeof(double));
    EXPECT(weir_scale(ctx, out, 2, 3, a, 2, 3, 2.0) == 0);
    EXPECT(out[5] == 12.0);
    free(out);
    /* Too small an inner dim (and an outer one): refused, nothing written. */
    double *small = malloc(4 * sizeof(double));
    EXPECT(weir_scale(ctx, small, 2, 2, a, 2, 3, 2.0) == 1);
    EXPECT(strstr(weir_error(ctx), "size mismatch: destination 0 of `scale` has dims 2 x 2"));
    EXPECT(weir_scale(ctx, small, 1, 3, a, 2, 3, 2.0) == 1);
    EXPECT(weir_scale(ctx, small, 2, 4, a, 2, 3, 2.0) == 1);
    free(small);
    /* Invalid array arguments: a negative dim, a size that overflows. */
    double big[1];
    EXPECT(weir_scale(ctx, big, 2, -1, a, 2, -1, 2.0) == 1);
    EXPECT(strstr(weir_error(ctx), "invalid argument: array `a`"));
    EXPECT(weir_scale_shape(ctx, a, INT64_C(1) << 40, INT64_C(1) << 40, 2.0, dims) == 1);
    EXPECT(strstr(weir_error(ctx), "invalid argument"));
    /* The shape function's error channel: a negative size, located. */
    EXPECT(weir_rep_shape(ctx, -3, dims) == 1);
    EXPECT(strstr(weir_error(ctx), "prog.weir:2:30: negative size -3"));
    /* The entry reports the construct's error, as the interpreter does. */
    EXPECT(weir_rep(ctx, big, 0, -3) == 1);
    EXPECT(strstr(weir_error(ctx), "prog.weir:2:30: `"));
    EXPECT(strstr(weir_error(ctx), "given a negative"));
    /* An overflowing size (2^61 doubles: 2^64 bytes), located. */
    EXPECT(weir_rep_shape(ctx, INT64_C(1) << 61, dims) == 1);
    EXPECT(strstr(weir_error(ctx), "prog.weir:2:30: out of memory"));
    EXPECT(weir_grid_shape(ctx, 2, INT64_C(1) << 61, dims) == 1);
    EXPECT(strstr(weir_error(ctx), "prog.weir:3:54: out of memory"));
    /* ... and a destination claiming it is refused. */
    EXPECT(weir_rep(ctx, big, INT64_C(1) << 61, INT64_C(1) << 61) == 1);
    EXPECT(strstr(weir_error(ctx), "out of memory"));
    /* A negative size inside an empty array is never evaluated: no error. */
    EXPECT(weir_rows_shape(ctx, 0, dims) == 0);
    EXPECT(dims[0] == 0 && dims[1] == 0);
    int64_t none[1];
    EXPECT(weir_rows(ctx, none, 0, 0, 0) == 0);
    EXPECT(weir_rep_shape(ctx, 3, dims) == 0 && dims[0] == 3);
    EXPECT(weir_error(ctx)[0] == '\0');
    /* A result with no bound from the arguments: the shape function says 0
       rows; a call with too few rows fails with the rows it needs. */
    int64_t v[2] = {2, 3}, got = -1;
    EXPECT(weir_ramp_shape(ctx, v, 2, dims) == 0 && dims[0] == 0);
    int64_t *r0 = malloc(sizeof(int64_t));
    EXPECT(weir_ramp(ctx, r0, 0, v, 2, &got) == 1);
    EXPECT(weir_retry_rows(ctx, 0) == 5);
    EXPECT(weir_ramp(ctx, NULL, 0, v, 2, &got) == 1 && weir_retry_rows(ctx, 0) == 5);
    free(r0);
    int64_t *r9 = malloc(9 * sizeof(int64_t));
    EXPECT(weir_ramp(ctx, r9, 5, v, 2, &got) == 0 && got == 5 && r9[4] == 4);
    /* more rows than it needs: the first ones */
    EXPECT(weir_ramp(ctx, r9, 9, v, 2, &got) == 0 && got == 5 && r9[2] == 2);
    int64_t z[1] = {0};
    EXPECT(weir_ramp(ctx, NULL, 0, z, 1, &got) == 0 && got == 0);
    free(r9);
    /* A size read from an argument: the shape function reads it; out of
       bounds it says 0 and the entry reports the index. */
    EXPECT(weir_head_shape(ctx, v, 2, dims) == 0 && dims[0] == 2);
    int64_t h[2];
    EXPECT(weir_head(ctx, h, 2, v, 2) == 0 && h[1] == 1);
    EXPECT(weir_head(ctx, h, 1, v, 2) == 1);
    EXPECT(strstr(weir_error(ctx), "size mismatch: destination 0 of `head`"));
    EXPECT(weir_head_shape(ctx, v, 0, dims) == 0 && dims[0] == 0);
    EXPECT(weir_head(ctx, h, 0, v, 0) == 1 && strstr(weir_error(ctx), "prog.weir:6:"));
    EXPECT(strstr(weir_error(ctx), "index out of bounds: index 0 in an array of length 0"));
    /* Existential in two dims: the caller allocates each dim's bound, the
       entry writes its p x q result densely at the front and returns both. */
    EXPECT(weir_flip_shape(ctx, 1, a, 2, 3, dims) == 0 && dims[0] == 3 && dims[1] == 3);
    double f9[9];
    int64_t p = -1, q = -1;
    EXPECT(weir_flip(ctx, f9, 3, 3, 1, a, 2, 3, &p, &q) == 0 && p == 3 && q == 2);
    EXPECT(f9[0] == 1 && f9[1] == 4 && f9[2] == 2 && f9[5] == 6);
    EXPECT(weir_flip(ctx, f9, 3, 3, 0, a, 2, 3, &p, &q) == 0 && p == 2 && q == 3);
    EXPECT(f9[1] == 2 && f9[3] == 4 && f9[5] == 6);
    EXPECT(weir_flip(ctx, f9, 3, 2, 0, a, 2, 3, &p, &q) == 1);
    EXPECT(strstr(weir_error(ctx), "size mismatch: destination 0 of `flip`"));
    /* A destination overlapping an argument or another destination is
       refused (results are written into storage of their own, `restrict`),
       also where they only share part of their bytes; apart, it runs. */
    double buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT(weir_scale(ctx, buf, 2, 3, buf, 2, 3, 2.0) == 1);
    EXPECT(strstr(weir_error(ctx), "invalid argument: destination 0 of `scale` overlaps argument `a`"));
    EXPECT(weir_scale(ctx, buf + 2, 2, 3, buf, 2, 3, 2.0) == 1);
    EXPECT(weir_scale(ctx, buf, 1, 2, buf + 2, 2, 3, 2.0) == 1);
    EXPECT(strstr(weir_error(ctx), "size mismatch"));
    EXPECT(weir_scale(ctx, buf, 1, 2, buf + 2, 1, 2, 2.0) == 0 && buf[0] == 6.0 && buf[1] == 8.0);
    double o1[4], o2[4];
    EXPECT(weir_two(ctx, o1, 4, o1 + 2, 4, a, 4) == 1);
    EXPECT(strstr(weir_error(ctx), "destination 0 of `two` overlaps destination 1"));
    EXPECT(weir_two(ctx, o1, 4, o2, 4, a, 4) == 0 && o1[3] == 5.0 && o2[3] == 8.0);
    EXPECT(weir_two(ctx, o1, 0, o1, 0, a, 0) == 0);
    weir_ctx_free(ctx);
    puts("ok");
    return 0;
}
"#;

#[test]
fn the_c_interface_checks_every_destination_dim_and_reports_shape_errors() {
    let dir = scratch("harness");
    let path = dir.join("prog.weir");
    std::fs::write(&path, HARNESS_PROG).expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let lib = c_source(&c, &BuildOptions::default(), false).unwrap_or_else(|e| panic!("{e}"));
    // The generated C names the file as it was given: make that `prog.weir`.
    let lib = lib.replace(&format!("{}:", path.display()), "prog.weir:");
    let src = format!("{lib}\n{HARNESS_MAIN}");
    let c_path = dir.join("harness.c");
    std::fs::write(&c_path, src).expect("write");
    let exe = dir.join("harness");
    let out = Command::new("gcc")
        .args([
            "-std=c11",
            "-O1",
            "-g",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ])
        .arg(&c_path)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .expect("run gcc");
    assert!(
        out.status.success(),
        "the harness does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe)
        .env("ASAN_OPTIONS", "allocator_may_return_null=1:detect_leaks=1")
        .output()
        .expect("run the harness");
    assert!(
        run.status.success(),
        "the harness failed ({}):\n{}{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The driver decoding a compiled program's output: malformed bytes (negative
/// dims, dims claiming more than the bytes hold, absurdly many rows) are an
/// error, never a panic or a huge allocation.
#[test]
fn malformed_program_output_is_an_error_not_a_panic() {
    let dir = scratch("decode");
    let path = dir.join("prog.weir");
    std::fs::write(
        &path,
        "entry m (k: i64) : [][]f64 = replicate k (replicate k 1.0)\nentry s (k: i64) : (f64, []i64) = (1.0, iota k)\n",
    )
    .expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let m = c.program.find("m").expect("m");
    let s = c.program.find("s").expect("s");
    let good = [
        i64s(&[1, 2]),
        1.0f64.to_le_bytes().to_vec(),
        2.0f64.to_le_bytes().to_vec(),
    ]
    .concat();
    assert!(weir_driver::native::decode_result(m, &good).is_ok());
    for bad in [
        i64s(&[-1, 2]),
        i64s(&[1 << 62, 1 << 62]),
        i64s(&[1 << 40, 0]),
        i64s(&[3, 3]),
        i64s(&[2]),
        vec![],
    ] {
        assert!(
            weir_driver::native::decode_result(m, &bad).is_err(),
            "{bad:?} decoded"
        );
    }
    assert!(weir_driver::native::decode_result(s, &[1u8; 4]).is_err());
    assert!(
        weir_driver::native::decode_result(
            s,
            &[1.5f64.to_le_bytes().to_vec(), i64s(&[i64::MAX])].concat()
        )
        .is_err()
    );
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
