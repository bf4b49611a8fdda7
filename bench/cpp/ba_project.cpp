// ba_project (examples/ba.weir): project one 3-D point through one camera;
// std::arrays in and out, no heap.
#include "ba.hpp"
#include "harness.hpp"

namespace {

BENCH_KERNEL ba::Vec2 project(const ba::Camera &cam, const ba::Vec3 &x) { return ba::project(cam, x); }

struct Inputs {
    ba::Camera cam;
    ba::Vec3 x;
};

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv,
        [](bench::Reader &in) {
            Inputs v;
            v.cam = in.array_f64<11>("cam");
            v.x = in.array_f64<3>("x");
            return v;
        },
        [](const Inputs &v) { return project(v.cam, v.x); },
        [](bench::Writer &out, const ba::Vec2 &r) { out.array_f64(r); });
}
