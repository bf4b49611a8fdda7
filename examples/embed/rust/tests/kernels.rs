//! Every entry of `kernels.weir` and `extra.weir`, called through the
//! generated bindings, against plain Rust; and the errors.

use weir_embed_example::{extra, kernels};
use weir_rs::ndarray::{Array1, Array2, ArrayView1, Axis, array, s};
use weir_rs::{Context, ErrorCode};

/// A small deterministic generator (xorshift), values in [-1, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn vec(&mut self, n: usize) -> Array1<f64> {
        (0..n).map(|_| self.next()).collect()
    }
    fn mat(&mut self, n: usize, m: usize) -> Array2<f64> {
        Array2::from_shape_fn((n, m), |_| self.next())
    }
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-12 * (1.0 + x.abs().max(y.abs()))
}

fn all_close(x: ArrayView1<f64>, y: ArrayView1<f64>) -> bool {
    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(*a, *b))
}

fn ctx() -> Context {
    Context::new().expect("a context")
}

fn add3_ref(a: &Array1<f64>, b: &Array1<f64>, c: &Array1<f64>) -> Array1<f64> {
    (0..a.len()).map(|i| a[i] + b[i] + c[i]).collect()
}

#[test]
fn nothing_returns_its_argument() {
    let mut ctx = ctx();
    for x in [0.0, -1.5, 3.25e300, f64::INFINITY] {
        assert_eq!(kernels::nothing(&mut ctx, x).unwrap(), x);
    }
    assert!(kernels::nothing(&mut ctx, f64::NAN).unwrap().is_nan());
    kernels::nothing_shape(&mut ctx, 1.0).unwrap();
}

#[test]
fn add3_matches_rust() {
    let mut ctx = ctx();
    let mut rng = Rng(7);
    for n in [0, 1, 7, 100, 1000] {
        let (a, b, c) = (rng.vec(n), rng.vec(n), rng.vec(n));
        let want = add3_ref(&a, &b, &c);
        assert_eq!(
            kernels::add3_shape(&mut ctx, a.view(), b.view(), c.view()).unwrap(),
            [n]
        );
        // exactly: the same additions in the same order
        assert_eq!(
            kernels::add3(&mut ctx, a.view(), b.view(), c.view()).unwrap(),
            want
        );
        let mut out = Array1::zeros(n);
        kernels::add3_into(&mut ctx, out.view_mut(), a.view(), b.view(), c.view()).unwrap();
        assert_eq!(out, want);
    }
}

#[test]
fn views_not_in_standard_layout_are_copied() {
    let mut ctx = ctx();
    let mut rng = Rng(11);
    let big = rng.vec(20);
    let (a, b, c) = (
        big.slice(s![..;2]),
        big.slice(s![1..;2]),
        big.slice(s![..;-2]),
    );
    assert!(!a.is_standard_layout());
    let want = add3_ref(&a.to_owned(), &b.to_owned(), &c.to_owned());
    assert_eq!(kernels::add3(&mut ctx, a, b, c).unwrap(), want);
    // a strided destination: written through a copy
    let mut out = Array1::from_elem(20, -7.0);
    kernels::add3_into(&mut ctx, out.slice_mut(s![..;2]), a, b, c).unwrap();
    assert_eq!(out.slice(s![..;2]), want);
    assert!(out.slice(s![1..;2]).iter().all(|&x| x == -7.0));
    // a transposed matrix
    let m = rng.mat(4, 3);
    let t = m.t();
    let (sums, _) = kernels::row_stats(&mut ctx, t).unwrap();
    assert!(all_close(sums.view(), m.sum_axis(Axis(0)).view()));
}

#[test]
fn row_stats_matches_rust() {
    let mut ctx = ctx();
    let mut rng = Rng(3);
    for (n, m) in [(1, 1), (3, 5), (17, 64), (0, 4)] {
        let a = rng.mat(n, m);
        let (sums, maxs) = kernels::row_stats(&mut ctx, a.view()).unwrap();
        let want_sums: Array1<f64> = a.rows().into_iter().map(|r| r.iter().sum()).collect();
        let want_maxs: Array1<f64> = a
            .rows()
            .into_iter()
            .map(|r| r.iter().copied().fold(f64::NEG_INFINITY, f64::max))
            .collect();
        assert!(
            all_close(sums.view(), want_sums.view()),
            "{sums} {want_sums}"
        );
        assert_eq!(maxs, want_maxs);
        let (mut s2, mut m2) = (Array1::zeros(n), Array1::zeros(n));
        kernels::row_stats_into(&mut ctx, s2.view_mut(), m2.view_mut(), a.view()).unwrap();
        assert_eq!((s2, m2), (sums, maxs));
        assert_eq!(
            kernels::row_stats_shape(&mut ctx, a.view()).unwrap(),
            ([n], [n])
        );
    }
}

#[test]
fn above_truncates_to_its_size() {
    let mut ctx = ctx();
    let mut rng = Rng(5);
    for n in [0, 1, 10, 333] {
        let xs = rng.vec(n);
        for t in [-2.0, 0.0, 0.5, 2.0] {
            let (ys, count) = kernels::above(&mut ctx, t, xs.view()).unwrap();
            let want: Array1<f64> = xs.iter().copied().filter(|&x| x > t).collect();
            assert_eq!(ys, want);
            assert_eq!(count, want.len() as i64);
            // the shape function's upper bound
            assert_eq!(kernels::above_shape(&mut ctx, t, xs.view()).unwrap(), [n]);
        }
    }
}

#[test]
fn scaled_matvec_matches_rust() {
    let mut ctx = ctx();
    let mut rng = Rng(9);
    for (n, m) in [(1, 1), (5, 3), (40, 100)] {
        let (a, v) = (rng.mat(n, m), rng.vec(m));
        let want: Array1<f64> = a
            .rows()
            .into_iter()
            .map(|r| 2.5 * r.iter().zip(&v).map(|(x, y)| x * y).sum::<f64>())
            .collect();
        let got = kernels::scaled_matvec(&mut ctx, 2.5, a.view(), v.view()).unwrap();
        assert!(all_close(got.view(), want.view()), "{got} {want}");
        let mut out = Array1::zeros(n);
        kernels::scaled_matvec_into(&mut ctx, out.view_mut(), 2.5, a.view(), v.view()).unwrap();
        assert_eq!(out, got);
    }
    // the inner dims must agree
    let e =
        kernels::scaled_matvec(&mut ctx, 1.0, rng.mat(2, 3).view(), rng.vec(4).view()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Argument, "{e}");
}

#[test]
fn count_true_takes_bools() {
    let mut ctx = ctx();
    let mask = array![true, false, true, true, false];
    let (n, ints) = kernels::count_true(&mut ctx, mask.view()).unwrap();
    assert_eq!(n, 3);
    assert_eq!(ints, array![1i32, 0, 1, 1, 0]);
    let mut out = Array1::from_elem(5, 9i32);
    assert_eq!(
        kernels::count_true_into(&mut ctx, out.view_mut(), mask.view()).unwrap(),
        3
    );
    assert_eq!(out, ints);
    let empty = Array1::<bool>::from_elem(0, false);
    assert_eq!(kernels::count_true(&mut ctx, empty.view()).unwrap().0, 0);
}

#[test]
fn too_small_destination_is_an_argument_error() {
    let mut ctx = ctx();
    let a = array![1.0, 2.0, 3.0, 4.0];
    let mut out = Array1::zeros(3);
    let e = kernels::add3_into(&mut ctx, out.view_mut(), a.view(), a.view(), a.view()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Argument, "{e}");
    assert!(e.location.contains("kernels.weir:"), "{e:?}");
    assert!(e.to_string().starts_with(&format!("{}: ", e.location)));
    // a second destination of the wrong size
    let m = array![[1.0, 5.0], [2.0, 0.0]];
    let (mut s1, mut s2) = (Array1::zeros(2), Array1::zeros(1));
    let e = kernels::row_stats_into(&mut ctx, s1.view_mut(), s2.view_mut(), m.view()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Argument, "{e}");
    // the context works on after an error
    kernels::row_stats_into(
        &mut ctx,
        s1.view_mut(),
        Array1::zeros(2).view_mut(),
        m.view(),
    )
    .unwrap();
    assert_eq!(s1, array![6.0, 2.0]);
}

#[test]
fn arguments_of_different_sizes_are_an_argument_error() {
    let mut ctx = ctx();
    let (a, b) = (array![1.0, 2.0], array![1.0, 2.0, 3.0]);
    let e = kernels::add3(&mut ctx, a.view(), b.view(), a.view()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Argument, "{e}");
    assert!(e.location.contains("kernels.weir:"), "{e:?}");
    assert!(e.message.contains("size"), "{e}");
    // (the shape function computes the result's dims; it is the entry that
    // checks the arguments against each other)
}

#[test]
fn index_out_of_bounds_is_a_program_error() {
    let mut ctx = ctx();
    let a = array![1.5, 2.5, 3.5];
    assert_eq!(extra::pick(&mut ctx, a.view(), 2).unwrap(), 3.5);
    for i in [3, -1, i64::MAX] {
        let e = extra::pick(&mut ctx, a.view(), i).unwrap_err();
        assert_eq!(e.code, ErrorCode::Program, "{e}");
        assert!(e.location.contains("extra.weir:"), "{e:?}");
        assert!(e.message.contains("index out of bounds"), "{e}");
    }
    let m = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    assert_eq!(
        extra::column(&mut ctx, m.view(), 1).unwrap(),
        array![2.0, 4.0, 6.0]
    );
    let e = extra::column(&mut ctx, m.view(), 2).unwrap_err();
    assert_eq!(e.code, ErrorCode::Program, "{e}");
    let mut out = Array1::zeros(3);
    let e = extra::column_into(&mut ctx, out.view_mut(), m.view(), 5).unwrap_err();
    assert_eq!(e.code, ErrorCode::Program, "{e}");
}

#[test]
fn unbounded_results_are_retried() {
    let mut ctx = ctx();
    let a = array![1i64, 3, 1, 0, 7, 3, 3];
    let mut want = Array1::<i64>::zeros(8);
    for &x in &a {
        want[x as usize] += 1;
    }
    assert_eq!(extra::hist(&mut ctx, a.view()).unwrap(), want);
    assert_eq!(extra::hist_shape(&mut ctx, a.view()).unwrap(), [0]);
    let empty = Array1::<i64>::zeros(0);
    assert_eq!(extra::hist(&mut ctx, empty.view()).unwrap().len(), 0);
    // two dims, the outer one unbounded
    let r = extra::rows(&mut ctx, array![2i64, 1].view(), 4).unwrap();
    assert_eq!(r, Array2::from_elem((3, 4), 1.5));
    let r = extra::rows(&mut ctx, array![0i64].view(), 4).unwrap();
    assert_eq!(r.dim(), (0, 4));
}

#[test]
fn bool_results() {
    let mut ctx = ctx();
    let (p, all) = extra::positive(&mut ctx, array![1.0, -2.0, 0.0, 3.0].view()).unwrap();
    assert_eq!(p, array![true, false, false, true]);
    assert!(!all);
    let (_, all) = extra::positive(&mut ctx, array![1.0, 2.0].view()).unwrap();
    assert!(all);
    let mut out = Array1::from_elem(2, false);
    assert!(extra::positive_into(&mut ctx, out.view_mut(), array![1.0, 2.0].view()).unwrap());
    assert_eq!(out, array![true, true]);
}

#[test]
fn small_and_unsigned_integers() {
    let mut ctx = ctx();
    let (a, r, g, b) = (
        array![0xFFu8, 0, 0x80],
        array![0x12u8, 0xFF, 1],
        array![0x34u8, 0, 2],
        array![0x56u8, 0xFF, 3],
    );
    let px = extra::pack_argb(&mut ctx, a.view(), r.view(), g.view(), b.view()).unwrap();
    assert_eq!(px, array![0xFF12_3456u32, 0x00FF_00FF, 0x8001_0203]);
    // FNV-1a, 64 bits, of "weir" (wrapping multiplication)
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &c in b"weir" {
        h = (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3);
    }
    let bytes: Array1<u8> = b"weir".iter().copied().collect();
    assert_eq!(extra::fnv1a(&mut ctx, bytes.view()).unwrap(), h);
    assert_eq!(extra::small(&mut ctx, -128, 0).unwrap(), (127i8, 65535u16));
}

#[test]
fn a_context_alone_links_and_drops() {
    // no entry called in this function: the runtime still links
    let c = Context::with_region_bytes(4096).unwrap();
    assert!(c.last_error().is_none());
    drop(c);
}

#[test]
fn contexts_move_between_threads_and_take_options() {
    fn send<T: Send>(_: &T) {}
    let mut ctx = Context::with_region_bytes(1 << 16).unwrap();
    send(&ctx);
    let a = array![1.0, 2.0];
    let b = a.clone();
    let h = std::thread::spawn(move || {
        let r = kernels::add3(&mut ctx, b.view(), b.view(), b.view());
        (r, ctx.stats())
    });
    let (r, stats) = h.join().unwrap();
    assert_eq!(r.unwrap(), array![3.0, 6.0]);
    assert!(stats.peak_bytes <= stats.reserved_bytes, "{stats:?}");
    assert_eq!(weir_rs::runtime_version(), "0.1.0");
    // one context for both libraries
    let mut ctx = Context::new().unwrap();
    let s = kernels::add3(&mut ctx, a.view(), a.view(), a.view()).unwrap();
    assert_eq!(extra::pick(&mut ctx, s.view(), 1).unwrap(), 6.0);
}

#[test]
fn existential_inner_dim() {
    let mut ctx = Context::new().unwrap();
    let a = array![[1.0, -1.0, 2.0], [3.0, 4.0, -5.0]];
    let r = extra::row_positives(&mut ctx, a.view()).unwrap();
    assert_eq!(r, array![[1.0, 2.0], [3.0, 4.0]]);
    let z = weir_rs::ndarray::Array2::<f64>::zeros((2, 3));
    assert_eq!(
        extra::row_positives(&mut ctx, z.view()).unwrap().shape(),
        &[2, 0]
    );
    // rows keeping different numbers of elements: the program's error
    let bad = array![[1.0, 2.0], [3.0, -4.0]];
    let e = extra::row_positives(&mut ctx, bad.view()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Program);
}
