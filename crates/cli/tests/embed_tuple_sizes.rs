//! Issue 46: an array of tuples or records crosses every boundary as one
//! array per component, each with its own dims; they must agree in the dims
//! of the array (a component that is itself an array has more of its own).
//! Each boundary refuses components that disagree before anything is
//! touched, naming the parameter (the user's name) and both sizes, with its
//! argument error: the C API (`WEIR_ERR_ARGUMENT`, the destinations left as
//! they were), a `weir build` executable (exit status 2), the Rust
//! bindings (`ErrorCode::Argument`); Python's is
//! python/tests/test_tuple_sizes.py (run by the `embed_python` test). The
//! kernels: tests/regress_c/tuple_array_sizes.weir (whose test blocks
//! c_safety runs on compiled C against the interpreter).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KERNELS: &str = "tests/regress_c/tuple_array_sizes.weir";

fn weir() -> &'static str {
    env!("CARGO_BIN_EXE_weir")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn scratch(name: &str) -> PathBuf {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{name}-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: &Output, what: &str) -> String {
    let t = text(out);
    assert!(out.status.success(), "{what} failed:\n{t}");
    t
}

/// The C program: each call prints `name rc code message` (or its result);
/// a destination the refused call was given is printed after it (still
/// the caller's values: nothing was written).
const C_PROGRAM: &str = r#"#include <stdio.h>
#include "tup.h"

static void report(weir_ctx *ctx, const char *what, int rc) {
    printf("%s rc=%d code=%d %s\n", what, rc, weir_error_code(ctx), rc ? weir_error_message(ctx) : "");
}

int main(void) {
    weir_ctx *ctx = weir_ctx_new();
    if (!ctx) return 1;
    double a3[3] = {1, 2, 3}, a4[4] = {1, 2, 3, 4}, x2[2] = {1, 2}, s = -1;
    int64_t b4[4] = {0, 0, 0, 1}, b3[3] = {1, 2, 3};
    /* sumt: a 3-element `a`, a 4-element `b` */
    report(ctx, "sumt", tup_sumt(ctx, a3, 3, b4, 4, &s));
    report(ctx, "sumt_shape", tup_sumt_shape(ctx, a3, 3, b4, 4));
    printf("sumt result untouched: %g\n", s);
    report(ctx, "sumt_ok", tup_sumt(ctx, a3, 3, b3, 3, &s));
    printf("sumt = %g\n", s);
    /* upd: its destinations stay as they were */
    double oa[4] = {-7, -7, -7, -7};
    int64_t ob[4] = {-7, -7, -7, -7};
    report(ctx, "upd", tup_upd(ctx, oa, 3, ob, 4, a3, 3, b4, 4, 0));
    printf("upd destinations untouched: %g %g %lld %lld\n", oa[0], oa[2], (long long)ob[0], (long long)ob[3]);
    report(ctx, "upd_wrong_dests_too", tup_upd(ctx, oa, 4, ob, 4, a3, 3, b4, 4, 0));
    /* the other argument errors name a component as the caller does */
    report(ctx, "sumt_null", tup_sumt(ctx, NULL, 3, b3, 3, &s));
    report(ctx, "upd_overlap", tup_upd(ctx, a3, 3, ob, 3, a3, 3, b3, 3, 0));
    /* norm: a tuple, the index the program does not contain no more */
    double on[3] = {-7, -7, -7};
    report(ctx, "norm", tup_norm(ctx, on, 3, a3, 3, x2, 2));
    report(ctx, "norm_swapped", tup_norm(ctx, on, 2, x2, 2, a3, 3));
    printf("norm destination untouched: %g\n", on[0]);
    /* grid: rank 2, a component with a dim of its own */
    double g0[6] = {0};
    int64_t g1[24] = {0}, gdims[2];
    double og[6];
    report(ctx, "grid", tup_grid(ctx, og, 2, 3, g0, 2, 3, g1, 2, 4, 3));
    report(ctx, "grid_shape", tup_grid_shape(ctx, g0, 2, 3, g1, 2, 4, 3, gdims));
    report(ctx, "grid_rows", tup_grid(ctx, og, 2, 3, g0, 2, 3, g1, 3, 2, 3));
    report(ctx, "grid_ok", tup_grid(ctx, og, 2, 3, g0, 2, 3, g1, 2, 3, 3));
    /* nest: records holding arrays of tuples */
    double pts0[6] = {0}, pts1[6] = {0}, w[3] = {1, 1, 1}, onest[3];
    report(ctx, "nest_w", tup_nest(ctx, onest, 2, pts0, 2, 3, pts1, 2, 3, w, 3));
    report(ctx, "nest_pts", tup_nest(ctx, onest, 2, pts0, 2, 3, pts1, 2, 2, w, 2));
    report(ctx, "nest_ok", tup_nest(ctx, onest, 2, pts0, 2, 3, pts1, 2, 3, w, 2));
    /* keep: a result of data-dependent size comes back as records */
    double ka[4];
    int64_t kb[4], kbn[4] = {1, -1, 2, 3}, n_a = -1, n_b = -1;
    report(ctx, "keep", tup_keep(ctx, ka, 4, kb, 4, a4, 4, kbn, 4, &n_a, &n_b));
    printf("keep sizes %lld %lld\n", (long long)n_a, (long long)n_b);
    report(ctx, "keep_bad", tup_keep(ctx, ka, 4, kb, 4, a4, 4, b3, 3, &n_a, &n_b));
    /* pair: a tuple of arrays, each of its own length */
    int64_t len = 0;
    report(ctx, "pair", tup_pair(ctx, x2, 2, b3, 3, &len));
    printf("pair = %lld\n", (long long)len);
    weir_ctx_free(ctx);
    return 0;
}
"#;

/// The lines the C program prints, by their first word.
fn line<'a>(out: &'a str, what: &str) -> &'a str {
    out.lines()
        .find(|l| l.split(' ').next() == Some(what))
        .unwrap_or_else(|| panic!("no line `{what}` in:\n{out}"))
}

#[test]
fn the_c_api_refuses_components_of_different_lengths() {
    let dir = scratch("tuple-sizes-c");
    let out = Command::new(weir())
        .current_dir(repo())
        .args(["lib", KERNELS, "--name", "tup", "-o"])
        .arg(&dir)
        .output()
        .expect("weir lib");
    ok(&out, "weir lib");
    std::fs::write(dir.join("main.c"), C_PROGRAM).expect("main.c");
    // the library, and its sources under the sanitizers
    let builds: [(&str, &[&str]); 2] = [
        (
            "app",
            &["-O2", "-Wall", "-Wextra", "-Werror", "main.c", "libtup.a"],
        ),
        (
            "app-asan",
            &[
                "-g",
                "-O1",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "main.c",
                "tup.c",
                "weir_rt.c",
            ],
        ),
    ];
    for (exe, args) in builds {
        let out = Command::new("gcc")
            .current_dir(&dir)
            .args(["-std=c11", "-I."])
            .args(args)
            .args(["-lm", "-o", exe])
            .output()
            .expect("gcc");
        ok(&out, &format!("gcc {exe}"));
        let out = Command::new(dir.join(exe))
            .current_dir(&dir)
            .output()
            .expect("run");
        let t = ok(&out, exe);
        let arg = "code=2 invalid argument: argument";
        for (what, msg) in [
            ("sumt", "`xs`: field `b` has 4 elements, field `a` 3"),
            ("sumt_shape", "`xs`: field `b` has 4 elements, field `a` 3"),
            ("upd", "`xs`: field `b` has 4 elements, field `a` 3"),
            (
                "upd_wrong_dests_too",
                "`xs`: field `b` has 4 elements, field `a` 3",
            ),
            (
                "norm",
                "`xs`: component `1` has 2 elements, component `0` 3",
            ),
            (
                "norm_swapped",
                "`xs`: component `1` has 3 elements, component `0` 2",
            ),
            (
                "grid",
                "`g`: component `1` has outer dims 2 x 4, component `0` 2 x 3",
            ),
            (
                "grid_shape",
                "`g`: component `1` has outer dims 2 x 4, component `0` 2 x 3",
            ),
            (
                "grid_rows",
                "`g`: component `1` has outer dims 3 x 2, component `0` 2 x 3",
            ),
            ("nest_w", "`ps`: field `w` has length 3, field `pts.0` 2"),
            (
                "nest_pts",
                "`ps`: field `pts.1` has outer dims 2 x 2, field `pts.0` 2 x 3",
            ),
            ("keep_bad", "`xs`: field `b` has 3 elements, field `a` 4"),
        ] {
            let l = line(&t, what);
            assert_eq!(
                l,
                format!("{what} rc=1 {arg} {msg}"),
                "{exe}: `{what}`:\n{t}"
            );
        }
        assert!(
            line(&t, "sumt_null")
                .starts_with("sumt_null rc=1 code=2 invalid argument: array `xs_a` is NULL"),
            "{exe}:\n{t}"
        );
        let overlap = line(&t, "upd_overlap");
        assert!(
            overlap.starts_with("upd_overlap rc=1 code=2 invalid argument: destination 0 of `upd` overlaps argument `xs_a`"),
            "{exe}:\n{t}"
        );
        for good in ["sumt_ok", "grid_ok", "nest_ok", "keep", "pair"] {
            assert_eq!(
                line(&t, good),
                format!("{good} rc=0 code=0 "),
                "{exe}:\n{t}"
            );
        }
        assert!(t.contains("sumt result untouched: -1\n"), "{t}");
        assert!(t.contains("sumt = 12\n"), "{t}");
        assert!(
            t.contains("upd destinations untouched: -7 -7 -7 -7\n"),
            "{t}"
        );
        assert!(t.contains("norm destination untouched: -7\n"), "{t}");
        assert!(t.contains("keep sizes 3 3\n"), "{t}");
        assert!(t.contains("pair = 5\n"), "{t}");
    }
}

/// A `.npy` file (version 1.0) of little-endian elements.
fn npy(path: &Path, descr: &str, dims: &[usize], bytes: &[u8]) {
    let shape: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("{},", shape[0])
    } else {
        shape.join(", ")
    };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({shape}), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend_from_slice(
        &u16::try_from(header.len())
            .expect("short header")
            .to_le_bytes(),
    );
    v.extend_from_slice(header.as_bytes());
    v.extend_from_slice(bytes);
    std::fs::write(path, v).expect("write .npy");
}

fn f64s(xs: &[f64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i64s(xs: &[i64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn an_executable_exits_2_naming_the_parameter() {
    let dir = scratch("tuple-sizes-exe");
    let exe = dir.join("tup");
    let out = Command::new(weir())
        .current_dir(repo())
        .args(["build", KERNELS, "-o"])
        .arg(&exe)
        .output()
        .expect("weir build");
    ok(&out, "weir build");
    npy(&dir.join("a3.npy"), "<f8", &[3], &f64s(&[1.0, 2.0, 3.0]));
    npy(&dir.join("b3.npy"), "<i8", &[3], &i64s(&[1, 2, 3]));
    npy(&dir.join("b4.npy"), "<i8", &[4], &i64s(&[0, 0, 0, 1]));
    npy(&dir.join("x2.npy"), "<f8", &[2], &f64s(&[1.0, 2.0]));
    npy(&dir.join("g0.npy"), "<f8", &[2, 3], &f64s(&[0.0; 6]));
    npy(&dir.join("g1.npy"), "<i8", &[2, 4, 3], &i64s(&[0; 24]));
    npy(&dir.join("g1ok.npy"), "<i8", &[2, 3, 3], &i64s(&[1; 18]));
    let run = |args: &[&str]| {
        Command::new(&exe)
            .current_dir(&dir)
            .args(args)
            .output()
            .expect("run the executable")
    };
    for (args, msg) in [
        (
            &["-e", "sumt", "a3.npy", "b4.npy"][..],
            "weir: argument `xs`: field `b` has 4 elements, field `a` 3\n",
        ),
        (
            &["-e", "upd", "a3.npy", "b4.npy", "0"][..],
            "weir: argument `xs`: field `b` has 4 elements, field `a` 3\n",
        ),
        (
            &["-e", "norm", "a3.npy", "x2.npy"][..],
            "weir: argument `xs`: component `1` has 2 elements, component `0` 3\n",
        ),
        (
            &["-e", "grid", "g0.npy", "g1.npy"][..],
            "weir: argument `g`: component `1` has outer dims 2 x 4, component `0` 2 x 3\n",
        ),
        (
            &["-e", "keep", "a3.npy", "b4.npy"][..],
            "weir: argument `xs`: field `b` has 4 elements, field `a` 3\n",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert_eq!(String::from_utf8_lossy(&out.stderr), msg, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: no result is written");
    }
    // the inputs in one stream (--in): the same
    let mut stream = std::fs::read(dir.join("a3.npy")).expect("a3");
    stream.extend(std::fs::read(dir.join("b4.npy")).expect("b4"));
    std::fs::write(dir.join("in.bin"), stream).expect("in.bin");
    let out = run(&["-e", "sumt", "--in", "in.bin"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("field `b` has 4 elements, field `a` 3"),
        "{}",
        text(&out)
    );
    // components that agree: the results, records as arrays of one length
    let out = run(&["-e", "sumt", "a3.npy", "b3.npy", "--text"]);
    assert_eq!(ok(&out, "sumt"), "12.0\n");
    let out = run(&["-e", "grid", "g0.npy", "g1ok.npy", "--text"]);
    assert_eq!(ok(&out, "grid"), "[[3.0, 3.0, 3.0], [3.0, 3.0, 3.0]]\n");
    let out = run(&["-e", "keep", "a3.npy", "b3.npy", "--text"]);
    assert_eq!(ok(&out, "keep"), "[1.0, 2.0, 3.0]\n[1, 2, 3]\n");
    let out = run(&["-e", "upd", "a3.npy", "b3.npy", "1", "--text"]);
    assert_eq!(ok(&out, "upd"), "[1.0, 0.0, 3.0]\n[1, 0, 3]\n");
}

#[test]
fn the_rust_bindings_return_an_argument_error() {
    let root = repo();
    let dir = scratch("tuple-sizes-rust");
    let krate = dir.join("tup-rs");
    std::fs::create_dir_all(krate.join("src")).expect("crate folder");
    let weir_rs = root.join("crates/weir-rs");
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"tup-rs\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nweir-rs = {{ path = {p:?} }}\n\n[build-dependencies]\nweir-rs = {{ path = {p:?}, features = [\"build\"] }}\n\n[workspace]\n",
            p = weir_rs.display().to_string()
        ),
    )
    .expect("Cargo.toml");
    std::fs::copy(root.join(KERNELS), krate.join("tup.weir")).expect("tup.weir");
    std::fs::write(
        krate.join("build.rs"),
        "fn main() {\n    weir_rs::build(\"tup.weir\");\n}\n",
    )
    .expect("build.rs");
    std::fs::write(
        krate.join("src/main.rs"),
        r#"use weir_rs::ndarray::{Array2, Array3, array};

include!(concat!(env!("OUT_DIR"), "/tup.rs"));

fn show<T: std::fmt::Debug>(what: &str, r: Result<T, weir_rs::Error>) {
    match r {
        Ok(v) => println!("{what} ok {v:?}"),
        Err(e) => println!("{what} {:?} {}", e.code, e.message),
    }
}

fn main() -> Result<(), weir_rs::Error> {
    let mut ctx = weir_rs::Context::new()?;
    let (a3, b4, b3) = (array![1.0, 2.0, 3.0], array![0i64, 0, 0, 1], array![1i64, 2, 3]);
    show("sumt", tup::sumt(&mut ctx, a3.view(), b4.view()));
    show("sumt_shape", tup::sumt_shape(&mut ctx, a3.view(), b4.view()));
    show("upd", tup::upd(&mut ctx, a3.view(), b4.view(), 0));
    let (mut oa, mut ob) = (array![-7.0, -7.0, -7.0], array![-7i64, -7, -7, -7]);
    show("upd_into", tup::upd_into(&mut ctx, oa.view_mut(), ob.view_mut(), a3.view(), b4.view(), 0));
    println!("untouched {oa} {ob}");
    show("norm", tup::norm(&mut ctx, a3.view(), array![1.0, 2.0].view()));
    let (g0, g1) = (Array2::<f64>::zeros((2, 3)), Array3::<i64>::zeros((2, 4, 3)));
    show("grid", tup::grid(&mut ctx, g0.view(), g1.view()));
    show("keep", tup::keep(&mut ctx, a3.view(), b4.view()));
    show("sumt_ok", tup::sumt(&mut ctx, a3.view(), b3.view()));
    show("keep_ok", tup::keep(&mut ctx, a3.view(), b3.view()).map(|(a, b)| (a.to_vec(), b.to_vec())));
    Ok(())
}
"#,
    )
    .expect("main.rs");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let t = std::time::Instant::now();
    let out = Command::new(&cargo)
        .current_dir(&krate)
        .args(["run", "--offline", "--quiet"])
        .env("WEIR", weir())
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("run cargo");
    let t_run = t.elapsed();
    let stdout = ok(&out, "the crate");
    eprintln!("the crate built and ran in {:.1} s", t_run.as_secs_f64());
    let msg = |m: &str| format!("Argument invalid argument: argument {m}");
    let b_a = "`xs`: field `b` has 4 elements, field `a` 3";
    for (what, want) in [
        ("sumt", msg(b_a)),
        ("sumt_shape", msg(b_a)),
        ("upd", msg(b_a)),
        ("upd_into", msg(b_a)),
        (
            "norm",
            msg("`xs`: component `1` has 2 elements, component `0` 3"),
        ),
        (
            "grid",
            msg("`g`: component `1` has outer dims 2 x 4, component `0` 2 x 3"),
        ),
        ("keep", msg(b_a)),
        ("sumt_ok", "ok 12.0".to_string()),
        ("keep_ok", "ok ([1.0, 2.0, 3.0], [1, 2, 3])".to_string()),
    ] {
        assert_eq!(line(&stdout, what), format!("{what} {want}"), "{stdout}");
    }
    assert!(
        stdout.contains("untouched [-7, -7, -7] [-7, -7, -7, -7]\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
