// trisolv (examples/forward_subst.weir `forward_subst`, PolyBench trisolv):
// forward substitution L x = b.  The kernel returns x as a new
// std::vector<double> (one allocation per call); x[i] is
// std::inner_product over the solved part of row i, starting from b[i],
// with std::minus as the accumulation and std::multiplies as the product:
// ((b[i] - L(i,0) x[0]) - L(i,1) x[1]) - ..., PolyBench's order, divided by
// L(i, i).
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL std::vector<double> trisolv(const Matrix &l, const std::vector<double> &b) {
    const std::size_t n = b.size();
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double *row = &l.elements()[i * n];
        x[i] = std::inner_product(row, row + i, x.begin(), b[i], std::minus<>(), std::multiplies<>()) / l(i, i);
    }
    return x;
}

struct Inputs {
    Matrix l;
    std::vector<double> b;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.l = read_matrix(in, "l");
    v.b = in.vector_f64("b");
    expect_size("l", v.l.rows(), v.b.size());
    expect_size("l (inner)", v.l.cols(), v.b.size());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return trisolv(v.l, v.b); },
        [](bench::Writer &out, const std::vector<double> &r) { out.vector_f64(r); });
}
