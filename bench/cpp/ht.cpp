// ht (examples/ht.weir, angle_axis_to_rotation_matrix): the rotation matrix
// of an angle-axis vector (Rodrigues' formula, as in ADBench's hand
// tracking), a std::array<double, 3> in and a 3x3 std::array of rows out,
// all by value (no heap).
#include <array>
#include <cmath>
#include <numeric>

#include "harness.hpp"

namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

double sqnorm(const Vec3 &v) { return std::inner_product(v.begin(), v.end(), v.begin(), 0.0); }

BENCH_KERNEL Mat3 angle_axis_to_rotation_matrix(const Vec3 &aa) {
    const double n = std::sqrt(sqnorm(aa));
    if (n < 0.0001) return Mat3{{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};

    const double x = aa[0] / n, y = aa[1] / n, z = aa[2] / n;
    const double s = std::sin(n), c = std::cos(n);
    return Mat3{{{x * x + (1.0 - x * x) * c, x * y * (1.0 - c) - z * s, x * z * (1.0 - c) + y * s},
                 {x * y * (1.0 - c) + z * s, y * y + (1.0 - y * y) * c, y * z * (1.0 - c) - x * s},
                 {x * z * (1.0 - c) - y * s, z * y * (1.0 - c) + x * s, z * z + (1.0 - z * z) * c}}};
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.array_f64<3>("aa"); },
        [](const Vec3 &aa) { return angle_axis_to_rotation_matrix(aa); },
        [](bench::Writer &out, const Mat3 &r) { out.array2_f64(r); });
}
