/* histogram: examples/histogram.weir `histogram`,
 *   (k: i64) (is: [n]i64) : [k]i64
 *   = reduce_by_index (replicate k 0) (+) 0 is (map (\_ -> 1) is)
 * k bins, zeroed at the start of every call; then for each index in order,
 * bins[is[j]] += 1 when 0 <= is[j] < k; indices outside 0..k are ignored. */
#include "harness.h"

H_KERNEL static void histogram(int64_t k, int64_t n, const int64_t *restrict is,
                               int64_t *restrict bins) {
    memset(bins, 0, (size_t)k * sizeof(int64_t));
    for (int64_t j = 0; j < n; j++) {
        int64_t i = is[j];
        if ((uint64_t)i < (uint64_t)k) bins[i]++;
    }
}

static int64_t k, n;
static int64_t *is, *bins;

static void bench_read(FILE *in) {
    k = h_read_i64(in, "k");
    if (k < 0) h_fail("k: negative number of bins %" PRId64, k);
    is = h_read_array_i64(in, 1, &n, "is");
    bins = (int64_t *)h_alloc((size_t)k, sizeof(int64_t));
}

static void bench_run(void) { histogram(k, n, is, bins); }

static void bench_write(FILE *f) {
    h_write_bytes(f, &k, sizeof k);
    h_write_bytes(f, bins, (size_t)k * sizeof(int64_t));
}
