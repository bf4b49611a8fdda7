// ba_objective (examples/ba.weir `ba_objective`): the ADBench BA objective.
//   (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64) (obs: [p][2]i64) (feats: [p][2]f64)
//   : ([p][2]f64, [p]f64)
//   reproj_err[i] = w[i] * (project(cams[obs[i,0]], xs[obs[i,1]]) - feats[i])
//   w_err[i]      = 1 - w[i]^2
//
// The inputs are read into row-major Eigen matrices with a fixed number of
// columns (n x 11, m x 3, p x 2), so a row is a fixed-size, contiguous
// expression: cams.row(c).transpose() is an 11-vector view of the input
// buffer (no copy) that ba::project (ba.hpp) consumes fully unrolled.  The
// loop over the observations writes each 2-vector straight into its row of
// the result; w_err is one array expression.  The indices are validated once
// when the inputs are read (the Weir program bounds-checks every access).
#include "harness.hpp"
#include "ba.hpp"

#include <cinttypes>
#include <cstdint>

using Eigen::Dynamic;
using Eigen::Index;
using Eigen::RowMajor;
using Eigen::VectorXd;
using Cams = Eigen::Matrix<double, Dynamic, 11, RowMajor>;
using Points = Eigen::Matrix<double, Dynamic, 3, RowMajor>;
using Pairs = Eigen::Matrix<double, Dynamic, 2, RowMajor>;
using Obs = Eigen::Matrix<std::int64_t, Dynamic, 2, RowMajor>;

[[gnu::noinline]] static void ba_objective(const Cams &cams, const Points &xs, const VectorXd &w,
                                           const Obs &obs, const Pairs &feats, Pairs &reproj_err,
                                           VectorXd &w_err) {
    const Index p = w.size();
    for (Index i = 0; i < p; i++) {
        const Eigen::Vector2d proj =
            ba::project(cams.row(obs(i, 0)).transpose(), xs.row(obs(i, 1)).transpose());
        reproj_err.row(i) = w(i) * (proj.transpose() - feats.row(i));
    }
    w_err = 1.0 - w.array().square();
}

struct BaObjective {
    Cams cams;
    Points xs;
    VectorXd w, w_err;
    Obs obs;
    Pairs feats, reproj_err;

    void read(bench::Input &in) {
        in.matrix(cams, "cams");
        in.matrix(xs, "xs");
        in.vector(w, "w");
        in.matrix(obs, "obs");
        in.matrix(feats, "feats");
        const Index p = w.size();
        bench::expect_dim("obs", obs.rows(), p);
        bench::expect_dim("feats", feats.rows(), p);
        for (Index i = 0; i < p; i++)
            if (obs(i, 0) < 0 || obs(i, 0) >= cams.rows() || obs(i, 1) < 0 || obs(i, 1) >= xs.rows())
                bench::fail("out of bounds: observation %td = (%" PRId64 ", %" PRId64 ")", i, obs(i, 0),
                            obs(i, 1));
        reproj_err = Pairs::Zero(p, 2);
        w_err = VectorXd::Zero(p);
    }
    void run() { ba_objective(cams, xs, w, obs, feats, reproj_err, w_err); }
    void write(bench::Output &o) {
        o.matrix(reproj_err);
        o.vector(w_err);
    }
};

int main(int argc, char **argv) { return bench::main<BaObjective>(argc, argv); }
