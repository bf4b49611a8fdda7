/* pb_adi (examples/polybench/adi.weir `adi`): PolyBench/C 4.2.1 stencils/adi.
 *   (tsteps: i64) (u: [n][n]f64) : [n][n]f64
 * PolyBench's kernel_adi loop nest as written (column sweep into v, row
 * sweep into u, with PolyBench's p and q), on a copy of u made inside each
 * call (the result buffer); v, p and q are work buffers allocated with the
 * inputs.  Bit-identical to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_adi(int64_t tsteps, int64_t n, const double *restrict u_in,
                            double *restrict u, double *restrict v, double *restrict p,
                            double *restrict q) {
    memcpy(u, u_in, (size_t)(n * n) * sizeof(double));
    double DX = 1.0 / (double)n, DY = 1.0 / (double)n, DT = 1.0 / (double)tsteps;
    double B1 = 2.0, B2 = 1.0;
    double mul1 = B1 * DT / (DX * DX);
    double mul2 = B2 * DT / (DY * DY);
    double a = -mul1 / 2.0, b = 1.0 + mul1, c = a;
    double d = -mul2 / 2.0, e = 1.0 + mul2, f = d;
#define U(i, j) u[(i) * n + (j)]
#define V(i, j) v[(i) * n + (j)]
#define P(i, j) p[(i) * n + (j)]
#define Q(i, j) q[(i) * n + (j)]
    for (int64_t t = 1; t <= tsteps; t++) {
        /* column sweep */
        for (int64_t i = 1; i < n - 1; i++) {
            V(0, i) = 1.0;
            P(i, 0) = 0.0;
            Q(i, 0) = V(0, i);
            for (int64_t j = 1; j < n - 1; j++) {
                P(i, j) = -c / (a * P(i, j - 1) + b);
                Q(i, j) = (-d * U(j, i - 1) + (1.0 + 2.0 * d) * U(j, i) - f * U(j, i + 1) -
                           a * Q(i, j - 1)) / (a * P(i, j - 1) + b);
            }
            V(n - 1, i) = 1.0;
            for (int64_t j = n - 2; j >= 1; j--) V(j, i) = P(i, j) * V(j + 1, i) + Q(i, j);
        }
        /* row sweep */
        for (int64_t i = 1; i < n - 1; i++) {
            U(i, 0) = 1.0;
            P(i, 0) = 0.0;
            Q(i, 0) = U(i, 0);
            for (int64_t j = 1; j < n - 1; j++) {
                P(i, j) = -f / (d * P(i, j - 1) + e);
                Q(i, j) = (-a * V(i - 1, j) + (1.0 + 2.0 * a) * V(i, j) - c * V(i + 1, j) -
                           d * Q(i, j - 1)) / (d * P(i, j - 1) + e);
            }
            U(i, n - 1) = 1.0;
            for (int64_t j = n - 2; j >= 1; j--) U(i, j) = P(i, j) * U(i, j + 1) + Q(i, j);
        }
    }
#undef U
#undef V
#undef P
#undef Q
}

static int64_t tsteps, n;
static double *u_in, *u, *v, *p, *q;

static void bench_read(FILE *in) {
    int64_t du[2];
    tsteps = h_read_i64(in, "tsteps");
    u_in = h_read_array_f64(in, 2, du, "u");
    n = du[0];
    h_expect_dim("u (inner)", du[1], n);
    u = h_alloc_f64((size_t)(n * n));
    v = h_alloc_f64((size_t)(n * n));
    p = h_alloc_f64((size_t)(n * n));
    q = h_alloc_f64((size_t)(n * n));
}

static void bench_run(void) { pb_adi(tsteps, n, u_in, u, v, p, q); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_array_f64(f, 2, dims, u);
}
