//! Front-end resource limits (issue 14): nesting just under the parser's limit, in
//! every syntactic category, repeated to fill a 60 KB file, goes through the whole
//! front end (parse, check, elaborate, optimize) in well under a few seconds; over
//! the limit it is error E0004 with a location, whatever the category.

use std::time::{Duration, Instant};
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
        (
            "array types",
            fill_60k(|k| format!("def f{k} (x: {}f64) : f64 = 1.0", "[1]".repeat(d))),
        ),
        (
            "array types used",
            fill_60k(|k| format!("def f{k} (x: {t}f64) : {t}f64 = x", t = "[1]".repeat(d / 2))),
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
                    "def f{k} (x: f64) : f64 = let a = {}x{} in 1.0",
                    "[".repeat(d / 2),
                    "]".repeat(d / 2)
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
            // only the limit is not acceptable here
            assert!(!e.contains("E0004"), "{what}: hit the limit: {e}");
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
