/* The edges of the C API of a `weir lib` library: NULL contexts and
 * pointers, and results of data-dependent size in destinations smaller
 * than their bound. Self-checking: prints one line per check and exits 1
 * if any fails (crates/cli/tests/embed_c_edges.rs runs it, linked with the
 * library and compiled with its sources under AddressSanitizer and UBSan).
 *
 *   weir lib ../kernels.weir -o build
 *   cc -O2 -Ibuild edges.c build/libkernels.a -lm -o edges && ./edges
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

static int failures = 0;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    if (!ok) failures++;
}

/* The last call failed with `code` and a message containing `words`. */
static void failed(weir_ctx *ctx, int rc, int code, const char *words, const char *what) {
    int ok = rc == 1 && weir_error_code(ctx) == code && strstr(weir_error(ctx), words) != NULL;
    if (!ok) printf("  rc %d, error %d: %s\n", rc, weir_error_code(ctx), weir_error(ctx));
    check(ok, what);
}

int main(void) {
    double a[2] = {1, 2}, b[2] = {10, 20}, c[2] = {100, 200}, out[2] = {0, 0};
    int64_t dims[1] = {0};

    /* A NULL context: WEIR_ERR_ARGUMENT returned; the error API takes it. */
    check(kernels_add3(NULL, out, 2, a, 2, b, 2, c, 2) == WEIR_ERR_ARGUMENT, "entry, NULL context");
    check(kernels_add3_shape(NULL, a, 2, b, 2, c, 2, dims) == WEIR_ERR_ARGUMENT, "shape, NULL context");
    check(weir_error_code(NULL) == WEIR_ERR_ARGUMENT, "weir_error_code(NULL)");
    check(strstr(weir_error(NULL), "context is NULL") != NULL, "weir_error(NULL)");
    check(strstr(weir_error_message(NULL), "context is NULL") != NULL, "weir_error_message(NULL)");
    check(weir_error_location(NULL)[0] == '\0', "weir_error_location(NULL)");
    check(weir_retry_rows(NULL, 0) == -1, "weir_retry_rows(NULL, 0)");
    check(weir_ctx_stats(NULL) != NULL && weir_ctx_stats(NULL)->sys_allocs == 0, "weir_ctx_stats(NULL)");
    weir_error_clear(NULL);
    weir_stats_reset(NULL);
    weir_ctx_release(NULL);
    weir_ctx_free(NULL);

    weir_ctx *ctx = weir_ctx_new();
    if (!ctx) return 1;

    /* NULL arrays: an error naming the parameter, unless they have no elements. */
    failed(ctx, kernels_add3(ctx, out, 2, a, 2, NULL, 2, c, 2), WEIR_ERR_ARGUMENT, "array `b` is NULL",
           "entry, NULL argument");
    failed(ctx, kernels_add3_shape(ctx, a, 2, b, 2, NULL, 2, dims), WEIR_ERR_ARGUMENT, "array `c` is NULL",
           "shape, NULL argument");
    failed(ctx, kernels_add3_shape(ctx, a, 2, b, 2, c, 2, NULL), WEIR_ERR_ARGUMENT, "out0_dims",
           "shape, NULL dims");
    check(kernels_add3(ctx, NULL, 0, NULL, 0, NULL, 0, NULL, 0) == 0, "entry, NULL arrays of no elements");
    check(kernels_add3_shape(ctx, NULL, 0, NULL, 0, NULL, 0, dims) == 0 && dims[0] == 0,
          "shape, NULL arrays of no elements");
    double x = 0;
    failed(ctx, kernels_nothing(ctx, 1.0, NULL), WEIR_ERR_ARGUMENT, "ret0", "entry, NULL result pointer");
    check(kernels_nothing(ctx, 1.5, &x) == 0 && x == 1.5, "entry, the same call with a pointer");
    /* A NULL destination: the caller could not allocate it (out of memory). */
    failed(ctx, kernels_add3(ctx, NULL, 2, a, 2, b, 2, c, 2), WEIR_ERR_NOMEM, "out of memory",
           "entry, NULL destination");

    /* A result of data-dependent size: 4 of 6 elements kept, bound 6; any
       destination of at least 4 rows takes it (7 rows: more than the bound). */
    double xs[6] = {0.5, 3, -1, 7, 2, 9};
    int64_t bound[1] = {0}, size = -1, count = -1;
    check(kernels_above_shape(ctx, 1.5, xs, 6, bound) == 0 && bound[0] == 6, "above: bound 6");
    for (int64_t rows = 7; rows >= 4; rows--) {
        /* exactly `rows` rows on the heap: AddressSanitizer sees a write past them */
        double *dst = malloc((size_t)rows * sizeof *dst);
        if (!dst) return 1;
        size = count = -1;
        int rc = kernels_above(ctx, dst, rows, 1.5, xs, 6, &count, &size);
        char what[64];
        snprintf(what, sizeof what, "above into %" PRId64 " rows", rows);
        check(rc == 0 && size == 4 && count == 4 && dst[0] == 3 && dst[1] == 7 && dst[2] == 2 && dst[3] == 9,
              what);
        if (rc) printf("  %s\n", weir_error(ctx));
        free(dst);
    }
    /* Too few rows: "too small", and the rows it needs. */
    double *dst = malloc(2 * sizeof *dst);
    if (!dst) return 1;
    int rc = kernels_above(ctx, dst, 2, 1.5, xs, 6, &count, &size);
    failed(ctx, rc, WEIR_ERR_NOMEM, "destination 0 is too small: it has 2 rows, the result needs 4",
           "above into 2 rows: too small");
    check(strstr(weir_error(ctx), "out of memory") == NULL, "too small is not out of memory");
    check(weir_retry_rows(ctx, 0) == 4, "weir_retry_rows says 4");
    free(dst);
    dst = malloc((size_t)weir_retry_rows(ctx, 0) * sizeof *dst);
    if (!dst) return 1;
    check(kernels_above(ctx, dst, 4, 1.5, xs, 6, &count, &size) == 0 && size == 4 && dst[3] == 9,
          "above again with the rows it needed");
    check(weir_retry_rows(ctx, 0) == -1, "weir_retry_rows -1 after a call that did not fail so");
    /* Fewer rows than the bound, over an argument: still an overlap. */
    failed(ctx, kernels_above(ctx, xs + 2, 4, 1.5, xs, 6, &count, &size), WEIR_ERR_ARGUMENT,
           "overlaps argument `xs`", "above into 4 rows over its argument");
    free(dst);
    /* No rows at all: fine for an empty result, else too small. */
    check(kernels_above(ctx, NULL, 0, 100.0, xs, 6, &count, &size) == 0 && size == 0,
          "above into 0 rows, nothing kept");
    rc = kernels_above(ctx, NULL, 0, 1.5, xs, 6, &count, &size);
    failed(ctx, rc, WEIR_ERR_NOMEM, "too small", "above into 0 rows, 4 kept: too small");
    check(weir_retry_rows(ctx, 0) == 4, "weir_retry_rows says 4 (0 rows)");
    /* A destination of the wrong inner dims is still wrong. */
    double m[2][2] = {{1, 2}, {3, 4}}, sums[2], maxs[3];
    failed(ctx, kernels_row_stats(ctx, sums, 2, maxs, 3, &m[0][0], 2, 2), WEIR_ERR_ARGUMENT, "size mismatch",
           "row_stats: a destination of the wrong dims");

    /* The context's region is back where it was after these calls. */
    const weir_stats *st = weir_ctx_stats(ctx);
    check(st->cur_bytes == 0, "no region bytes kept by the calls");
    weir_ctx_free(ctx);
    printf("%d failures\n", failures);
    return failures != 0;
}
