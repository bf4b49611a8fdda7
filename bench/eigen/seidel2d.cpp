// seidel2d (examples/seidel2d.weir `seidel_2d`, PolyBench seidel-2d):
//   (tsteps: i64) (a: [n][n]f64) : [n][n]f64
//
// PolyBench's in-place Gauss-Seidel sweep: for each time step, rows
// i = 1..n-2 in order and within a row columns j = 1..n-2 in order,
//   A(i,j) = (the 3 x 3 neighbourhood of A(i,j), summed row by row) / 9
// where the row above and the left neighbour already hold this sweep's new
// values.  Every update depends on the one just before it, so there is no
// whole-block Eigen expression for it (a block sum would compute the Jacobi
// variant, a different algorithm); this is plain loops over a row-major
// Eigen matrix with operator() indexing, as an Eigen user would write it.
// The sum is in PolyBench's order.  A call copies a into the result and
// sweeps that in place.
#include "harness.hpp"

#include <cstdint>

using Eigen::Dynamic;
using Eigen::Index;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

[[gnu::noinline]] static void seidel_2d(std::int64_t tsteps, const RowMatrixXd &a, RowMatrixXd &A) {
    A = a;
    const Index n = A.rows();
    for (std::int64_t t = 0; t < tsteps; t++)
        for (Index i = 1; i < n - 1; i++)
            for (Index j = 1; j < n - 1; j++)
                A(i, j) = (A(i - 1, j - 1) + A(i - 1, j) + A(i - 1, j + 1) + A(i, j - 1) + A(i, j) +
                           A(i, j + 1) + A(i + 1, j - 1) + A(i + 1, j) + A(i + 1, j + 1)) /
                          9.0;
}

struct Seidel2d {
    std::int64_t tsteps = 0;
    RowMatrixXd a, out;

    void read(bench::Input &in) {
        tsteps = in.i64("tsteps");
        in.matrix(a, "a");
        bench::expect_dim("a (inner)", a.cols(), a.rows());
        out = RowMatrixXd::Zero(a.rows(), a.cols());
    }
    void run() { seidel_2d(tsteps, a, out); }
    void write(bench::Output &o) { o.matrix(out); }
};

int main(int argc, char **argv) { return bench::main<Seidel2d>(argc, argv); }
