/* scan: inclusive prefix sum of [n]f64 (examples/scan.weir `prefix_sum`,
 * `scan (+) 0.0 a`).  out[i] = (...((0.0 + a[0]) + a[1]) + ...) + a[i]: one
 * running sum from left to right, the order of Weir's sequential scan, so the
 * results are bit-identical (0.0 + x is x for every x but -0.0, and Weir starts
 * from 0.0 as well). */
#include "harness.h"

H_KERNEL static void prefix_sum(int64_t n, const double *restrict a, double *restrict out) {
    double acc = 0.0;
    for (int64_t i = 0; i < n; i++) {
        acc += a[i];
        out[i] = acc;
    }
}

static int64_t n;
static double *a, *out;

static void bench_read(FILE *in) {
    a = h_read_array_f64(in, 1, &n, "a");
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) { prefix_sum(n, a, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, out); }
