/* pb_atax (examples/polybench/atax.weir `atax`): PolyBench/C 4.2.1 atax,
 * y = A^T (A x).
 *   (a: [m][n]f64) (x: [n]f64) : [n]f64
 * PolyBench's kernel_atax loop nest as it is: y = 0; for each row i,
 * tmp[i] = sum over j of A[i][j] * x[j] (from 0.0, in order), then
 * y[j] = y[j] + A[i][j] * tmp[i] for every j.  Same loop order and same
 * order of the floating-point operations, so the result is PolyBench's bit
 * for bit (and Weir's).  tmp is allocated with the inputs, as PolyBench
 * passes it to its kernel. */
#include "harness.h"

H_KERNEL static void pb_atax(int64_t m, int64_t n, const double *restrict a,
                             const double *restrict x, double *restrict y,
                             double *restrict tmp) {
    const double(*A)[n] = (const double(*)[n])a;
    for (int64_t i = 0; i < n; i++) y[i] = 0.0;
    for (int64_t i = 0; i < m; i++) {
        tmp[i] = 0.0;
        for (int64_t j = 0; j < n; j++) tmp[i] = tmp[i] + A[i][j] * x[j];
        for (int64_t j = 0; j < n; j++) y[j] = y[j] + A[i][j] * tmp[i];
    }
}

static int64_t m, n;
static double *a, *x, *y, *tmp;

static void bench_read(FILE *in) {
    int64_t da[2], dx;
    a = h_read_array_f64(in, 2, da, "a");
    x = h_read_array_f64(in, 1, &dx, "x");
    m = da[0];
    n = da[1];
    h_expect_dim("x", dx, n);
    y = h_alloc_f64((size_t)n);
    tmp = h_alloc_f64((size_t)m);
}

static void bench_run(void) { pb_atax(m, n, a, x, y, tmp); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, y);
}
