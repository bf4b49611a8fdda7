/* cross: the cross product of two [3]f64 (examples/cross.weir). */
#include "harness.h"

H_KERNEL static void cross(const double a[restrict static 3], const double b[restrict static 3],
                           double out[restrict static 3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double *a, *b, *out;

static void bench_read(FILE *in) {
    int64_t na, nb;
    a = h_read_array_f64(in, 1, &na, "a");
    b = h_read_array_f64(in, 1, &nb, "b");
    h_expect_dim("a", na, 3);
    h_expect_dim("b", nb, 3);
    out = h_alloc_f64(3);
}

static void bench_run(void) { cross(a, b, out); }

static void bench_write(FILE *f) {
    const int64_t dims[1] = {3};
    h_write_array_f64(f, 1, dims, out);
}
