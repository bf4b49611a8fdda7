// trisolv (examples/forward_subst.weir `forward_subst`, PolyBench trisolv):
//   (l: [n][n]f64) (b: [n]f64) : [n]f64
//
// Forward substitution with Eigen's triangular solver:
//   x = L.triangularView<Eigen::Lower>().solve(b)
// which reads only the lower triangle.  Eigen solves in panels (a small
// triangular solve, then a matrix-vector product for the rows below), so
// its sums are in another order than PolyBench's one chain per row: the
// result agrees within rounding.  x is allocated at setup and the solver
// works on it in place (`solveInPlace` after copying b).
#include "harness.hpp"

using Eigen::Dynamic;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void trisolv(const RowMatrixXd &l, const Eigen::VectorXd &b, Eigen::VectorXd &x) {
    x = b;
    l.triangularView<Eigen::Lower>().solveInPlace(x);
}

struct Trisolv {
    RowMatrixXd l;
    Eigen::VectorXd b, out;

    void read(bench::Input &in) {
        in.matrix(l, "l");
        in.vector(b, "b");
        bench::expect_dim("l", l.rows(), b.size());
        bench::expect_dim("l (inner)", l.cols(), b.size());
        out = Eigen::VectorXd::Zero(b.size());
    }
    void run() { trisolv(l, b, out); }
    void write(bench::Output &o) { o.vector(out); }
};

int main(int argc, char **argv) { return bench::main<Trisolv>(argc, argv); }
