/* pb_gramschmidt (examples/polybench/gramschmidt.weir `gramschmidt`):
 * PolyBench/C 4.2.1 linear-algebra/solvers/gramschmidt (modified
 * Gram-Schmidt QR).
 *   (a: [m][n]f64) : ([n][n]f64, [m][n]f64)        -- (R, Q)
 * PolyBench's kernel_gramschmidt loop nest as written (its column walks
 * down A and Q), on a copy of A made inside each call (a work buffer
 * allocated with the inputs); R is zeroed first, as PolyBench's
 * init_array does (its lower triangle is never written).  Bit-identical
 * to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_gramschmidt(int64_t m, int64_t n, const double *restrict a_in,
                                    double *restrict A, double *restrict R,
                                    double *restrict Q) {
    memcpy(A, a_in, (size_t)(m * n) * sizeof(double));
    memset(R, 0, (size_t)(n * n) * sizeof(double));
    for (int64_t k = 0; k < n; k++) {
        double nrm = 0.0;
        for (int64_t i = 0; i < m; i++) nrm += A[i * n + k] * A[i * n + k];
        R[k * n + k] = sqrt(nrm);
        for (int64_t i = 0; i < m; i++) Q[i * n + k] = A[i * n + k] / R[k * n + k];
        for (int64_t j = k + 1; j < n; j++) {
            R[k * n + j] = 0.0;
            for (int64_t i = 0; i < m; i++) R[k * n + j] += Q[i * n + k] * A[i * n + j];
            for (int64_t i = 0; i < m; i++)
                A[i * n + j] = A[i * n + j] - Q[i * n + k] * R[k * n + j];
        }
    }
}

static int64_t m, n;
static double *a_in, *A, *R, *Q;

static void bench_read(FILE *in) {
    int64_t d[2];
    a_in = h_read_array_f64(in, 2, d, "a");
    m = d[0];
    n = d[1];
    A = h_alloc_f64((size_t)(m * n));
    R = h_alloc_f64((size_t)(n * n));
    Q = h_alloc_f64((size_t)(m * n));
}

static void bench_run(void) { pb_gramschmidt(m, n, a_in, A, R, Q); }

static void bench_write(FILE *f) {
    int64_t dr[2] = {n, n}, dq[2] = {m, n};
    h_write_array_f64(f, 2, dr, R);
    h_write_array_f64(f, 2, dq, Q);
}
