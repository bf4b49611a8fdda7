// nw (examples/nw.weir `nw`, Rodinia nw): the Needleman-Wunsch score matrix.
// The scores are a flat row-major std::vector<std::int64_t> of n x n
// elements, returned by value with n (one allocation per call, zero-filled
// by the constructor); the borders are -j * penalty and -i * penalty, and every
// other element, row by row and left to right, is
// std::max({diagonal + refs(i, j), left - penalty, up - penalty}).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "harness.hpp"

namespace {

struct Inputs {
    std::int64_t penalty = 0;
    std::size_t n = 0;
    std::vector<std::int64_t> refs;  // n x n, row-major
};

struct Scores {
    std::size_t n = 0;
    std::vector<std::int64_t> m;  // n x n, row-major
};

BENCH_KERNEL Scores nw(std::int64_t penalty, std::size_t n, const std::vector<std::int64_t> &refs) {
    std::vector<std::int64_t> m(n * n);
    auto at = [n](std::size_t i, std::size_t j) { return i * n + j; };
    for (std::size_t j = 0; j < n; ++j) m[at(0, j)] = -static_cast<std::int64_t>(j) * penalty;
    for (std::size_t i = 1; i < n; ++i) {
        m[at(i, 0)] = -static_cast<std::int64_t>(i) * penalty;
        for (std::size_t j = 1; j < n; ++j)
            m[at(i, j)] = std::max({m[at(i - 1, j - 1)] + refs[at(i, j)], m[at(i, j - 1)] - penalty,
                                    m[at(i - 1, j)] - penalty});
    }
    return {n, std::move(m)};
}

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.penalty = in.i64("penalty");
    const auto d = in.dims(2, "refs");
    bench::expect_dim("refs (inner)", d[1], d[0]);
    v.n = static_cast<std::size_t>(d[0]);
    v.refs = in.elements<std::int64_t>(v.n * v.n, "refs");
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return nw(v.penalty, v.n, v.refs); },
        [](bench::Writer &out, const Scores &r) {
            out.dims({static_cast<std::int64_t>(r.n), static_cast<std::int64_t>(r.n)});
            out.elements(r.m.data(), r.m.size());
        });
}
