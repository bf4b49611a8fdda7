/* pb_doitgen (examples/polybench/doitgen.weir `doitgen`): PolyBench/C 4.2.1
 * doitgen, every row A[r][q] replaced by A[r][q] C4.
 *   (a: [nr][nq][np]f64) (c4: [np][np]f64) : [nr][nq][np]f64
 * The kernel updates A in place: every call copies it into the result
 * buffer, then runs PolyBench's kernel_doitgen loop nest as it is (for r,
 * q: sum[p] = 0.0, sum[p] += A[r][q][s] * C4[s][p] for p, then s in order;
 * A[r][q][p] = sum[p]), so the result is PolyBench's bit for bit (and
 * Weir's).  sum is allocated with the inputs, as PolyBench passes it. */
#include "harness.h"

H_KERNEL static void pb_doitgen(int64_t nr, int64_t nq, int64_t np, const double *restrict a_in,
                                const double *restrict c4, double *restrict sum,
                                double *restrict a) {
    memcpy(a, a_in, (size_t)(nr * nq * np) * sizeof(double));
    double(*A)[nq][np] = (double(*)[nq][np])a;
    const double(*C4)[np] = (const double(*)[np])c4;
    for (int64_t r = 0; r < nr; r++)
        for (int64_t q = 0; q < nq; q++) {
            for (int64_t p = 0; p < np; p++) {
                sum[p] = 0.0;
                for (int64_t s = 0; s < np; s++) sum[p] += A[r][q][s] * C4[s][p];
            }
            for (int64_t p = 0; p < np; p++) A[r][q][p] = sum[p];
        }
}

static int64_t nr, nq, np;
static double *a_in, *c4, *sum, *a;

static void bench_read(FILE *in) {
    int64_t da[3], dc[2];
    a_in = h_read_array_f64(in, 3, da, "a");
    c4 = h_read_array_f64(in, 2, dc, "c4");
    nr = da[0];
    nq = da[1];
    np = da[2];
    h_expect_dim("c4", dc[0], np);
    h_expect_dim("c4 (inner)", dc[1], np);
    sum = h_alloc_f64((size_t)np);
    a = h_alloc_f64((size_t)(nr * nq * np));
}

static void bench_run(void) { pb_doitgen(nr, nq, np, a_in, c4, sum, a); }

static void bench_write(FILE *f) {
    int64_t dims[3] = {nr, nq, np};
    h_write_array_f64(f, 3, dims, a);
}
