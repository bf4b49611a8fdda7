/* Shared benchmark harness for the hand-written C baselines.
 *
 * Usage of every program:   prog [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]
 *
 * W untimed calls of the kernel (default 0) come before the N timed ones.
 *
 * Input (FILE, or stdin): the entry's parameters in order, native little-endian,
 * one value after another; size parameters ([n]) are not passed, they are
 * implied by the arrays' dims.
 *   f64, i64: 8 bytes; f32, i32: 4 bytes; bool: 1 byte;
 *   array of rank r: r int64 dims, then the elements, row-major, packed.
 * Output (FILE, or stdout): the result of the last run in the same format
 * (array: dims then data; scalar: its bytes; tuple: the components in order).
 * --stats prints to stderr exactly one line:
 *   stats: runs=N total_ns=T ns_per_run=X peak_rss_kb=K sys_allocs=A peak_bytes=B
 * where T is the wall time (CLOCK_MONOTONIC) of the whole loop of N kernel
 * calls, X = T / N, K = the peak RSS (VmHWM, see h_peak_rss_kb), A = the number of
 * malloc/calloc/realloc/aligned_alloc/posix_memalign calls made during the
 * timed loop and B = the peak number of heap bytes (usable sizes) live during
 * the loop above the level at its start.  A and B are measured by
 * interposing the allocator (glibc only; elsewhere, or with
 * -DHARNESS_NO_MALLOC_COUNT, they are printed as 0).  Stack memory (the VLAs
 * of gmm_objective) is not counted in B.
 *
 * A program includes this header first and then defines
 *   static void bench_read(FILE *in);    read the inputs, allocate outputs
 *   static void bench_run(void);         one call of the kernel
 *   static void bench_write(FILE *out);  write the result
 * The kernels themselves are `H_KERNEL` (noinline) functions writing into
 * caller-provided buffers; after each call the loop has a compiler memory
 * barrier, so no call can be hoisted out of the loop or removed.
 */
#ifndef WEIR_BENCH_HARNESS_H
#define WEIR_BENCH_HARNESS_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* Evaluate floating-point expressions exactly as written (no FMA contraction):
 * GCC does so by default in ISO C mode (-std=c11 implies -ffp-contract=off);
 * clang contracts a*b+c into an FMA by default, so turn that off for it. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define H_KERNEL __attribute__((noinline))
#define H_BARRIER() __asm__ __volatile__("" ::: "memory")
#define H_HELPER static __attribute__((unused))

static void bench_read(FILE *in);
static void bench_run(void);
static void bench_write(FILE *out);

/* ------------------------------------------------------------------------ */
/* Allocation counting (glibc: interpose the public allocator entry points). */

static int h_counting;
static unsigned long long h_allocs;
static long long h_live_bytes, h_peak_bytes;

#if defined(__GLIBC__) && !defined(HARNESS_NO_MALLOC_COUNT)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *ptr);
extern size_t malloc_usable_size(void *ptr);

static inline void h_note_alloc(void *p) {
    if (h_counting && p) {
        h_allocs++;
        h_live_bytes += (long long)malloc_usable_size(p);
        if (h_live_bytes > h_peak_bytes) h_peak_bytes = h_live_bytes;
    }
}
static inline void h_note_free(void *p) {
    if (h_counting && p) h_live_bytes -= (long long)malloc_usable_size(p);
}
void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    h_note_alloc(p);
    return p;
}
void *calloc(size_t nmemb, size_t size) {
    void *p = __libc_calloc(nmemb, size);
    h_note_alloc(p);
    return p;
}
void *realloc(void *ptr, size_t size) {
    size_t old = (h_counting && ptr) ? malloc_usable_size(ptr) : 0;
    void *p = __libc_realloc(ptr, size);
    if (p || size == 0) h_live_bytes -= (long long)old; /* else the old block stays */
    h_note_alloc(p);
    return p;
}
void *aligned_alloc(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    h_note_alloc(p);
    return p;
}
int posix_memalign(void **memptr, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (!p) return ENOMEM;
    h_note_alloc(p);
    *memptr = p;
    return 0;
}
void free(void *ptr) {
    h_note_free(ptr);
    __libc_free(ptr);
}
#endif

/* ------------------------------------------------------------------------ */
/* Errors, input, output. */

static const char *h_prog = "bench";

__attribute__((noreturn, format(printf, 1, 2))) static void h_fail(const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: ", h_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

H_HELPER void h_read_bytes(FILE *f, void *dst, size_t n, const char *what) {
    if (n && fread(dst, 1, n, f) != n) h_fail("input ended while reading %s", what);
}

/* 64-byte aligned, zero-filled (so the pages are touched before timing). */
H_HELPER void *h_alloc(size_t count, size_t elem) {
    if (elem && count > SIZE_MAX / elem) h_fail("array too large");
    size_t bytes = count * elem;
    bytes = (bytes + 63) & ~(size_t)63;
    if (bytes == 0) bytes = 64;
    void *p = aligned_alloc(64, bytes);
    if (!p) h_fail("out of memory (%zu bytes)", bytes);
    memset(p, 0, bytes);
    return p;
}
H_HELPER double *h_alloc_f64(size_t count) { return (double *)h_alloc(count, sizeof(double)); }

H_HELPER size_t h_read_dims(FILE *f, int rank, int64_t *dims, const char *what) {
    size_t count = 1;
    for (int r = 0; r < rank; r++) {
        h_read_bytes(f, &dims[r], sizeof(int64_t), what);
        if (dims[r] < 0) h_fail("%s: negative dimension %" PRId64, what, dims[r]);
        if (dims[r] && count > SIZE_MAX / 8 / (size_t)dims[r]) h_fail("%s: too large", what);
        count *= (size_t)dims[r];
    }
    return count;
}

H_HELPER double *h_read_array_f64(FILE *f, int rank, int64_t *dims, const char *what) {
    size_t count = h_read_dims(f, rank, dims, what);
    double *p = h_alloc_f64(count);
    h_read_bytes(f, p, count * sizeof(double), what);
    return p;
}

H_HELPER int64_t *h_read_array_i64(FILE *f, int rank, int64_t *dims, const char *what) {
    size_t count = h_read_dims(f, rank, dims, what);
    int64_t *p = (int64_t *)h_alloc(count, sizeof(int64_t));
    h_read_bytes(f, p, count * sizeof(int64_t), what);
    return p;
}

H_HELPER double h_read_f64(FILE *f, const char *what) {
    double x;
    h_read_bytes(f, &x, sizeof x, what);
    return x;
}

H_HELPER int64_t h_read_i64(FILE *f, const char *what) {
    int64_t x;
    h_read_bytes(f, &x, sizeof x, what);
    return x;
}

H_HELPER void h_expect_dim(const char *what, int64_t got, int64_t want) {
    if (got != want)
        h_fail("size mismatch: %s has size %" PRId64 ", expected %" PRId64, what, got, want);
}

H_HELPER void h_write_bytes(FILE *f, const void *src, size_t n) {
    if (n && fwrite(src, 1, n, f) != n) h_fail("write error: %s", strerror(errno));
}

H_HELPER void h_write_array_f64(FILE *f, int rank, const int64_t *dims, const double *data) {
    size_t count = 1;
    for (int r = 0; r < rank; r++) count *= (size_t)dims[r];
    h_write_bytes(f, dims, (size_t)rank * sizeof(int64_t));
    h_write_bytes(f, data, count * sizeof(double));
}

H_HELPER void h_write_f64(FILE *f, double x) { h_write_bytes(f, &x, sizeof x); }

/* ------------------------------------------------------------------------ */

/* Peak resident set size of this process image in KiB (-1 if unknown):
 * VmHWM of /proc/self/status, the high-water mark of the current address
 * space. getrusage's ru_maxrss is not used first because Linux carries it
 * across execve: a process started by a large parent (a benchmark runner
 * that spawns with vfork) would report the parent's peak. */
H_HELPER long h_peak_rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[256];
        long kb = -1;
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "VmHWM:", 6) == 0) {
                kb = strtol(line + 6, NULL, 10);
                break;
            }
        }
        fclose(f);
        if (kb >= 0) return kb;
    }
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static void h_usage(void) {
    fprintf(stderr, "usage: %s [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]\n", h_prog);
    exit(2);
}

int main(int argc, char **argv) {
    long long runs = 1, warmup = 0;
    const char *in_path = NULL, *out_path = NULL;
    int stats = 0;
    h_prog = argv[0];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            char *end;
            errno = 0;
            runs = strtoll(argv[++i], &end, 10);
            if (errno || *end || runs < 1) h_fail("--runs needs a positive integer");
        } else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
            char *end;
            errno = 0;
            warmup = strtoll(argv[++i], &end, 10);
            if (errno || *end || warmup < 0) h_fail("--warmup needs a non-negative integer");
        } else if (!strcmp(argv[i], "--in") && i + 1 < argc) {
            in_path = argv[++i];
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!strcmp(argv[i], "--stats")) {
            stats = 1;
        } else {
            h_usage();
        }
    }

    FILE *in = stdin;
    if (in_path && strcmp(in_path, "-") && !(in = fopen(in_path, "rb")))
        h_fail("cannot open %s: %s", in_path, strerror(errno));
    bench_read(in);
    if (fgetc(in) != EOF) h_fail("trailing bytes after the inputs");
    if (in != stdin) fclose(in);

    for (long long r = 0; r < warmup; r++) {
        bench_run();
        H_BARRIER();
    }

    struct timespec t0, t1;
    h_live_bytes = h_peak_bytes = 0;
    h_allocs = 0;
    h_counting = 1;
    H_BARRIER();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long long r = 0; r < runs; r++) {
        bench_run();
        H_BARRIER();
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    H_BARRIER();
    h_counting = 0;
    unsigned long long allocs = h_allocs;
    long long peak = h_peak_bytes;

    long long total_ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);

    FILE *out = stdout;
    if (out_path && strcmp(out_path, "-") && !(out = fopen(out_path, "wb")))
        h_fail("cannot open %s: %s", out_path, strerror(errno));
    bench_write(out);
    if (fflush(out) != 0) h_fail("write error: %s", strerror(errno));
    if (out != stdout) fclose(out);

    if (stats) {
        fprintf(stderr,
                "stats: runs=%lld total_ns=%lld ns_per_run=%.1f peak_rss_kb=%ld sys_allocs=%llu "
                "peak_bytes=%lld\n",
                runs, total_ns, (double)total_ns / (double)runs, h_peak_rss_kb(), allocs, peak);
    }
    return 0;
}

#endif
