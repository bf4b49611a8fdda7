/* filter: the positive values of [n]f64 (examples/filter.weir `positives`,
 * `filter (\x -> x > 0.0) a`), in order.  One loop that copies a[i] to the
 * front of the output buffer, out[k], and moves k on by one when a[i] > 0.0
 * (-0.0, 0.0 and NaN fail the test and are dropped, as in Weir); it returns k.
 * The store is unconditional and the increment is the comparison's 0 or 1, the
 * usual branch-free compaction: on the benchmark's random signs an `if` around
 * the store mispredicts about every other element (several times slower, see
 * README.md).  out[k] with k <= i stays inside the buffer, which the caller
 * allocates with the input's length, the upper bound, as Weir's caller does
 * for an entry whose result has an existential size; the result is its first
 * k elements, written with k as the dimension. */
#include "harness.h"

H_KERNEL static int64_t positives(int64_t n, const double *restrict a, double *restrict out) {
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = a[i];
        out[k] = x;
        k += x > 0.0;
    }
    return k;
}

static int64_t n, k;
static double *a, *out;

static void bench_read(FILE *in) {
    a = h_read_array_f64(in, 1, &n, "a");
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) { k = positives(n, a, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &k, out); }
