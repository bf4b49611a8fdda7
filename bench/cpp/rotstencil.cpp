// rotstencil (examples/periodic_stencil.weir `periodic_stencil`): the
// 3-point stencil on a ring, ((l[i] + a[i]) + r[i]) / 3.0 with l and r the
// vector rotated by one each way, the order of Weir's sum, so the results
// are bit-identical.  Written as the operation reads: the two rotations are
// std::rotate_copy into vectors of their own, and the result a std::vector(n)
// filled by a loop.  Three allocations per call (the two rotated copies and
// the result, each zero-filled by its constructor first).
#include <algorithm>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<double> periodic_stencil(const std::vector<double> &a) {
    const std::size_t n = a.size();
    std::vector<double> out(n);
    if (n == 0) return out;
    std::vector<double> l(n), r(n);
    // l[i] = a[i - 1 mod n], r[i] = a[i + 1 mod n]
    std::rotate_copy(a.begin(), a.end() - 1, a.end(), l.begin());
    std::rotate_copy(a.begin(), a.begin() + 1, a.end(), r.begin());
    for (std::size_t i = 0; i < n; ++i) out[i] = (l[i] + a[i] + r[i]) / 3.0;
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.vector_f64("a"); },
        [](const std::vector<double> &a) { return periodic_stencil(a); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
