// ADBench's bundle-adjustment projection (examples/ba.weir `project`) with
// fixed-size Eigen types, shared by ba_project.cpp and ba_objective.cpp.
//
// A camera is 11 doubles: rotation r (angle-axis) [0:3], centre C [3:6],
// focal length f [6], principal point x0 [7:9], radial distortion k [9:11].
//   X' = rotate(r, X - C)   (Rodrigues, or X + r x X when r = 0)
//   p  = hnormalized(X')    (X'.xy / X'.z)
//   proj = p * (1 + k0 |p|^2 + k1 |p|^4) * f + x0
// The camera and the point are taken as any fixed-size 11- and 3-vector
// expressions (a Map over a row of the inputs, no copy); every intermediate is
// a Vector3d / Vector2d, so the whole function is unrolled with no heap use.
#ifndef WEIR_BENCH_EIGEN_BA_HPP
#define WEIR_BENCH_EIGEN_BA_HPP

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>

namespace ba {

using Vector11d = Eigen::Matrix<double, 11, 1>;

template <class Cam, class Pt>
inline Eigen::Vector2d project(const Eigen::MatrixBase<Cam> &cam, const Eigen::MatrixBase<Pt> &X) {
    EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Cam, 11)
    EIGEN_STATIC_ASSERT_VECTOR_SPECIFIC_SIZE(Pt, 3)
    const auto rot = cam.template head<3>();
    const Eigen::Vector3d x = X - cam.template segment<3>(3);

    Eigen::Vector3d xcam;
    const double sqtheta = rot.squaredNorm();
    if (sqtheta != 0.0) {
        const double theta = std::sqrt(sqtheta);
        const double costheta = std::cos(theta);
        const double sintheta = std::sin(theta);
        const Eigen::Vector3d w = rot * (1.0 / theta);
        xcam = x * costheta + w.cross(x) * sintheta + w * (w.dot(x) * (1.0 - costheta));
    } else {
        xcam = x + rot.cross(x);  // first-order rotation for a zero angle
    }

    const Eigen::Vector2d p = xcam.hnormalized();
    const double rsq = p.squaredNorm();
    const double l = 1.0 + cam(9) * rsq + cam(10) * rsq * rsq;
    return p * l * cam(6) + cam.template segment<2>(7);
}

}  // namespace ba

#endif
