/* gemm (examples/mm.weir `gemm`): PolyBench/C 4.2.1 gemm, C := alpha*A*B + beta*C.
 *   (alpha: f64) (beta: f64) (c: [ni][nj]f64) (a: [ni][nk]f64) (b: [nk][nj]f64) : [ni][nj]f64
 * out[i][j] starts as beta * c[i][j] and then gets alpha * a[i][k] * b[k][j]
 * added for k = 0, 1, ... in order, as PolyBench and the Weir ifold do; the
 * loops are blocked and run i-k-j (matmul.h), which keeps that order per
 * element.  c is an input, so the result goes to a separate buffer. */
#include "harness.h"
#include "matmul.h"

H_KERNEL static void gemm(int64_t ni, int64_t nj, int64_t nk, double alpha, double beta,
                          const double *restrict c, const double *restrict a,
                          const double *restrict b, double *restrict out) {
    for (int64_t i = 0; i < ni * nj; i++) out[i] = beta * c[i];
    mm_accumulate(ni, nj, nk, alpha, a, b, out);
}

static int64_t ni, nj, nk;
static double alpha, beta, *c, *a, *b, *out;

static void bench_read(FILE *in) {
    int64_t dc[2], da[2], db[2];
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    c = h_read_array_f64(in, 2, dc, "c");
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    ni = dc[0];
    nj = dc[1];
    nk = da[1];
    h_expect_dim("a", da[0], ni);
    h_expect_dim("b", db[0], nk);
    h_expect_dim("b (inner)", db[1], nj);
    out = h_alloc_f64(mm_cells(ni, nj));
}

static void bench_run(void) { gemm(ni, nj, nk, alpha, beta, c, a, b, out); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {ni, nj};
    h_write_array_f64(f, 2, dims, out);
}
