/* pb_cholesky (examples/polybench/cholesky.weir `cholesky`): PolyBench/C
 * 4.2.1 cholesky, A = L L^T with L written over the lower triangle.
 *   (a: [n][n]f64) : [n][n]f64
 * The kernel factorises in place: every call copies the input into the
 * result buffer, then runs PolyBench's kernel_cholesky loop nest as it is
 * (for i: for j < i, A[i][j] -= A[i][k] * A[j][k] for k < j, then
 * A[i][j] /= A[j][j]; A[i][i] -= A[i][k] * A[i][k] for k < i, then
 * A[i][i] = sqrt(A[i][i])), so the result is PolyBench's bit for bit (and
 * Weir's). */
#include "harness.h"

H_KERNEL static void pb_cholesky(int64_t n, const double *restrict a_in, double *restrict a) {
    memcpy(a, a_in, (size_t)(n * n) * sizeof(double));
    double(*A)[n] = (double(*)[n])a;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < i; j++) {
            for (int64_t k = 0; k < j; k++) A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (int64_t k = 0; k < i; k++) A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
}

static int64_t n;
static double *a_in, *a;

static void bench_read(FILE *in) {
    int64_t da[2];
    a_in = h_read_array_f64(in, 2, da, "a");
    n = da[0];
    h_expect_dim("a (inner)", da[1], n);
    a = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { pb_cholesky(n, a_in, a); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, a);
}
