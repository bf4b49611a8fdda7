/* rt_test.c -- self-checking test of weir_rt.h. Exits 0 when every check
 * passes; otherwise prints each failed check and exits 1.
 *
 *   cc -std=c11 -O2 -Wall -Wextra -Werror -DWEIR_MEM=0 rt_test.c -lm   (also 1, 2)
 *   cc -std=c11 -O2 -Wall -Wextra -Werror -DWEIR_MEM=3 rt_test.c -lgc -lm
 */
#include "weir_rt.h" /* first: it sets the feature macros */

#include <float.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RT_ASAN 1
#endif
#endif
#ifdef RT_ASAN
/* Let the absurd-allocation tests see NULL instead of an ASan report. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

static int failures, checks;
#define CHECK(cond)                                                         \
    do {                                                                    \
        checks++;                                                           \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                   \
    } while (0)
#define CHECK_EQ(a, b)                                                              \
    do {                                                                            \
        long long a_ = (long long)(a), b_ = (long long)(b);                         \
        checks++;                                                                   \
        if (a_ != b_) {                                                             \
            failures++;                                                             \
            fprintf(stderr, "FAIL %s:%d: %s == %s (%lld vs %lld)\n", __FILE__,      \
                    __LINE__, #a, #b, a_, b_);                                      \
        }                                                                           \
    } while (0)
#define CHECK_MSG(ctx, want)                                                          \
    do {                                                                              \
        checks++;                                                                     \
        if (strcmp(weir_error(ctx), (want)) != 0) {                                   \
            failures++;                                                               \
            fprintf(stderr, "FAIL %s:%d: error \"%s\", want \"%s\"\n", __FILE__,      \
                    __LINE__, weir_error(ctx), (want));                               \
        }                                                                             \
    } while (0)

static int aligned64(const void *p) { return p != NULL && (uintptr_t)p % 64 == 0; }

/* ---------------------------------------------- entry functions, as generated */

enum op { ADD, DIV64, REM64, DIV32, REM32, POW64, POW32, INDEX, SLICE, BYTES, ALLOC, SYSALLOC };
typedef struct { enum op op; int64_t a, b, c; int64_t out; } job;

#define LOC "examples/a.weir:12:5"

/* As a generated function: 0, or 1 with the error set, returned at once
   (the checks of division and powers are the generated code's own, as
   statements before the operation, which then cannot fail). */
static int job_body(weir_ctx *ctx, job *j) {
    /* Allocate in the region first, to check the reset-on-error. */
    void *scratch = weir_region_alloc(ctx, 1000), *sys = weir_sys_alloc(ctx, 500);
    if (!scratch || !sys) return 1;
    memset(scratch, 1, 1000);
    memset(sys, 2, 500);
    size_t bytes = 0;
    void *p = NULL;
    switch (j->op) {
    case ADD: j->out = weir_add_i64(j->a, j->b); break;
    case DIV64:
        if (j->b == 0) return weir_fail(ctx, LOC, "integer division by zero");
        j->out = weir_div0_i64(j->a, j->b);
        break;
    case REM64:
        if (j->b == 0) return weir_fail(ctx, LOC, "integer division by zero (remainder `%%` by 0)");
        j->out = weir_rem0_i64(j->a, j->b);
        break;
    case DIV32: j->out = weir_div0_i32((int32_t)j->a, (int32_t)j->b); break;
    case REM32: j->out = weir_rem0_i32((int32_t)j->a, (int32_t)j->b); break;
    case POW64:
        if (j->b < 0) return weir_fail(ctx, LOC, "negative exponent %" PRId64 " in an integer power", j->b);
        j->out = weir_pow0_i64(j->a, j->b);
        break;
    case POW32: j->out = weir_pow0_i32((int32_t)j->a, (int32_t)j->b); break;
    case INDEX:
        if (weir_check_index(ctx, j->a, j->b, LOC)) return 1;
        j->out = j->a;
        break;
    case SLICE:
        if (weir_check_slice(ctx, j->a, j->b, j->c, LOC)) return 1;
        j->out = 0;
        break;
    case BYTES:
        if (weir_bytes(ctx, j->a, (size_t)j->b, LOC, &bytes)) return 1;
        j->out = (int64_t)bytes;
        break;
    case ALLOC:
        if (!(p = weir_region_alloc(ctx, (size_t)j->a))) return 1;
        j->out = (int64_t)(uintptr_t)p;
        break;
    case SYSALLOC:
        if (!(p = weir_sys_alloc(ctx, (size_t)j->a))) return 1;
        j->out = (int64_t)(uintptr_t)p;
        break;
    }
    weir_sys_free(ctx, sys, 500);
    return 0;
}

/* The macro form of the entry wrapper. */
static int run_job(weir_ctx *ctx, job *j) { WEIR_ENTRY(ctx, job_body(ctx, j)); }

/* The spelled-out form, with several parameters like a real entry. */
static int idx_body(weir_ctx *ctx, const double *xs, int64_t n, int64_t i, double *out) {
    if (WEIR_UNLIKELY(weir_check_index(ctx, i, n, "examples/b.weir:3:9"))) return 1;
    *out = xs[i];
    return 0;
}
static int weir_entry_idx(weir_ctx *ctx, const double *xs, int64_t n, int64_t i, double *out) {
    weir_enter(ctx);
    if (WEIR_UNLIKELY(idx_body(ctx, xs, n, i, out))) return weir_on_error(ctx);
    return weir_leave(ctx);
}

/* Run op(a, b, c) expecting success; returns the result. */
static int64_t ok(weir_ctx *ctx, enum op op, int64_t a, int64_t b, int64_t c, int line) {
    job j = {op, a, b, c, -12345};
    if (run_job(ctx, &j) != 0) {
        failures++;
        fprintf(stderr, "FAIL line %d: op %d(%" PRId64 ", %" PRId64 ") failed: %s\n", line, op, a, b,
                weir_error(ctx));
    }
    checks++;
    return j.out;
}
#define OK(op, a, b) ok(ctx, op, a, b, 0, __LINE__)

/* Run op expecting the error "LOC: want"; checks the region was reset. */
static void fails(weir_ctx *ctx, enum op op, int64_t a, int64_t b, int64_t c, const char *want,
                  int line) {
    job j = {op, a, b, c, -12345};
    uint64_t before = weir_ctx_stats(ctx)->cur_bytes;
    char full[512];
    snprintf(full, sizeof full, "%s: %s", LOC, want);
    checks++;
    if (run_job(ctx, &j) != 1) {
        failures++;
        fprintf(stderr, "FAIL line %d: expected error \"%s\"\n", line, want);
    } else if (strcmp(weir_error(ctx), full) != 0) {
        failures++;
        fprintf(stderr, "FAIL line %d: error \"%s\", want \"%s\"\n", line, weir_error(ctx), full);
    }
    /* Region reset to the entry mark; modes 0/1 also free the call's sys blocks. */
    CHECK_EQ(weir_ctx_stats(ctx)->cur_bytes, before + (WEIR_MEM >= 2 ? 512 : 0));
}
#define FAILS(op, a, b, c, want) fails(ctx, op, a, b, c, want, __LINE__)

/* ---------------------------------------------------------------- tests */

static void test_region(void) {
    weir_ctx *ctx = weir_ctx_new();
    CHECK(ctx != NULL);
    const weir_stats *st = weir_ctx_stats(ctx);
    CHECK_EQ(st->sys_allocs, 0); /* nothing until first use */

    /* Alignment of every allocation, zero bytes included; distinct pointers. */
    size_t sizes[] = {0, 1, 7, 63, 64, 65, 100, 0, 4096, 12345, 1 << 20, 3 << 20, 5};
    void *prev = NULL;
    uint64_t sum = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        void *p = weir_region_alloc(ctx, sizes[k]);
        CHECK(aligned64(p));
        CHECK(p != prev);
        if (sizes[k]) memset(p, 0xab, sizes[k]);
        sum += sizes[k] ? (sizes[k] + 63) / 64 * 64 : 64;
        prev = p;
    }
    CHECK_EQ(st->cur_bytes, sum);
    weir_region_reset(ctx, (weir_mark){0, 0, 0});
    CHECK_EQ(st->cur_bytes, 0);

    /* mark/reset restores cur_bytes and hands out the same memory again. */
    weir_region_alloc(ctx, 10);
    weir_mark m = weir_region_mark(ctx);
    uint64_t at_mark = st->cur_bytes;
    void *a = weir_region_alloc(ctx, 1000);
    weir_region_alloc(ctx, 2000);
    CHECK_EQ(st->cur_bytes, at_mark + 1024 + 2048);
    weir_region_reset(ctx, m);
    CHECK_EQ(st->cur_bytes, at_mark);
    CHECK(weir_region_alloc(ctx, 1000) == a);

    /* A reset to a mark in an earlier chunk goes back to that chunk. */
    weir_mark m2 = weir_region_mark(ctx);
    void *b = weir_region_alloc(ctx, 64);
    weir_region_alloc(ctx, 6 << 20); /* forces a later chunk */
    weir_region_reset(ctx, m2);
    CHECK(weir_region_alloc(ctx, 64) == b);
    weir_ctx_free(ctx);
}

static void test_growth(void) {
    weir_ctx *ctx = weir_ctx_new();
    const weir_stats *st = weir_ctx_stats(ctx);
    enum { N = 100, SZ = 300 * 1000 }; /* 30 MB in 300 kB pieces: several chunks */
    unsigned char *blk[N];
    for (int k = 0; k < N; k++) {
        blk[k] = weir_region_alloc(ctx, SZ);
        CHECK(aligned64(blk[k]));
        for (int i = 0; i < SZ; i++) blk[k][i] = (unsigned char)(k * 31 + i * 7);
    }
    CHECK(st->sys_allocs >= 4);
    CHECK(st->reserved_bytes >= (uint64_t)N * SZ);
    int bad = 0;
    for (int k = 0; k < N; k++)
        for (int i = 0; i < SZ; i++) bad += blk[k][i] != (unsigned char)(k * 31 + i * 7);
    CHECK_EQ(bad, 0); /* growth never moved live data */
    weir_ctx_free(ctx);
}

/* A `build` of rows that fails in its first row (the interpreter allocates
   the list of rows, then the first row), and the soft growth it makes. */
static void test_first_row(void) {
    const int64_t huge_row[] = {3, (int64_t)1 << 61};     /* a row too large */
    const int64_t huge_list[] = {(int64_t)1 << 61, 4};    /* the list too large */
    const int64_t both[] = {(int64_t)1 << 61, (int64_t)1 << 61};
    const int64_t small[] = {3, 4};
    const int64_t none[] = {0, (int64_t)1 << 61};         /* no rows at all */
    CHECK(weir_first_row_fails(huge_row, 2, 8));
    CHECK(!weir_first_row_fails(huge_list, 2, 8));
    CHECK(!weir_first_row_fails(both, 2, 8));
    CHECK(!weir_first_row_fails(small, 2, 8));
    CHECK(!weir_first_row_fails(none, 2, 8));
    CHECK(!weir_first_row_fails(huge_row, 1, 8)); /* not a build of rows */
    weir_ctx *ctx = weir_ctx_new();
    CHECK(!weir_grow_soft(ctx, small, 2, 8) && !weir_grow_missing(ctx));
    CHECK(weir_grow_soft(ctx, huge_row, 2, 8) && weir_grow_missing(ctx));
    CHECK(weir_nowhere() != NULL && aligned64(weir_nowhere()));
    weir_enter(ctx); /* the next call starts with nothing missing */
    CHECK(!weir_grow_missing(ctx));
    weir_leave(ctx);
    weir_ctx_free(ctx);
}

static void test_overlap(void) {
    double buf[8];
    const int64_t d2[] = {2}, d3x2[] = {3, 2}, neg[] = {-1}, huge[] = {(int64_t)1 << 62, 8};
    CHECK(weir__extent(d2, 1, 8) == 16);
    CHECK(weir__extent(d3x2, 2, 8) == 48);
    CHECK(weir__extent(neg, 1, 8) == 0);
    CHECK(weir__extent(huge, 2, 8) == UINT64_MAX);
    CHECK(weir_overlap(buf, 16, buf + 1, 8));      /* inside */
    CHECK(weir_overlap(buf + 1, 8, buf, 16));      /* either order */
    CHECK(!weir_overlap(buf, 16, buf + 2, 16));    /* adjacent */
    CHECK(!weir_overlap(buf + 2, 16, buf, 16));
    CHECK(!weir_overlap(buf, 0, buf, 16));         /* an empty array */
    CHECK(!weir_overlap(buf, 16, buf + 1, 0));
    CHECK(weir_overlap(buf, 16, buf, 16));         /* the same */
}

static void test_steady_state(void) {
    weir_ctx *ctx = weir_ctx_new();
    const weir_stats *st = weir_ctx_stats(ctx);
    uint64_t allocs1 = 0, peak1 = 0, reserved1 = 0;
    int changed = 0;
    for (int it = 0; it < 1000; it++) {
        weir_mark m = weir_region_mark(ctx);
        double *x = weir_region_alloc_n(ctx, 1000, sizeof(double), LOC);
        double *big = weir_region_alloc_n(ctx, 300000, sizeof(double), LOC); /* > 1 MiB */
        int32_t *y = weir_region_alloc_n(ctx, 77, sizeof(int32_t), LOC);
        x[999] = big[299999] = y[76] = it;
        weir_region_reset(ctx, m);
        if (it == 0) {
            allocs1 = st->sys_allocs, peak1 = st->peak_bytes, reserved1 = st->reserved_bytes;
        } else {
            changed += st->sys_allocs != allocs1 || st->peak_bytes != peak1 ||
                       st->reserved_bytes != reserved1;
        }
    }
    CHECK_EQ(allocs1, 2);
    CHECK_EQ(changed, 0);
    CHECK_EQ(st->cur_bytes, 0);
    weir_stats_reset(ctx);
    CHECK_EQ(st->sys_allocs, 0);
    CHECK_EQ(st->peak_bytes, 0);
    CHECK_EQ(st->reserved_bytes, reserved1); /* chunk bookkeeping kept */
    weir_ctx_free(ctx);
}

static void test_sys(void) {
    weir_ctx *ctx = weir_ctx_new();
    const weir_stats *st = weir_ctx_stats(ctx);
    void *ps[50];
    for (int k = 0; k < 50; k++) {
        size_t n = (size_t)k * 1000;
        ps[k] = weir_sys_alloc(ctx, n);
        CHECK(aligned64(ps[k]));
        if (n) memset(ps[k], k, n);
    }
    CHECK_EQ(st->sys_allocs, 50);
    for (int k = 0; k < 50; k += 2) weir_sys_free(ctx, ps[k], (size_t)k * 1000);
#if WEIR_MEM == 0 || WEIR_MEM == 1
    CHECK_EQ(st->sys_frees, 25);
    for (int k = 1; k < 50; k += 2) weir_sys_free(ctx, ps[k], (size_t)k * 1000);
    CHECK_EQ(st->sys_allocs, st->sys_frees);
    CHECK_EQ(st->cur_bytes, 0);
    CHECK(st->peak_bytes > 0);
    /* Blocks never freed are released by weir_ctx_free (ASan/valgrind check it). */
    weir_sys_alloc(ctx, 12345);
    weir_sys_alloc(ctx, 0);
#else
    CHECK_EQ(st->sys_frees, 0); /* leak and gc modes never free */
#if WEIR_MEM == 3
    /* Only aligned (interior) pointers are kept: the blocks must survive a collection. */
    for (int k = 0; k < 50; k++) memset(ps[k] = weir_sys_alloc(ctx, 4000 + (size_t)k), k, 4000 + (size_t)k);
    for (int r = 0; r < 200; r++) weir_sys_alloc(ctx, 100000); /* garbage */
    GC_gcollect();
    for (int k = 0; k < 500; k++) memset(weir_sys_alloc(ctx, 4000 + (size_t)k % 50), 0xee, 4000 + (size_t)k % 50);
    int bad = 0;
    for (int k = 0; k < 50; k++)
        for (int i = 0; i < 4000 + k; i++) bad += ((unsigned char *)ps[k])[i] != k;
    CHECK_EQ(bad, 0);
#endif
    CHECK(st->cur_bytes >= 49 * 50 * 1000 / 2);
#endif
    weir_ctx_free(ctx);
}

static void test_errors(void) {
    weir_ctx *ctx = weir_ctx_new();
    weir_region_alloc(ctx, 100); /* live data before the entries */
    unsigned char *keep = weir_sys_alloc(ctx, 256);
    memset(keep, 9, 256);

    /* Index and slice checks, both entry forms. */
    double xs[3] = {1, 2, 3}, out = 0;
    CHECK_EQ(weir_entry_idx(ctx, xs, 3, 2, &out), 0);
    CHECK(out == 3.0);
    CHECK_MSG(ctx, "");
    CHECK_EQ(weir_entry_idx(ctx, xs, 3, 5, &out), 1);
    CHECK_MSG(ctx, "examples/b.weir:3:9: index out of bounds: index 5 in an array of length 3");
    CHECK_EQ(OK(INDEX, 0, 1), 0);
    FAILS(INDEX, -1, 3, 0, "index out of bounds: index -1 in an array of length 3");
    FAILS(INDEX, INT64_MIN, 3, 0, "index out of bounds: index -9223372036854775808 in an array of length 3");
    FAILS(INDEX, 0, 0, 0, "index out of bounds: index 0 in an array of length 0");
    CHECK_EQ(ok(ctx, SLICE, 0, 0, 0, __LINE__), 0);
    CHECK_EQ(ok(ctx, SLICE, 1, 3, 3, __LINE__), 0);
    FAILS(SLICE, 2, 1, 3, "slice [2:1] out of bounds for an array of length 3");
    FAILS(SLICE, -1, 1, 3, "slice [-1:1] out of bounds for an array of length 3");
    FAILS(SLICE, 0, 4, 3, "slice [0:4] out of bounds for an array of length 3");

    /* Division and remainder. */
    CHECK_EQ(OK(DIV64, INT64_MIN, -1), INT64_MIN);
    CHECK_EQ(OK(REM64, INT64_MIN, -1), 0);
    CHECK_EQ(OK(DIV64, -7, 2), -3);
    CHECK_EQ(OK(REM64, -7, 2), -1);
    CHECK_EQ(OK(REM64, 7, -2), 1);
    FAILS(DIV64, 5, 0, 0, "integer division by zero");
    FAILS(REM64, 5, 0, 0, "integer division by zero (remainder `%` by 0)");
    CHECK_EQ(OK(DIV32, INT32_MIN, -1), INT32_MIN);
    CHECK_EQ(OK(REM32, INT32_MIN, -1), 0);
    CHECK_EQ(OK(DIV32, 9, -4), -2);
    CHECK_EQ(OK(DIV32, 1, 0), 0); /* (after its check: never reached with 0) */
    CHECK_EQ(OK(REM32, 1, 0), 0);

    /* Powers: wrapping, and the negative exponent error. */
    CHECK_EQ(OK(POW64, 3, 4), 81);
    CHECK_EQ(OK(POW64, 0, 0), 1);
    CHECK_EQ(OK(POW64, -2, 63), INT64_MIN);
    CHECK_EQ(OK(POW64, 2, 64), 0);
    CHECK_EQ(OK(POW64, 3, 40), (int64_t)12157665459056928801ull); /* 3^40 mod 2^64 */
    CHECK_EQ(OK(POW64, -1, INT64_MAX), -1);
    CHECK_EQ(OK(POW32, 2, 31), INT32_MIN);
    CHECK_EQ(OK(POW32, 3, 21), (int32_t)(uint32_t)10460353203ull); /* 3^21 mod 2^32 */
    CHECK_EQ(OK(POW32, 7, 0), 1);
    FAILS(POW64, 2, -1, 0, "negative exponent -1 in an integer power");
    CHECK_EQ(OK(POW32, 2, -5), 0);

    /* Sizes and out of memory: clean failures, never a crash. */
    CHECK_EQ(OK(BYTES, 100, 8), 800);
    CHECK_EQ(OK(BYTES, 0, 8), 0);
    CHECK_EQ(OK(BYTES, INT64_MAX, 0), 0);
    CHECK_EQ(OK(BYTES, (int64_t)1 << 45, 8), (int64_t)1 << 48); /* the largest allowed */
    FAILS(BYTES, ((int64_t)1 << 45) + 1, 8, 0,
          "out of memory: an array of 35184372088833 elements of 8 bytes is too large");
    FAILS(BYTES, (int64_t)1 << 62, 8, 0, /* 2^65 bytes */
          "out of memory: an array of 4611686018427387904 elements of 8 bytes is too large");
    FAILS(BYTES, -3, 8, 0, "negative array length -3");
    job j = {ALLOC, (int64_t)1 << 50, 0, 0, 0}; /* 1 PiB: the system says no */
    CHECK_EQ(run_job(ctx, &j), 1);
    CHECK(strstr(weir_error(ctx), "out of memory") != NULL);
    j = (job){ALLOC, -1, 0, 0, 0}; /* SIZE_MAX bytes */
    CHECK_EQ(run_job(ctx, &j), 1);
    CHECK(strstr(weir_error(ctx), "out of memory") != NULL);
    j = (job){SYSALLOC, (int64_t)1 << 50, 0, 0, 0};
#if WEIR_MEM != 3 /* Boehm GC aborts on such a request by default */
    CHECK_EQ(run_job(ctx, &j), 1);
    CHECK(strstr(weir_error(ctx), "out of memory") != NULL);
#endif
    j = (job){SYSALLOC, -1, 0, 0, 0};
    CHECK_EQ(run_job(ctx, &j), 1);
    CHECK(strstr(weir_error(ctx), "out of memory") != NULL);
    j = (job){ALLOC, 4 << 20, 0, 0, 0};
    CHECK_EQ(run_job(ctx, &j), 0); /* still usable afterwards */
    CHECK(aligned64((void *)(uintptr_t)j.out));
    /* Failed calls freed only their own sys blocks (ASan/valgrind: no double free). */
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += keep[i] != 9;
    CHECK_EQ(bad, 0);
    weir_sys_free(ctx, keep, 256);
    weir_ctx_free(ctx);
}

static void test_pure(void) {
    /* a growing loop state's new capacity: doubles, at least what is needed,
       capped at what fits in memory, exact for empty rows */
    const int64_t one[] = {1}, three[] = {3}, none[] = {0}, huge[] = {INT64_MAX, 4};
    {
        double a[3] = {1.0, 2.0, 3.0}, b[3] = {0.0, 0.0, 0.0};
        weir_copy(b, a, 2, sizeof(double));
        CHECK(b[0] == 1.0 && b[1] == 2.0 && b[2] == 0.0);
        weir_copy(b, a, -1, sizeof(double));
        weir_copy(b + 2, a + 2, 0, sizeof(double));
        CHECK(b[2] == 0.0);
        weir_copy(a, a, 3, sizeof(double));
        CHECK(a[2] == 3.0);
    }
    CHECK_EQ(weir_grow_rows(0, 1, one, 0, 8), 1);
    CHECK_EQ(weir_grow_rows(-1, 0, one, 0, 8), 0);
    CHECK_EQ(weir_grow_rows(-1, 7, three, 1, 8), 7);
    CHECK_EQ(weir_grow_rows(4, 5, one, 0, 8), 8);
    CHECK_EQ(weir_grow_rows(4, 100, one, 0, 8), 100);
    CHECK_EQ(weir_grow_rows(10, 11, three, 1, 8), 20);
    CHECK_EQ(weir_grow_rows(INT64_MAX / 2, INT64_MAX / 2 + 1, one, 0, 8), INT64_MAX / 2 + 1);
    CHECK_EQ(weir_grow_rows((int64_t)(WEIR_MAX_BYTES / 16), (int64_t)(WEIR_MAX_BYTES / 16) + 1, one, 0, 8), (int64_t)(WEIR_MAX_BYTES / 8));
    CHECK_EQ(weir_grow_rows((int64_t)(WEIR_MAX_BYTES / 8) - 5, (int64_t)(WEIR_MAX_BYTES / 8) - 4, one, 0, 8), (int64_t)(WEIR_MAX_BYTES / 8));
    CHECK_EQ(weir_grow_rows(5, 7, none, 1, 8), 7);
    CHECK_EQ(weir_grow_rows(5, 7, huge, 2, 8), 7);
    CHECK_EQ(weir_add_i64(INT64_MAX, 1), INT64_MIN);
    CHECK_EQ(weir_sub_i64(INT64_MIN, 1), INT64_MAX);
    CHECK_EQ(weir_mul_i64(INT64_MIN, -1), INT64_MIN);
    CHECK_EQ(weir_mul_i64(INT64_MAX, 2), -2);
    CHECK_EQ(weir_add_i32(INT32_MAX, 1), INT32_MIN);
    CHECK_EQ(weir_sub_i32(INT32_MIN, 1), INT32_MAX);
    CHECK_EQ(weir_mul_i32(65536, 65536), 0);
    CHECK_EQ(weir_mul_i32(-3, 5), -15);
    CHECK_EQ(weir_abs_i64(INT64_MIN), INT64_MIN);
    CHECK_EQ(weir_abs_i64(-5), 5);
    CHECK_EQ(weir_abs_i32(INT32_MIN), INT32_MIN);
    CHECK_EQ(weir_abs_i32(-5), 5);
    CHECK_EQ(weir_neg_i64(INT64_MIN), INT64_MIN);
    CHECK_EQ(weir_neg_i32(7), -7);
    CHECK_EQ(weir_i64_to_i32(((int64_t)1 << 32) + 5), 5);
    CHECK_EQ(weir_i64_to_i32(-1), -1);
    CHECK_EQ(weir_i64_to_i32(INT64_MIN), 0);

    double inf = INFINITY, nan = NAN;
    CHECK_EQ(weir_f64_to_i64(nan), 0);
    CHECK_EQ(weir_f64_to_i64(inf), INT64_MAX);
    CHECK_EQ(weir_f64_to_i64(-inf), INT64_MIN);
    CHECK_EQ(weir_f64_to_i64(1e19), INT64_MAX);
    CHECK_EQ(weir_f64_to_i64(-1e19), INT64_MIN);
    CHECK_EQ(weir_f64_to_i64(9223372036854775807.0), INT64_MAX); /* rounds to 2^63 */
    CHECK_EQ(weir_f64_to_i64(-9223372036854775808.0), INT64_MIN);
    CHECK_EQ(weir_f64_to_i64(9223372036854774784.0), 9223372036854774784LL);
    CHECK_EQ(weir_f64_to_i64(-2.9), -2);
    CHECK_EQ(weir_f64_to_i64(2.9), 2);
    CHECK_EQ(weir_f64_to_i64(-0.0), 0);
    CHECK_EQ(weir_f64_to_i32(nan), 0);
    CHECK_EQ(weir_f64_to_i32(3e9), INT32_MAX);
    CHECK_EQ(weir_f64_to_i32(-3e9), INT32_MIN);
    CHECK_EQ(weir_f64_to_i32(2147483647.9), INT32_MAX);
    CHECK_EQ(weir_f64_to_i32(2147483648.0), INT32_MAX);
    CHECK_EQ(weir_f64_to_i32(-2147483648.9), INT32_MIN);
    CHECK_EQ(weir_f64_to_i32(-2147483647.5), -2147483647);
    CHECK_EQ(weir_f64_to_i32(inf), INT32_MAX);
    CHECK_EQ(weir_f64_to_i32(-inf), INT32_MIN);
    CHECK_EQ(weir_f32_to_i64((float)nan), 0);
    CHECK_EQ(weir_f32_to_i64((float)inf), INT64_MAX);
    CHECK_EQ(weir_f32_to_i64(-FLT_MAX), INT64_MIN);
    CHECK_EQ(weir_f32_to_i64(16777216.0f), 16777216);
    CHECK_EQ(weir_f32_to_i32(3e9f), INT32_MAX);
    CHECK_EQ(weir_f32_to_i32(-3e9f), INT32_MIN);
    CHECK_EQ(weir_f32_to_i32((float)-inf), INT32_MIN);
    CHECK_EQ(weir_f32_to_i32(-7.5f), -7);
    CHECK(weir_fmod(7.5, 2.0) == 1.5);
    CHECK(weir_fmod(-7.5, 2.0) == -1.5);

    /* the small and unsigned types (issue 20): wrapping, no promotion to a
       signed int that overflows (u16 * u16), MIN / -1, shifts with any count */
    CHECK_EQ(weir_add_u8(200, 100), 44);
    CHECK_EQ(weir_sub_u8(1, 2), 255);
    CHECK_EQ(weir_mul_u16(65535, 65535), 1);
    CHECK_EQ(weir_mul_i16(-32768, -1), -32768);
    CHECK_EQ(weir_add_i8(127, 1), -128);
    CHECK_EQ(weir_neg_u32(1), UINT32_MAX);
    CHECK_EQ(weir_div0_i8(-128, -1), -128);
    CHECK_EQ(weir_rem0_i8(-128, -1), 0);
    CHECK_EQ(weir_div0_i16(-7, 2), -3);
    CHECK_EQ(weir_rem0_i16(-7, 2), -1);
    CHECK_EQ(weir_div0_u8(255, 16), 15);
    CHECK(weir_div0_u64(UINT64_MAX, 3) == UINT64_MAX / 3);
    CHECK_EQ(weir_pow0_u8(3, 5), 243);
    CHECK_EQ(weir_pow0_i8(3, 5), -13);
    CHECK(weir_pow0_u64(3, UINT64_MAX) == 12297829382473034411ULL);
    CHECK_EQ(weir_abs_i8(-128), -128);
    CHECK_EQ(weir_not_u8(0x0f), 0xf0);
    CHECK_EQ(weir_not_i32(0), -1);
    CHECK_EQ(weir_shl_u8(0xff, 4), 0xf0);
    CHECK_EQ(weir_shl_i32(1, 31), INT32_MIN);
    CHECK_EQ(weir_shl_i32(1, 32), 0);
    CHECK_EQ(weir_shl_i32(1, -1), 0);
    CHECK_EQ(weir_shr_i8(-128, 7), -1);
    CHECK_EQ(weir_shr_i8(-128, 8), -1);
    CHECK_EQ(weir_shr_i64(-5, 1), -3);
    CHECK_EQ(weir_shr_i64(5, 64), 0);
    CHECK_EQ(weir_shr_i16(-1, -3), -1);
    CHECK_EQ(weir_shr_u8(0x80, 7), 1);
    CHECK_EQ(weir_ushr_i8(-128, 7), 1);
    CHECK_EQ(weir_ushr_i32(-1, 28), 15);
    CHECK_EQ(weir_ushr_i32(-1, 32), 0);
    CHECK(weir_ushr_u64(UINT64_MAX, 63) == 1);
    CHECK_EQ(weir_popc_i8(-1), 8);
    CHECK_EQ(weir_popc_u64(UINT64_MAX), 64);
    CHECK_EQ(weir_clz_u8(0), 8);
    CHECK_EQ(weir_clz_u8(1), 7);
    CHECK_EQ(weir_clz_i16(-1), 0);
    CHECK_EQ(weir_ctz_u32(0), 32);
    CHECK_EQ(weir_ctz_i64(INT64_MIN), 63);
    CHECK_EQ(weir_min_u32(UINT32_MAX, 1), 1);
    CHECK_EQ(weir_max_i8(-128, -1), -1);
    CHECK_EQ(weir_f64_to_u8(-0.5), 0);
    CHECK_EQ(weir_f64_to_u8(-1.0), 0);
    CHECK_EQ(weir_f64_to_u8(255.9), 255);
    CHECK_EQ(weir_f64_to_u8(256.0), 255);
    CHECK_EQ(weir_f64_to_u8(nan), 0);
    CHECK_EQ(weir_f64_to_i8(-128.9), -128);
    CHECK_EQ(weir_f64_to_i8(-129.0), -128);
    CHECK_EQ(weir_f64_to_i16(1e10), INT16_MAX);
    CHECK(weir_f64_to_u64(1.8446744073709552e19) == UINT64_MAX);
    CHECK(weir_f64_to_u64(1.8446744073709550e19) == 18446744073709549568ULL);
    CHECK_EQ(weir_f32_to_u16((float)inf), UINT16_MAX);
    CHECK_EQ(weir_f32_to_u32(-3e9f), 0);
}

/* Run fn in a child; return its exit status (or -1). */
static int child_status(void (*fn)(void)) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        fn();
        _exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st)) return -1;
    return WEXITSTATUS(st);
}

static void short_read(void) {
    FILE *f = tmpfile();
    weir_write_all(f, "abc", 3);
    rewind(f);
    char buf[8];
    freopen("/dev/null", "w", stderr);
    weir_read_exact(f, buf, 8); /* exits 2 */
}

static void test_misc(void) {
    /* Timing and RSS. */
    uint64_t t0 = weir_now_ns(), t1 = weir_now_ns();
    CHECK(t0 > 0 && t1 >= t0);
    CHECK(weir_peak_rss_kb() > 0);

    /* Binary I/O round trip and the harness allocator. */
    FILE *f = tmpfile();
    CHECK(f != NULL);
    double *in = weir_xmalloc(1000 * sizeof(double)), *back = weir_xmalloc(1000 * sizeof(double));
    CHECK(aligned64(in) && aligned64(back));
    for (int i = 0; i < 1000; i++) in[i] = i * 0.5;
    weir_write_all(f, in, 1000 * sizeof(double));
    weir_write_all(f, in, 0);
    rewind(f);
    weir_read_exact(f, back, 1000 * sizeof(double));
    weir_read_exact(f, back, 0);
    CHECK(memcmp(in, back, 1000 * sizeof(double)) == 0);
    fclose(f);
    free(in);
    free(back);
    void *z = weir_xmalloc(0);
    CHECK(aligned64(z));
    free(z);

    /* Exits with status 2 on short input. */
    CHECK_EQ(child_status(short_read), 2);
}

/* Sizes (issue 14): counts, overflow, argument and destination checks, errors
   as status codes, and the located out-of-memory errors. */
static int size_job(weir_ctx *ctx, int which) {
    const int64_t big[2] = {2, INT64_C(1) << 61};
    const int64_t d23[2] = {2, 3}, d22[2] = {2, 2};
    switch (which) {
    case 0: return weir_count(ctx, big, 2, 8, LOC) < 0;
    case 1: return weir_region_alloc_at(ctx, (size_t)1 << 61, LOC) == NULL;
    case 2: return weir_sys_alloc_at(ctx, ((size_t)1 << 62) + 1, LOC) == NULL;
    case 3: return weir_check_dest(ctx, LOC, "f", 0, d22, d22, d23, 2, 8, 0);
    case 4: return weir_check_dest(ctx, LOC, "f", 1, NULL, big, big, 2, 8, 0);
    default: return weir_check_dest(ctx, LOC, "f", 0, d23, d23, d23, 2, 8, 0);
    }
}
static int run_size_job(weir_ctx *ctx, int which) { WEIR_ENTRY(ctx, size_job(ctx, which)); }

static void test_sizes(void) {
    int64_t n = -1;
    const int64_t a[3] = {2, 3, 4}, z[3] = {0, -1, INT64_MAX}, neg[2] = {3, -2};
    const int64_t over[2] = {INT64_C(1) << 32, INT64_C(1) << 32}, edge[1] = {INT64_C(1) << 45};
    CHECK(weir_count_ok(a, 3, 8, &n) && n == 24);
    CHECK(weir_count_ok(z, 3, 8, &n) && n == 0); /* a zero or negative dim: no element */
    CHECK(weir_count_ok(neg, 2, 8, &n) && n == 0);
    CHECK(!weir_count_ok(over, 2, 8, &n) && n == 0);
    CHECK(weir_count_ok(edge, 1, 8, &n) && n == INT64_C(1) << 45); /* 2^48 bytes: the limit */
    CHECK(!weir_count_ok(edge, 1, 9, &n));
    CHECK(weir_count_ok(a, 0, 8, &n) && n == 1);
    CHECK_EQ(weir_div0_i64(7, 0), 0);
    CHECK_EQ(weir_div0_i64(INT64_MIN, -1), INT64_MIN);
    CHECK_EQ(weir_div0_i64(-7, 2), -3);
    CHECK(weir_mul_eq(3, 4, 12) && !weir_mul_eq(INT64_C(1) << 62, 4, 0));
    CHECK(weir_prod_eq(a, 3, 24) && !weir_prod_eq(neg, 2, -6) && !weir_prod_eq(over, 2, 0));
    /* a zero or negative dim holds nothing: only an empty array has it */
    CHECK(weir_prod_eq(neg, 2, 0) && !weir_prod_eq(neg, 2, 6));
    CHECK_EQ(weir_dim0(-3), 0);
    CHECK_EQ(weir_dim0(5), 5);
    CHECK_EQ(weir_copy_bytes(-1, 8), 0);
    CHECK_EQ(weir_copy_bytes(3, 8), 24);

    weir_ctx *ctx = weir_ctx_new();
    /* Errors as status codes (shape functions). */
    double cells[24] = {0};
    CHECK_EQ(weir_check_arg(ctx, LOC, "a", cells, a, 3, 8), 0);
    CHECK_EQ(weir_check_arg(ctx, LOC, "a", cells, neg, 2, 8), 1);
    CHECK_MSG(ctx, LOC ": invalid argument: array `a` has dims 3 x -2 (negative, or too large for memory)");
    CHECK_EQ(weir_check_arg(ctx, LOC, "b", cells, over, 2, 8), 1);
    /* NULL: an array of no elements only */
    CHECK_EQ(weir_check_arg(ctx, LOC, "a", NULL, a, 3, 8), 1);
    CHECK_MSG(ctx, LOC ": invalid argument: array `a` is NULL but has dims 2 x 3 x 4");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_ARGUMENT);
    const int64_t empty[2] = {5, 0};
    CHECK_EQ(weir_check_arg(ctx, LOC, "a", NULL, empty, 2, 8), 0);
    CHECK_EQ(weir_too_large(ctx, LOC, over, 2, 8), 1);
    CHECK_MSG(ctx, LOC ": out of memory: an array of 4294967296 x 4294967296 elements of 8 bytes is too large");
    weir_error_clear(ctx);
    CHECK_MSG(ctx, "");
    /* Inside an entry: located out-of-memory and destination errors. */
    CHECK_EQ(run_size_job(ctx, 0), 1);
    CHECK_MSG(ctx, LOC ": out of memory: an array of 2 x 2305843009213693952 elements of 8 bytes is too large");
    CHECK_EQ(run_size_job(ctx, 1), 1);
    CHECK(strncmp(weir_error(ctx), LOC ": out of memory", strlen(LOC ": out of memory")) == 0);
    CHECK_EQ(run_size_job(ctx, 2), 1);
    CHECK(strncmp(weir_error(ctx), LOC ": out of memory", strlen(LOC ": out of memory")) == 0);
    CHECK_EQ(run_size_job(ctx, 3), 1);
    CHECK_MSG(ctx, LOC ": size mismatch: destination 0 of `f` has dims 2 x 2 where the result needs 2 x 3");
    CHECK_EQ(run_size_job(ctx, 4), 0); /* NULL for a result too large: marked missing */
    CHECK(weir_dest_missing(ctx, 1) && !weir_dest_missing(ctx, 0));
    weir_dest_reset(ctx); /* what the entry's slow path does after the body */
    CHECK(!weir_dest_missing(ctx, 1));
    CHECK_EQ(run_size_job(ctx, 4), 0);
    CHECK_EQ(run_size_job(ctx, 3), 1); /* a failed call forgets them too */
    CHECK(!weir_dest_missing(ctx, 1));
    CHECK_EQ(run_size_job(ctx, 5), 0);
    /* A destination of existential size too small: "too small", the rows it
       needs (weir_retry_rows), WEIR_ERR_NOMEM; without storage: out of memory. */
    weir_enter(ctx);
    CHECK_EQ(weir_dest_retry(ctx, 1, 9, 4, 0, LOC), 1);
    CHECK_MSG(ctx, LOC ": destination 1 is too small: it has 4 rows, the result needs 9 (weir_retry_rows)");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_NOMEM);
    CHECK_EQ(weir_retry_rows(ctx, 1), 9);
    CHECK_EQ(weir_retry_rows(ctx, 0), -1);
    CHECK_EQ(weir_dest_retry(ctx, 0, 7, 0, 1, LOC), 1);
    CHECK_MSG(ctx, LOC ": out of memory: result 0 is too large to allocate");
    CHECK_EQ(weir_retry_rows(ctx, 0), 7);
    (void)weir_on_error(ctx);
    weir_enter(ctx); /* a new call forgets them */
    CHECK_EQ(weir_retry_rows(ctx, 1), -1);
    /* Scratch of a bound, and the result copied back where it fits. */
    const int64_t bound[2] = {6, 2};
    weir_mark m = weir_region_mark(ctx);
    double *sc = weir_dest_scratch(ctx, bound, 2, sizeof(double));
    CHECK(aligned64(sc));
    for (int i = 0; i < 12; i++) sc[i] = i;
    double small[8] = {0};
    CHECK_EQ(weir_dest_copy_back(ctx, LOC, 0, small, 4, sc, 3, 6, sizeof(double)), 0);
    CHECK(small[5] == 5 && small[6] == 0);
    CHECK_EQ(weir_dest_copy_back(ctx, LOC, 0, small, 4, sc, 5, 10, sizeof(double)), 1);
    CHECK_MSG(ctx, LOC ": destination 0 is too small: it has 4 rows, the result needs 5 (weir_retry_rows)");
    CHECK_EQ(weir_retry_rows(ctx, 0), 5);
    weir_region_reset(ctx, m);
    const int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    CHECK(weir_dest_scratch(ctx, huge, 2, sizeof(double)) == NULL); /* no error set */
    (void)weir_on_error(ctx);
    weir_ctx_free(ctx);
}

/* The public API of weir.h: error kinds, location and message apart,
   options, release, versions. */
static void test_public_api(void) {
    weir_ctx *ctx = weir_ctx_new_with(&(weir_options){.region_bytes = 100, .threads = 1});
    CHECK(ctx != NULL);
    CHECK_EQ(weir_error_code(ctx), WEIR_OK);
    CHECK(!strcmp(weir_error_location(ctx), "") && !strcmp(weir_error_message(ctx), ""));
    CHECK_EQ(weir_fail(ctx, LOC, "index out of bounds: index %d", 7), 1);
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_PROGRAM);
    CHECK(!strcmp(weir_error_location(ctx), LOC));
    CHECK(!strcmp(weir_error_message(ctx), "index out of bounds: index 7"));
    CHECK_MSG(ctx, LOC ": index out of bounds: index 7");
    (void)weir_fail(ctx, LOC, "size mismatch: destination 0 of `f` has dims 3 where the result needs 4");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_ARGUMENT);
    (void)weir_fail(ctx, LOC, "invalid argument: array `a` has dims -1");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_ARGUMENT);
    (void)weir_fail(ctx, NULL, "out of memory: allocation of 9 bytes");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_NOMEM);
    CHECK(!strcmp(weir_error_location(ctx), ""));
    CHECK(!strcmp(weir_error_message(ctx), "out of memory: allocation of 9 bytes"));
    (void)weir_fail(ctx, LOC, "size mismatch: build produced an irregular array");
    CHECK_EQ(weir_error_code(ctx), WEIR_ERR_PROGRAM);
    weir_error_clear(ctx);
    CHECK_EQ(weir_error_code(ctx), WEIR_OK);
    CHECK_EQ(weir_retry_rows(ctx, 0), -1);
    CHECK_EQ(weir_retry_rows(ctx, -1), -1);
    /* A NULL context: an error of its own, nothing crashes. */
    CHECK_EQ(weir_error_code(NULL), WEIR_ERR_ARGUMENT);
    CHECK(strstr(weir_error(NULL), "context is NULL") != NULL);
    CHECK(!strcmp(weir_error_message(NULL), weir_error(NULL)));
    CHECK(!strcmp(weir_error_location(NULL), ""));
    CHECK_EQ(weir_retry_rows(NULL, 0), -1);
    CHECK(weir_ctx_stats(NULL) != NULL && weir_ctx_stats(NULL)->peak_bytes == 0);
    weir_error_clear(NULL);
    weir_stats_reset(NULL);
    weir_ctx_release(NULL);
    weir_ctx_free(NULL);
#if WEIR_MEM == 0
    /* the first chunk has the asked-for size (rounded to 64) */
    CHECK(weir_region_alloc(ctx, 10) != NULL);
    CHECK_EQ(weir_ctx_stats(ctx)->reserved_bytes, 128);
    weir_ctx_release(ctx);
    CHECK_EQ(weir_ctx_stats(ctx)->reserved_bytes, 0);
    CHECK_EQ(weir_ctx_stats(ctx)->cur_bytes, 0);
    CHECK(aligned64(weir_region_alloc(ctx, 1000))); /* usable again */
#endif
    weir_ctx_free(ctx);
    CHECK(weir_ctx_new_with(&(weir_options){.threads = 2}) == NULL);
    CHECK(!strcmp(weir_version(), WEIR_VERSION));
    CHECK_EQ(weir_abi_version(), WEIR_ABI_VERSION);
}

int main(void) {
    test_region();
    test_sizes();
    test_growth();
    test_first_row();
    test_overlap();
    test_steady_state();
    test_sys();
    test_errors();
    test_pure();
    test_misc();
    test_public_api();
    if (failures) {
        fprintf(stderr, "rt_test (WEIR_MEM=%d): %d of %d checks FAILED\n", WEIR_MEM, failures, checks);
        return 1;
    }
    printf("rt_test (WEIR_MEM=%d): all %d checks passed\n", WEIR_MEM, checks);
    return 0;
}
