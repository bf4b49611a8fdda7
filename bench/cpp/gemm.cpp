// gemm (examples/mm.weir, PolyBench gemm): alpha * A * B + beta * C.
// Matrices are the flat row-major Matrix of matrix.hpp.  The kernel copies C
// into the result (the one allocation per call), scales it by beta and adds
// alpha * A(i, k) * B(k, j) in PolyBench's i-k-j loop order, so the inner
// loop walks rows of B and of the result with unit stride and every element
// still sums over k in increasing order.
#include "harness.hpp"
#include "matrix.hpp"

namespace {

BENCH_KERNEL Matrix gemm(double alpha, double beta, const Matrix &c, const Matrix &a, const Matrix &b) {
    Matrix r = c;
    for (double &e : r.elements()) e *= beta;
    for (std::size_t i = 0; i < a.rows(); ++i) {
        for (std::size_t k = 0; k < a.cols(); ++k) {
            const double t = alpha * a(i, k);
            for (std::size_t j = 0; j < b.cols(); ++j) r(i, j) += t * b(k, j);
        }
    }
    return r;
}

struct Inputs {
    double alpha = 0.0, beta = 0.0;
    Matrix c, a, b;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.alpha = in.f64("alpha");
    v.beta = in.f64("beta");
    v.c = read_matrix(in, "c");
    v.a = read_matrix(in, "a");
    v.b = read_matrix(in, "b");
    expect_size("a", v.a.rows(), v.c.rows());
    expect_size("b", v.b.rows(), v.a.cols());
    expect_size("b (inner)", v.b.cols(), v.c.cols());
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs, [](const Inputs &v) { return gemm(v.alpha, v.beta, v.c, v.a, v.b); },
        [](bench::Writer &out, const Matrix &r) { write_matrix(out, r); });
}
