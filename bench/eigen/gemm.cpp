// gemm (examples/mm.weir `gemm`, PolyBench gemm):
//   (alpha: f64) (beta: f64) (c: [ni][nj]f64) (a: [ni][nk]f64) (b: [nk][nj]f64)
//   : [ni][nj]f64 = alpha * A * B + beta * C
//
// The matrices are row-major Eigen matrices holding the input buffers as
// read (no transposition or copy at setup).  Storage order costs nothing:
// Eigen's GEMM runs a row-major product as the column-major product of the
// transposes (C^T = B^T A^T), packing the operands into its cache-blocked
// panels either way.  The call is the canonical two-statement form: scale C
// into the result, then `out.noalias() += alpha * A * B`, which Eigen maps to
// one GEMM call with alpha folded into the kernel's scale factor (no
// temporary for A * B, no aliasing check).  The result is the same as
// PolyBench's up to summation order (blocked, FMA): ~1e-15 relative.
#include "harness.hpp"

using Eigen::Dynamic;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void gemm(double alpha, double beta, const RowMatrixXd &C, const RowMatrixXd &A,
                                   const RowMatrixXd &B, RowMatrixXd &out) {
    out = beta * C;
    out.noalias() += alpha * A * B;
}

struct Gemm {
    double alpha = 0, beta = 0;
    RowMatrixXd c, a, b, out;

    void read(bench::Input &in) {
        alpha = in.f64("alpha");
        beta = in.f64("beta");
        in.matrix(c, "c");
        in.matrix(a, "a");
        in.matrix(b, "b");
        bench::expect_dim("a", a.rows(), c.rows());
        bench::expect_dim("b", b.rows(), a.cols());
        bench::expect_dim("b (inner)", b.cols(), c.cols());
        out = RowMatrixXd::Zero(c.rows(), c.cols());
    }
    void run() { gemm(alpha, beta, c, a, b, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Gemm>(argc, argv); }
