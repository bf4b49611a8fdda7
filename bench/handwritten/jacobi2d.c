/* jacobi2d (examples/jacobi2d.weir `jacobi_2d`): PolyBench/C 4.2.1 jacobi-2d.
 *   (tsteps: i64) (a: [n][n]f64) (b: [n][n]f64) : [n][n]f64
 * Each time step, on the interior 0 < i, j < n-1:
 *   B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
 * (summed left to right, PolyBench's order), then the same from B into A; the
 * boundary keeps its values; the result is A.  PolyBench's loops, on work
 * copies of the inputs (A is the output buffer, B a work buffer allocated
 * once), made inside every call. */
#include "harness.h"

static inline void jacobi_2d_step(int64_t n, const double *restrict src, double *restrict dst) {
    for (int64_t i = 1; i < n - 1; i++) {
        const double *restrict up = src + (i - 1) * n, *restrict row = src + i * n,
                               *restrict down = src + (i + 1) * n;
        double *restrict out = dst + i * n;
        for (int64_t j = 1; j < n - 1; j++)
            out[j] = 0.2 * (row[j] + row[j - 1] + row[j + 1] + down[j] + up[j]);
    }
}

H_KERNEL static void jacobi_2d(int64_t tsteps, int64_t n, const double *restrict a_in,
                               const double *restrict b_in, double *restrict a,
                               double *restrict b) {
    memcpy(a, a_in, (size_t)(n * n) * sizeof(double));
    memcpy(b, b_in, (size_t)(n * n) * sizeof(double));
    for (int64_t t = 0; t < tsteps; t++) {
        jacobi_2d_step(n, a, b);
        jacobi_2d_step(n, b, a);
    }
}

static int64_t tsteps, n;
static double *a_in, *b_in, *a, *b;

static void bench_read(FILE *in) {
    int64_t da[2], db[2];
    tsteps = h_read_i64(in, "tsteps");
    a_in = h_read_array_f64(in, 2, da, "a");
    b_in = h_read_array_f64(in, 2, db, "b");
    n = da[0];
    h_expect_dim("a (inner)", da[1], n);
    h_expect_dim("b", db[0], n);
    h_expect_dim("b (inner)", db[1], n);
    a = h_alloc_f64((size_t)(n * n));
    b = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { jacobi_2d(tsteps, n, a_in, b_in, a, b); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, a);
}
