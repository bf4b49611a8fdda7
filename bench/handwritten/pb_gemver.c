/* pb_gemver (examples/polybench/gemver.weir `gemver`): PolyBench/C 4.2.1
 * gemver, A := A + u1 v1^T + u2 v2^T, x := x + beta A^T y + z,
 * w := w + alpha A x.
 *   (alpha: f64) (beta: f64) (a: [n][n]f64) (u1 v1 u2 v2 w x y z: [n]f64)
 *     : ([n][n]f64, [n]f64, [n]f64)            (the updated A, x and w)
 * The kernel updates A, x and w in place: every call copies the inputs
 * into the result buffers, then runs PolyBench's kernel_gemver loop nests
 * as they are (same loop order, same order of the floating-point
 * operations; the x loop reads A down a column, as PolyBench does), so the
 * result is PolyBench's bit for bit (and Weir's). */
#include "harness.h"

H_KERNEL static void pb_gemver(int64_t n, double alpha, double beta, const double *restrict a_in,
                               const double *restrict u1, const double *restrict v1,
                               const double *restrict u2, const double *restrict v2,
                               const double *restrict w_in, const double *restrict x_in,
                               const double *restrict y, const double *restrict z,
                               double *restrict a, double *restrict x, double *restrict w) {
    memcpy(a, a_in, (size_t)(n * n) * sizeof(double));
    memcpy(x, x_in, (size_t)n * sizeof(double));
    memcpy(w, w_in, (size_t)n * sizeof(double));
    double(*A)[n] = (double(*)[n])a;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) x[i] = x[i] + beta * A[j][i] * y[j];
    for (int64_t i = 0; i < n; i++) x[i] = x[i] + z[i];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) w[i] = w[i] + alpha * A[i][j] * x[j];
}

static int64_t n;
static double alpha, beta, *a_in, *vec[8], *a, *x, *w;

static void bench_read(FILE *in) {
    static const char *names[8] = {"u1", "v1", "u2", "v2", "w", "x", "y", "z"};
    int64_t da[2];
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    a_in = h_read_array_f64(in, 2, da, "a");
    n = da[0];
    h_expect_dim("a (inner)", da[1], n);
    for (int k = 0; k < 8; k++) {
        int64_t d;
        vec[k] = h_read_array_f64(in, 1, &d, names[k]);
        h_expect_dim(names[k], d, n);
    }
    a = h_alloc_f64((size_t)(n * n));
    x = h_alloc_f64((size_t)n);
    w = h_alloc_f64((size_t)n);
}

static void bench_run(void) {
    pb_gemver(n, alpha, beta, a_in, vec[0], vec[1], vec[2], vec[3], vec[4], vec[5], vec[6],
              vec[7], a, x, w);
}

static void bench_write(FILE *f) {
    int64_t da[2] = {n, n}, dv[1] = {n};
    h_write_array_f64(f, 2, da, a);
    h_write_array_f64(f, 1, dv, x);
    h_write_array_f64(f, 1, dv, w);
}
