// jacobi2d (examples/jacobi2d.weir `jacobi_2d`, PolyBench jacobi-2d):
//   (tsteps: i64) (a: [n][n]f64) (b: [n][n]f64) : [n][n]f64   (the final A)
//
// Each time step is two sweeps over the interior rows (m = n - 2), each row
// one vectorised segment expression:
//   B.row(i).segment(1,m) = 0.2 * (A(i,c) + A(i,west) + A(i,east) + A(i+1,c) + A(i-1,c))
//   then the same from B into A (the sum in PolyBench's order).
// A whole-interior `B.block(1,1,m,m) = ...` expression is the shorter idiom,
// but Eigen evaluates a 2-D block assignment with per-packet address
// arithmetic and it measured 2.5x slower than this form (and than hand-written
// C) at SMALL; an expert would write the row form, so the baseline does.
// The boundary keeps its input values. As in jacobi1d.cpp a call copies a
// into the result and b into a work matrix allocated at setup.
#include "harness.hpp"

#include <cstdint>

using Eigen::Dynamic;
using Eigen::Index;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void jacobi_2d(std::int64_t tsteps, const RowMatrixXd &a, const RowMatrixXd &b,
                                        RowMatrixXd &A, RowMatrixXd &B) {
    A = a;
    B = b;
    const Index n = A.rows();
    if (n < 3) return;  // no interior
    const Index m = n - 2;
    for (std::int64_t t = 0; t < tsteps; t++) {
        for (Index i = 1; i <= m; i++)
            B.row(i).segment(1, m) = 0.2 * (A.row(i).segment(1, m) + A.row(i).segment(0, m) + A.row(i).segment(2, m) +
                                            A.row(i + 1).segment(1, m) + A.row(i - 1).segment(1, m));
        for (Index i = 1; i <= m; i++)
            A.row(i).segment(1, m) = 0.2 * (B.row(i).segment(1, m) + B.row(i).segment(0, m) + B.row(i).segment(2, m) +
                                            B.row(i + 1).segment(1, m) + B.row(i - 1).segment(1, m));
    }
}

struct Jacobi2d {
    std::int64_t tsteps = 0;
    RowMatrixXd a, b, out, work;

    void read(bench::Input &in) {
        tsteps = in.i64("tsteps");
        in.matrix(a, "a");
        in.matrix(b, "b");
        bench::expect_dim("a (inner)", a.cols(), a.rows());
        bench::expect_dim("b", b.rows(), a.rows());
        bench::expect_dim("b (inner)", b.cols(), a.rows());
        out = RowMatrixXd::Zero(a.rows(), a.cols());
        work = RowMatrixXd::Zero(b.rows(), b.cols());
    }
    void run() { jacobi_2d(tsteps, a, b, out, work); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Jacobi2d>(argc, argv); }
