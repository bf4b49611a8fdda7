//! Issue 18, deliverable 5: `--fast-math` is opt-in.
//!
//! - The default build is bit-exact with the interpreter: `-ffp-contract=off`,
//!   no reassociation, so a sequential float sum stays scalar (`vaddsd`).
//! - `--fast-math` gives the C compiler reassociation and FMA contraction
//!   ([`FAST_MATH_FLAGS`]): the same sum vectorises (`vaddpd`), and the
//!   results agree with the interpreter within [`FAST_MATH_TOLERANCE`].

use std::path::Path;
use std::process::Command;
use weir_driver::native::{BuildOptions, FAST_MATH_FLAGS, build_c, c_source, cc_flags};
use weir_driver::testblock::{FAST_MATH_TOLERANCE, parse_blocks, run_cases_native_within};

const PROG: &str = "\
entry total (a: []f64) : f64 = ifold (\\acc i -> acc + a[i] * a[i]) 0.0 (length a)
-- ==
-- input { [1e16, 1.0, -1e16, 3.0, 0.5, 0.25, 7.0, 1e-3, 2.0] }
-- output { 1e32 }
-- tolerance: 1e-9
";

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "fast_math-{name}-{}-{}",
        std::process::id(),
        scratch_seq()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn opts(fast_math: bool) -> BuildOptions {
    BuildOptions {
        cc: Some("gcc".into()),
        opt_flags: vec!["-O3".into(), "-march=x86-64-v3".into()],
        extra_flags: vec!["-Wall".into(), "-Wextra".into(), "-Werror".into()],
        fast_math,
        ..Default::default()
    }
}

/// The assembly of the program's C under `o`.
fn assembly(src: &str, o: &BuildOptions, dir: &Path, name: &str) -> String {
    let c = dir.join(format!("{name}.c"));
    let s = dir.join(format!("{name}.s"));
    std::fs::write(&c, src).expect("write");
    let out = Command::new("gcc")
        .args(cc_flags(o))
        .arg("-S")
        .arg(&c)
        .arg("-o")
        .arg(&s)
        .output()
        .unwrap_or_else(|e| panic!("cannot run gcc (a C compiler is needed): {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(&s).expect("assembly")
}

#[test]
fn fast_math_flags_replace_the_exact_ones() {
    let exact = cc_flags(&opts(false));
    assert!(exact.iter().any(|f| f == "-ffp-contract=off"));
    assert!(!exact.iter().any(|f| f == "-fassociative-math"));
    let fast = cc_flags(&opts(true));
    for f in FAST_MATH_FLAGS {
        assert!(fast.iter().any(|g| g == f), "{f} missing: {fast:?}");
    }
    assert!(!fast.iter().any(|f| f == "-ffp-contract=off"));
    assert!(
        !fast
            .iter()
            .any(|f| f == "-ffinite-math-only" || f == "-ffast-math")
    );
}

#[test]
fn a_float_sum_vectorises_only_under_fast_math() {
    let dir = scratch("asm");
    let path = dir.join("prog.weir");
    std::fs::write(&path, PROG).expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let src = c_source(&c, &opts(false), false).unwrap_or_else(|e| panic!("{e}"));
    // (the entry, with the body inlined into it; the runtime has no float sums)
    let body = |asm: &str| -> String {
        asm.split("\nweir_total:")
            .nth(1)
            .and_then(|p| p.split(".cfi_endproc").next())
            .unwrap_or("")
            .to_string()
    };
    let exact = body(&assembly(&src, &opts(false), &dir, "exact"));
    assert!(exact.contains("vaddsd"), "{exact}");
    assert!(
        !exact.contains("vaddpd"),
        "the exact sum was reassociated:\n{exact}"
    );
    let fast = body(&assembly(&src, &opts(true), &dir, "fast"));
    assert!(
        fast.contains("vaddpd") || fast.contains("vfmadd"),
        "the fast-math sum did not vectorise:\n{fast}"
    );
}

/// An `f64.sum` whose count is an enclosing loop's counter (trisolv's
/// triangular dot `dot l[i, :i] x[:i]`) vectorises in the default, exact
/// build: its `omp simd` reduction allows the reordering. gcc 12's
/// -fsplit-loops split the outer loop at `i = 0` and left the copy scalar
/// until the count went through `WEIR_OPAQUE` (cgen/emit.rs).
#[test]
fn a_triangular_dot_vectorises() {
    const TRI: &str = "\
def dot [n] (x: [n]f64) (y: [n]f64) : f64 = f64.sum (map2 (*) x y)
entry trisolv [n] (l: [n][n]f64) (b: [n]f64) : [n]f64 =
  loop x = replicate n 0.0 for i < n do
    x with [i] = (b[i] - dot l[i, :i] x[:i]) / l[i, i]
";
    let dir = scratch("tri");
    let path = dir.join("tri.weir");
    std::fs::write(&path, TRI).expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let src = c_source(&c, &opts(false), false).unwrap_or_else(|e| panic!("{e}"));
    // (the program's only float sum; the runtime has none)
    let asm = assembly(&src, &opts(false), &dir, "tri");
    assert!(
        asm.contains("vaddpd") && asm.contains("vmulpd"),
        "the triangular dot did not vectorise"
    );
}

#[test]
fn fast_math_results_agree_within_the_tolerance() {
    let dir = scratch("run");
    let path = dir.join("prog.weir");
    std::fs::write(&path, PROG).expect("write");
    let c = weir_driver::compile_file(&path).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let cases = parse_blocks(PROG, &dir).expect("blocks");
    for fast in [false, true] {
        let o = opts(fast);
        let src = c_source(&c, &o, true).unwrap_or_else(|e| panic!("{e}"));
        let exe = build_c(&src, &o).unwrap_or_else(|e| panic!("{e}"));
        let tol = if fast { FAST_MATH_TOLERANCE } else { 0.0 };
        for out in run_cases_native_within(&c, &cases, &exe, &[], tol) {
            assert!(out.failure.is_none(), "fast_math {fast}: {:?}", out.failure);
        }
    }
}

/// A number no other scratch folder of this process has: tests run in
/// parallel threads of one process, so the process id alone is shared.
fn scratch_seq() -> usize {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
