// partition (examples/partition.weir `partition3`): a three-way partition of
// a std::vector<double> into the elements below -0.5, those in [-0.5, 0.5)
// and the rest (>= 0.5, and NaN, which fails both comparisons), each part in
// input order, returned by value as a struct of three vectors.  The standard
// library's std::partition_copy splits two ways only, so the program is one
// range-for with an if / else if / else that push_backs each element onto its
// part; the three vectors are reserve()d to the input's length first (one
// allocation each per call, the upper bound, like Weir's caller-allocated
// buffers, and no reallocation; only the elements of each part are written).
// Two chained partition_copy calls would make a second pass over an
// intermediate vector (see README.md).
#include <vector>

#include "harness.hpp"

namespace {

struct Parts {
    std::vector<double> low, mid, high;
};

BENCH_KERNEL Parts partition3(const std::vector<double> &a) {
    Parts p;
    p.low.reserve(a.size());
    p.mid.reserve(a.size());
    p.high.reserve(a.size());
    for (const double x : a) {
        if (x < -0.5)
            p.low.push_back(x);
        else if (x < 0.5)
            p.mid.push_back(x);
        else
            p.high.push_back(x);
    }
    return p;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, [](bench::Reader &in) { return in.vector_f64("a"); },
        [](const std::vector<double> &a) { return partition3(a); },
        [](bench::Writer &out, const Parts &p) {
            out.vector_f64(p.low);
            out.vector_f64(p.mid);
            out.vector_f64(p.high);
        });
}
