//! The cost of a call through the generated bindings, in ns per call
//! (the median of several timed loops):
//!
//!     cargo run --release -p weir-embed-example --example overhead
//!
//! `nothing` (the empty entry: one scalar in, one out), `add3` on 100
//! elements through `add3` (allocating its result, with the shape function
//! call) and through `add3_into` (a reused destination), and a plain Rust
//! loop computing add3 into a reused destination, for reference (Rust's
//! default target, x86-64 baseline SSE2, while the Weir library is built
//! with `-O3 -march=native`).

use std::hint::black_box;
use std::time::Instant;
use weir_embed_example::kernels;
use weir_rs::Context;
use weir_rs::ndarray::Array1;

const CALLS: u32 = 1_000_000;
const LOOPS: usize = 7;

/// The median over `LOOPS` loops of `CALLS` calls of `f`, in ns per call.
fn median_ns(mut f: impl FnMut()) -> f64 {
    for _ in 0..CALLS / 10 {
        f(); // warm up
    }
    let mut t: Vec<f64> = (0..LOOPS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..CALLS {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(CALLS)
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[LOOPS / 2]
}

fn main() -> Result<(), weir_rs::Error> {
    let mut ctx = Context::new()?;
    let n = 100;
    let a: Array1<f64> = (0..n).map(|i| i as f64).collect();
    let b: Array1<f64> = (0..n).map(|i| 2.0 * i as f64).collect();
    let c: Array1<f64> = (0..n).map(|i| 0.5 - i as f64).collect();
    let mut out = Array1::<f64>::zeros(n);

    // every variant once, checked
    let want = &a + &b + &c;
    assert_eq!(kernels::add3(&mut ctx, a.view(), b.view(), c.view())?, want);
    kernels::add3_into(&mut ctx, out.view_mut(), a.view(), b.view(), c.view())?;
    assert_eq!(out, want);

    // (calls independent of each other, as in examples/embed/c/overhead.c)
    let nothing = median_ns(|| {
        black_box(kernels::nothing(&mut ctx, black_box(1.5)).ok());
    });
    let alloc = median_ns(|| {
        let r = kernels::add3(&mut ctx, black_box(a.view()), b.view(), c.view());
        black_box(r.ok());
    });
    let into = median_ns(|| {
        let r = kernels::add3_into(
            &mut ctx,
            out.view_mut(),
            black_box(a.view()),
            b.view(),
            c.view(),
        );
        black_box(r.ok());
        black_box(&out);
    });
    let (sa, sb, sc) = (
        a.as_slice().unwrap_or(&[]),
        b.as_slice().unwrap_or(&[]),
        c.as_slice().unwrap_or(&[]),
    );
    let mut o = vec![0.0; n];
    let rust = median_ns(|| {
        let sa = black_box(sa);
        for (((o, x), y), z) in o.iter_mut().zip(sa).zip(sb).zip(sc) {
            *o = x + y + z;
        }
        black_box(&o);
    });
    println!("ns per call (median of {LOOPS} loops of {CALLS} calls):");
    println!("  nothing (scalar in, scalar out)      {nothing:8.1}");
    println!("  add3, n = {n}, allocating (add3)     {alloc:8.1}");
    println!("  add3, n = {n}, reused out (add3_into) {into:8.1}");
    println!("  add3, n = {n}, plain Rust loop        {rust:8.1}");
    Ok(())
}
