/* transposecat (examples/transpose_cat.weir `transpose_cat`):
 *   (a: [n][m]f64) (b: [k][n]f64) : [m + k][n]f64
 * the transpose of a stacked on b: out[j][i] = a[i][j] for the first m rows,
 * then b's k rows.  The transpose is a loop over 64 x 64 tiles (a tile of a,
 * 32 KiB, stays in cache while it is read down its columns), the usual way
 * to transpose a matrix in C; within a tile the inner loop runs along a row
 * of out, so every store is contiguous.  b is one memcpy.  On the suite's
 * 2000 x 2000 input (gcc -O3 -march=native, AMD EPYC, one core) that took
 * 3.2-3.4 ms a call, against 3.8-3.9 ms for the plain j-i loop nest, 4.7-4.9
 * ms for the plain i-j nest, and 4.0-4.1 ms for 32 x 32 tiles in this order
 * (4.8-4.9 ms with the inner loop along a row of a).  Elements are copied,
 * never computed: bit-identical to Weir. */
#include "harness.h"

#define TILE 64

H_KERNEL static void transpose_cat(int64_t n, int64_t m, int64_t k, const double *restrict a,
                                   const double *restrict b, double *restrict out) {
    for (int64_t j0 = 0; j0 < m; j0 += TILE) {
        int64_t j1 = j0 + TILE < m ? j0 + TILE : m;
        for (int64_t i0 = 0; i0 < n; i0 += TILE) {
            int64_t i1 = i0 + TILE < n ? i0 + TILE : n;
            for (int64_t j = j0; j < j1; j++)
                for (int64_t i = i0; i < i1; i++) out[j * n + i] = a[i * m + j];
        }
    }
    memcpy(out + m * n, b, (size_t)(k * n) * sizeof(double));
}

static int64_t n, m, k, dout[2];
static double *a, *b, *out;

static void bench_read(FILE *in) {
    int64_t da[2], db[2];
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    n = da[0];
    m = da[1];
    k = db[0];
    h_expect_dim("b (inner)", db[1], n);
    dout[0] = m + k;
    dout[1] = n;
    out = h_alloc_f64((size_t)(m + k) * (size_t)n);
}

static void bench_run(void) { transpose_cat(n, m, k, a, b, out); }

static void bench_write(FILE *f) { h_write_array_f64(f, 2, dout, out); }
