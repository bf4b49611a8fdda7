/* Calling compiled Weir kernels from C: two libraries (`weir lib`) in one
 * program, one context. Build and run (see README.md):
 *
 *   weir lib ../kernels.weir -o build
 *   weir lib ../../add3.weir --name vec -o build
 *   cc -O2 -Wall -Wextra -Ibuild main.c build/libkernels.a build/libvec.a -lm -o main && ./main
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernels.h"
#include "vec.h"

static int failures = 0;

/* Print a Weir error: its kind, location and message. */
static void report(weir_ctx *ctx, const char *what) {
    printf("%s: error %d at %s: %s\n", what, weir_error_code(ctx), weir_error_location(ctx),
           weir_error_message(ctx));
}

static void print_vec(const char *name, const double *v, int64_t n) {
    printf("%s = [", name);
    for (int64_t i = 0; i < n; i++) printf("%s%g", i ? ", " : "", v[i]);
    printf("]\n");
}

int main(void) {
    if (weir_abi_version() != WEIR_ABI_VERSION) {
        fprintf(stderr, "runtime ABI %d, header ABI %d\n", weir_abi_version(), WEIR_ABI_VERSION);
        return 1;
    }
    weir_ctx *ctx = weir_ctx_new();
    if (!ctx) return 1;

    /* add3 from two libraries: the shape function gives the result's dims. */
    double a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4] = {100, 200, 300, 400};
    int64_t dims[1];
    double out[4];
    if (kernels_add3_shape(ctx, a, 4, b, 4, c, 4, dims) || dims[0] != 4) report(ctx, "shape"), failures++;
    if (kernels_add3(ctx, out, 4, a, 4, b, 4, c, 4)) report(ctx, "kernels_add3"), failures++;
    print_vec("kernels_add3", out, 4);
    if (vec_add3(ctx, out, 4, c, 4, b, 4, a, 4)) report(ctx, "vec_add3"), failures++;
    print_vec("vec_add3", out, 4);

    /* Two array results. */
    double m[2][3] = {{1, 5, 2}, {-1, -4, -2}};
    double sums[2], maxs[2];
    if (kernels_row_stats(ctx, sums, 2, maxs, 2, &m[0][0], 2, 3)) report(ctx, "row_stats"), failures++;
    print_vec("row sums", sums, 2);
    print_vec("row maxima", maxs, 2);

    /* A result of data-dependent size: the shape function gives an upper
       bound, the entry the size. */
    double xs[6] = {0.5, 3, -1, 7, 2, 9};
    int64_t bound[1], size = 0, count = 0;
    if (kernels_above_shape(ctx, 1.0, xs, 6, bound)) report(ctx, "above shape"), failures++;
    double *big = malloc((size_t)bound[0] * sizeof *big);
    if (!big || kernels_above(ctx, big, bound[0], 1.0, xs, 6, &count, &size)) report(ctx, "above"), failures++;
    printf("above 1.0: bound %" PRId64 ", %" PRId64 " elements (count %" PRId64 ")\n", bound[0], size, count);
    print_vec("above", big, size);
    free(big);

    /* Booleans in, an i64 and an i32 array out. */
    bool mask[5] = {true, false, true, true, false};
    int32_t ints[5];
    int64_t trues = 0;
    if (kernels_count_true(ctx, ints, 5, mask, 5, &trues)) report(ctx, "count_true"), failures++;
    printf("count_true = %" PRId64 ", ints = [%d, %d, %d, %d, %d]\n", trues, ints[0], ints[1], ints[2],
           ints[3], ints[4]);

    /* Errors: each a status of 1 with the kind, location and message. */
    if (kernels_add3(ctx, out, 3, a, 4, b, 4, c, 4) == 0) failures++; /* a too-small destination */
    else report(ctx, "too-small destination");
    if (kernels_add3(ctx, out, 4, a, 4, b, 3, c, 4) == 0) failures++; /* arguments of different sizes */
    else report(ctx, "wrong shape");
    if (kernels_row_stats(ctx, sums, 2, maxs, 1, &m[0][0], 2, 3) == 0) failures++;
    else report(ctx, "second destination");
    if (kernels_add3(ctx, a, 4, a, 4, b, 4, c, 4) == 0) failures++; /* a destination over an argument */
    else report(ctx, "overlap");

    const weir_stats *st = weir_ctx_stats(ctx);
    printf("context: %" PRIu64 " system allocations\n", st->sys_allocs);
    weir_ctx_free(ctx);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
