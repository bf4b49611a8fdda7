/* add3: vectorAdd (vectorAdd a b) c over [n]f64 (examples/add3.weir).
 * out[i] = (a[i] + b[i]) + c[i], the same association as the Weir program. */
#include "harness.h"

H_KERNEL static void add3(int64_t n, const double *restrict a, const double *restrict b,
                          const double *restrict c, double *restrict out) {
    for (int64_t i = 0; i < n; i++) out[i] = (a[i] + b[i]) + c[i];
}

static int64_t n;
static double *a, *b, *c, *out;

static void bench_read(FILE *in) {
    int64_t nb, nc;
    a = h_read_array_f64(in, 1, &n, "a");
    b = h_read_array_f64(in, 1, &nb, "b");
    c = h_read_array_f64(in, 1, &nc, "c");
    h_expect_dim("b", nb, n);
    h_expect_dim("c", nc, n);
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) { add3(n, a, b, c, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, out); }
