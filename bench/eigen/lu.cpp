// lu (examples/lu.weir `lu`, PolyBench lu):
//   (a: [n][n]f64) : [n][n]f64
//
// LU decomposition without pivoting, right-looking with block expressions:
// for each pivot k, the column below it is divided by A(k,k), then the
// trailing block takes the rank-one update
//   A.bottomRightCorner(m, m).noalias() -= A.col(k).tail(m) * A.row(k).tail(m)
// (an outer product, which Eigen evaluates row by row, vectorised).  Eigen's
// own LU classes (PartialPivLU, FullPivLU) pivot and so factor a permuted
// matrix: another result.  Each element gets the hand-written C's operations
// in its order, though Eigen's packet code may fuse the multiply and the
// subtraction (FMA), so the results agree within rounding.  A call copies
// a into the result and factorises that in place.
#include "harness.hpp"

using Eigen::Dynamic;
using Eigen::Index;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void lu(const RowMatrixXd &a, RowMatrixXd &A) {
    A = a;
    const Index n = A.rows();
    for (Index k = 0; k + 1 < n; k++) {
        const Index m = n - k - 1;
        A.col(k).tail(m) /= A(k, k);
        A.bottomRightCorner(m, m).noalias() -= A.col(k).tail(m) * A.row(k).tail(m);
    }
}

struct Lu {
    RowMatrixXd a, out;

    void read(bench::Input &in) {
        in.matrix(a, "a");
        bench::expect_dim("a (inner)", a.cols(), a.rows());
        out = RowMatrixXd::Zero(a.rows(), a.cols());
    }
    void run() { lu(a, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Lu>(argc, argv); }
