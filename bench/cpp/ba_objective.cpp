// ba_objective (examples/ba.weir): ADBench's bundle-adjustment objective.
// The cameras, points, observations and features are std::vectors of
// std::arrays (one fixed-size row per element).  Each call builds the two
// result vectors, reprojection errors ([p][2]) and weight errors ([p]), with
// reserve + push_back: two heap allocations per call.  The observation
// indices are checked once when the inputs are read.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ba.hpp"
#include "harness.hpp"

namespace {

using Observation = std::array<std::int64_t, 2>;  // camera index, point index

struct Errors {
    std::vector<ba::Vec2> reproj;
    std::vector<double> w_err;
};

BENCH_KERNEL Errors ba_objective(const std::vector<ba::Camera> &cams, const std::vector<ba::Vec3> &xs,
                                 const std::vector<double> &w, const std::vector<Observation> &obs,
                                 const std::vector<ba::Vec2> &feats) {
    Errors e;
    e.reproj.reserve(obs.size());
    for (std::size_t i = 0; i < obs.size(); ++i) {
        const ba::Vec2 proj = ba::project(cams[static_cast<std::size_t>(obs[i][0])],
                                          xs[static_cast<std::size_t>(obs[i][1])]);
        e.reproj.push_back({w[i] * (proj[0] - feats[i][0]), w[i] * (proj[1] - feats[i][1])});
    }
    e.w_err.reserve(w.size());
    for (const double wi : w) e.w_err.push_back(1.0 - wi * wi);
    return e;
}

struct Inputs {
    std::vector<ba::Camera> cams;
    std::vector<ba::Vec3> xs;
    std::vector<double> w;
    std::vector<Observation> obs;
    std::vector<ba::Vec2> feats;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    v.cams = in.rows_of<double, 11>("cams");
    v.xs = in.rows_of<double, 3>("xs");
    v.w = in.vector_f64("w");
    v.obs = in.rows_of<std::int64_t, 2>("obs");
    v.feats = in.rows_of<double, 2>("feats");
    const auto p = static_cast<std::int64_t>(v.w.size());
    bench::expect_dim("obs", static_cast<std::int64_t>(v.obs.size()), p);
    bench::expect_dim("feats", static_cast<std::int64_t>(v.feats.size()), p);
    for (std::size_t i = 0; i < v.obs.size(); ++i) {
        const auto [c, x] = v.obs[i];
        if (c < 0 || c >= static_cast<std::int64_t>(v.cams.size()) || x < 0 ||
            x >= static_cast<std::int64_t>(v.xs.size()))
            throw bench::Error("out of bounds: observation " + std::to_string(i) + " = (" + std::to_string(c) +
                               ", " + std::to_string(x) + ")");
    }
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs,
        [](const Inputs &v) { return ba_objective(v.cams, v.xs, v.w, v.obs, v.feats); },
        [](bench::Writer &out, const Errors &e) {
            out.rows_f64(e.reproj);
            out.vector_f64(e.w_err);
        });
}
