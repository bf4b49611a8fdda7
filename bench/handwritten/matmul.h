/* Blocked matrix-product accumulation shared by gemm.c, mm2.c and mm3.c.
 *
 *   out[i][j] += (s * x[i][k]) * y[k][j]   for k = 0, 1, ..., nk-1 in this order
 *
 * x is [ni][nk], y is [nk][nj], out is [ni][nj] (row-major, already holding
 * each element's starting value).  The loops run i-k-j inside tiles of
 * MM_KB rows x MM_JB columns of y (a tile, 256 KiB, stays in L2 while every
 * row of x passes over it); the k tiles are visited in increasing order, so
 * every out[i][j] still receives its nk terms one at a time in the order
 * k = 0, 1, ... -- the same rounding as a plain `acc += s * x[i][k] * y[k][j]`
 * loop over k, and as the Weir programs' ifold.  The innermost loop (over j)
 * is contiguous and vectorises.  With s == 1.0, s * x[i][k] == x[i][k] exactly. */
#ifndef WEIR_BENCH_MATMUL_H
#define WEIR_BENCH_MATMUL_H

#include <stdint.h>

/* rows * cols as an element count for h_alloc_f64, failing cleanly on
 * overflow (the two dims may come from different input arrays).  Needs harness.h. */
static inline size_t mm_cells(int64_t rows, int64_t cols) {
    if (cols && rows > INT64_MAX / cols) h_fail("work array of %" PRId64 " x %" PRId64 " is too large", rows, cols);
    return (size_t)(rows * cols);
}

#define MM_KB 128
#define MM_JB 256

static inline void mm_accumulate(int64_t ni, int64_t nj, int64_t nk, double s,
                                 const double *restrict x, const double *restrict y,
                                 double *restrict out) {
    for (int64_t j0 = 0; j0 < nj; j0 += MM_JB) {
        const int64_t j1 = j0 + MM_JB < nj ? j0 + MM_JB : nj;
        for (int64_t k0 = 0; k0 < nk; k0 += MM_KB) {
            const int64_t k1 = k0 + MM_KB < nk ? k0 + MM_KB : nk;
            for (int64_t i = 0; i < ni; i++) {
                double *restrict o = out + i * nj;
                for (int64_t k = k0; k < k1; k++) {
                    const double t = s * x[i * nk + k];
                    const double *restrict yk = y + k * nj;
                    for (int64_t j = j0; j < j1; j++) o[j] += t * yk[j];
                }
            }
        }
    }
}

#endif
