// cross (examples/cross.weir): the cross product of two 3-vectors, held in
// std::array<double, 3> and returned by value (no heap).
#include <array>

#include "harness.hpp"

namespace {

using Vec3 = std::array<double, 3>;

BENCH_KERNEL Vec3 cross(const Vec3 &a, const Vec3 &b) {
    return {a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0]};
}

struct Inputs {
    Vec3 a, b;
};

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv,
        [](bench::Reader &in) {
            Inputs v;
            v.a = in.array_f64<3>("a");
            v.b = in.array_f64<3>("b");
            return v;
        },
        [](const Inputs &v) { return cross(v.a, v.b); },
        [](bench::Writer &out, const Vec3 &r) { out.array_f64(r); });
}
