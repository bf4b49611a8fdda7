// cross (examples/cross.weir `cross`): the cross product of two [3]f64.
//
// Fixed-size Vector3d throughout (no heap, fully unrolled); Eigen's cross()
// for 3-vectors is the textbook formula a.yzx * b.zxy - a.zxy * b.yzx.
#include "harness.hpp"

#include <Eigen/Geometry>

using Eigen::Vector3d;

[[gnu::noinline]] static void cross(const Vector3d &a, const Vector3d &b, Vector3d &out) {
    out = a.cross(b);
}

struct Cross {
    Vector3d a, b, out = Vector3d::Zero();

    void read(bench::Input &in) {
        in.vector(a, "a");
        in.vector(b, "b");
    }
    void run() { cross(a, b, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<Cross>(argc, argv); }
