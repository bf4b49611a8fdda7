/* lu (examples/lu.weir `lu`): PolyBench/C 4.2.1 lu, LU
 * decomposition without pivoting, in place.
 *   (a: [n][n]f64) : [n][n]f64
 * The input is copied into the output buffer inside every call, which is
 * then factorised right-looking (the k-i-j order of the Weir program): for
 * each pivot k and each row i > k, l = a[i][k] / a[k][k] is stored in
 * a[i][k], then a[i][j] -= l * a[k][j] for j = k+1 .. n-1 (the inner loop
 * runs along rows i and k with unit stride and vectorises).  Every element
 * gets the same operations in the same order as in PolyBench's row-by-row
 * kernel (its subtractions for k = 0, 1, ..., then the division for L), so
 * the result is bit-identical to PolyBench's and to Weir's. */
#include "harness.h"

H_KERNEL static void lu(int64_t n, const double *restrict a_in, double *restrict a) {
    memcpy(a, a_in, (size_t)(n * n) * sizeof(double));
    for (int64_t k = 0; k < n; k++) {
        const double *rk = a + k * n;
        for (int64_t i = k + 1; i < n; i++) {
            double *ri = a + i * n;
            const double l = ri[k] / rk[k];
            ri[k] = l;
            for (int64_t j = k + 1; j < n; j++) ri[j] -= l * rk[j];
        }
    }
}

static int64_t n;
static double *a_in, *a;

static void bench_read(FILE *in) {
    int64_t d[2];
    a_in = h_read_array_f64(in, 2, d, "a");
    n = d[0];
    h_expect_dim("a (inner)", d[1], n);
    a = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { lu(n, a_in, a); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, a);
}
