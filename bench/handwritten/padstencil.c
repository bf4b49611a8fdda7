/* padstencil (examples/pad_stencil.weir `pad_stencil`): pad [n]f64 with one
 * 0.0 on each side, then the 3-point stencil over the padded array:
 *   out[i] = ((l + a[i]) + r) * 0.5,  l = a[i-1] (0.0 at i = 0),
 *                                     r = a[i+1] (0.0 at i = n-1),
 * Weir's (p[i] + p[i + 1]) + p[i + 2], so the results are bit-identical.  No
 * padded copy: the first and last elements are peeled off the loop, with the
 * 0.0 of the padding written out (0.0 + x is not x for x = -0.0, so the
 * addition stays). */
#include "harness.h"

H_KERNEL static void pad_stencil(int64_t n, const double *restrict a, double *restrict out) {
    if (n == 0) return;
    if (n == 1) {
        out[0] = ((0.0 + a[0]) + 0.0) * 0.5;
        return;
    }
    out[0] = ((0.0 + a[0]) + a[1]) * 0.5;
    for (int64_t i = 1; i < n - 1; i++) out[i] = ((a[i - 1] + a[i]) + a[i + 1]) * 0.5;
    out[n - 1] = ((a[n - 2] + a[n - 1]) + 0.0) * 0.5;
}

static int64_t n;
static double *a, *out;

static void bench_read(FILE *in) {
    a = h_read_array_f64(in, 1, &n, "a");
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pad_stencil(n, a, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, out); }
