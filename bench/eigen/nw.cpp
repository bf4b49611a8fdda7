// nw (examples/nw.weir `nw`, Rodinia nw):
//   (penalty: i64) (refs: [n][n]i64) : [n][n]i64
//
// The Needleman-Wunsch score matrix: borders -j * penalty and -i * penalty,
// then, row by row and left to right,
//   M(i,j) = max(M(i-1,j-1) + refs(i,j), M(i,j-1) - penalty, M(i-1,j) - penalty).
// Every element needs its left neighbour, just computed, so there is no
// whole-row or whole-block Eigen expression for it (a block expression would
// read the old values); this is plain loops over a row-major Eigen integer
// matrix with operator() indexing, as for seidel-2d.  The borders are set
// with `LinSpaced` (exact integers).  The result is written into a matrix
// allocated at setup.
#include "harness.hpp"

#include <algorithm>
#include <cstdint>

using Eigen::Dynamic;
using Eigen::Index;
using RowMatrixXi64 = Eigen::Matrix<std::int64_t, Dynamic, Dynamic, Eigen::RowMajor>;
using VectorXi64 = Eigen::Matrix<std::int64_t, Dynamic, 1>;

[[gnu::noinline]] static void nw(std::int64_t penalty, const RowMatrixXi64 &refs, RowMatrixXi64 &M) {
    const Index n = refs.rows();
    if (n == 0) return;
    const VectorXi64 border = VectorXi64::LinSpaced(n, 0, -(n - 1)) * penalty;
    M.row(0) = border.transpose();
    M.col(0) = border;
    for (Index i = 1; i < n; i++)
        for (Index j = 1; j < n; j++)
            M(i, j) = std::max({M(i - 1, j - 1) + refs(i, j), M(i, j - 1) - penalty, M(i - 1, j) - penalty});
}

struct Nw {
    std::int64_t penalty = 0;
    RowMatrixXi64 refs, out;

    void read(bench::Input &in) {
        penalty = in.i64("penalty");
        in.matrix(refs, "refs");
        bench::expect_dim("refs (inner)", refs.cols(), refs.rows());
        out = RowMatrixXi64::Zero(refs.rows(), refs.cols());
    }
    void run() { nw(penalty, refs, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Nw>(argc, argv); }
