//! Programs whose size grows exponentially when functions are expanded at
//! their calls (issue 46, item 4): a chain of functions each calling the one
//! before twice. Top-level definitions stay calls in the compiled code; local
//! functions (expanded by the checker at each call) and definitions passing
//! a function argument down the chain (specialised by the inliner) stop at a
//! budget with a located error (E0421, E0422). Every case is bounded in CPU
//! time, through C generation and through the interpreter.

use std::time::{Duration, Instant};
use weir_driver::compile_source;
use weir_driver::native::{BuildOptions, c_source};
use weir_driver::pipeline::{run_entry, run_entry_optimized};
use weir_interp::Value;

/// The CPU time this thread has used (Linux: `/proc/thread-self/schedstat`),
/// so that a bound measures the work, not how busy the machine is.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Run `f` on a thread with the CLI's stack, returning its result and the
/// CPU time it took (wall time where the CPU time cannot be read).
fn timed<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> (T, Duration) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let (c, t) = (thread_cpu(), Instant::now());
            let r = f();
            let took = match (c, thread_cpu()) {
                (Some(a), Some(b)) if b > a => b - a,
                _ => t.elapsed(),
            };
            (r, took)
        })
        .expect("spawn")
        .join()
        .expect("the compiler panicked")
}

/// The most CPU time any case may take (each takes well under a second or a
/// few on an idle machine; the exponential versions took minutes or ran out
/// of memory).
const BOUND: Duration = Duration::from_secs(30);

fn local_chain(k: usize) -> String {
    let mut s = String::from("entry main (x: i64): i64 =\n  let f0 = \\(y: i64) -> y + 1 in\n");
    for i in 1..=k {
        s.push_str(&format!(
            "  let f{i} = \\(y: i64) -> f{} (f{} y) in\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!("  f{k} x\n"));
    s
}

fn local_def_chain(k: usize) -> String {
    let mut s = String::from("entry main (x: i64): i64 =\n  let f0 (y: i64) = y + 1 in\n");
    for i in 1..=k {
        s.push_str(&format!("  let f{i} y = f{} (f{} y) in\n", i - 1, i - 1));
    }
    s.push_str(&format!("  f{k} x\n"));
    s
}

/// Local functions passed as arguments rather than called.
fn local_arg_chain(k: usize) -> String {
    let mut s =
        String::from("entry main (xs: []i64): []i64 =\n  let f0 = \\(y: i64) -> y + 1 in\n");
    for i in 1..=k {
        s.push_str(&format!(
            "  let f{i} = \\(y: i64) -> f{} (f{} y) in\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!("  map f{k} xs\n"));
    s
}

fn top_chain(k: usize) -> String {
    let mut s = String::from("def f0 (y: i64): i64 = y + 1\n");
    for i in 1..=k {
        s.push_str(&format!(
            "def f{i} (y: i64): i64 = f{} (f{} y)\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!("entry main (x: i64): i64 = f{k} x\n"));
    s
}

fn higher_order_chain(k: usize) -> String {
    let mut s = String::from("def f0 (g: i64 -> i64) (y: i64): i64 = g y\n");
    for i in 1..=k {
        s.push_str(&format!(
            "def f{i} (g: i64 -> i64) (y: i64): i64 = f{} g (f{} g y)\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!(
        "entry main (x: i64): i64 = f{k} (\\z -> z * 3 + 1) x\n"
    ));
    s
}

/// Compile and generate C, timed: the C's size, or the rendered error.
fn to_c(text: String) -> (Result<usize, String>, Duration) {
    timed(move || {
        let c = compile_source("blowup.weir", &text).map_err(|e| e.render(false))?;
        c_source(&c, &BuildOptions::default(), true)
            .map(|s| s.len())
            .map_err(|e| e.to_string())
    })
}

/// Compile and run `main` on one integer, timed: the integer result, or
/// the rendered error. `optimized`: the optimized program's interpreter.
fn run(text: String, x: i64, optimized: bool) -> (Result<i64, String>, Duration) {
    timed(move || {
        let c = compile_source("blowup.weir", &text).map_err(|e| e.render(false))?;
        let args = vec![Value::I64(x)];
        let v = if optimized {
            run_entry_optimized(&c, "main", args)
        } else {
            run_entry(&c, "main", args)
        };
        match v {
            Ok(Value::I64(n)) => Ok(n),
            Ok(v) => Err(format!("not an i64: {v:?}")),
            Err(e) => Err(format!("{e:?}")),
        }
    })
}

fn expect_error(what: &str, text: String, code: &str) {
    let (r, took) = to_c(text.clone());
    assert!(took < BOUND, "{what}: C generation took {took:?}");
    match r {
        Err(e) => assert!(
            e.contains(code) && e.contains("program too large") && e.contains("blowup.weir:"),
            "{what}: not a located {code}: {e}"
        ),
        Ok(n) => panic!("{what}: compiled ({n} bytes of C), expected {code}"),
    }
    // the interpreter reads the same compiled program: the same error
    let (r, took) = run(text, 1, false);
    assert!(took < BOUND, "{what}: the interpreter took {took:?}");
    assert!(r.is_err_and(|e| e.contains(code)), "{what}: ran");
}

#[test]
fn local_function_chains_stop_at_the_budget() {
    for k in [16, 30] {
        expect_error(&format!("lambdas k = {k}"), local_chain(k), "E0421");
        expect_error(&format!("local defs k = {k}"), local_def_chain(k), "E0421");
        expect_error(
            &format!("passed lambdas k = {k}"),
            local_arg_chain(k),
            "E0421",
        );
    }
}

#[test]
fn higher_order_chains_stop_at_the_budget() {
    for k in [16, 30] {
        expect_error(&format!("k = {k}"), higher_order_chain(k), "E0422");
    }
}

#[test]
fn short_chains_still_compile_and_run() {
    // under the budget, local functions are expanded as before
    let (r, took) = run(local_chain(10), 3, false);
    assert!(took < BOUND, "took {took:?}");
    assert_eq!(r, Ok(3 + 1024));
    let (r, took) = run(higher_order_chain(8), 0, true);
    assert!(took < BOUND, "took {took:?}");
    let mut want: i64 = 0;
    for _ in 0..256 {
        want = want.wrapping_mul(3).wrapping_add(1);
    }
    assert_eq!(r, Ok(want));
}

#[test]
fn top_level_chains_stay_calls() {
    for k in [16usize, 30] {
        let (r, took) = to_c(top_chain(k));
        assert!(took < BOUND, "k = {k}: C generation took {took:?}");
        let n = r.unwrap_or_else(|e| panic!("k = {k}: {e}"));
        // one function per definition (and the runtime), not 2^k copies
        assert!(n < 2_000_000, "k = {k}: {n} bytes of C");
    }
    // the interpreter calls the definitions (2^16 additions)
    let (r, took) = run(top_chain(16), 3, false);
    assert!(took < BOUND, "took {took:?}");
    assert_eq!(r, Ok(3 + 65536));
}

/// A long chain of definitions each calling the one before once (issue 46,
/// found by the front-end limits work): each is small and called once, so
/// each inlined the whole chain before it: quadratic, 2,000 definitions took
/// 30 s and 2 GB of the optimizer (4,000 here). A budget for the whole
/// program leaves the rest as calls.
#[test]
fn long_chains_of_single_calls_stay_linear() {
    let mut text = String::from("def h0 (x: i64) : i64 = x + 1\n");
    for i in 1..=4000 {
        text.push_str(&format!("def h{i} (x: i64) : i64 = h{} x + 1\n", i - 1));
    }
    text.push_str("entry main (x: i64) : i64 = h4000 x\n");
    let (r, took) = run(text, 5, true);
    assert!(took < BOUND, "took {took:?}");
    assert_eq!(r, Ok(5 + 4001));
}

/// A lookup table written element by element (issue 46, item 2): each
/// update is a copy placed in the next array by `short-circuit`, whose
/// checks walked every prefix of a scope (`hoist-size-lets`) and every
/// chain of views again at each question: cubic, 256 updates took 34 s of
/// `dps-simplify`. 390 updates (the most one expression nests) now take
/// about 2 s through C generation.
#[test]
fn element_by_element_tables_are_not_cubic() {
    let n = 390;
    let mut s = String::from("entry main (xs: []i64): []i64 =\n  let t = replicate 256 0 in\n");
    for i in 0..n {
        s.push_str(&format!(
            "  let t = t with [{}] = {} in\n",
            i % 256,
            (i * 7 + 5) % 1000
        ));
    }
    s.push_str("  map (\\i -> t[i % 256]) xs\n");
    let (r, took) = to_c(s);
    assert!(took < BOUND, "took {took:?}");
    r.unwrap_or_else(|e| panic!("{e}"));
}

/// Sizes that are sums of sums (`[n + n]`, a loop state swapping arrays of
/// two sizes): the C generator's bounds prover followed each `let` of a sum
/// once per path through the DAG of lets, 2^16 times at its depth bound
/// (issue 46, item 4: 3.7 s of CPU for this program, more than 60 s for a
/// mutant of an example). Each name's form is now computed once per
/// question: milliseconds.
#[test]
fn sums_of_sizes_are_not_exponential() {
    let text = "def step [n] (src: [n]f64) (dst: [n]f64) : [n]f64 =\n  \
                build n (\\i -> if i == 0 then dst[i] else src[i] + src[i - 1])\n\
                entry main [n] (t: i64) (a: [n + n]f64) (b: [n]f64) (c: [n]f64) : [n]f64 =\n  \
                let (x, _, _) = loop (x, y, z) = (a, b, c) for s < t do (step x y, step y z, step z x) in x\n";
    let (r, took) = to_c(text.to_string());
    assert!(took < Duration::from_secs(1), "took {took:?}");
    r.unwrap_or_else(|e| panic!("{e}"));
}
