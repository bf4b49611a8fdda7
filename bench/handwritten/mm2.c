/* mm2 (examples/2mm.weir `mm2`): PolyBench/C 4.2.1 2mm, D := alpha*A*B*C + beta*D.
 *   (alpha: f64) (beta: f64) (a: [ni][nk]f64) (b: [nk][nj]f64) (c: [nj][nl]f64)
 *   (d: [ni][nl]f64) : [ni][nl]f64
 * tmp[i][j] = 0.0 + alpha*a[i][k]*b[k][j] summed over k in order, then
 * out[i][j] = beta*d[i][j] + tmp[i][k]*c[k][j] summed over k in order -- the
 * order of PolyBench and of the Weir program; the products are blocked i-k-j
 * loops (matmul.h), which keep that order per element.  tmp is a work buffer
 * allocated once when the inputs are read (PolyBench also passes it in). */
#include "harness.h"
#include "matmul.h"

H_KERNEL static void mm2(int64_t ni, int64_t nj, int64_t nk, int64_t nl, double alpha, double beta,
                         const double *restrict a, const double *restrict b,
                         const double *restrict c, const double *restrict d,
                         double *restrict tmp, double *restrict out) {
    for (int64_t i = 0; i < ni * nj; i++) tmp[i] = 0.0;
    mm_accumulate(ni, nj, nk, alpha, a, b, tmp);
    for (int64_t i = 0; i < ni * nl; i++) out[i] = beta * d[i];
    mm_accumulate(ni, nl, nj, 1.0, tmp, c, out);
}

static int64_t ni, nj, nk, nl;
static double alpha, beta, *a, *b, *c, *d, *tmp, *out;

static void bench_read(FILE *in) {
    int64_t da[2], db[2], dc[2], dd[2];
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    c = h_read_array_f64(in, 2, dc, "c");
    d = h_read_array_f64(in, 2, dd, "d");
    ni = da[0];
    nk = da[1];
    nj = db[1];
    nl = dc[1];
    h_expect_dim("b", db[0], nk);
    h_expect_dim("c", dc[0], nj);
    h_expect_dim("d", dd[0], ni);
    h_expect_dim("d (inner)", dd[1], nl);
    tmp = h_alloc_f64(mm_cells(ni, nj));
    out = h_alloc_f64(mm_cells(ni, nl));
}

static void bench_run(void) { mm2(ni, nj, nk, nl, alpha, beta, a, b, c, d, tmp, out); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {ni, nl};
    h_write_array_f64(f, 2, dims, out);
}
