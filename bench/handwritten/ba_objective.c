/* ba_objective (examples/ba.weir): the ADBench BA objective.
 *   (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64) (obs: [p][2]i64) (feats: [p][2]f64)
 *   : ([p][2]f64, [p]f64)
 * reproj[i] = w[i] * (project(cams[obs[i,0]], xs[obs[i,1]]) - feats[i]),
 * werr[i]   = 1 - w[i]^2.
 * The camera/point indices are validated once when the inputs are read (the
 * Weir program bounds-checks them on every access); the kernel trusts them. */
#include "harness.h"
#include "ba.h"

H_KERNEL static void ba_objective(int64_t p, const double *restrict cams, const double *restrict xs,
                                  const double *restrict w, const int64_t *restrict obs,
                                  const double *restrict feats, double *restrict reproj,
                                  double *restrict werr) {
    for (int64_t i = 0; i < p; i++) {
        double proj[2];
        ba_project(cams + 11 * obs[2 * i], xs + 3 * obs[2 * i + 1], proj);
        reproj[2 * i] = w[i] * (proj[0] - feats[2 * i]);
        reproj[2 * i + 1] = w[i] * (proj[1] - feats[2 * i + 1]);
    }
    for (int64_t i = 0; i < p; i++) werr[i] = 1.0 - w[i] * w[i];
}

static int64_t p;
static double *cams, *xs, *w, *feats, *reproj, *werr;
static int64_t *obs;

static void bench_read(FILE *in) {
    int64_t dc[2], dx[2], dw, dobs[2], df[2];
    cams = h_read_array_f64(in, 2, dc, "cams");
    xs = h_read_array_f64(in, 2, dx, "xs");
    w = h_read_array_f64(in, 1, &dw, "w");
    obs = h_read_array_i64(in, 2, dobs, "obs");
    feats = h_read_array_f64(in, 2, df, "feats");
    h_expect_dim("cams (inner)", dc[1], 11);
    h_expect_dim("xs (inner)", dx[1], 3);
    p = dw;
    h_expect_dim("obs", dobs[0], p);
    h_expect_dim("obs (inner)", dobs[1], 2);
    h_expect_dim("feats", df[0], p);
    h_expect_dim("feats (inner)", df[1], 2);
    for (int64_t i = 0; i < p; i++) {
        if (obs[2 * i] < 0 || obs[2 * i] >= dc[0] || obs[2 * i + 1] < 0 || obs[2 * i + 1] >= dx[0])
            h_fail("out of bounds: observation %" PRId64 " = (%" PRId64 ", %" PRId64 ")", i,
                   obs[2 * i], obs[2 * i + 1]);
    }
    reproj = h_alloc_f64(2 * (size_t)p);
    werr = h_alloc_f64((size_t)p);
}

static void bench_run(void) { ba_objective(p, cams, xs, w, obs, feats, reproj, werr); }

static void bench_write(FILE *f) {
    const int64_t dims[2] = {p, 2};
    h_write_array_f64(f, 2, dims, reproj);
    h_write_array_f64(f, 1, &p, werr);
}
