/* pb_symm (examples/polybench/symm.weir `symm`): PolyBench/C 4.2.1 symm,
 * C := alpha A B + beta C with A symmetric (its lower triangle read).
 *   (alpha: f64) (beta: f64) (c: [m][n]f64) (a: [m][m]f64) (b: [m][n]f64) : [m][n]f64
 * The kernel updates C in place: every call copies it into the result
 * buffer, then runs PolyBench's kernel_symm loop nest as it is (same loop
 * order, same order of the floating-point operations: for i, j, the k < i
 * updates of C[k][j] and temp2, then C[i][j]), so the result is
 * PolyBench's bit for bit (and Weir's). */
#include "harness.h"

H_KERNEL static void pb_symm(int64_t m, int64_t n, double alpha, double beta,
                             const double *restrict c_in, const double *restrict a,
                             const double *restrict b, double *restrict c) {
    memcpy(c, c_in, (size_t)(m * n) * sizeof(double));
    double(*C)[n] = (double(*)[n])c;
    const double(*A)[m] = (const double(*)[m])a;
    const double(*B)[n] = (const double(*)[n])b;
    double temp2;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            temp2 = 0;
            for (int64_t k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                temp2 += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
        }
}

static int64_t m, n;
static double alpha, beta, *c_in, *a, *b, *c;

static void bench_read(FILE *in) {
    int64_t dc[2], da[2], db[2];
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    c_in = h_read_array_f64(in, 2, dc, "c");
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    m = dc[0];
    n = dc[1];
    h_expect_dim("a", da[0], m);
    h_expect_dim("a (inner)", da[1], m);
    h_expect_dim("b", db[0], m);
    h_expect_dim("b (inner)", db[1], n);
    c = h_alloc_f64((size_t)(m * n));
}

static void bench_run(void) { pb_symm(m, n, alpha, beta, c_in, a, b, c); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {m, n};
    h_write_array_f64(f, 2, dims, c);
}
