/* pb_mvt (examples/polybench/mvt.weir `mvt`): PolyBench/C 4.2.1 mvt,
 * x1 := x1 + A y1, x2 := x2 + A^T y2.
 *   (x1: [n]f64) (x2: [n]f64) (y1: [n]f64) (y2: [n]f64) (a: [n][n]f64)
 *     : ([n]f64, [n]f64)                       (the updated x1 and x2)
 * The kernel updates x1 and x2 in place: every call copies them into the
 * result buffers, then runs PolyBench's kernel_mvt loop nests as they are
 * (same loop order, same order of the floating-point operations; the x2
 * loop reads A down a column, as PolyBench does), so the result is
 * PolyBench's bit for bit (and Weir's). */
#include "harness.h"

H_KERNEL static void pb_mvt(int64_t n, const double *restrict x1_in,
                            const double *restrict x2_in, const double *restrict y_1,
                            const double *restrict y_2, const double *restrict a,
                            double *restrict x1, double *restrict x2) {
    memcpy(x1, x1_in, (size_t)n * sizeof(double));
    memcpy(x2, x2_in, (size_t)n * sizeof(double));
    const double(*A)[n] = (const double(*)[n])a;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) x1[i] = x1[i] + A[i][j] * y_1[j];
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) x2[i] = x2[i] + A[j][i] * y_2[j];
}

static int64_t n;
static double *vin[4], *a, *x1, *x2;

static void bench_read(FILE *in) {
    static const char *names[4] = {"x1", "x2", "y1", "y2"};
    int64_t da[2];
    for (int k = 0; k < 4; k++) {
        int64_t d;
        vin[k] = h_read_array_f64(in, 1, &d, names[k]);
        if (k == 0) n = d;
        h_expect_dim(names[k], d, n);
    }
    a = h_read_array_f64(in, 2, da, "a");
    h_expect_dim("a", da[0], n);
    h_expect_dim("a (inner)", da[1], n);
    x1 = h_alloc_f64((size_t)n);
    x2 = h_alloc_f64((size_t)n);
}

static void bench_run(void) { pb_mvt(n, vin[0], vin[1], vin[2], vin[3], a, x1, x2); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, x1);
    h_write_array_f64(f, 1, dims, x2);
}
