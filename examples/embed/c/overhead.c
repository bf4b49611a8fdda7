/* Call overhead of compiled Weir kernels from C: ns per call of the empty
 * entry `nothing` and of `add3` on 100 elements through the library, against
 * a direct call of a C function doing the same (compiled in add3_direct.c,
 * another translation unit, as a library function would be).
 *
 *   weir lib ../kernels.weir -o build
 *   cc -O2 -Ibuild overhead.c add3_direct.c -Lbuild -Wl,-Bstatic -lkernels -Wl,-Bdynamic -lm -o overhead
 *   ./overhead
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kernels.h"

double nothing_direct(double x);
void add3_direct(double *out, const double *a, const double *b, const double *c, int64_t n);

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

#define REPS 9
#define CALLS 2000000L

/* The median over REPS loops of CALLS calls, in ns per call. */
#define TIME(label, body)                                                  \
    do {                                                                   \
        double t[REPS];                                                    \
        for (int rep = 0; rep < REPS; rep++) {                                   \
            double t0 = now_ns();                                          \
            for (long i = 0; i < CALLS; i++) {                             \
                body;                                                      \
                __asm__ volatile("" ::: "memory");                         \
            }                                                              \
            t[rep] = (now_ns() - t0) / (double)CALLS;                        \
        }                                                                  \
        qsort(t, REPS, sizeof t[0], cmp);                                  \
        printf("%-28s %8.2f ns/call\n", label, t[REPS / 2]);               \
    } while (0)

int main(void) {
    weir_ctx *ctx = weir_ctx_new();
    if (!ctx) return 1;
    enum { N = 100 };
    double a[N], b[N], c[N], out[N], r = 0, x = 1.5;
    for (int i = 0; i < N; i++) a[i] = i, b[i] = 2.0 * i, c[i] = 0.5 * i;
    int bad = 0;
    TIME("weir nothing", bad |= kernels_nothing(ctx, x, &r));
    TIME("C nothing (direct)", r = nothing_direct(x));
    TIME("weir add3, n = 100", bad |= kernels_add3(ctx, out, N, a, N, b, N, c, N));
    TIME("C add3, n = 100 (direct)", add3_direct(out, a, b, c, N));
    if (bad) fprintf(stderr, "error: %s\n", weir_error(ctx));
    weir_ctx_free(ctx);
    return bad;
}
