//! Nesting limits hold for every syntactic category: 20,000 levels of anything
//! (types, patterns, tuples, function types, array literals, `let`/`if`/lambda/
//! `loop` chains, indexing, projections, operators) are error E0004 with a
//! location, quickly, and never exhaust the stack. Just under the limit parses.

use std::time::{Duration, Instant};
use weir_syntax::parser::MAX_DEPTH;
use weir_syntax::{FileId, parse_file};

/// Programs nesting one construct `n` levels deep, by category.
fn cases(n: usize) -> Vec<(&'static str, String)> {
    let r = |s: &str| s.repeat(n);
    vec![
        (
            "array types",
            format!("def f (x: {}f64) : f64 = 1.0", r("[1]")),
        ),
        (
            "array types, blank sizes",
            format!("def f (x: {}f64) : f64 = 1.0", r("[]")),
        ),
        (
            "array types, named sizes",
            format!("def f [n] (x: {}f64) : f64 = 1.0", r("[n]")),
        ),
        (
            "result type",
            format!("def f (x: f64) : {}f64 = x", r("[1]")),
        ),
        (
            "parenthesised types",
            format!("def f (x: {}f64{}) : f64 = x", r("("), r(")")),
        ),
        (
            "tuple types",
            format!("def f (x: {}f64{}) : f64 = 1.0", r("(f64, "), r(")")),
        ),
        (
            "function types in tuples",
            format!("def f (g: {}f64{}) : f64 = 1.0", r("(f64 -> "), r(")")),
        ),
        (
            "function type arguments",
            format!(
                "def f (g: {}f64{} -> f64) : f64 = 1.0",
                r("("),
                r(" -> f64)")
            ),
        ),
        (
            "type in a let",
            format!("def f (x: f64) : f64 = let (y: {}f64) = x in y", r("[1]")),
        ),
        (
            "patterns",
            format!("def f (x: f64) : f64 = let {}y{} = x in y", r("("), r(")")),
        ),
        (
            "tuple patterns",
            format!(
                "def f (x: f64) : f64 = let {}y{} = x in y",
                r("(_, "),
                r(")")
            ),
        ),
        (
            "parameter patterns",
            format!("def f ({}x{}: f64) : f64 = x", r("("), r(")")),
        ),
        (
            "lambda patterns",
            format!("def f (x: f64) : f64 = (\\{}y{} -> y) x", r("("), r(")")),
        ),
        (
            "parentheses",
            format!("def f (x: f64) : f64 = {}x{}", r("("), r(")")),
        ),
        (
            "tuples",
            format!("def f (x: f64) : f64 = {}x{}", r("(x, "), r(")")),
        ),
        (
            "array literals",
            format!("def f (x: f64) : f64 = {}x{}", r("["), r("]")),
        ),
        (
            "array literal rows",
            format!("def f (x: f64) : f64 = {}x{}", r("[x, "), r("]")),
        ),
        ("negation", format!("def f (x: f64) : f64 = {}x", r("- "))),
        ("not", format!("def f (x: bool) : bool = {}x", r("!"))),
        (
            "negated parentheses",
            format!("def f (x: f64) : f64 = {}x{}", r("- ("), r(")")),
        ),
        (
            "binary operators",
            format!("def f (x: f64) : f64 = x{}", r(" + x")),
        ),
        (
            "right-associative operators",
            format!("def f (x: f64) : f64 = x{}", r(" ** x")),
        ),
        (
            "concatenation",
            format!("def f (x: []f64) : []f64 = x{}", r(" ++ x")),
        ),
        ("pipes", format!("def f (x: f64) : f64 = x{}", r(" |> g"))),
        (
            "left pipes",
            format!("def f (x: f64) : f64 = {}x", r("g <| ")),
        ),
        (
            "compositions",
            format!("def f (x: f64) : f64 = (g{}) x", r(" >-> g")),
        ),
        (
            "backward compositions",
            format!("def f (x: f64) : f64 = (g{}) x", r(" <-< (* 2.0)")),
        ),
        (
            "right sections",
            format!("def f (x: f64) : f64 = {}x{}", r("(* "), r(")")),
        ),
        (
            "left sections",
            format!("def f (x: f64) : f64 = {}x{}", r("("), r(" *)")),
        ),
        (
            "negated powers",
            format!("def f (x: f64) : f64 = x{}", r(" ** -x")),
        ),
        (
            "local functions",
            format!("def f (x: f64) : f64 = {}x", r("let g (y: f64) = y ")),
        ),
        (
            "local functions in bodies",
            format!(
                "def f (x: f64) : f64 = {}x{}",
                r("let g y = "),
                r(" in g x")
            ),
        ),
        (
            "lets",
            format!("def f (x: f64) : f64 = {}x", r("let y = x in ")),
        ),
        (
            "lets without in",
            format!("def f (x: f64) : f64 = {}x", r("let y = x ")),
        ),
        (
            "lets in bound expressions",
            format!("def f (x: f64) : f64 = {}x{}", r("let y = "), r(" in y")),
        ),
        (
            "ifs in else",
            format!("def f (x: bool) : bool = {}x", r("if x then x else ")),
        ),
        (
            "ifs in conditions",
            format!(
                "def f (x: bool) : bool = {}x{}",
                r("if "),
                r(" then x else x")
            ),
        ),
        (
            "lambdas",
            format!("def f (x: f64) : f64 = {}x", r("\\y -> ")),
        ),
        (
            "trailing lambdas",
            format!("def f (x: f64) : f64 = {}x", r("g \\y -> ")),
        ),
        (
            "loops in bodies",
            format!("def f (x: f64) : f64 = {}x", r("loop y = x for i < 3 do ")),
        ),
        (
            "loops in counts",
            format!("def f (x: i64) : i64 = {}x", r("loop y = x for i < ")),
        ),
        (
            "loops in conditions",
            format!("def f (x: bool) : bool = {}x", r("loop y = x while ")),
        ),
        (
            "indexing",
            format!("def f (a: []i64) : i64 = {}0{}", r("a["), r("]")),
        ),
        (
            "slicing",
            format!("def f (a: []i64) : []i64 = a[{}0{}:]", r("a["), r("]")),
        ),
        (
            "index chains",
            format!("def f (a: []i64) : i64 = a{}", r("[0]")),
        ),
        (
            "projections",
            format!("def f (a: f64) : f64 = a{}", r(".0")),
        ),
        (
            "float projections",
            format!("def f (a: f64) : f64 = a{}", r(".0.0")),
        ),
        (
            "application arguments",
            format!("def f (x: f64) : f64 = {}x{}", r("g ("), r(")")),
        ),
        (
            "mixed",
            format!(
                "def f (x: f64) : f64 = {}x{}",
                r("let (y: [1](f64, i64)) = [(-x, 1)] in \\z -> ("),
                r(")")
            ),
        ),
    ]
}

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

/// Parse `text` on a thread with a small stack (far less than the CLI's), timing it.
fn parse_timed(text: String) -> (Vec<weir_syntax::Diagnostic>, Duration) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || timed(|| parse_file(FileId(0), &text).1))
        .expect("spawn")
        .join()
        .expect("parser thread panicked")
}

#[test]
fn twenty_thousand_levels_are_e0004_quickly() {
    for (what, text) in cases(20_000) {
        let len = text.len();
        let (errs, took) = parse_timed(text);
        let first = errs
            .first()
            .unwrap_or_else(|| panic!("{what}: 20,000 levels parsed without error"));
        assert_eq!(first.code, "E0004", "{what}: {first:?}");
        assert!(
            first.message.ends_with("nested too deeply"),
            "{what}: {}",
            first.message
        );
        // the location is where the limit is crossed: well inside the text
        assert!(
            first.span.start > 0 && (first.span.start as usize) < len,
            "{what}: span {:?}",
            first.span
        );
        assert!(first.help.is_some(), "{what}: no help");
        assert!(
            took < Duration::from_secs(2),
            "{what}: took {took:?} for 20,000 levels"
        );
    }
}

#[test]
fn nesting_well_under_the_limit_parses() {
    // each level of these cases costs at most a few units of depth
    for (what, text) in cases(MAX_DEPTH / 8) {
        let (errs, _) = parse_timed(text);
        assert!(
            errs.iter().all(|e| e.code != "E0004"),
            "{what}: {} levels hit the limit: {errs:?}",
            MAX_DEPTH / 8
        );
    }
}

#[test]
fn the_type_limit_is_the_documented_depth() {
    let at = |n: usize| format!("def f (x: {}f64) : f64 = 1.0", "[1]".repeat(n));
    // the parameter type is at depth 1 (no enclosing expression)
    let (ok, _) = parse_timed(at(MAX_DEPTH - 1));
    assert!(ok.is_empty(), "{ok:?}");
    let (bad, _) = parse_timed(at(MAX_DEPTH + 1));
    assert_eq!(bad.first().map(|d| d.code), Some("E0004"));
    assert_eq!(
        bad.first().map(|d| d.message.as_str()),
        Some("type nested too deeply")
    );
}

#[test]
fn chains_count_one_level_per_link() {
    // `let`, `if`-`else` and loop chains (as in long kernels) use one level each
    let n = MAX_DEPTH - 10;
    for text in [
        format!(
            "def f (x: f64) : f64 = {}x",
            "let x = x + 1.0 in ".repeat(n)
        ),
        format!(
            "def f (x: bool) : bool = {}x",
            "if x then x else ".repeat(n)
        ),
        format!(
            "def f (x: i64) : i64 = {}x",
            "loop y = x for i < ".repeat(n)
        ),
        format!("def f (x: f64) : f64 = x{}", " + x".repeat(n)),
    ] {
        let (errs, _) = parse_timed(text);
        // (the loop chain lacks its `do`s: only the limit matters here)
        assert!(errs.iter().all(|e| e.code != "E0004"), "{errs:?}");
    }
}
