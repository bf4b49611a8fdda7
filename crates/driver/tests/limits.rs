//! Front-end resource limits (issue 14): nesting just under the parser's limit, in
//! every syntactic category, repeated to fill a 60 KB file, goes through the whole
//! front end (parse, check, elaborate, optimize) in well under a few seconds; over
//! the limit it is error E0004 with a location, whatever the category.

use std::time::{Duration, Instant};
use weir_check::MAX_RANK;
use weir_driver::{LoadError, compile_source};
use weir_syntax::parser::MAX_DEPTH;

/// The CPU time this thread has used (Linux: `/proc/thread-self/schedstat`,
/// nanoseconds on the CPU), so that a time bound measures the work, not how
/// busy the machine is (the suite runs beside builds and other tests); `None`
/// elsewhere, where the wall clock is used.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Run `f`, returning its result and the CPU time it took (wall time where
/// the CPU time cannot be read).
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let (c, t) = (thread_cpu(), Instant::now());
    let r = f();
    let took = match (c, thread_cpu()) {
        // (a kernel that does not account per thread reports no time)
        (Some(a), Some(b)) if b > a => b - a,
        _ => t.elapsed(),
    };
    (r, took)
}

/// Compile on a thread with a stack like the CLI's, timing it (CPU time).
fn compile_timed(text: String) -> (Result<(), String>, Duration) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            timed(|| match compile_source("limits.weir", &text) {
                Ok(_) => Ok(()),
                Err(e) => Err(e.render(false)),
            })
        })
        .expect("spawn")
        .join()
        .expect("the compiler panicked")
}

/// Repeat a definition (numbered `f0`, `f1`, ...) until the file is about 60 KB.
fn fill_60k(def: impl Fn(usize) -> String) -> String {
    let mut s = String::new();
    let mut k = 0;
    while s.len() < 60_000 {
        s.push_str(&def(k));
        s.push('\n');
        k += 1;
    }
    s
}

#[test]
fn deep_but_legal_nesting_is_fast_everywhere() {
    let d = MAX_DEPTH - 10;
    let cases: Vec<(&str, String)> = vec![
        // (arrays have at most MAX_RANK dimensions: tuples make up the rest)
        (
            "array types",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: {}{}f64{}) : f64 = 1.0",
                    "(f64, ".repeat(d - MAX_RANK),
                    "[1]".repeat(MAX_RANK),
                    ")".repeat(d - MAX_RANK)
                )
            }),
        ),
        (
            "array types used",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: {t}) : {t} = x",
                    t = format!(
                        "{}{}f64{}",
                        "(f64, ".repeat(d / 2 - MAX_RANK),
                        "[1]".repeat(MAX_RANK),
                        ")".repeat(d / 2 - MAX_RANK)
                    )
                )
            }),
        ),
        (
            "tuple types",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: {}f64{}) : f64 = 1.0",
                    "(f64, ".repeat(d),
                    ")".repeat(d)
                )
            }),
        ),
        (
            "parentheses",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = {}x{}",
                    "(".repeat(d),
                    ")".repeat(d)
                )
            }),
        ),
        (
            "array literals",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = let a = {}{}x{}{} in 1.0",
                    "(x, ".repeat(d / 2 - MAX_RANK),
                    "[".repeat(MAX_RANK),
                    "]".repeat(MAX_RANK),
                    ")".repeat(d / 2 - MAX_RANK)
                )
            }),
        ),
        (
            "operators",
            fill_60k(|k| format!("def f{k} (x: f64) : f64 = x{}", " + x".repeat(d))),
        ),
        (
            "lets",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = {}x",
                    "let x = x + 1.0 in ".repeat(d / 2)
                )
            }),
        ),
        (
            "ifs",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = {}x",
                    "if x < 1.0 then x else ".repeat(d / 2)
                )
            }),
        ),
        (
            "tuple patterns",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = let {}y{} = {}x{} in y",
                    "(".repeat(d / 2),
                    ")".repeat(d / 2),
                    "(".repeat(d / 2),
                    ")".repeat(d / 2)
                )
            }),
        ),
        (
            "projections",
            fill_60k(|k| {
                format!(
                    "def f{k} (x: f64) : f64 = let t = {}x{} in t{}",
                    "(x, ".repeat(d / 3),
                    ")".repeat(d / 3),
                    ".1".repeat(d / 3)
                )
            }),
        ),
    ];
    for (what, text) in cases {
        let (r, took) = compile_timed(text);
        eprintln!("{what}: {took:?}");
        if let Err(e) = &r {
            // only a limit is not acceptable here
            for code in ["E0004", "E0026", "E0027", "E0028"] {
                assert!(!e.contains(code), "{what}: hit a limit: {e}");
            }
        }
        assert!(
            took < Duration::from_secs(10),
            "{what}: 60 KB of nesting took {took:?}"
        );
    }
}

#[test]
fn twenty_thousand_nested_array_types_are_e0004() {
    // the reproducer of issue 14: 62 s and 9.4 GB before the limit held for types
    let text = format!("entry f (x: {}f64) : f64 = 1.0\n", "[1]".repeat(20_000));
    let (r, took) = compile_timed(text);
    let e = r.expect_err("20,000 nested array types must be rejected");
    assert!(
        e.starts_with("limits.weir:1:") && e.contains("error[E0004]: type nested too deeply"),
        "{e}"
    );
    assert!(took < Duration::from_secs(2), "took {took:?}");
    // and the error is a diagnostic, not an internal error
    let LoadError::Diagnostics(..) = compile_source(
        "limits.weir",
        &format!("entry f (x: {}f64) : f64 = 1.0\n", "[1]".repeat(500)),
    )
    .err()
    .expect("rejected") else {
        panic!("not a diagnostic")
    };
}

/// A source "file" that never ends (`weir check /dev/zero`) is refused at once:
/// sources must be regular files of bounded size.
#[test]
fn a_device_as_source_is_an_error_not_a_hang() {
    let t = std::time::Instant::now();
    match weir_driver::compile_file(std::path::Path::new("/dev/zero")) {
        Err(weir_driver::LoadError::Io(m)) => assert!(m.contains("regular file"), "{m}"),
        Err(_) => panic!("expected an I/O error"),
        Ok(_) => panic!("/dev/zero compiled"),
    }
    assert!(t.elapsed().as_secs() < 5);
}

// ---------------------------------------------------------------- issue 46

/// Compile on a CLI-sized stack; the rendered error (or `Ok`) and the CPU time.
fn check(text: String) -> (Result<(), String>, Duration) {
    compile_timed(text)
}

/// The error of a program that must be rejected, with its code.
fn rejected(what: &str, text: String, code: &str, within: Duration) -> String {
    let (r, took) = check(text);
    eprintln!("{what}: {took:?}");
    let e = r.unwrap_err_or_panic(what);
    assert!(
        e.starts_with("limits.weir:") && e.contains(&format!("error[{code}]")),
        "{what}: expected {code}:\n{}",
        &e[..e.len().min(2000)]
    );
    assert!(took < within, "{what}: took {took:?}");
    e
}

trait ErrOrPanic {
    fn unwrap_err_or_panic(self, what: &str) -> String;
}
impl ErrOrPanic for Result<(), String> {
    fn unwrap_err_or_panic(self, what: &str) -> String {
        match self {
            Ok(()) => panic!("{what}: compiled, but must be rejected"),
            Err(e) => e,
        }
    }
}

/// A chain of 10^5 `with` updates (one expression) overflowed the stack
/// (SIGABRT): each `with` is a level of nesting, like an operator.
#[test]
fn a_long_with_chain_is_e0004_not_a_stack_overflow() {
    let chain: String = (0..100_000)
        .map(|i| format!(" with [{}] = {i}", i % 10))
        .collect();
    let e = rejected(
        "with chain",
        format!("entry f (a: *[]i64) : []i64 = a{chain}\n"),
        "E0004",
        Duration::from_secs(5),
    );
    // the error shows a window of the 1.4 MB line, not the line
    assert!(e.len() < 4000, "{} bytes of diagnostics", e.len());
    // record update paths count too
    let path = vec!["a"; 100_000].join(".");
    rejected(
        "update path",
        format!("entry f (r: {{a: f64}}) : {{a: f64}} = r with {path} = 1.0\n"),
        "E0004",
        Duration::from_secs(5),
    );
    // just under the limit: compiles
    let chain: String = (0..350)
        .map(|i| format!(" with [{}] = {i}", i % 10))
        .collect();
    let (r, _) = check(format!("entry f (a: *[]i64) : []i64 = a{chain}\n"));
    assert!(r.is_ok(), "{r:?}");
}

/// Type abbreviations: a chain of 10^5 resolved quadratically (30 s); one
/// that doubles (`type t2 = (t1, t1)`) took 80 s and 5.7 GB; one that nests
/// tuples or records 10^5 deep, 50 s; one that adds a dimension 500 times
/// made a 500-dimensional array (60 s of gcc).
#[test]
fn type_abbreviations_resolve_in_linear_time_within_the_type_limits() {
    let n = 100_000;
    let chain: String = (1..n)
        .map(|i| format!("type t{i} = t{}\n", i - 1))
        .collect();
    let (r, took) = check(format!(
        "type t0 = [3]f64\n{chain}entry f (x: t{}) : t{} = x\n",
        n - 1,
        n - 1
    ));
    eprintln!("chain of {n}: {took:?}");
    assert!(r.is_ok(), "{r:?}");
    assert!(took < Duration::from_secs(10), "chain of {n}: {took:?}");
    // the same, defined in reverse order
    let chain: String = (1..n)
        .rev()
        .map(|i| format!("type t{i} = t{}\n", i - 1))
        .collect();
    let (r, took) = check(format!(
        "{chain}type t0 = f64\nentry f (x: t{}) : f64 = x\n",
        n - 1
    ));
    assert!(
        r.is_ok() && took < Duration::from_secs(10),
        "{r:?} {took:?}"
    );
    // a cycle through all of them
    let cycle: String = (0..n)
        .map(|i| format!("type t{i} = t{}\n", (i + 1) % n))
        .collect();
    rejected(
        "cycle",
        format!("{cycle}entry f (x: t0) : f64 = 1.0\n"),
        "E0108",
        Duration::from_secs(10),
    );
    let doubling: String = (1..40)
        .map(|i| format!("type t{i} = (t{p}, t{p})\n", p = i - 1))
        .collect();
    rejected(
        "doubling",
        format!("type t0 = f64\n{doubling}entry f (x: t39) : f64 = 1.0\n"),
        "E0027",
        Duration::from_secs(5),
    );
    for (what, def) in [("tuples", "(t{p}, f64)"), ("records", "{{a: t{p}}}")] {
        let deep: String = (1..n)
            .map(|i| {
                format!(
                    "type t{i} = {}\n",
                    def.replace("{p}", &(i - 1).to_string())
                        .replace("{{", "{")
                        .replace("}}", "}")
                )
            })
            .collect();
        rejected(
            what,
            format!("type t0 = f64\n{deep}entry f (x: t{}) : f64 = 1.0\n", n - 1),
            "E0004",
            Duration::from_secs(15),
        );
    }
    let ranks: String = (1..500)
        .map(|i| format!("type t{i} = [1]t{}\n", i - 1))
        .collect();
    let e = rejected(
        "rank",
        format!("type t0 = f64\n{ranks}entry f (x: t499) : t499 = x\n"),
        "E0026",
        Duration::from_secs(5),
    );
    assert!(e.contains("33 dimensions"), "{e}");
    // rank 32 is fine, 33 written out is not
    let (r, _) = check(format!(
        "entry f (x: {}f64) : f64 = 1.0\n",
        "[1]".repeat(32)
    ));
    assert!(r.is_ok(), "{r:?}");
    rejected(
        "rank written",
        format!("entry f (x: {}f64) : f64 = 1.0\n", "[1]".repeat(33)),
        "E0026",
        Duration::from_secs(2),
    );
}

/// Types built by expressions and definitions are bounded as well: `let`s
/// that double a tuple, definitions that add a dimension or a level of tuple
/// each (all ran out of memory, minutes).
#[test]
fn types_built_by_expressions_stay_within_the_limits() {
    let lets: String = (1..40)
        .map(|i| format!("  let a{i} = (a{p}, a{p})\n", p = i - 1))
        .collect();
    rejected(
        "doubling lets",
        format!("entry f (x: f64) : f64 =\n  let a0 = (x, x)\n{lets}  in x\n"),
        "E0027",
        Duration::from_secs(5),
    );
    let defs: String = (1..3000)
        .map(|i| format!("def r{i} (x: f64) = replicate 1 (r{} x)\n", i - 1))
        .collect();
    let e = rejected(
        "rank by definitions",
        format!("def r0 (x: f64) = replicate 1 x\n{defs}entry f (x: f64) = r2999 x\n"),
        "E0026",
        Duration::from_secs(10),
    );
    assert!(e.starts_with("limits.weir:33:"), "{}", &e[..200]);
    let defs: String = (1..3000)
        .map(|i| format!("def r{i} (x: f64) = (r{} x, 1.0)\n", i - 1))
        .collect();
    rejected(
        "tuples by definitions",
        format!("def r0 (x: f64) = (x, 1.0)\n{defs}entry f (x: f64) = (r2999 x).1\n"),
        "E0004",
        Duration::from_secs(10),
    );
    // a wide record (50,000 fields) is checked in linear time (its duplicate
    // field check was quadratic: 10 s)
    let fields: Vec<String> = (0..50_000).map(|i| format!("a{i} = x")).collect();
    let (r, took) = check(format!(
        "entry f (x: f64) : f64 = let t = {{{}}} in t.a0\n",
        fields.join(", ")
    ));
    eprintln!("wide record: {took:?}");
    assert!(r.is_ok(), "{r:?}");
    assert!(took < Duration::from_secs(5), "wide record: {took:?}");
}

/// A literal of 2.5M elements took 2.25 GB: past 100,000 elements (with those
/// of the literals nested in it) a literal is E0028, at the literal.
#[test]
fn a_huge_array_literal_is_e0028() {
    let elems = vec!["1.0"; 200_000].join(", ");
    let e = rejected(
        "literal",
        format!("entry f (x: f64) : []f64 = [{elems}]\n"),
        "E0028",
        Duration::from_secs(5),
    );
    assert!(e.starts_with("limits.weir:1:28:"), "{}", &e[..200]);
    let row = format!("[{}]", vec!["1.0"; 1000].join(", "));
    let rows = vec![row.as_str(); 101].join(", ");
    rejected(
        "nested literal",
        format!("entry f (x: f64) : [][]f64 = [{rows}]\n"),
        "E0028",
        Duration::from_secs(5),
    );
    let elems = vec!["1.0"; 100_000].join(", ");
    let (r, _) = check(format!("entry f (x: f64) : []f64 = [{elems}]\n"));
    assert!(r.is_ok(), "{r:?}");
}

/// Diagnostics are bounded whatever the source: a 10 MB line is shown as a
/// window around the error, and at most 50 errors of a file are shown.
#[test]
fn diagnostics_of_long_lines_and_many_errors_are_bounded() {
    let head = format!("def f (x: f64) : f64 = {}", "x + ".repeat(300));
    let text = format!("{head}{}y + x\n", " ".repeat(10_000_000));
    let col = head.len() + 10_000_000 + 1;
    let (r, _) = check(text);
    let e = r.unwrap_err_or_panic("long line");
    assert!(e.len() < 4000, "{} bytes of diagnostics", e.len());
    assert!(e.contains("unknown name `y`") && e.contains('…'), "{e}");
    // the locations are the source's, not the window's
    assert_eq!(e.matches(&format!("limits.weir:1:{col}")).count(), 2, "{e}");
    let defs: String = (0..200)
        .map(|i| format!("def g{i} (x: f64) : f64 = y{i}\n"))
        .collect();
    let (r, _) = check(defs);
    let e = r.unwrap_err_or_panic("many errors");
    assert_eq!(e.matches("error[E0104]").count(), 50, "{e}");
    assert!(
        e.contains("... and 150 more errors in limits.weir") && e.ends_with("200 errors found.\n"),
        "{}",
        &e[e.len().saturating_sub(500)..]
    );
}

/// A minus written before a literal is part of it; before anything else it
/// is the documented wrapping negation (`-(-128i8)` was "literal 128 does
/// not fit in i8").
#[test]
fn negating_a_negative_literal_wraps() {
    use weir_interp::Value;
    let c = compile_source(
        "neg.weir",
        "entry a (x: i8) : i8 = -(-128i8)\n\
         entry b (x: i8) : i8 = - -128i8\n\
         entry c (x: i64) : i64 = -(-9223372036854775808)\n\
         entry d (x: i64) : i64 = - -9223372036854775808\n\
         entry e (x: i8) : i8 = x - -128i8\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.render(false)));
    for (entry, arg, want) in [
        ("a", Value::I8(0), Value::I8(-128)),
        ("b", Value::I8(0), Value::I8(-128)),
        ("c", Value::I64(0), Value::I64(i64::MIN)),
        ("d", Value::I64(0), Value::I64(i64::MIN)),
        ("e", Value::I8(1), Value::I8(-127)),
    ] {
        match weir_driver::run_entry(&c, entry, vec![arg]) {
            Ok(v) => assert_eq!(format!("{v:?}"), format!("{want:?}"), "{entry}"),
            Err(e) => panic!("{entry}: {}", e.message),
        }
    }
    // a literal out of range is still E0208
    let e = compile_source("neg.weir", "entry a (x: i8) : i8 = -129i8\n")
        .err()
        .map(|e| e.render(false))
        .unwrap_or_default();
    assert!(e.contains("E0208"), "{e}");
}
