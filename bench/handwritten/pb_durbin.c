/* pb_durbin (examples/polybench/durbin.weir `durbin`): PolyBench/C 4.2.1
 * linear-algebra/solvers/durbin (Levinson-Durbin recursion).
 *   (r: [n]f64) : [n]f64
 * PolyBench's kernel_durbin loop nest as written, with its z buffer (a
 * work buffer allocated with the inputs).  Bit-identical to PolyBench.
 * (n >= 1, as PolyBench reads r[0].) */
#include "harness.h"

H_KERNEL static void pb_durbin(int64_t n, const double *restrict r, double *restrict y,
                               double *restrict z) {
    double alpha, beta, sum;
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (int64_t k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (int64_t i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (int64_t i = 0; i < k; i++) z[i] = y[i] + alpha * y[k - i - 1];
        for (int64_t i = 0; i < k; i++) y[i] = z[i];
        y[k] = alpha;
    }
}

static int64_t n;
static double *r, *y, *z;

static void bench_read(FILE *in) {
    r = h_read_array_f64(in, 1, &n, "r");
    if (n < 1) h_fail("durbin needs n >= 1 (PolyBench reads r[0])");
    y = h_alloc_f64((size_t)n);
    z = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pb_durbin(n, r, y, z); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, y);
}
