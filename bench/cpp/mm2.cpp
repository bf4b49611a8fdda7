// mm2 (examples/2mm.weir, PolyBench 2mm): alpha * A * B * C + beta * D.
// Flat row-major Matrix (matrix.hpp); written with the matmul of
// matrix.hpp (i-k-j loop order): tmp = A * B is computed and scaled by
// alpha, then tmp * C, to which beta * D is added element-wise.  Two
// allocations per call (tmp and the result).
#include <algorithm>

#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix mm2(double alpha, double beta, const Matrix &a, const Matrix &b, const Matrix &c,
                        const Matrix &d) {
    Matrix tmp = matmul(a, b);
    for (double &e : tmp.elements()) e *= alpha;
    Matrix r = matmul(tmp, c);
    std::transform(r.elements().begin(), r.elements().end(), d.elements().begin(), r.elements().begin(),
                   [beta](double x, double de) { return beta * de + x; });
    return r;
}

struct Inputs {
    double alpha = 0.0, beta = 0.0;
    Matrix a, b, c, d;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.alpha = in.f64("alpha");
    v.beta = in.f64("beta");
    v.a = read_matrix(in, "a");
    v.b = read_matrix(in, "b");
    v.c = read_matrix(in, "c");
    v.d = read_matrix(in, "d");
    expect_size("b", v.b.rows(), v.a.cols());
    expect_size("c", v.c.rows(), v.b.cols());
    expect_size("d", v.d.rows(), v.a.rows());
    expect_size("d (inner)", v.d.cols(), v.c.cols());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return mm2(v.alpha, v.beta, v.a, v.b, v.c, v.d); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
