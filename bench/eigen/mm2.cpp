// mm2 (examples/2mm.weir `mm2`, PolyBench 2mm):
//   (alpha: f64) (beta: f64) (a: [ni][nk]f64) (b: [nk][nj]f64) (c: [nj][nl]f64)
//   (d: [ni][nl]f64) : [ni][nl]f64 = alpha * A * B * C + beta * D
//
// PolyBench's two products in its order: tmp = alpha * A * B (one GEMM with
// alpha folded in), then out = beta * D; out += tmp * C (a second GEMM
// accumulating into the result).  Row-major Eigen matrices over the input
// data as in gemm.cpp (Eigen's GEMM handles the storage order by
// transposition, at no cost).  tmp (ni x nj) is a local matrix, allocated by
// every call (it is part of the algorithm); Eigen's packing buffers live on
// the stack for these sizes or are allocated per product.
#include "harness.hpp"

using Eigen::Dynamic;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void mm2(double alpha, double beta, const RowMatrixXd &A, const RowMatrixXd &B,
                                  const RowMatrixXd &C, const RowMatrixXd &D, RowMatrixXd &out) {
    RowMatrixXd tmp(A.rows(), B.cols());
    tmp.noalias() = alpha * A * B;
    out = beta * D;
    out.noalias() += tmp * C;
}

struct Mm2 {
    double alpha = 0, beta = 0;
    RowMatrixXd a, b, c, d, out;

    void read(bench::Input &in) {
        alpha = in.f64("alpha");
        beta = in.f64("beta");
        in.matrix(a, "a");
        in.matrix(b, "b");
        in.matrix(c, "c");
        in.matrix(d, "d");
        bench::expect_dim("b", b.rows(), a.cols());
        bench::expect_dim("c", c.rows(), b.cols());
        bench::expect_dim("d", d.rows(), a.rows());
        bench::expect_dim("d (inner)", d.cols(), c.cols());
        out = RowMatrixXd::Zero(d.rows(), d.cols());
    }
    void run() { mm2(alpha, beta, a, b, c, d, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Mm2>(argc, argv); }
