/* ba_project: (cam: [11]f64) (x: [3]f64) : [2]f64 (examples/ba.weir). */
#include "harness.h"
#include "ba.h"

H_KERNEL static void project(const double cam[restrict static 11], const double x[restrict static 3],
                             double out[restrict static 2]) {
    ba_project(cam, x, out);
}

static double *cam, *x, *out;

static void bench_read(FILE *in) {
    int64_t nc, nx;
    cam = h_read_array_f64(in, 1, &nc, "cam");
    x = h_read_array_f64(in, 1, &nx, "x");
    h_expect_dim("cam", nc, 11);
    h_expect_dim("x", nx, 3);
    out = h_alloc_f64(2);
}

static void bench_run(void) { project(cam, x, out); }

static void bench_write(FILE *f) {
    const int64_t dims[1] = {2};
    h_write_array_f64(f, 1, dims, out);
}
