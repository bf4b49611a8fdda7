//! Issue 18, deliverable 1: the entry ABI without `setjmp`.
//!
//! - No generated C uses `setjmp`/`longjmp`: errors are status codes that
//!   every generated function returns at once (`return weir_fail(...)`).
//! - An entry whose code uses no memory of the context is *light*
//!   (`WEIR_ENTRY_LIGHT`: no region mark), and its fast path tests the
//!   parameters' constant dims first (`a_d0 == INT64_C(3)`), so the C
//!   compiler folds the body's own size checks.
//! - A C program calling entries directly: failures in the middle of a
//!   body (after region and system allocations, in a called function, in a
//!   loop) return 1 with the located message, leave the region where it was
//!   and free the failed call's blocks; the next call succeeds; a light
//!   entry's error path forgets missing destinations. Built with
//!   `-Wall -Wextra -Werror` under AddressSanitizer and UBSan.

use std::path::{Path, PathBuf};
use std::process::Command;
use weir_driver::native::{BuildOptions, c_source};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "entry_abi-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn c_of(path: &Path) -> Option<String> {
    let c = weir_driver::compile_file(path).ok()?;
    c_source(&c, &BuildOptions::default(), true).ok()
}

#[test]
fn no_generated_c_uses_setjmp() {
    let mut files = 0;
    for dir in ["examples", "tests/regress", "tests/regress_c"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("dir")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "weir"))
            .collect();
        paths.sort();
        for p in paths {
            let Some(src) = c_of(&p) else { continue };
            files += 1;
            for word in ["setjmp(", "longjmp(", "jmp_buf ", "<setjmp.h>"] {
                assert!(
                    !src.contains(word),
                    "{}: the generated C uses `{word}`",
                    p.display()
                );
            }
        }
    }
    assert!(files > 50, "only {files} programs compiled");
}

#[test]
fn a_memory_free_entry_is_light_and_tests_its_constant_dims_first() {
    let src = c_of(&root().join("examples/cross.weir")).expect("cross compiles");
    let entry = src
        .split("int weirf_e_cross(weir_ctx *ctx")
        .nth(1)
        .expect("the entry");
    assert!(
        entry.contains("WEIR_ENTRY_LIGHT(ctx, weirf_body_cross("),
        "{entry}"
    );
    let body = src
        .split("static inline int weirf_body_cross(")
        .nth(1)
        .expect("the body");
    let fast = body
        .split("if (WEIR_UNLIKELY(!(")
        .nth(1)
        .expect("the fast path");
    assert!(
        fast.starts_with("a_25_d0 == INT64_C(3) && b_26_d0 == INT64_C(3) && "),
        "{fast}"
    );
    assert!(fast.contains("weiri_apart(out0, "), "{fast}");
    // An entry that allocates takes a mark.
    let src = c_of(&root().join("examples/gmm.weir")).expect("gmm compiles");
    assert!(src.contains("    WEIR_ENTRY(ctx, weirf_body_"), "gmm");
}

const PROG: &str = "\
def pick (a: []f64) (i: i64) : f64 = a[i]
entry deep [n] (a: [n]f64) (i: i64) : [n]f64 =
  let t = map (\\x -> x * 2.0) a in
  let u = map (\\x -> x + 1.0) (reverse t) in
  map (\\x -> x + pick u i) t
entry quot (a: []i64) (d: i64) : []i64 = map (\\x -> x / d + x % (d - 1)) a
entry cross (a: [3]f64) (b: [3]f64) : [3]f64 =
  [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
entry pw (a: []i64) (e: i64) : []i64 = map (\\x -> x ** e) a
";

const MAIN: &str = r#"
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "failed: %s (line %d): %s\n", #c, __LINE__, weir_error(ctx)); return 1; } } while (0)
int main(void) {
    weir_ctx *ctx = weir_ctx_new();
    double a[4] = {1, 2, 3, 4}, out[4];
    EXPECT(weir_deep(ctx, out, 4, a, 4, 0) == 0);
    EXPECT(out[0] == 2.0 + 9.0 && out[3] == 8.0 + 9.0);
    uint64_t used = weir_ctx_stats(ctx)->cur_bytes;
    /* Fails in a called function after the region allocations: the region
       is back where it was, every time. */
    for (int k = 0; k < 1000; k++) {
        EXPECT(weir_deep(ctx, out, 4, a, 4, 4 + k) == 1);
        EXPECT(strstr(weir_error(ctx), "prog.weir:1:38: index out of bounds"));
        EXPECT(weir_ctx_stats(ctx)->cur_bytes == used);
        EXPECT(weir_deep(ctx, out, 4, a, 4, 3) == 0 && out[1] == 4.0 + 3.0);
        EXPECT(weir_error(ctx)[0] == '\0');
    }
    /* Division by zero and a negative exponent inside a loop, located. */
    int64_t xs[3] = {7, 8, 9}, q[3];
    EXPECT(weir_quot(ctx, q, 3, xs, 3, 2) == 0 && q[0] == 3 && q[2] == 4);
    EXPECT(weir_quot(ctx, q, 3, xs, 3, 0) == 1);
    EXPECT(strstr(weir_error(ctx), "prog.weir:6:53: integer division by zero"));
    EXPECT(weir_quot(ctx, q, 3, xs, 3, 1) == 1);
    EXPECT(strstr(weir_error(ctx), "integer division by zero (remainder `%` by 0)"));
    EXPECT(weir_pw(ctx, q, 3, xs, 3, -2) == 1);
    EXPECT(strstr(weir_error(ctx), "negative exponent -2 in an integer power"));
    EXPECT(weir_pw(ctx, q, 3, xs, 3, 2) == 0 && q[1] == 64);
    /* A light entry: its argument check and its destination check. */
    double b[3] = {0, 1, 0}, c[3] = {0, 0, 1}, r[3];
    EXPECT(weir_cross(ctx, r, 3, b, 3, c, 3) == 0 && r[0] == 1.0);
    EXPECT(weir_cross(ctx, r, 3, b, 2, c, 3) == 1);
    EXPECT(strstr(weir_error(ctx), "size mismatch"));
    EXPECT(weir_cross(ctx, r, 2, b, 3, c, 3) == 1);
    EXPECT(strstr(weir_error(ctx), "destination 0 of `cross`"));
    EXPECT(weir_cross(ctx, NULL, 3, b, 3, c, 3) == 1);
    EXPECT(weir_cross(ctx, r, 3, b, 3, c, 3) == 0 && r[0] == 1.0);
    EXPECT(weir_ctx_stats(ctx)->cur_bytes == used);
    weir_ctx_free(ctx);
    puts("ok");
    return 0;
}
"#;

#[test]
fn errors_return_through_every_function_and_reset_the_region() {
    let dir = scratch("calls");
    let path = dir.join("prog.weir");
    std::fs::write(&path, PROG).expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let lib = c_source(&c, &BuildOptions::default(), false).unwrap_or_else(|e| panic!("{e}"));
    let lib = lib.replace(&format!("{}:", path.display()), "prog.weir:");
    let c_path = dir.join("calls.c");
    std::fs::write(&c_path, format!("{lib}\n{MAIN}")).expect("write");
    for (cc, opt) in [("gcc", "-O1"), ("gcc", "-O3")] {
        let exe = dir.join(format!("calls-{cc}{opt}"));
        let out = Command::new(cc)
            .args(["-std=c11", opt, "-g", "-Wall", "-Wextra", "-Werror"])
            .args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"])
            .arg(&c_path)
            .arg("-o")
            .arg(&exe)
            .arg("-lm")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cc} (a C compiler is needed): {e}"));
        assert!(
            out.status.success(),
            "{cc} {opt}: the program does not compile:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = Command::new(&exe)
            .env("ASAN_OPTIONS", "detect_leaks=1")
            .output()
            .expect("run");
        assert!(
            run.status.success() && String::from_utf8_lossy(&run.stdout).contains("ok"),
            "{cc} {opt}: ({}):\n{}{}",
            run.status,
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
    }
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
