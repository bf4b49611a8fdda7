/* angle_axis_to_rotation_matrix: [3]f64 -> [3][3]f64 (examples/ht.weir,
 * ADBench's hand_light_matrix.h definition).  The expressions are evaluated
 * exactly as written in the Weir program (left-associative products). */
#include "harness.h"

H_KERNEL static void angle_axis_to_rotation_matrix(const double aa[restrict static 3],
                                                   double R[restrict static 9]) {
    double sq = 0.0;
    sq += aa[0] * aa[0];
    sq += aa[1] * aa[1];
    sq += aa[2] * aa[2];
    const double n = sqrt(sq);
    if (n < 0.0001) {
        R[0] = 1.0; R[1] = 0.0; R[2] = 0.0;
        R[3] = 0.0; R[4] = 1.0; R[5] = 0.0;
        R[6] = 0.0; R[7] = 0.0; R[8] = 1.0;
        return;
    }
    const double x = aa[0] / n, y = aa[1] / n, z = aa[2] / n;
    const double s = sin(n), c = cos(n);
    R[0] = x * x + (1.0 - x * x) * c;
    R[1] = x * y * (1.0 - c) - z * s;
    R[2] = x * z * (1.0 - c) + y * s;
    R[3] = x * y * (1.0 - c) + z * s;
    R[4] = y * y + (1.0 - y * y) * c;
    R[5] = y * z * (1.0 - c) - x * s;
    R[6] = x * z * (1.0 - c) - y * s;
    R[7] = z * y * (1.0 - c) + x * s;
    R[8] = z * z + (1.0 - z * z) * c;
}

static double *aa, *R;

static void bench_read(FILE *in) {
    int64_t n;
    aa = h_read_array_f64(in, 1, &n, "aa");
    h_expect_dim("aa", n, 3);
    R = h_alloc_f64(9);
}

static void bench_run(void) { angle_axis_to_rotation_matrix(aa, R); }

static void bench_write(FILE *f) {
    const int64_t dims[2] = {3, 3};
    h_write_array_f64(f, 2, dims, R);
}
