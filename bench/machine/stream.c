/* stream: single-thread main-memory bandwidth, STREAM-style.
 *
 *   stream [--n N] [--reps R]
 *
 * Three arrays of N doubles (default 2^25 each, 256 MiB, far beyond any
 * cache) and three kernels, each timed R times (default 10):
 *   copy   c[i] = a[i]             16 bytes per element
 *   add    c[i] = a[i] + b[i]      24 bytes per element
 *   triad  a[i] = b[i] + s * c[i]  24 bytes per element
 * Bytes are counted as STREAM counts them (each array element read or written
 * once; the extra read a write-allocate cache does for the stored line is not
 * counted).  Output, one line per kernel:
 *   stream: kernel=copy bytes_per_iter=16 best_gbps=.. median_gbps=..
 * (GB/s = 1e9 bytes per second), preceded by comment lines (#) that say what
 * was measured.  The arrays are checked against the expected values at the
 * end, so the work cannot be skipped. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

/* The copy loop must stay a loop of loads and stores like the other kernels:
 * compilers would otherwise turn it into a call of memcpy, which for large
 * sizes switches to non-temporal stores (a different kind of measurement). */
#if defined(__clang__)
#define KEEP_LOOP __attribute__((no_builtin("memcpy")))
#elif defined(__GNUC__)
#define KEEP_LOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define KEEP_LOOP
#endif

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

NOINLINE KEEP_LOOP static void k_copy(size_t n, const double *restrict a, double *restrict c) {
    for (size_t i = 0; i < n; i++) c[i] = a[i];
}

NOINLINE static void k_add(size_t n, const double *restrict a, const double *restrict b,
                           double *restrict c) {
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

NOINLINE static void k_triad(size_t n, double s, double *restrict a, const double *restrict b,
                             const double *restrict c) {
    for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

static int cmp_double(const void *x, const void *y) {
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double *alloc_array(size_t n) {
    size_t bytes = (n * sizeof(double) + 63) & ~(size_t)63;
    double *p = aligned_alloc(64, bytes ? bytes : 64);
    if (!p) {
        fprintf(stderr, "stream: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static long parse_long(const char *s, const char *what, long lo) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo) {
        fprintf(stderr, "stream: %s needs an integer >= %ld\n", what, lo);
        exit(2);
    }
    return v;
}

static int check(const char *name, const double *x, size_t n, double want) {
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i] - want) > 1e-12 * fabs(want)) {
            fprintf(stderr, "stream: %s[%zu] = %g, expected %g\n", name, i, x[i], want);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv) {
    size_t n = (size_t)1 << 25;
    int reps = 10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = (size_t)parse_long(argv[++i], "--n", 1);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = (int)parse_long(argv[++i], "--reps", 1);
        else {
            fprintf(stderr, "usage: stream [--n N] [--reps R]\n");
            return 2;
        }
    }

    double *a = alloc_array(n), *b = alloc_array(n), *c = alloc_array(n);
    for (size_t i = 0; i < n; i++) { /* touch every page before timing */
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
    const double s = 3.0;
    double *t_copy = malloc(sizeof(double) * (size_t)reps);
    double *t_add = malloc(sizeof(double) * (size_t)reps);
    double *t_triad = malloc(sizeof(double) * (size_t)reps);
    if (!t_copy || !t_add || !t_triad) return 2;

    /* expected values, following the same recurrence on scalars */
    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        k_copy(n, a, c);
        double t1 = now_s();
        k_add(n, a, b, c);
        double t2 = now_s();
        k_triad(n, s, a, b, c);
        double t3 = now_s();
        t_copy[r] = t1 - t0;
        t_add[r] = t2 - t1;
        t_triad[r] = t3 - t2;
        ec = ea + eb; /* copy (c = a), overwritten by add (c = a + b) */
        ea = eb + s * ec; /* triad */
        /* keep a bounded: a grows by a factor of about 3 per repetition */
        if (ea > 1e200) {
            for (size_t i = 0; i < n; i++) a[i] = 1.0;
            ea = 1.0;
        }
    }
    if (check("a", a, n, ea) | check("b", b, n, eb) | check("c", c, n, ec)) return 1;

    const char *names[3] = {"copy", "add", "triad"};
    const int bytes[3] = {16, 24, 24};
    double *times[3] = {t_copy, t_add, t_triad};
    printf("# STREAM-like memory bandwidth, one thread: 3 arrays of %zu doubles (%.1f MiB each),\n"
           "# each kernel timed %d times; GB/s = 1e9 bytes/s counting the bytes per element\n"
           "# below (STREAM's convention; write-allocate reads are not counted)\n",
           n, (double)n * 8.0 / 1048576.0, reps);
    for (int k = 0; k < 3; k++) {
        double best = times[k][0];
        for (int r = 1; r < reps; r++)
            if (times[k][r] < best) best = times[k][r];
        double med = median(times[k], reps);
        double total = (double)bytes[k] * (double)n;
        printf("stream: kernel=%s bytes_per_iter=%d best_gbps=%.2f median_gbps=%.2f\n", names[k],
               bytes[k], total / best * 1e-9, total / med * 1e-9);
    }
    free(t_copy);
    free(t_add);
    free(t_triad);
    free(a);
    free(b);
    free(c);
    return 0;
}
