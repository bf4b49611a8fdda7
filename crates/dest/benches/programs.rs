//! Time and allocation counts of the paper's programs against idiomatic Rust,
//! with divan, on sizes 2^10 ... 2^22 (see `common` for the workloads).
//!
//! ```text
//! cargo bench -p dest --bench programs                        # everything (a few minutes)
//! cargo bench -p dest --bench programs -- '::(1024|4096)$'    # small sizes only (seconds)
//! cargo bench -p dest --bench programs -- 'map::'             # one workload
//! cargo bench -p dest --bench programs -- 'bfs::dest::'       # one variant
//! ```
//!
//! Filters are regular expressions matched against `workload::variant::n`.
//! The `alloc` rows count global-allocator calls per iteration (the region's
//! chunks for the destination variants); timings include dropping the result
//! (the region, the `Vec`, the `Box` tree), which is why each benchmark
//! returns a checksum rather than the structure. Each workload and size is
//! first checked once: all variants must agree, or the benchmark panics.
//!
//! From about 2^16 on, times depend on the system allocator's state: with
//! glibc's defaults, large freed blocks go back to the OS and are faulted in
//! again by the next run, and how often that happens depends on what ran
//! earlier in the same process (at 2^22, `map::dest` measured 55 ms alone and
//! 9.5 ms after the other benchmarks). For numbers that do not depend on the
//! order, either keep all memory in the allocator (the cost of the code
//! alone):
//!
//! ```text
//! GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736 \
//!     cargo bench -p dest --bench programs
//! ```
//!
//! or run one benchmark per process (`-- 'map::dest::4194304$'`) for the
//! cold cost. The `memory` bench interleaves the variants and has `--retain`.

mod common;

use common::{Bfs, DList, Map, SExprParse, Workload};
use divan::Bencher;
use divan::counter::ItemsCount;

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

/// Builds `W`'s input of size `n` (untimed), checks the variants once, and
/// times `variant`.
fn bench<W: Workload>(bencher: Bencher, n: usize, variant: &str) {
    let v = common::variant_index::<W>(variant);
    W::with_input(n, |input| {
        common::check_once::<W>(n, input);
        bencher
            .counter(ItemsCount::new(n))
            .bench_local(|| W::run(v, divan::black_box(input)));
    });
}

// Sampling: at most 50 samples and about 3 s per benchmark, so the 133
// benchmarks (19 variants x 7 sizes) take about 5 minutes on 2 cores even
// though one run at 2^22 takes up to a few hundred milliseconds.

#[divan::bench_group(sample_count = 50, max_time = 3)]
mod map {
    use super::*;

    #[divan::bench(args = common::SIZES)]
    fn dest(b: Bencher, n: usize) {
        bench::<Map>(b, n, "dest");
    }

    #[divan::bench(args = common::SIZES)]
    fn acc_reverse(b: Bencher, n: usize) {
        bench::<Map>(b, n, "acc_reverse");
    }

    #[divan::bench(args = common::SIZES)]
    fn vec_then_list(b: Bencher, n: usize) {
        bench::<Map>(b, n, "vec_then_list");
    }

    #[divan::bench(args = common::SIZES)]
    fn vec(b: Bencher, n: usize) {
        bench::<Map>(b, n, "vec");
    }

    #[divan::bench(args = common::SIZES)]
    fn bump_tail(b: Bencher, n: usize) {
        bench::<Map>(b, n, "bump_tail");
    }

    #[divan::bench(args = common::SIZES)]
    fn box_tail(b: Bencher, n: usize) {
        bench::<Map>(b, n, "box_tail");
    }
}

#[divan::bench_group(sample_count = 50, max_time = 3)]
mod dlist {
    use super::*;

    #[divan::bench(args = common::SIZES)]
    fn dest_concat(b: Bencher, n: usize) {
        bench::<DList>(b, n, "dest_concat");
    }

    #[divan::bench(args = common::SIZES)]
    fn dest_append(b: Bencher, n: usize) {
        bench::<DList>(b, n, "dest_append");
    }

    #[divan::bench(args = common::SIZES)]
    fn vec(b: Bencher, n: usize) {
        bench::<DList>(b, n, "vec");
    }

    #[divan::bench(args = common::SIZES)]
    fn vec_then_list(b: Bencher, n: usize) {
        bench::<DList>(b, n, "vec_then_list");
    }

    #[divan::bench(args = common::SIZES)]
    fn fn_closures(b: Bencher, n: usize) {
        bench::<DList>(b, n, "fn_closures");
    }

    #[divan::bench(args = common::SIZES)]
    fn fn_closures_region(b: Bencher, n: usize) {
        bench::<DList>(b, n, "fn_closures_region");
    }
}

#[divan::bench_group(sample_count = 50, max_time = 3)]
mod bfs {
    use super::*;

    #[divan::bench(args = common::SIZES)]
    fn dest(b: Bencher, n: usize) {
        bench::<Bfs>(b, n, "dest");
    }

    #[divan::bench(args = common::SIZES)]
    fn boxed(b: Bencher, n: usize) {
        bench::<Bfs>(b, n, "boxed");
    }

    #[divan::bench(args = common::SIZES)]
    fn box_one_pass(b: Bencher, n: usize) {
        bench::<Bfs>(b, n, "box_one_pass");
    }

    #[divan::bench(args = common::SIZES)]
    fn bump_one_pass(b: Bencher, n: usize) {
        bench::<Bfs>(b, n, "bump_one_pass");
    }
}

#[divan::bench_group(sample_count = 50, max_time = 3)]
mod sexpr {
    use super::*;

    #[divan::bench(args = common::SIZES)]
    fn dest(b: Bencher, n: usize) {
        bench::<SExprParse>(b, n, "dest");
    }

    #[divan::bench(args = common::SIZES)]
    fn owned(b: Bencher, n: usize) {
        bench::<SExprParse>(b, n, "owned");
    }

    #[divan::bench(args = common::SIZES)]
    fn region_bottom_up(b: Bencher, n: usize) {
        bench::<SExprParse>(b, n, "region_bottom_up");
    }
}
