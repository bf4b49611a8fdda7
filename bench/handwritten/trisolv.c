/* trisolv (examples/forward_subst.weir `forward_subst`): PolyBench/C 4.2.1
 * trisolv, forward substitution L x = b.
 *   (l: [n][n]f64) (b: [n]f64) : [n]f64
 * PolyBench's order: x[i] = b[i]; x[i] -= L[i][j] * x[j] for j = 0 .. i-1;
 * x[i] /= L[i][i], with x[i] in a register during the row.  Only the lower
 * triangle of L is read.  The subtractions are one chain (no reassociation),
 * so the result is bit-identical to PolyBench's and to Weir's. */
#include "harness.h"

H_KERNEL static void trisolv(int64_t n, const double *restrict l, const double *restrict b,
                             double *restrict x) {
    for (int64_t i = 0; i < n; i++) {
        const double *li = l + i * n;
        double xi = b[i];
        for (int64_t j = 0; j < i; j++) xi -= li[j] * x[j];
        x[i] = xi / li[i];
    }
}

static int64_t n;
static double *l, *b, *x;

static void bench_read(FILE *in) {
    int64_t dl[2], db;
    l = h_read_array_f64(in, 2, dl, "l");
    b = h_read_array_f64(in, 1, &db, "b");
    n = db;
    h_expect_dim("l", dl[0], n);
    h_expect_dim("l (inner)", dl[1], n);
    x = h_alloc_f64((size_t)n);
}

static void bench_run(void) { trisolv(n, l, b, x); }

static void bench_write(FILE *f) {
    int64_t dims[1] = {n};
    h_write_array_f64(f, 1, dims, x);
}
