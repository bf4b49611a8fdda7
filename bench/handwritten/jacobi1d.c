/* jacobi1d (examples/jacobi1d.weir `jacobi_1d`): PolyBench/C 4.2.1 jacobi-1d.
 *   (tsteps: i64) (a: [n]f64) (b: [n]f64) : [n]f64
 * Each time step: B[i] = 0.33333 * (A[i-1] + A[i] + A[i+1]) for 0 < i < n-1,
 * then the same from B into A; the boundary elements keep their values; the
 * result is A.  PolyBench's loops, on work copies of the inputs (A is the
 * output buffer, B a work buffer allocated once), made inside every call. */
#include "harness.h"

H_KERNEL static void jacobi_1d(int64_t tsteps, int64_t n, const double *restrict a_in,
                               const double *restrict b_in, double *restrict a,
                               double *restrict b) {
    memcpy(a, a_in, (size_t)n * sizeof(double));
    memcpy(b, b_in, (size_t)n * sizeof(double));
    for (int64_t t = 0; t < tsteps; t++) {
        for (int64_t i = 1; i < n - 1; i++) b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        for (int64_t i = 1; i < n - 1; i++) a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
    }
}

static int64_t tsteps, n;
static double *a_in, *b_in, *a, *b;

static void bench_read(FILE *in) {
    int64_t nb;
    tsteps = h_read_i64(in, "tsteps");
    a_in = h_read_array_f64(in, 1, &n, "a");
    b_in = h_read_array_f64(in, 1, &nb, "b");
    h_expect_dim("b", nb, n);
    a = h_alloc_f64((size_t)n);
    b = h_alloc_f64((size_t)n);
}

static void bench_run(void) { jacobi_1d(tsteps, n, a_in, b_in, a, b); }

static void bench_write(FILE *f) { h_write_array_f64(f, 1, &n, a); }
