/* pb_heat3d (examples/polybench/heat3d.weir `heat_3d`): PolyBench/C 4.2.1
 * stencils/heat-3d.
 *   (tsteps: i64) (a: [n][n][n]f64) (b: [n][n][n]f64) : [n][n][n]f64
 * PolyBench's kernel_heat_3d loop nest as written (B from A, then A from B,
 * TSTEPS times), on copies of A and B made inside each call (A's copy is
 * the result buffer, B's a work buffer allocated with the inputs).
 * Bit-identical to PolyBench. */
#include "harness.h"

#define IX(i, j, k) (((i) * n + (j)) * n + (k))

H_KERNEL static void pb_heat3d(int64_t tsteps, int64_t n, const double *restrict a_in,
                               const double *restrict b_in, double *restrict A,
                               double *restrict B) {
    size_t bytes = (size_t)(n * n * n) * sizeof(double);
    memcpy(A, a_in, bytes);
    memcpy(B, b_in, bytes);
    for (int64_t t = 1; t <= tsteps; t++) {
        for (int64_t i = 1; i < n - 1; i++)
            for (int64_t j = 1; j < n - 1; j++)
                for (int64_t k = 1; k < n - 1; k++)
                    B[IX(i, j, k)] = 0.125 * (A[IX(i + 1, j, k)] - 2.0 * A[IX(i, j, k)] + A[IX(i - 1, j, k)])
                                   + 0.125 * (A[IX(i, j + 1, k)] - 2.0 * A[IX(i, j, k)] + A[IX(i, j - 1, k)])
                                   + 0.125 * (A[IX(i, j, k + 1)] - 2.0 * A[IX(i, j, k)] + A[IX(i, j, k - 1)])
                                   + A[IX(i, j, k)];
        for (int64_t i = 1; i < n - 1; i++)
            for (int64_t j = 1; j < n - 1; j++)
                for (int64_t k = 1; k < n - 1; k++)
                    A[IX(i, j, k)] = 0.125 * (B[IX(i + 1, j, k)] - 2.0 * B[IX(i, j, k)] + B[IX(i - 1, j, k)])
                                   + 0.125 * (B[IX(i, j + 1, k)] - 2.0 * B[IX(i, j, k)] + B[IX(i, j - 1, k)])
                                   + 0.125 * (B[IX(i, j, k + 1)] - 2.0 * B[IX(i, j, k)] + B[IX(i, j, k - 1)])
                                   + B[IX(i, j, k)];
    }
}

static int64_t tsteps, n;
static double *a_in, *b_in, *A, *B;

static void bench_read(FILE *in) {
    int64_t da[3], db[3];
    tsteps = h_read_i64(in, "tsteps");
    a_in = h_read_array_f64(in, 3, da, "a");
    b_in = h_read_array_f64(in, 3, db, "b");
    n = da[0];
    h_expect_dim("a (dim 1)", da[1], n);
    h_expect_dim("a (dim 2)", da[2], n);
    for (int r = 0; r < 3; r++) h_expect_dim("b", db[r], n);
    A = h_alloc_f64((size_t)(n * n * n));
    B = h_alloc_f64((size_t)(n * n * n));
}

static void bench_run(void) { pb_heat3d(tsteps, n, a_in, b_in, A, B); }

static void bench_write(FILE *f) {
    int64_t dims[3] = {n, n, n};
    h_write_array_f64(f, 3, dims, A);
}
