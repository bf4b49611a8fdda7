// add3 (examples/add3.weir): a + b + c over [n]f64, written as the Weir
// program is, vectorAdd (vectorAdd a b) c, with an element-wise addition
// that returns a new std::vector.  So each call allocates the intermediate
// a + b and the result: two allocations of n doubles.
#include <algorithm>
#include <functional>
#include <vector>

#include "harness.hpp"

namespace {

std::vector<double> vector_add(const std::vector<double> &x, const std::vector<double> &y) {
    std::vector<double> sum(x.size());
    std::transform(x.begin(), x.end(), y.begin(), sum.begin(), std::plus<>());
    return sum;
}

BENCH_KERNEL std::vector<double> add3(const std::vector<double> &a, const std::vector<double> &b,
                                      const std::vector<double> &c) {
    return vector_add(vector_add(a, b), c);
}

struct Inputs {
    std::vector<double> a, b, c;
};

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv,
        [](bench::Reader &in) {
            Inputs v{in.vector_f64("a"), in.vector_f64("b"), in.vector_f64("c")};
            bench::expect_dim("b", static_cast<std::int64_t>(v.b.size()), static_cast<std::int64_t>(v.a.size()));
            bench::expect_dim("c", static_cast<std::int64_t>(v.c.size()), static_cast<std::int64_t>(v.a.size()));
            return v;
        },
        [](const Inputs &v) { return add3(v.a, v.b, v.c); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
