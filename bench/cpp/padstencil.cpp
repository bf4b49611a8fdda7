// padstencil (examples/pad_stencil.weir `pad_stencil`): pad the
// std::vector<double> with one 0.0 on each side, then the 3-point stencil
// over the padded vector, (p[i] + p[i+1] + p[i+2]) * 0.5, the order of Weir's
// sum, so the results are bit-identical.  Written as the operation reads: the
// padded copy is a std::vector(n + 2, 0.0) with a std::copy into its middle,
// and the result a std::vector(n) filled by a loop.  Two allocations per call
// (the padded copy and the result, both zero-filled by their constructors
// first).
#include <algorithm>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<double> pad_stencil(const std::vector<double> &a) {
    const std::size_t n = a.size();
    std::vector<double> p(n + 2, 0.0);
    std::copy(a.begin(), a.end(), p.begin() + 1);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = (p[i] + p[i + 1] + p[i + 2]) * 0.5;
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.vector_f64("a"); },
        [](const std::vector<double> &a) { return pad_stencil(a); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
