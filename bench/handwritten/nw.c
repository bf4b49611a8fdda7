/* nw (examples/nw.weir `nw`): Needleman-Wunsch, Rodinia nw's score matrix.
 *   (penalty: i64) (refs: [n][n]i64) : [n][n]i64
 * Row 0 and column 0 are -j * penalty and -i * penalty; then, row by row
 * and within a row left to right,
 *   m[i][j] = max(m[i-1][j-1] + refs[i][j], m[i][j-1] - penalty, m[i-1][j] - penalty)
 * (Rodinia's sequential order; its OpenMP version sweeps blocks along the
 * anti-diagonals and computes the same matrix).  The left neighbour is kept
 * in a register from one step to the next.  Rodinia's scores are int; here
 * i64, as the Weir program's. */
#include "harness.h"

H_KERNEL static void nw(int64_t penalty, int64_t n, const int64_t *restrict refs,
                        int64_t *restrict m) {
    for (int64_t j = 0; j < n; j++) m[j] = -j * penalty;
    for (int64_t i = 1; i < n; i++) {
        const int64_t *up = m + (i - 1) * n, *ref = refs + i * n;
        int64_t *row = m + i * n;
        int64_t left = -i * penalty;
        row[0] = left;
        for (int64_t j = 1; j < n; j++) {
            int64_t v = up[j - 1] + ref[j];
            int64_t l = left - penalty, u = up[j] - penalty;
            if (l > v) v = l;
            if (u > v) v = u;
            row[j] = v;
            left = v;
        }
    }
}

static int64_t penalty, n;
static int64_t *refs, *m;

static void bench_read(FILE *in) {
    int64_t d[2];
    penalty = h_read_i64(in, "penalty");
    refs = h_read_array_i64(in, 2, d, "refs");
    n = d[0];
    h_expect_dim("refs (inner)", d[1], n);
    m = (int64_t *)h_alloc((size_t)(n * n), sizeof(int64_t));
}

static void bench_run(void) { nw(penalty, n, refs, m); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_bytes(f, dims, sizeof dims);
    h_write_bytes(f, m, (size_t)(n * n) * sizeof(int64_t));
}
