//! Float math is bit-exact between the reference interpreter (unoptimized and
//! optimized, whose constant folding uses the interpreter's arithmetic) and
//! compiled C at -O0 and -O3 (issue 14: `lgamma` came from a Rust port in the
//! interpreter and from glibc in C; gcc may evaluate calls with constant
//! arguments with MPFR). Every libm function of docs/language.md §5, in f64 and
//! f32, on a spread of inputs: negatives, near the poles of `lgamma`, huge,
//! tiny, subnormal, signed zeros, infinities and NaN.

use std::path::Path;
use weir_driver::native::{BuildOptions, build_c, c_source, run_exe};
use weir_driver::{compile_source, run_entry};
use weir_interp::Value;

const PROGRAM: &str = r#"
entry f64_1 (x: []f64) : ([]f64, []f64, []f64, []f64, []f64, []f64, []f64, []f64, []f64, []f64, []f64) =
  (map (\v -> lgamma v) x, map (\v -> exp v) x, map (\v -> log v) x, map (\v -> sin v) x,
   map (\v -> cos v) x, map (\v -> tan v) x, map (\v -> tanh v) x, map (\v -> sqrt v) x,
   map (\v -> floor v) x, map (\v -> ceil v) x, map (\v -> abs v) x)
entry f64_2 (x: []f64) (y: []f64) : ([]f64, []f64, []f64, []f64, []f64, []f64) =
  (map2 (\a b -> atan2 a b) x y, map2 (\a b -> pow a b) x y, map2 (\a b -> a ** b) x y,
   map2 (\a b -> min a b) x y, map2 (\a b -> max a b) x y, map2 (\a b -> a % b) x y)
entry f32_1 (x: []f32) : ([]f32, []f32, []f32, []f32, []f32, []f32, []f32, []f32) =
  (map (\v -> lgamma v) x, map (\v -> exp v) x, map (\v -> log v) x, map (\v -> sin v) x,
   map (\v -> cos v) x, map (\v -> tan v) x, map (\v -> tanh v) x, map (\v -> sqrt v) x)
entry f32_2 (x: []f32) (y: []f32) : ([]f32, []f32, []f32, []f32) =
  (map2 (\a b -> atan2 a b) x y, map2 (\a b -> pow a b) x y, map2 (\a b -> min a b) x y,
   map2 (\a b -> max a b) x y)
-- small constant loops: gcc unrolls them and would fold the calls itself
entry consts (u: i64) : ([]f64, []f64, []f64, []f32) =
  (build 8 (\i -> lgamma (f64 i * 0.37 - 1.3)), build 8 (\i -> pow (f64 i + 0.1) 2.0),
   build 8 (\i -> sin (f64 i) + cos (f64 i)), build 8 (\i -> lgamma (f32 i * 0.37f32 - 1.3f32)))
-- folded by the optimizer (the interpreter's arithmetic at compile time)
entry folded (u: i64) : (f64, f64, f64, f64, f64, f32) =
  (lgamma 0.5, lgamma (-2.5), lgamma 1e300, exp 1.0, pow 10.0 0.3, lgamma 3.7f32)
"#;

/// Inputs: a deterministic spread of interesting and pseudo-random values.
fn inputs(n: usize) -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        2.0,
        -1.0,
        -2.0,
        0.5,
        -0.5,
        1e-300,
        -1e-300,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        171.6,
        172.0,
        1e17,
        -1e17,
        2.5e305,
        4.5e15,
        3.25,
    ];
    // near the poles of lgamma (the non-positive integers) and its zeros (1, 2)
    for k in 0..40 {
        for d in [1e-15, 1e-9, 1e-4, 0.3, 0.5] {
            v.push(-(k as f64) + d);
            v.push(-(k as f64) - d);
        }
    }
    for d in [1e-15, 1e-9, 1e-4] {
        v.extend([1.0 + d, 1.0 - d, 2.0 + d, 2.0 - d]);
    }
    // pseudo-random, over many magnitudes and both signs
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    while v.len() < n {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = (s >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
        let e = ((s >> 3) % 40) as i32 - 20;
        let sign = if s & 1 == 0 { 1.0 } else { -1.0 };
        v.push(sign * m * 10f64.powi(e));
    }
    v.truncate(n);
    v
}

fn arr64(xs: &[f64]) -> Value {
    Value::array(xs.iter().map(|&x| Value::F64(x)).collect())
}

fn arr32(xs: &[f64]) -> Value {
    Value::array(xs.iter().map(|&x| Value::F32(x as f32)).collect())
}

/// Bit-for-bit equality; any NaN equals any NaN (docs/language.md §6).
fn same_bits(a: &Value, b: &Value, path: &mut Vec<usize>) -> Result<(), String> {
    let bad = |path: &Vec<usize>| format!("{a:?} vs {b:?} at {path:?}");
    match (a, b) {
        (Value::F64(x), Value::F64(y))
            if x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()) =>
        {
            Ok(())
        }
        (Value::F32(x), Value::F32(y))
            if x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()) =>
        {
            Ok(())
        }
        (Value::Tuple(xs), Value::Tuple(ys)) | (Value::Array(xs), Value::Array(ys))
            if xs.len() == ys.len() =>
        {
            for (i, (x, y)) in xs.iter().zip(ys.iter()).enumerate() {
                path.push(i);
                same_bits(x, y, path)?;
                path.pop();
            }
            Ok(())
        }
        _ => Err(bad(path)),
    }
}

#[test]
fn libm_is_bit_exact_across_backends() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("weir-cache-math");
    // SAFETY-free: set before any build, the same value in every test of this file.
    unsafe { std::env::set_var("WEIR_CACHE", dir) };
    let c = compile_source("math.weir", PROGRAM).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let xs = inputs(1000);
    let ys: Vec<f64> = xs.iter().rev().map(|y| y * 0.75).collect();
    let cases: Vec<(&str, Vec<Value>)> = vec![
        ("f64_1", vec![arr64(&xs)]),
        ("f64_2", vec![arr64(&xs), arr64(&ys)]),
        ("f32_1", vec![arr32(&xs)]),
        ("f32_2", vec![arr32(&xs), arr32(&ys)]),
        ("consts", vec![Value::I64(0)]),
        ("folded", vec![Value::I64(0)]),
    ];
    let mut exes = Vec::new();
    for opt in ["-O0", "-O3"] {
        let opts = BuildOptions {
            opt_flags: vec![opt.into(), "-march=native".into()],
            ..Default::default()
        };
        let src = c_source(&c, &opts, true).unwrap_or_else(|e| panic!("{e}"));
        exes.push((opt, build_c(&src, &opts).unwrap_or_else(|e| panic!("{e}"))));
    }
    for (entry, args) in cases {
        let d = c.program.find(entry).expect("entry");
        let reference = run_entry(&c, entry, args.clone()).expect("interpreter");
        let optimized = weir_driver::pipeline::run_entry_optimized(&c, entry, args.clone())
            .expect("optimized interpreter");
        same_bits(&optimized, &reference, &mut Vec::new())
            .unwrap_or_else(|e| panic!("{entry}: optimized vs unoptimized interpreter: {e}"));
        for (opt, exe) in &exes {
            let (native, _) =
                run_exe(exe, d, &args, 1, &[]).unwrap_or_else(|e| panic!("{entry} {opt}: {e}"));
            same_bits(&native, &reference, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{entry}: C at {opt} vs the interpreter: {e}"));
        }
    }
}
