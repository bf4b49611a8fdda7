// mm3 (examples/3mm.weir `mm3`, PolyBench 3mm):
//   (a: [ni][nk]f64) (b: [nk][nj]f64) (c: [nj][nm]f64) (d: [nm][nl]f64)
//   : [ni][nl]f64 = (A * B) * (C * D)
//
// E = A * B and F = C * D are local matrices (allocated by every call, they
// are part of the algorithm), then G = E * F is written straight into the
// result; each of the three is one Eigen GEMM (`noalias()`: no aliasing
// check, no extra temporary).  Row-major matrices over the input data as in
// gemm.cpp.
#include "harness.hpp"

using Eigen::Dynamic;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void mm3(const RowMatrixXd &A, const RowMatrixXd &B, const RowMatrixXd &C,
                                  const RowMatrixXd &D, RowMatrixXd &G) {
    RowMatrixXd E(A.rows(), B.cols()), F(C.rows(), D.cols());
    E.noalias() = A * B;
    F.noalias() = C * D;
    G.noalias() = E * F;
}

struct Mm3 {
    RowMatrixXd a, b, c, d, out;

    void read(bench::Input &in) {
        in.matrix(a, "a");
        in.matrix(b, "b");
        in.matrix(c, "c");
        in.matrix(d, "d");
        bench::expect_dim("b", b.rows(), a.cols());
        bench::expect_dim("c", c.rows(), b.cols());
        bench::expect_dim("d", d.rows(), c.cols());
        out = RowMatrixXd::Zero(a.rows(), d.cols());
    }
    void run() { mm3(a, b, c, d, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Mm3>(argc, argv); }
