// ht (examples/ht.weir `angle_axis_to_rotation_matrix`): [3]f64 -> [3][3]f64,
// ADBench's hand-tracking angle-axis to rotation matrix.
//
// With n = |aa|: the identity when n < 1e-4, otherwise the Rodrigues rotation
// about aa / n by angle n.  Eigen has that conversion built in:
// AngleAxisd(angle, unit axis).toRotationMatrix().  Eigen writes each entry
// as (1 - c) x y -/+ s z and the diagonal as (1 - c) x^2 + c, where ADBench
// writes x y (1 - c) -/+ z s and x^2 + (1 - x^2) c: the same values up to
// rounding (a few ulps).  Everything is fixed-size (Vector3d, Matrix3d).
#include "harness.hpp"

#include <Eigen/Geometry>

using Eigen::Vector3d;
using RowMatrix3d = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

[[gnu::noinline]] static void angle_axis_to_rotation_matrix(const Vector3d &aa, RowMatrix3d &R) {
    const double n = aa.norm();
    if (n < 0.0001) {
        R.setIdentity();
        return;
    }
    R = Eigen::AngleAxisd(n, aa / n).toRotationMatrix();
}

struct Ht {
    Vector3d aa;
    RowMatrix3d R = RowMatrix3d::Zero();

    void read(bench::Input &in) { in.vector(aa, "aa"); }
    void run() { angle_axis_to_rotation_matrix(aa, R); }
    void write(bench::Output &o) { o.matrix(R); }
};

int main(int argc, char **argv) { return bench::main<Ht>(argc, argv); }
