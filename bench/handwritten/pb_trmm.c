/* pb_trmm (examples/polybench/trmm.weir `trmm`): PolyBench/C 4.2.1 trmm,
 * B := alpha A^T B for a unit lower triangular A (below the diagonal read).
 *   (alpha: f64) (a: [m][m]f64) (b: [m][n]f64) : [m][n]f64
 * The kernel updates B in place: every call copies it into the result
 * buffer, then runs PolyBench's kernel_trmm loop nest as it is (for i, j:
 * B[i][j] += A[k][i] * B[k][j] for k = i+1 .. m-1, then
 * B[i][j] = alpha * B[i][j]), so the result is PolyBench's bit for bit (and
 * Weir's). */
#include "harness.h"

H_KERNEL static void pb_trmm(int64_t m, int64_t n, double alpha, const double *restrict a,
                             const double *restrict b_in, double *restrict b) {
    memcpy(b, b_in, (size_t)(m * n) * sizeof(double));
    const double(*A)[m] = (const double(*)[m])a;
    double(*B)[n] = (double(*)[n])b;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            for (int64_t k = i + 1; k < m; k++) B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}

static int64_t m, n;
static double alpha, *a, *b_in, *b;

static void bench_read(FILE *in) {
    int64_t da[2], db[2];
    alpha = h_read_f64(in, "alpha");
    a = h_read_array_f64(in, 2, da, "a");
    b_in = h_read_array_f64(in, 2, db, "b");
    m = da[0];
    n = db[1];
    h_expect_dim("a (inner)", da[1], m);
    h_expect_dim("b", db[0], m);
    b = h_alloc_f64((size_t)(m * n));
}

static void bench_run(void) { pb_trmm(m, n, alpha, a, b_in, b); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {m, n};
    h_write_array_f64(f, 2, dims, b);
}
