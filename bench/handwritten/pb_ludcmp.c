/* pb_ludcmp (examples/polybench/ludcmp.weir `ludcmp`): PolyBench/C 4.2.1
 * linear-algebra/solvers/ludcmp (LU without pivoting, then forward and
 * back substitution).
 *   (a: [n][n]f64) (b: [n]f64) : [n]f64
 * PolyBench's kernel_ludcmp loop nest as written (the row-by-row
 * factorisation with its column walks A[k][j], then y and x), on a copy of
 * A made inside each call (a work buffer allocated with the inputs, as is
 * y).  Bit-identical to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_ludcmp(int64_t n, const double *restrict a_in, const double *restrict b,
                               double *restrict A, double *restrict x, double *restrict y) {
    memcpy(A, a_in, (size_t)(n * n) * sizeof(double));
    double w;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < i; j++) {
            w = A[i * n + j];
            for (int64_t k = 0; k < j; k++) w -= A[i * n + k] * A[k * n + j];
            A[i * n + j] = w / A[j * n + j];
        }
        for (int64_t j = i; j < n; j++) {
            w = A[i * n + j];
            for (int64_t k = 0; k < i; k++) w -= A[i * n + k] * A[k * n + j];
            A[i * n + j] = w;
        }
    }
    for (int64_t i = 0; i < n; i++) {
        w = b[i];
        for (int64_t j = 0; j < i; j++) w -= A[i * n + j] * y[j];
        y[i] = w;
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        w = y[i];
        for (int64_t j = i + 1; j < n; j++) w -= A[i * n + j] * x[j];
        x[i] = w / A[i * n + i];
    }
}

static int64_t n;
static double *a_in, *b, *A, *x, *y;

static void bench_read(FILE *in) {
    int64_t da[2], db;
    a_in = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 1, &db, "b");
    n = db;
    h_expect_dim("a", da[0], n);
    h_expect_dim("a (inner)", da[1], n);
    A = h_alloc_f64((size_t)(n * n));
    x = h_alloc_f64((size_t)n);
    y = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pb_ludcmp(n, a_in, b, A, x, y); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, x);
}
