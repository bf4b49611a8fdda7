/* pb_bicg (examples/polybench/bicg.weir `bicg`): PolyBench/C 4.2.1 bicg,
 * s = A^T r, q = A p.
 *   (a: [n][m]f64) (p: [m]f64) (r: [n]f64) : ([m]f64, [n]f64)
 * PolyBench's kernel_bicg loop nest as it is: s = 0; for each row i,
 * q[i] = 0.0 and, for j in order, s[j] = s[j] + r[i] * A[i][j] and
 * q[i] = q[i] + A[i][j] * p[j].  Same loop order and same order of the
 * floating-point operations, so the result is PolyBench's bit for bit (and
 * Weir's). */
#include "harness.h"

H_KERNEL static void pb_bicg(int64_t m, int64_t n, const double *restrict a,
                             double *restrict s, double *restrict q,
                             const double *restrict p, const double *restrict r) {
    const double(*A)[m] = (const double(*)[m])a;
    for (int64_t i = 0; i < m; i++) s[i] = 0.0;
    for (int64_t i = 0; i < n; i++) {
        q[i] = 0.0;
        for (int64_t j = 0; j < m; j++) {
            s[j] = s[j] + r[i] * A[i][j];
            q[i] = q[i] + A[i][j] * p[j];
        }
    }
}

static int64_t m, n;
static double *a, *p, *r, *s, *q;

static void bench_read(FILE *in) {
    int64_t da[2], dp, dr;
    a = h_read_array_f64(in, 2, da, "a");
    p = h_read_array_f64(in, 1, &dp, "p");
    r = h_read_array_f64(in, 1, &dr, "r");
    n = da[0];
    m = da[1];
    h_expect_dim("p", dp, m);
    h_expect_dim("r", dr, n);
    s = h_alloc_f64((size_t)m);
    q = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pb_bicg(m, n, a, s, q, p, r); }

static void bench_write(FILE *f) {
    int64_t ds[1] = {m}, dq[1] = {n};
    h_write_array_f64(f, 1, ds, s);
    h_write_array_f64(f, 1, dq, q);
}
