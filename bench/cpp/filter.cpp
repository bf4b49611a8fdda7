// filter (examples/filter.weir `positives`): the elements of a
// std::vector<double> greater than 0.0, in order, returned by value.
// std::copy_if through a std::back_inserter into a vector that was reserve()d
// to the input's length first: one allocation per call, as large as the
// upper bound, and no reallocation; only the kept elements are written.  The
// other idiom, a std::vector(n) filled by copy_if and then cut to size with
// erase(), would zero-fill all n elements before overwriting the kept ones
// (see README.md).
#include <algorithm>
#include <iterator>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<double> positives(const std::vector<double> &a) {
    std::vector<double> out;
    out.reserve(a.size());
    std::copy_if(a.begin(), a.end(), std::back_inserter(out), [](double x) { return x > 0.0; });
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.vector_f64("a"); },
        [](const std::vector<double> &a) { return positives(a); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
