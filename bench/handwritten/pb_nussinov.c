/* pb_nussinov (examples/polybench/nussinov.weir `nussinov`): PolyBench/C
 * 4.2.1 medley/nussinov (int64_t where PolyBench has int and char).
 *   (seq: [n]i64) (table: [n][n]i64) : [n][n]i64
 * PolyBench's kernel_nussinov loop nest as written (max_score and match as
 * its macros), in place on a copy of table made inside each call (the
 * result buffer).  The same integers as PolyBench. */
#include "harness.h"

#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

H_KERNEL static void pb_nussinov(int64_t n, const int64_t *restrict seq,
                                 const int64_t *restrict table_in, int64_t *restrict table) {
    memcpy(table, table_in, (size_t)(n * n) * sizeof(int64_t));
#define T(i, j) table[(i) * n + (j)]
    for (int64_t i = n - 1; i >= 0; i--) {
        for (int64_t j = i + 1; j < n; j++) {
            if (j - 1 >= 0) T(i, j) = max_score(T(i, j), T(i, j - 1));
            if (i + 1 < n) T(i, j) = max_score(T(i, j), T(i + 1, j));
            if (j - 1 >= 0 && i + 1 < n) {
                /* don't allow adjacent elements to bond */
                if (i < j - 1)
                    T(i, j) = max_score(T(i, j), T(i + 1, j - 1) + match(seq[i], seq[j]));
                else
                    T(i, j) = max_score(T(i, j), T(i + 1, j - 1));
            }
            for (int64_t k = i + 1; k < j; k++) T(i, j) = max_score(T(i, j), T(i, k) + T(k + 1, j));
        }
    }
#undef T
}

static int64_t n;
static int64_t *seq, *table_in, *table;

static void bench_read(FILE *in) {
    int64_t ds, dt[2];
    seq = h_read_array_i64(in, 1, &ds, "seq");
    table_in = h_read_array_i64(in, 2, dt, "table");
    n = ds;
    h_expect_dim("table", dt[0], n);
    h_expect_dim("table (inner)", dt[1], n);
    table = (int64_t *)h_alloc((size_t)(n * n), sizeof(int64_t));
}

static void bench_run(void) { pb_nussinov(n, seq, table_in, table); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {n, n};
    h_write_bytes(f, dims, sizeof dims);
    h_write_bytes(f, table, (size_t)(n * n) * sizeof(int64_t));
}
