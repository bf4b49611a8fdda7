/* rotstencil (examples/periodic_stencil.weir `periodic_stencil`): the
 * 3-point stencil on a ring,
 *   out[i] = ((a[i-1] + a[i]) + a[i+1]) / 3.0   (indices mod n),
 * Weir's (l + c) + r over `rotate (-1) a`, `a` and `rotate 1 a`, so the
 * results are bit-identical.  No rotated copies: the first and last elements,
 * where the ring wraps, are peeled off the loop, which then runs along the
 * array with no condition and vectorises. */
#include "harness.h"

H_KERNEL static void periodic_stencil(int64_t n, const double *restrict a, double *restrict out) {
    if (n == 0) return;
    if (n == 1) {
        out[0] = ((a[0] + a[0]) + a[0]) / 3.0;
        return;
    }
    out[0] = ((a[n - 1] + a[0]) + a[1]) / 3.0;
    for (int64_t i = 1; i < n - 1; i++) out[i] = ((a[i - 1] + a[i]) + a[i + 1]) / 3.0;
    out[n - 1] = ((a[n - 2] + a[n - 1]) + a[0]) / 3.0;
}

static int64_t n;
static double *a, *out;

static void bench_read(FILE *in) {
    a = h_read_array_f64(in, 1, &n, "a");
    out = h_alloc_f64((size_t)n);
}

static void bench_run(void) { periodic_stencil(n, a, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, out); }
