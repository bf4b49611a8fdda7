// transposecat (examples/transpose_cat.weir `transpose_cat`):
//   (a: [n][m]f64) (b: [k][n]f64) : [m + k][n]f64
// the transpose of a stacked on b, as two block assignments into the
// row-major result allocated at setup: out.topRows(m) = a.transpose() (a
// transposed view of a, copied once; Eigen's assignment walks it without
// blocking) and out.bottomRows(k) = b.  Elements are copied, never computed:
// bit-identical to Weir.
#include "harness.hpp"

using Eigen::Dynamic;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void transpose_cat(const RowMatrixXd &a, const RowMatrixXd &b, RowMatrixXd &out) {
    out.topRows(a.cols()) = a.transpose();
    out.bottomRows(b.rows()) = b;
}

struct TransposeCat {
    RowMatrixXd a, b, out;

    void read(bench::Input &in) {
        in.matrix(a, "a");
        in.matrix(b, "b");
        bench::expect_dim("b (inner)", b.cols(), a.rows());
        out = RowMatrixXd::Zero(a.cols() + b.rows(), a.rows());
    }
    void run() { transpose_cat(a, b, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<TransposeCat>(argc, argv); }
