/* pb_syr2k (examples/polybench/syr2k.weir `syr2k`): PolyBench/C 4.2.1 syr2k,
 * C := alpha A B^T + alpha B A^T + beta C on the lower triangle of C.
 *   (alpha: f64) (beta: f64) (c: [n][n]f64) (a: [n][m]f64) (b: [n][m]f64) : [n][n]f64
 * The kernel updates C in place: every call copies it into the result
 * buffer, then runs PolyBench's kernel_syr2k loop nest as it is (for each
 * row i: C[i][j] *= beta for j <= i, then for k, for j <= i,
 * C[i][j] += A[j][k]*alpha*B[i][k] + B[j][k]*alpha*A[i][k]), so the
 * result is PolyBench's bit for bit (and Weir's). */
#include "harness.h"

H_KERNEL static void pb_syr2k(int64_t n, int64_t m, double alpha, double beta,
                              const double *restrict c_in, const double *restrict a,
                              const double *restrict b, double *restrict c) {
    memcpy(c, c_in, (size_t)(n * n) * sizeof(double));
    double(*C)[n] = (double(*)[n])c;
    const double(*A)[m] = (const double(*)[m])a;
    const double(*B)[m] = (const double(*)[m])b;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j <= i; j++) C[i][j] *= beta;
        for (int64_t k = 0; k < m; k++)
            for (int64_t j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
}

static int64_t n, m;
static double alpha, beta, *c_in, *a, *b, *c;

static void bench_read(FILE *in) {
    int64_t dc[2], da[2], db[2];
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    c_in = h_read_array_f64(in, 2, dc, "c");
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    n = dc[0];
    m = da[1];
    h_expect_dim("c (inner)", dc[1], n);
    h_expect_dim("a", da[0], n);
    h_expect_dim("b", db[0], n);
    h_expect_dim("b (inner)", db[1], m);
    c = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { pb_syr2k(n, m, alpha, beta, c_in, a, b, c); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, c);
}
