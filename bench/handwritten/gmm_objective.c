/* gmm_objective (examples/gmm.weir): the ADBench GMM objective.
 *   (alphas: [k]f64) (means: [k][d]f64) (icf: [k][q]f64) (x: [n][d]f64)
 *   (gamma: f64) (m: i64) : f64,     q = d + d(d-1)/2
 *
 * The algorithm is ADBench's C++ reference (gmm.h): Qdiag_k = exp(icf_k[0:d])
 * and sum_qs_k = sum(icf_k[0:d]) are computed once per call; for each point
 * and component, Q_k (x_i - mu_k) is formed column by column (the packed
 * strictly-lower entries are read contiguously); then a logsumexp over the
 * components.  Every sum is sequential in the Weir program's order:
 *   qx[j] = ((Qdiag[j] xc[j] + L[j][0] xc[0]) + L[j][1] xc[1]) + ...
 *   sqnorm, sums:  ((0 + t0) + t1) + ...
 *   main_k = (alpha_k + sum_qs_k) - 0.5 |qx|^2
 *   logsumexp(v) = log(sum exp(v - max v)) + max v
 *   err = (const + slse) - n lse(alphas)
 *   prior = sum_k [(0.5 gamma gamma) frob_k - m sum_qs_k] - k c
 * Temporaries (Qdiag [k][d], sum_qs [k], main [k], xc [d], qx [d]) are
 * variable-length arrays on the stack, once per call: (k d + k + 2 d) * 8 bytes,
 * about 200 KiB for ADBench's largest instance (d = 128, k = 200).  No heap. */
#include "harness.h"

#define ADBENCH_PI 3.14159265359

static inline double logsumexp(int64_t n, const double *restrict v) {
    double mx = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        if (v[i] > mx) mx = v[i];
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) s += exp(v[i] - mx);
    return log(s) + mx;
}

H_KERNEL static double gmm_objective(int64_t d, int64_t k, int64_t n, const double *restrict alphas,
                                     const double *restrict means, const double *restrict icf,
                                     const double *restrict x, double gamma, int64_t m) {
    const int64_t q = d + d * (d - 1) / 2;
    /* at least one element each: a zero-length VLA is undefined behaviour */
    double Qdiags[k * d + 1], sum_qs[k + 1], main_term[k + 1], xc[d + 1], qx[d + 1];

    for (int64_t kk = 0; kk < k; kk++) {
        const double *icf_k = icf + kk * q;
        double s = 0.0;
        for (int64_t j = 0; j < d; j++) {
            Qdiags[kk * d + j] = exp(icf_k[j]);
            s += icf_k[j];
        }
        sum_qs[kk] = s;
    }

    const double constant = (double)(0 - n * d) * 0.5 * log(2.0 * ADBENCH_PI);

    double slse = 0.0;
    for (int64_t i = 0; i < n; i++) {
        const double *xi = x + i * d;
        for (int64_t kk = 0; kk < k; kk++) {
            const double *mu = means + kk * d;
            const double *Qd = Qdiags + kk * d;
            const double *L = icf + kk * q + d;
            for (int64_t j = 0; j < d; j++) {
                xc[j] = xi[j] - mu[j];
                qx[j] = Qd[j] * xc[j];
            }
            for (int64_t c = 0; c < d; c++) {
                const double xcc = xc[c];
                for (int64_t j = c + 1; j < d; j++) qx[j] += L[j - c - 1] * xcc;
                L += d - c - 1;
            }
            double sq = 0.0;
            for (int64_t j = 0; j < d; j++) sq += qx[j] * qx[j];
            main_term[kk] = alphas[kk] + sum_qs[kk] - 0.5 * sq;
        }
        slse += logsumexp(k, main_term);
    }

    const double err = constant + slse - (double)n * logsumexp(k, alphas);

    /* log Wishart prior */
    const int64_t nn = d + m + 1;
    double lgd = 0.25 * (double)d * (double)(d - 1) * log(ADBENCH_PI);
    const double a = 0.5 * (double)nn;
    for (int64_t jj = 0; jj < d; jj++) lgd += lgamma(a + 0.5 * (double)(0 - jj));
    const double c = (double)(nn * d) * (log(gamma) - 0.5 * log(2.0)) - lgd;
    const int64_t nl = q - d;
    double out = 0.0;
    for (int64_t kk = 0; kk < k; kk++) {
        const double *Qd = Qdiags + kk * d;
        const double *L = icf + kk * q + d;
        double s1 = 0.0, s2 = 0.0;
        for (int64_t j = 0; j < d; j++) s1 += Qd[j] * Qd[j];
        for (int64_t j = 0; j < nl; j++) s2 += L[j] * L[j];
        const double frobenius = s1 + s2;
        out = out + 0.5 * gamma * gamma * frobenius - (double)m * sum_qs[kk];
    }
    return err + (out - (double)k * c);
}

static int64_t d, k, n, m;
static double *alphas, *means, *icf, *x, gamma_, result;

static void bench_read(FILE *in) {
    int64_t dk, dm[2], di[2], dx[2];
    alphas = h_read_array_f64(in, 1, &dk, "alphas");
    means = h_read_array_f64(in, 2, dm, "means");
    icf = h_read_array_f64(in, 2, di, "icf");
    x = h_read_array_f64(in, 2, dx, "x");
    gamma_ = h_read_f64(in, "gamma");
    m = h_read_i64(in, "m");
    k = dk;
    d = dm[1];
    n = dx[0];
    h_expect_dim("means", dm[0], k);
    h_expect_dim("icf", di[0], k);
    h_expect_dim("icf (inner)", di[1], d + d * (d - 1) / 2);
    h_expect_dim("x (inner)", dx[1], d);
}

static void bench_run(void) { result = gmm_objective(d, k, n, alphas, means, icf, x, gamma_, m); }

static void bench_write(FILE *f) { h_write_f64(f, result); }
