// gmm_objective (examples/gmm.weir `gmm_objective`): the ADBench GMM objective
// (negative log-likelihood of a Gaussian mixture plus a Wishart prior).
//   (alphas: [k]f64) (means: [k][d]f64) (icf: [k][q]f64) (x: [n][d]f64)
//   (gamma: f64) (m: i64) : f64,     q = d + d(d-1)/2
//
// Row k of icf holds the log-diagonal of the inverse Cholesky factor Q_k
// (d values) and then its strictly-lower entries column by column.
//   err   = -n d/2 log(2 pi) + sum_i logsumexp_k(alpha_k + sum(log diag Q_k)
//                                               - |Q_k (x_i - mu_k)|^2 / 2)
//           - n logsumexp(alpha)
//   prior = sum_k (gamma^2/2 |Q_k|_F^2 - m sum(log diag Q_k)) - k C(d, m, gamma)
//
// The Eigen formulation works on all points at once instead of point by point:
// the row-major x [n][d] is, as stored, a column-major d x n matrix whose
// columns are the points (a Map, no copy); likewise means is d x k.  For each
// component, Q_k is unpacked into a dense d x d lower-triangular matrix, the
// centred points Xc = X.colwise() - mu_k are formed, and one triangular
// matrix product (Eigen's blocked TRMM, Q_k.triangularView<Lower>() * Xc)
// gives every Q_k (x_i - mu_k) together; colwise().squaredNorm() turns them
// into row k of a k x n matrix of the mixture terms.  The log-sum-exp over
// the components is then column-wise array expressions (max, exp, sum, log).
// The temporaries (Q: d x d, Xc and QXc: d x n, the k x n terms) are local
// Eigen matrices, allocated by every call.  Sums are in Eigen's (vectorized)
// order rather than the sequential order of the reference: ~1e-15 relative.
#include "harness.hpp"

#include <cmath>
#include <cstdint>

using Eigen::Dynamic;
using Eigen::Index;
using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::RowVectorXd;
using Eigen::VectorXd;
using RowMatrixXd = Eigen::Matrix<double, Dynamic, Dynamic, Eigen::RowMajor>;

static constexpr double kPi = 3.14159265359;  // ADBench's value

static double logsumexp(const VectorXd &v) {
    const double mx = v.maxCoeff();
    return std::log((v.array() - mx).exp().sum()) + mx;
}

// log of the multivariate gamma function Gamma_p(a)
static double log_gamma_distrib(double a, Index p) {
    double r = 0.25 * static_cast<double>(p) * static_cast<double>(p - 1) * std::log(kPi);
    for (Index j = 0; j < p; j++) r += std::lgamma(a - 0.5 * static_cast<double>(j));
    return r;
}

[[gnu::noinline]] static double gmm_objective(const VectorXd &alphas, const RowMatrixXd &means,
                                              const RowMatrixXd &icf, const RowMatrixXd &x, double gamma,
                                              std::int64_t m) {
    const Index k = alphas.size(), d = means.cols(), n = x.rows();
    const Map<const MatrixXd> X(x.data(), d, n);       // column i = point i
    const Map<const MatrixXd> Mu(means.data(), d, k);  // column j = mean j

    const auto log_diag = icf.leftCols(d);
    const auto lower = icf.rightCols(icf.cols() - d);
    const RowMatrixXd Qdiag = log_diag.array().exp().matrix();  // k x d
    const VectorXd sum_qs = log_diag.rowwise().sum();           // k

    MatrixXd Q = MatrixXd::Zero(d, d), Xc(d, n), QXc(d, n), terms(k, n);
    for (Index j = 0; j < k; j++) {
        Q.diagonal() = Qdiag.row(j).transpose();
        const double *L = lower.row(j).data();
        for (Index c = 0; c + 1 < d; c++) {
            Q.col(c).tail(d - c - 1) = Map<const VectorXd>(L, d - c - 1);
            L += d - c - 1;
        }
        Xc = X.colwise() - Mu.col(j);
        QXc.noalias() = Q.triangularView<Eigen::Lower>() * Xc;
        terms.row(j) = (alphas(j) + sum_qs(j)) - 0.5 * QXc.colwise().squaredNorm().array();
    }
    const RowVectorXd mx = terms.colwise().maxCoeff();
    const double slse = ((terms.rowwise() - mx).array().exp().colwise().sum().log() + mx.array()).sum();

    const double constant = -static_cast<double>(n * d) * 0.5 * std::log(2.0 * kPi);
    const double err = constant + slse - static_cast<double>(n) * logsumexp(alphas);

    // log Wishart prior
    const Index nn = d + static_cast<Index>(m) + 1;
    const double C = static_cast<double>(nn * d) * (std::log(gamma) - 0.5 * std::log(2.0)) -
                     log_gamma_distrib(0.5 * static_cast<double>(nn), d);
    const VectorXd frobenius = Qdiag.rowwise().squaredNorm() + lower.rowwise().squaredNorm();
    const double prior = (0.5 * gamma * gamma * frobenius.array() - static_cast<double>(m) * sum_qs.array()).sum() -
                         static_cast<double>(k) * C;
    return err + prior;
}

struct GmmObjective {
    VectorXd alphas;
    RowMatrixXd means, icf, x;
    double gamma = 0, result = 0;
    std::int64_t m = 0;

    void read(bench::Input &in) {
        in.vector(alphas, "alphas");
        in.matrix(means, "means");
        in.matrix(icf, "icf");
        in.matrix(x, "x");
        gamma = in.f64("gamma");
        m = in.i64("m");
        const Index k = alphas.size(), d = means.cols();
        bench::expect_dim("means", means.rows(), k);
        bench::expect_dim("icf", icf.rows(), k);
        bench::expect_dim("icf (inner)", icf.cols(), d + d * (d - 1) / 2);
        bench::expect_dim("x (inner)", x.cols(), d);
    }
    void run() { result = gmm_objective(alphas, means, icf, x, gamma, m); }
    void write(bench::Output &o) { o.f64(result); }
};

int main(int argc, char **argv) { return bench::main<GmmObjective>(argc, argv); }
