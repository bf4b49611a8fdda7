/* seidel2d (examples/seidel2d.weir `seidel_2d`): PolyBench/C 4.2.1 seidel-2d.
 *   (tsteps: i64) (a: [n][n]f64) : [n][n]f64
 * The Gauss-Seidel sweep of PolyBench, in place: for each time step, rows
 * i = 1 .. n-2 in order and within a row columns j = 1 .. n-2 in order,
 *   A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
 *            + A[i][j-1] + A[i][j] + A[i][j+1]
 *            + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0
 * summed left to right (the row above and the left neighbour are already
 * updated in this sweep) -- the order the Weir program reproduces.  The input
 * is copied into the output buffer inside every call, which is then updated
 * in place. */
#include "harness.h"

H_KERNEL static void seidel_2d(int64_t tsteps, int64_t n, const double *restrict a_in,
                               double *restrict a) {
    memcpy(a, a_in, (size_t)(n * n) * sizeof(double));
    for (int64_t t = 0; t < tsteps; t++) {
        for (int64_t i = 1; i < n - 1; i++) {
            const double *up = a + (i - 1) * n, *down = a + (i + 1) * n;
            double *row = a + i * n;
            for (int64_t j = 1; j < n - 1; j++)
                row[j] = (up[j - 1] + up[j] + up[j + 1] + row[j - 1] + row[j] + row[j + 1] +
                          down[j - 1] + down[j] + down[j + 1]) / 9.0;
        }
    }
}

static int64_t tsteps, n;
static double *a_in, *a;

static void bench_read(FILE *in) {
    int64_t da[2];
    tsteps = h_read_i64(in, "tsteps");
    a_in = h_read_array_f64(in, 2, da, "a");
    n = da[0];
    h_expect_dim("a (inner)", da[1], n);
    a = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { seidel_2d(tsteps, n, a_in, a); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, a);
}
