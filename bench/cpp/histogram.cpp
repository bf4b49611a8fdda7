// histogram (examples/histogram.weir `histogram`): k bins counting the
// indices, those outside 0..k ignored.  The kernel returns a zero-initialised
// std::vector<int64_t>(k) (one allocation per call) after a range-for over the
// indices that increments the bin of each index in range.
#include <cstdint>
#include <vector>

#include "harness.hpp"

namespace {

BENCH_KERNEL std::vector<std::int64_t> histogram(std::int64_t k, const std::vector<std::int64_t> &is) {
    std::vector<std::int64_t> bins(static_cast<std::size_t>(k));
    for (const std::int64_t i : is)
        if (i >= 0 && i < k) ++bins[static_cast<std::size_t>(i)];
    return bins;
}

struct Inputs {
    std::int64_t k = 0;
    std::vector<std::int64_t> is;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.k = in.i64("k");
    if (v.k < 0) throw bench::Error("k: negative number of bins " + std::to_string(v.k));
    const auto d = in.dims(1, "is");
    v.is = in.elements<std::int64_t>(static_cast<std::size_t>(d[0]), "is");
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return histogram(v.k, v.is); },
        [](bench::Writer &out, const std::vector<std::int64_t> &r) {
            out.dims({static_cast<std::int64_t>(r.size())});
            out.elements(r.data(), r.size());
        });
}
