//! Property: the optimizer never changes what a program computes.
//!
//! Generates thousands of random well-typed Weir programs (maps, zips, folds,
//! reductions, builds, transposes, reverses, scans, lets with several consumers,
//! branches, higher-order helper functions, a helper too big to inline, and
//! statements that can fail — reads at computed indices, slices, splits, integer
//! division, `unflatten`, ragged array literals, counts that may be negative —
//! many of them dead, i.e. whose value is never used) and random inputs. Whenever
//! the unoptimized program runs without error, the optimized one must return the
//! same value bit for bit (floats compared by their bits: the optimizer does not
//! reassociate); whenever it fails, the optimized one must fail with an error of
//! the same kind (E0901 bounds, E0902 size mismatch, E0903 division by zero,
//! E0900 other invalid arguments), at the same source location: dead code keeps
//! its checks (docs/language.md §6).
//!
//! `WEIR_OPT_RANDOM_CASES` changes the number of programs (default 2500);
//! `WEIR_OPT_RANDOM_SEED` the first seed.

use weir_driver::pipeline::{run_entry, run_entry_optimized};
use weir_driver::{LoadError, compile_source};
use weir_interp::Value;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &'a [&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Variables in scope, by type.
#[derive(Clone, Default)]
struct Env {
    f: Vec<String>,
    i: Vec<String>,
    v: Vec<String>,
    m: Vec<String>,
}

struct Gen {
    rng: Rng,
    counter: usize,
}

const PRELUDE: &str = "
def hmap [n] (a: [n]f64) (f: f64 -> f64) : [n]f64 = build n (\\i -> f a[i])
def hzip [n] (a: [n]f64) (b: [n]f64) (f: f64 -> f64 -> f64) : [n]f64 = map2 f a b
def dot [n] (a: [n]f64) (b: [n]f64) : f64 = sum (map2 (*) a b)
def twice (f: f64 -> f64) (x: f64) : f64 = f (f x)
";

/// A helper with more statements than the inliner's limit (so calls to it stay calls
/// when it is used twice).
fn big_helper() -> String {
    let mut s = String::from("def big [n] (a: [n]f64) (s: f64) : f64 =\n  let x0 = a[0] * s in\n");
    for k in 1..40 {
        s.push_str(&format!(
            "  let x{k} = x{} * 0.5 + a[{}] in\n",
            k - 1,
            if k % 2 == 0 { "0" } else { "n - 1" }
        ));
    }
    s.push_str("  x39 - s\n");
    s
}

impl Gen {
    fn fresh(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{base}{}", self.counter)
    }

    fn idx(&mut self, env: &Env) -> String {
        if !env.i.is_empty() && self.rng.below(3) > 0 {
            return env.i[self.rng.below(env.i.len())].clone();
        }
        self.rng.pick(&["0", "(n - 1)", "(n / 2)"]).to_string()
    }

    /// An `i64` expression: sizes, the input `k` (which may be negative or
    /// zero), loop indices, and arithmetic on them.
    fn int(&mut self, env: &Env) -> String {
        match self.rng.below(9) {
            0 | 1 => "k".into(),
            2 => "n".into(),
            3 if !env.i.is_empty() => {
                let i = env.i[self.rng.below(env.i.len())].clone();
                format!("({i} + k)")
            }
            3 => "(n - k)".into(),
            4 => "(k - 1)".into(),
            5 => "(n - k)".into(),
            6 => "0".into(),
            7 => "(n / k)".into(),
            _ => "(k * 2)".into(),
        }
    }

    /// An expression that may fail, of any type; it is bound by a `let` whose
    /// variable is never used, so only its checks matter.
    fn dead(&mut self, env: &Env, d: usize) -> String {
        let v = self.v(env, d.min(1));
        match self.rng.below(16) {
            0 => format!("unflatten 2 2 ({v})"),
            1 => format!("unflatten ({}) 2 ({v})", self.int(env)),
            2 => format!("[[1.0], {v}]"),
            3 => format!("[{v}, w]"),
            4 => format!("1 / {}", self.int(env)),
            5 => format!("({v})[{}]", self.int(env)),
            6 => format!("({v})[{}:]", self.int(env)),
            7 => format!("split ({}) ({v})", self.int(env)),
            8 => format!("replicate ({}) 1.0", self.int(env)),
            9 => format!("iota ({})", self.int(env)),
            10 => {
                let i = self.fresh("i");
                format!("build n (\\{i} -> ({v})[{i} + k])")
            }
            11 => {
                let (acc, i) = (self.fresh("acc"), self.fresh("i"));
                format!("ifold (\\{acc} {i} -> {acc} + ({v})[{i} + k]) 0.0 n")
            }
            12 => format!("(if s < 0.0 then ({v})[k] else 0.0)"),
            13 => format!("mat[{}][{}]", self.int(env), self.idx(env)),
            14 => {
                let x = self.fresh("x");
                let m = self.int(env);
                format!("map (\\{x} -> {x} + f64 (10 / k)) (map f64 (iota ({m})))")
            }
            _ => format!("({v})[n]"),
        }
    }

    fn lit(&mut self) -> String {
        self.rng
            .pick(&["1.0", "0.5", "-2.0", "3.25", "0.0", "-0.0", "1e-3", "7.0"])
            .to_string()
    }

    fn f(&mut self, env: &Env, d: usize) -> String {
        let leaf = d == 0 || self.rng.below(4) == 0;
        if leaf {
            return match self.rng.below(4) {
                0 if !env.f.is_empty() => env.f[self.rng.below(env.f.len())].clone(),
                1 => {
                    let v = self.v(env, 0);
                    let i = self.idx(env);
                    format!("({v})[{i}]")
                }
                2 => "s".into(),
                _ => self.lit(),
            };
        }
        let d = d - 1;
        match self.rng.below(21) {
            0..=2 => {
                let op = self.rng.pick(&["+", "-", "*", "+", "*"]);
                format!("({} {op} {})", self.f(env, d), self.f(env, d))
            }
            17 | 18 => {
                // a dead statement that may fail
                let x = self.fresh("dead");
                let e = self.dead(env, d);
                format!("(let {x} = {e} in {})", self.f(env, d))
            }
            19 => {
                // a read that may fail, whose value is used
                let v = self.v(env, d);
                let i = self.int(env);
                format!("(if {i} < n && {i} >= 0 then ({v})[{i}] else f64 (n / (k + 1)))")
            }
            20 => {
                // a generated array of which only one element is read: the
                // other elements' reads are checks too
                let (t, i) = (self.fresh("t"), self.fresh("i"));
                let v = self.v(env, d);
                format!("(let {t} = build n (\\{i} -> ({v})[{i} + k]) in ({t})[0])")
            }
            3 => format!("sum ({})", self.v(env, d)),
            4 => format!("maximum ({})", self.v(env, d)),
            5 => format!("dot ({}) ({})", self.v(env, d), self.v(env, d)),
            6 => {
                let (x, acc) = (self.fresh("x"), self.fresh("acc"));
                let mut e2 = env.clone();
                e2.f.push(x.clone());
                e2.f.push(acc.clone());
                let body = self.f(&e2, d);
                format!(
                    "fold (\\{acc} {x} -> {acc} + {body}) ({}) ({})",
                    self.f(env, d),
                    self.v(env, d)
                )
            }
            7 => {
                let (i, acc) = (self.fresh("i"), self.fresh("acc"));
                let vv = self.v(env, d);
                let mut e2 = env.clone();
                e2.i.push(i.clone());
                e2.f.push(acc.clone());
                let body = self.f(&e2, d);
                format!("ifold (\\{acc} {i} -> {acc} * 0.5 + ({vv})[{i}] * {body}) 0.0 n")
            }
            8 => format!(
                "(if {} < {} then {} else {})",
                self.f(env, d),
                self.f(env, d),
                self.f(env, d),
                self.f(env, d)
            ),
            9 | 10 => {
                let x = self.fresh("y");
                let e = self.f(env, d);
                let mut e2 = env.clone();
                e2.f.push(x.clone());
                format!("(let {x} = {e} in {})", self.f(&e2, d))
            }
            11 => {
                let m = self.m(env, d);
                let (i, j) = (self.idx(env), self.idx(env));
                format!("({m})[{i}][{j}]")
            }
            12 => format!("big ({}) ({})", self.v(env, d), self.f(env, d)),
            13 => {
                let x = self.fresh("x");
                let mut e2 = env.clone();
                e2.f.push(x.clone());
                let body = self.f(&e2, d);
                format!("twice (\\{x} -> {body}) ({})", self.f(env, d))
            }
            14 => format!("reduce (+) 0.0 ({})", self.v(env, d)),
            15 => format!("max ({}) ({})", self.f(env, d), self.f(env, d)),
            _ => format!("f64 (length ({}))", self.v(env, d)),
        }
    }

    fn v(&mut self, env: &Env, d: usize) -> String {
        let leaf = d == 0 || self.rng.below(4) == 0;
        if leaf {
            return match self.rng.below(4) {
                0 if !env.v.is_empty() => env.v[self.rng.below(env.v.len())].clone(),
                1 => {
                    let i = self.idx(env);
                    format!("mat[{i}]")
                }
                2 => "w".into(),
                _ => "v".into(),
            };
        }
        let d = d - 1;
        match self.rng.below(15) {
            0 | 1 => {
                let x = self.fresh("x");
                let mut e2 = env.clone();
                e2.f.push(x.clone());
                let body = self.f(&e2, d);
                format!("map (\\{x} -> {body}) ({})", self.v(env, d))
            }
            2 => {
                let (a, b) = (self.fresh("a"), self.fresh("b"));
                let mut e2 = env.clone();
                e2.f.push(a.clone());
                e2.f.push(b.clone());
                let body = self.f(&e2, d);
                format!(
                    "map2 (\\{a} {b} -> {body}) ({}) ({})",
                    self.v(env, d),
                    self.v(env, d)
                )
            }
            3 => {
                let x = self.fresh("x");
                let mut e2 = env.clone();
                e2.f.push(x.clone());
                let body = self.f(&e2, d);
                format!("hmap ({}) (\\{x} -> {body})", self.v(env, d))
            }
            4 => format!("hzip ({}) ({}) (+)", self.v(env, d), self.v(env, d)),
            5 | 6 => {
                let i = self.fresh("i");
                let mut e2 = env.clone();
                e2.i.push(i.clone());
                let body = self.f(&e2, d);
                format!("build n (\\{i} -> {body})")
            }
            7 => format!("reverse ({})", self.v(env, d)),
            8 => format!("replicate n ({})", self.f(env, d)),
            9 => "map f64 (iota n)".into(),
            10 | 11 => {
                let x = self.fresh("t");
                let e = self.v(env, d);
                let mut e2 = env.clone();
                e2.v.push(x.clone());
                format!("(let {x} = {e} in {})", self.v(&e2, d))
            }
            12 => {
                let m = self.m(env, d);
                let i = self.idx(env);
                format!("(transpose ({m}))[{i}]")
            }
            13 => format!("scan (+) 0.0 ({})", self.v(env, d)),
            _ => format!(
                "(if {} < {} then {} else {})",
                self.f(env, d),
                self.f(env, d),
                self.v(env, d),
                self.v(env, d)
            ),
        }
    }

    fn m(&mut self, env: &Env, d: usize) -> String {
        let leaf = d == 0 || self.rng.below(3) == 0;
        if leaf {
            if !env.m.is_empty() && self.rng.below(2) == 0 {
                return env.m[self.rng.below(env.m.len())].clone();
            }
            return "mat".into();
        }
        let d = d - 1;
        match self.rng.below(5) {
            0 => format!("transpose ({})", self.m(env, d)),
            1 => {
                let r = self.fresh("r");
                let mut e2 = env.clone();
                e2.v.push(r.clone());
                let body = self.v(&e2, d);
                format!("map (\\{r} -> {body}) ({})", self.m(env, d))
            }
            2 => {
                let i = self.fresh("i");
                let mut e2 = env.clone();
                e2.i.push(i.clone());
                let body = self.v(&e2, d);
                format!("build n (\\{i} -> {body})")
            }
            3 => {
                let x = self.fresh("u");
                let e = self.m(env, d);
                let mut e2 = env.clone();
                e2.m.push(x.clone());
                format!("(let {x} = {e} in {})", self.m(&e2, d))
            }
            _ => {
                let i = self.fresh("i");
                let j = self.fresh("j");
                let mut e2 = env.clone();
                e2.i.push(i.clone());
                e2.i.push(j.clone());
                let body = self.f(&e2, d);
                format!("build n (\\{i} -> build n (\\{j} -> {body}))")
            }
        }
    }

    fn program(&mut self) -> String {
        let env = Env::default();
        let (ret, body) = match self.rng.below(3) {
            0 => ("f64", self.f(&env, 4)),
            1 => ("[n]f64", self.v(&env, 4)),
            _ => ("[n][n]f64", self.m(&env, 3)),
        };
        format!(
            "{PRELUDE}{}\nentry main [n] (v: [n]f64) (w: [n]f64) (mat: [n][n]f64) (s: f64) (k: i64) : {ret} =\n  {body}\n",
            big_helper()
        )
    }

    fn inputs(&mut self) -> Vec<Value> {
        let n = 1 + self.rng.below(4);
        let vals = [-2.5, -1.0, -0.5, 0.0, -0.0, 0.25, 1.0, 1.5, 3.0];
        let mut f = || Value::F64(vals[self.rng.below(vals.len())]);
        let v = Value::array((0..n).map(|_| f()).collect());
        let w = Value::array((0..n).map(|_| f()).collect());
        let mat = Value::array(
            (0..n)
                .map(|_| Value::array((0..n).map(|_| f()).collect()))
                .collect(),
        );
        let s = f();
        let k = Value::I64([0, 1, 1, 2, -1, 3][self.rng.below(6)]);
        vec![v, w, mat, s, k]
    }
}

/// The kind of a run-time error: its diagnostic code (as `weir` reports it).
fn kind(message: &str) -> &'static str {
    if message.starts_with("index out of bounds") || message.starts_with("slice") {
        "E0901"
    } else if message.starts_with("size mismatch") {
        "E0902"
    } else if message.starts_with("integer division") {
        "E0903"
    } else {
        "E0900"
    }
}

fn show(args: &[Value]) -> String {
    args.iter()
        .map(weir_interp::format_value)
        .collect::<Vec<_>>()
        .join(" ")
}

fn bits_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()),
        (Value::Array(xs), Value::Array(ys)) | (Value::Tuple(xs), Value::Tuple(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| bits_equal(x, y))
        }
        _ => a == b,
    }
}

#[test]
fn optimizer_preserves_results_on_random_programs() {
    let cases: u64 = std::env::var("WEIR_OPT_RANDOM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2500);
    let seed0: u64 = std::env::var("WEIR_OPT_RANDOM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let (mut compared, mut rejected, mut errored) = (0u64, 0u64, 0u64);
    let mut fused_something = 0u64;
    let mut kinds: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
    for seed in seed0..seed0 + cases {
        let mut g = Gen {
            rng: Rng(seed),
            counter: 0,
        };
        let src = g.program();
        let c = match compile_source("random.weir", &src) {
            Ok(c) => c,
            Err(LoadError::Diagnostics(sm, ds)) => {
                rejected += 1;
                // the generator should produce well-typed programs; a rejection is
                // a generator or checker bug worth seeing
                if rejected <= 3 {
                    eprintln!(
                        "seed {seed}: rejected:\n{src}\n{}",
                        weir_syntax::diag::render_all(&ds, &sm, false)
                    );
                }
                continue;
            }
            Err(LoadError::Io(e)) => panic!("seed {seed}: {e}\n{src}"),
        };
        if weir_opt::count::materialised(&c.optimized) < weir_opt::count::materialised(&c.program) {
            fused_something += 1;
        }
        for _ in 0..2 {
            let args = g.inputs();
            let r = run_entry(&c, "main", args.clone());
            let o = run_entry_optimized(&c, "main", args.clone());
            match (&r, &o) {
                (Ok(a), Ok(b)) => {
                    compared += 1;
                    assert!(
                        bits_equal(a, b),
                        "seed {seed}: optimized result differs\nprogram:\n{src}\ninputs: {}\nexpected {}\n     got {}\noptimized IR:\n{}",
                        args.iter()
                            .map(weir_interp::format_value)
                            .collect::<Vec<_>>()
                            .join(" "),
                        weir_interp::format_value(a),
                        weir_interp::format_value(b),
                        weir_ir::print::program_to_string(&c.optimized)
                    );
                }
                (Ok(_), Err(e)) => panic!(
                    "seed {seed}: the optimized program fails ({}) where the original does not\n{src}\ninputs: {}",
                    e.message,
                    show(&args)
                ),
                (Err(e), Ok(v)) => panic!(
                    "seed {seed}: a check was lost ({}); the optimized program returns {}\n{src}\ninputs: {}\noptimized IR:\n{}",
                    e.message,
                    weir_interp::format_value(v),
                    show(&args),
                    weir_ir::print::program_to_string(&c.optimized)
                ),
                (Err(e), Err(f)) => {
                    assert!(
                        kind(&e.message) == kind(&f.message) && e.span == f.span,
                        "seed {seed}: the optimized program fails with `{}` at {:?} where the original fails with `{}` at {:?}\n{src}\ninputs: {}\noptimized IR:\n{}",
                        f.message,
                        f.span,
                        e.message,
                        e.span,
                        show(&args),
                        weir_ir::print::program_to_string(&c.optimized)
                    );
                    errored += 1;
                    *kinds.entry(kind(&e.message)).or_default() += 1;
                }
            }
        }
    }
    eprintln!(
        "{cases} programs: {compared} runs compared, {errored} runs failing in both ({kinds:?}), {rejected} programs rejected, {fused_something} with fewer arrays after optimization"
    );
    // the generator must exercise every kind of check
    for k in ["E0900", "E0901", "E0902", "E0903"] {
        assert!(
            kinds.get(k).copied().unwrap_or(0) * 200 >= cases,
            "too few runs failing with {k}: {kinds:?}"
        );
    }
    assert!(
        rejected * 20 <= cases,
        "too many generated programs rejected ({rejected} of {cases}): the generator has rotted"
    );
    assert!(compared >= cases, "too few runs compared: {compared}");
    assert!(
        fused_something * 4 >= cases,
        "fusion rarely fired: {fused_something}"
    );
}
