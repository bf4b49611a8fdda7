// Bundle adjustment projection (ADBench's BA objective; examples/ba.weir),
// shared by ba_project.cpp and ba_objective.cpp.  Small fixed-size vectors
// are std::arrays passed by const reference and returned by value, with one
// little function per vector operation, as the Weir program has them.
// A camera is 11 doubles: rotation (angle-axis) [0:3], centre [3:6],
// focal length [6], principal point [7:9], radial distortion [9:11].
#ifndef WEIR_BENCH_CPP_BA_HPP
#define WEIR_BENCH_CPP_BA_HPP

#include <array>
#include <cmath>
#include <numeric>

namespace ba {

using Vec2 = std::array<double, 2>;
using Vec3 = std::array<double, 3>;
using Camera = std::array<double, 11>;

inline Vec3 add(const Vec3 &a, const Vec3 &b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 sub(const Vec3 &a, const Vec3 &b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 scale(const Vec3 &a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
inline Vec3 cross(const Vec3 &a, const Vec3 &b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <std::size_t N>
double dot(const std::array<double, N> &a, const std::array<double, N> &b) {
    return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}
template <std::size_t N>
double sqnorm(const std::array<double, N> &a) {
    return dot(a, a);
}

// Rotates x by the angle-axis vector rot (Rodrigues' formula); for a zero
// rotation the first-order formula x + rot x x.
inline Vec3 rodrigues_rotate_point(const Vec3 &rot, const Vec3 &x) {
    const double sqtheta = sqnorm(rot);
    if (sqtheta == 0.0) return add(x, cross(rot, x));
    const double theta = std::sqrt(sqtheta);
    const double costheta = std::cos(theta);
    const double sintheta = std::sin(theta);
    const Vec3 w = scale(rot, 1.0 / theta);
    const double tmp = dot(w, x) * (1.0 - costheta);
    return add(add(scale(x, costheta), scale(cross(w, x), sintheta)), scale(w, tmp));
}

inline Vec2 radial_distort(const Vec2 &k, const Vec2 &p) {
    const double rsq = sqnorm(p);
    const double l = 1.0 + k[0] * rsq + k[1] * rsq * rsq;
    return {p[0] * l, p[1] * l};
}

inline Vec2 project(const Camera &cam, const Vec3 &x) {
    const Vec3 rotation{cam[0], cam[1], cam[2]};
    const Vec3 center{cam[3], cam[4], cam[5]};
    const double focal = cam[6];
    const Vec2 principal{cam[7], cam[8]};
    const Vec2 radial{cam[9], cam[10]};
    const Vec3 xcam = rodrigues_rotate_point(rotation, sub(x, center));
    const Vec2 distorted = radial_distort(radial, Vec2{xcam[0] / xcam[2], xcam[1] / xcam[2]});
    return {distorted[0] * focal + principal[0], distorted[1] * focal + principal[1]};
}

}  // namespace ba

#endif
