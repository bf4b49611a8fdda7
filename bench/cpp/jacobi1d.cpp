// jacobi1d (examples/jacobi1d.weir, PolyBench jacobi-1d).  The kernel takes
// A and B by value (the caller's copies are its work arrays: two allocations
// per call, the inputs stay untouched), runs PolyBench's time loop in place
// (B from A, then A from B, on the interior; the boundary values stay) and
// returns A.
#include <cstdint>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<double> jacobi_1d(std::int64_t tsteps, std::vector<double> a, std::vector<double> b) {
    const std::size_t n = a.size();
    for (std::int64_t t = 0; t < tsteps; ++t) {
        for (std::size_t i = 1; i + 1 < n; ++i) b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        for (std::size_t i = 1; i + 1 < n; ++i) a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
    }
    return a;
}

struct Inputs {
    std::int64_t tsteps = 0;
    std::vector<double> a, b;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.tsteps = in.i64("tsteps");
    v.a = in.vector_f64("a");
    v.b = in.vector_f64("b");
    bench::expect_dim("b", static_cast<std::int64_t>(v.b.size()), static_cast<std::int64_t>(v.a.size()));
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return jacobi_1d(v.tsteps, v.a, v.b); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
