/* peakflops: single-core peak double-precision FLOP rate with FMA.
 *
 *   peakflops [--reps R]
 *
 * Each measured loop keeps NACC independent accumulator vectors and updates
 * every one with a fused multiply-add per iteration, acc = acc * m + c, so
 * that there are enough independent chains to cover the FMA latency on all
 * FMA pipes (2 pipes x 4-5 cycles on current x86 cores needs 8-10 chains;
 * more do no harm while they fit in registers).  Flops are counted as 2 per
 * FMA lane: 8 per 256-bit FMA, 16 per 512-bit FMA.  The loop count is
 * calibrated to about 0.2 s per repetition and the best of R repetitions
 * (default 5) is reported:
 *   peak: isa=avx512 gflops=..   (only when compiled with AVX-512F)
 *   peak: isa=avx2 gflops=..     (256-bit AVX2/FMA)
 * m and c come through volatile variables and the accumulators are summed and
 * printed (on a comment line), so the compiler can neither fold nor delete
 * the work. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* m slightly below 1 and a small c: every chain converges to c / (1 - m)
 * instead of overflowing, whatever the iteration count. */
static volatile double v_mul __attribute__((unused)) = 0.999999;
static volatile double v_add __attribute__((unused)) = 1e-6;
static volatile double v_init __attribute__((unused)) = 0.5;
static double sink; /* the sum of all final accumulators, printed */

#if defined(__AVX512F__)
#define NACC512 16
NOINLINE static double run_avx512(int64_t iters) {
    const __m512d m = _mm512_set1_pd(v_mul), c = _mm512_set1_pd(v_add);
    __m512d acc[NACC512];
    for (int j = 0; j < NACC512; j++) acc[j] = _mm512_set1_pd(v_init + 0.01 * j);
    for (int64_t it = 0; it < iters; it++)
        for (int j = 0; j < NACC512; j++) acc[j] = _mm512_fmadd_pd(acc[j], m, c);
    __m512d s = acc[0];
    for (int j = 1; j < NACC512; j++) s = _mm512_add_pd(s, acc[j]);
    return _mm512_reduce_add_pd(s);
}
#endif

#if defined(__AVX2__) && defined(__FMA__)
#define NACC256 12
NOINLINE static double run_avx2(int64_t iters) {
    const __m256d m = _mm256_set1_pd(v_mul), c = _mm256_set1_pd(v_add);
    __m256d acc[NACC256];
    for (int j = 0; j < NACC256; j++) acc[j] = _mm256_set1_pd(v_init + 0.01 * j);
    for (int64_t it = 0; it < iters; it++)
        for (int j = 0; j < NACC256; j++) acc[j] = _mm256_fmadd_pd(acc[j], m, c);
    __m256d s = acc[0];
    for (int j = 1; j < NACC256; j++) s = _mm256_add_pd(s, acc[j]);
    double lanes[4];
    _mm256_storeu_pd(lanes, s);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}
#endif

/* Calibrate the iteration count to ~0.2 s, then the best of `reps` runs.
 * flops_per_iter = accumulators x lanes x 2. */
static __attribute__((unused)) double measure(double (*fn)(int64_t), double flops_per_iter,
                                              int reps) {
    int64_t iters = 1 << 16;
    for (;;) {
        double t0 = now_s();
        sink += fn(iters);
        double dt = now_s() - t0;
        if (dt > 0.05) {
            iters = (int64_t)((double)iters * 0.2 / dt) + 1;
            break;
        }
        iters *= 4;
    }
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        sink += fn(iters);
        double dt = now_s() - t0;
        if (dt < best) best = dt;
    }
    return flops_per_iter * (double)iters / best * 1e-9;
}

int main(int argc, char **argv) {
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            char *end;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (errno || *end || v < 1 || v > 1000) {
                fprintf(stderr, "peakflops: --reps needs an integer in 1..1000\n");
                return 2;
            }
            reps = (int)v;
        } else {
            fprintf(stderr, "usage: peakflops [--reps R]\n");
            return 2;
        }
    }
    printf("# single-core peak double-precision rate: independent FMA chains\n"
           "# (acc = acc * m + c), 2 flops per FMA lane, best of %d runs of ~0.2 s\n",
           reps);
#if defined(__AVX512F__)
    printf("# avx512: %d chains of 512-bit FMAs (8 doubles each)\n", NACC512);
    printf("peak: isa=avx512 gflops=%.2f\n", measure(run_avx512, NACC512 * 8 * 2.0, reps));
#else
    printf("# avx512: not measured (compiled without AVX-512F; -march=native on this CPU lacks it)\n");
#endif
#if defined(__AVX2__) && defined(__FMA__)
    printf("# avx2: %d chains of 256-bit FMAs (4 doubles each)\n", NACC256);
    printf("peak: isa=avx2 gflops=%.2f\n", measure(run_avx2, NACC256 * 4 * 2.0, reps));
#else
    printf("# avx2: not measured (compiled without AVX2/FMA)\n");
#endif
    printf("# checksum %.6g\n", sink);
    return 0;
}
