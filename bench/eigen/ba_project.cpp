// ba_project (examples/ba.weir `ba_project`): (cam: [11]f64) (x: [3]f64) : [2]f64.
// The projection itself is ba::project (ba.hpp), on fixed-size vectors.
#include "harness.hpp"
#include "ba.hpp"

using Eigen::Vector2d;
using Eigen::Vector3d;

[[gnu::noinline]] static void project(const ba::Vector11d &cam, const Vector3d &x, Vector2d &out) {
    out = ba::project(cam, x);
}

struct BaProject {
    ba::Vector11d cam;
    Vector3d x;
    Vector2d out = Vector2d::Zero();

    void read(bench::Input &in) {
        in.vector(cam, "cam");
        in.vector(x, "x");
    }
    void run() { project(cam, x, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<BaProject>(argc, argv); }
