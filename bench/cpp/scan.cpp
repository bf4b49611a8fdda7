// scan (examples/scan.weir `prefix_sum`): the inclusive prefix sum of a
// std::vector<double>, returned by value.  std::partial_sum adds from left to
// right (out[i] = out[i-1] + a[i]), the order of Weir's sequential scan, so the
// results are bit-identical; std::inclusive_scan would be the other
// <numeric> choice, but it may reassociate the sum.  One allocation per call:
// the result, zero-filled by the std::vector(n) constructor first.
#include <cstdint>
#include <numeric>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<double> prefix_sum(const std::vector<double> &a) {
    std::vector<double> out(a.size());
    std::partial_sum(a.begin(), a.end(), out.begin());
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.vector_f64("a"); },
        [](const std::vector<double> &a) { return prefix_sum(a); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
