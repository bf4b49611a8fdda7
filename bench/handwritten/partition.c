/* partition: three-way partition of [n]f64 (examples/partition.weir
 * `partition3`, `partition2 (\x -> x < -0.5) (\x -> x < 0.5) a`): the
 * elements below -0.5; those in [-0.5, 0.5); the rest (>= 0.5, and NaN, which
 * fails both comparisons); each part in input order.  One pass over a: every
 * element is stored at the front of all three output buffers, lo[kl], mid[km]
 * and hi[kh], and the count of the part it belongs to moves on by one (sums
 * of the comparisons' 0 or 1), the branch-free compaction of filter.c with
 * three outputs.  On the benchmark's standard normal values the part of each
 * element is random, and the obvious `if (x < -0.5) lo[kl++] = x; else if
 * (x < 0.5) mid[km++] = x; else hi[kh++] = x;` mispredicts often (several
 * times slower, see README.md).  Each count stays <= i, so every store is
 * inside its buffer, which the caller allocates with the input's length, the
 * upper bound, as Weir's caller does for an entry whose results have
 * existential sizes; the result is each buffer's first k elements, written as
 * Weir writes a tuple: for each part its dimension, then its data. */
#include "harness.h"

H_KERNEL static void partition3(int64_t n, const double *restrict a, double *restrict lo,
                                double *restrict mid, double *restrict hi, int64_t *restrict k) {
    int64_t kl = 0, km = 0, kh = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = a[i];
        int64_t p = x < -0.5;  /* the first part */
        int64_t pq = x < 0.5;  /* the first or the second (x < -0.5 implies x < 0.5) */
        lo[kl] = x;
        mid[km] = x;
        hi[kh] = x;
        kl += p;
        km += pq - p;
        kh += 1 - pq;
    }
    k[0] = kl;
    k[1] = km;
    k[2] = kh;
}

static int64_t n, k[3];
static double *a, *out[3];

static void bench_read(FILE *in) {
    a = h_read_array_f64(in, 1, &n, "a");
    for (int j = 0; j < 3; j++) out[j] = h_alloc_f64((size_t)n);
}

static void bench_run(void) { partition3(n, a, out[0], out[1], out[2], k); }

static void bench_write(FILE *f) {
    for (int j = 0; j < 3; j++) h_write_array_f64(f, 1, &k[j], out[j]);
}
