/* pb_fdtd2d (examples/polybench/fdtd2d.weir `fdtd_2d`): PolyBench/C 4.2.1
 * stencils/fdtd-2d.
 *   (tmax: i64) (ex: [nx][ny]f64) (ey: [nx][ny]f64) (hz: [nx][ny]f64) (fict: [tmax]f64)
 *     : ([nx][ny]f64, [nx][ny]f64, [nx][ny]f64)
 * PolyBench's kernel_fdtd_2d loop nest as written, in place on the three
 * fields (copied from the inputs into the result buffers inside each
 * call).  Bit-identical to PolyBench. */
#include "harness.h"

H_KERNEL static void pb_fdtd2d(int64_t tmax, int64_t nx, int64_t ny, const double *restrict ex_in,
                               const double *restrict ey_in, const double *restrict hz_in,
                               const double *restrict fict, double *restrict ex,
                               double *restrict ey, double *restrict hz) {
    size_t bytes = (size_t)(nx * ny) * sizeof(double);
    memcpy(ex, ex_in, bytes);
    memcpy(ey, ey_in, bytes);
    memcpy(hz, hz_in, bytes);
    for (int64_t t = 0; t < tmax; t++) {
        for (int64_t j = 0; j < ny; j++) ey[0 * ny + j] = fict[t];
        for (int64_t i = 1; i < nx; i++)
            for (int64_t j = 0; j < ny; j++)
                ey[i * ny + j] = ey[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        for (int64_t i = 0; i < nx; i++)
            for (int64_t j = 1; j < ny; j++)
                ex[i * ny + j] = ex[i * ny + j] - 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
        for (int64_t i = 0; i < nx - 1; i++)
            for (int64_t j = 0; j < ny - 1; j++)
                hz[i * ny + j] = hz[i * ny + j] - 0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] +
                                                         ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
}

static int64_t tmax, nx, ny;
static double *ex_in, *ey_in, *hz_in, *fict, *ex, *ey, *hz;

static void bench_read(FILE *in) {
    int64_t d1[2], d2[2], d3[2], df;
    tmax = h_read_i64(in, "tmax");
    ex_in = h_read_array_f64(in, 2, d1, "ex");
    ey_in = h_read_array_f64(in, 2, d2, "ey");
    hz_in = h_read_array_f64(in, 2, d3, "hz");
    fict = h_read_array_f64(in, 1, &df, "fict");
    nx = d1[0];
    ny = d1[1];
    h_expect_dim("ey", d2[0], nx);
    h_expect_dim("ey (inner)", d2[1], ny);
    h_expect_dim("hz", d3[0], nx);
    h_expect_dim("hz (inner)", d3[1], ny);
    h_expect_dim("fict", df, tmax);
    ex = h_alloc_f64((size_t)(nx * ny));
    ey = h_alloc_f64((size_t)(nx * ny));
    hz = h_alloc_f64((size_t)(nx * ny));
}

static void bench_run(void) { pb_fdtd2d(tmax, nx, ny, ex_in, ey_in, hz_in, fict, ex, ey, hz); }

static void bench_write(FILE *f) {
    int64_t dims[2] = {nx, ny};
    h_write_array_f64(f, 2, dims, ex);
    h_write_array_f64(f, 2, dims, ey);
    h_write_array_f64(f, 2, dims, hz);
}
