/* pb_gesummv (examples/polybench/gesummv.weir `gesummv`): PolyBench/C 4.2.1
 * gesummv, y = alpha A x + beta B x.
 *   (alpha: f64) (beta: f64) (a: [n][n]f64) (b: [n][n]f64) (x: [n]f64) : [n]f64
 * PolyBench's kernel_gesummv loop nest as it is: for each row i, tmp[i] and
 * y[i] start at 0.0 and get A[i][j] * x[j] and B[i][j] * x[j] added for j
 * in order, then y[i] = alpha * tmp[i] + beta * y[i].  Same loop order and
 * same order of the floating-point operations, so the result is
 * PolyBench's bit for bit (and Weir's).  tmp is allocated with the inputs,
 * as PolyBench passes it to its kernel. */
#include "harness.h"

H_KERNEL static void pb_gesummv(int64_t n, double alpha, double beta, const double *restrict a,
                                const double *restrict b, double *restrict tmp,
                                const double *restrict x, double *restrict y) {
    const double(*A)[n] = (const double(*)[n])a;
    const double(*B)[n] = (const double(*)[n])b;
    for (int64_t i = 0; i < n; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int64_t j = 0; j < n; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

static int64_t n;
static double alpha, beta, *a, *b, *x, *tmp, *y;

static void bench_read(FILE *in) {
    int64_t da[2], db[2], dx;
    alpha = h_read_f64(in, "alpha");
    beta = h_read_f64(in, "beta");
    a = h_read_array_f64(in, 2, da, "a");
    b = h_read_array_f64(in, 2, db, "b");
    x = h_read_array_f64(in, 1, &dx, "x");
    n = dx;
    h_expect_dim("a", da[0], n);
    h_expect_dim("a (inner)", da[1], n);
    h_expect_dim("b", db[0], n);
    h_expect_dim("b (inner)", db[1], n);
    tmp = h_alloc_f64((size_t)n);
    y = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pb_gesummv(n, alpha, beta, a, b, tmp, x, y); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, y);
}
