// gmm_objective (examples/gmm.weir): ADBench's Gaussian mixture model
// objective with a Wishart prior.  The matrices (means, icf, x) are nested
// std::vector<std::vector<double>> (a list of points / of per-component
// parameter rows).  The helpers take const references and return new
// vectors, so a call allocates what the code naturally creates: the k
// diagonals exp(icf[k][0:d]) and the sums, then for every point the vector
// of k main terms, and for every (point, component) pair the centred point
// and Q * (x - mu).  Sums run in index order, as in the Weir program.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "harness.hpp"

namespace {

using Vector = std::vector<double>;
using Rows = std::vector<Vector>;

constexpr double kPi = 3.14159265359;  // ADBench's value

double sqnorm(Vector::const_iterator first, Vector::const_iterator last) {
    return std::inner_product(first, last, first, 0.0);
}
double sqnorm(const Vector &v) { return sqnorm(v.begin(), v.end()); }

double logsumexp(const Vector &v) {
    if (v.empty()) return -std::numeric_limits<double>::infinity();
    const double mx = *std::max_element(v.begin(), v.end());
    double sum = 0.0;
    for (const double e : v) sum += std::exp(e - mx);
    return std::log(sum) + mx;
}

Vector subtract(const Vector &a, const Vector &b) {
    Vector r(a.size());
    std::transform(a.begin(), a.end(), b.begin(), r.begin(), std::minus<>());
    return r;
}

// Q * v, where Q is lower triangular with diagonal qdiag and, below the
// diagonal, icf[d:] packed column by column.
Vector q_times_x(const Vector &qdiag, const Vector &icf, const Vector &v) {
    const std::size_t d = v.size();
    Vector r(d);
    std::transform(qdiag.begin(), qdiag.end(), v.begin(), r.begin(), std::multiplies<>());
    std::size_t l = d;
    for (std::size_t col = 0; col < d; ++col)
        for (std::size_t row = col + 1; row < d; ++row) r[row] += icf[l++] * v[col];
    return r;
}

double log_gamma_distrib(double a, std::int64_t p) {
    double r = 0.25 * static_cast<double>(p) * static_cast<double>(p - 1) * std::log(kPi);
    for (std::int64_t j = 0; j < p; ++j) r += std::lgamma(a + 0.5 * static_cast<double>(-j));
    return r;
}

double log_wishart_prior(const Rows &qdiags, const Vector &sum_qs, const Rows &icf, std::size_t d,
                         double gamma, std::int64_t m) {
    const auto di = static_cast<std::int64_t>(d);
    const std::int64_t n = di + m + 1;
    const double c = static_cast<double>(n * di) * (std::log(gamma) - 0.5 * std::log(2.0)) -
                     log_gamma_distrib(0.5 * static_cast<double>(n), di);
    double out = 0.0;
    for (std::size_t k = 0; k < icf.size(); ++k) {
        const double frobenius = sqnorm(qdiags[k]) + sqnorm(icf[k].begin() + static_cast<std::ptrdiff_t>(d), icf[k].end());
        out += 0.5 * gamma * gamma * frobenius - static_cast<double>(m) * sum_qs[k];
    }
    return out - static_cast<double>(icf.size()) * c;
}

BENCH_KERNEL double gmm_objective(const Vector &alphas, const Rows &means, const Rows &icf, const Rows &x,
                                  std::size_t d, double gamma, std::int64_t m) {
    const std::size_t k = alphas.size();
    const auto n = static_cast<std::int64_t>(x.size());

    Rows qdiags;
    qdiags.reserve(k);
    Vector sum_qs;
    sum_qs.reserve(k);
    for (const Vector &row : icf) {
        Vector qdiag(d);
        std::transform(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(d), qdiag.begin(),
                       [](double e) { return std::exp(e); });
        qdiags.push_back(std::move(qdiag));
        sum_qs.push_back(std::accumulate(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(d), 0.0));
    }

    const double constant = static_cast<double>(-n * static_cast<std::int64_t>(d)) * 0.5 * std::log(2.0 * kPi);

    double slse = 0.0;
    for (const Vector &xi : x) {
        Vector main_term;
        main_term.reserve(k);
        for (std::size_t c = 0; c < k; ++c) {
            const Vector qx = q_times_x(qdiags[c], icf[c], subtract(xi, means[c]));
            main_term.push_back(alphas[c] + sum_qs[c] - 0.5 * sqnorm(qx));
        }
        slse += logsumexp(main_term);
    }

    const double err = constant + slse - static_cast<double>(n) * logsumexp(alphas);
    return err + log_wishart_prior(qdiags, sum_qs, icf, d, gamma, m);
}

struct Inputs {
    Vector alphas;
    Rows means, icf, x;
    std::size_t d = 0;
    double gamma = 0.0;
    std::int64_t m = 0;
};

Inputs read_inputs(bench::Reader &in) {
    Inputs v;
    std::int64_t d = 0, q = 0, xd = 0;
    v.alphas = in.vector_f64("alphas");
    v.means = in.nested_f64("means", &d);
    v.icf = in.nested_f64("icf", &q);
    v.x = in.nested_f64("x", &xd);
    v.gamma = in.f64("gamma");
    v.m = in.i64("m");
    const auto k = static_cast<std::int64_t>(v.alphas.size());
    bench::expect_dim("means", static_cast<std::int64_t>(v.means.size()), k);
    bench::expect_dim("icf", static_cast<std::int64_t>(v.icf.size()), k);
    bench::expect_dim("icf (inner)", q, d + d * (d - 1) / 2);
    bench::expect_dim("x (inner)", xd, d);
    v.d = static_cast<std::size_t>(d);
    return v;
}

}  // namespace

int main(int argc, char **argv) {
    return bench::run_main(
        argc, argv, read_inputs,
        [](const Inputs &v) { return gmm_objective(v.alphas, v.means, v.icf, v.x, v.d, v.gamma, v.m); },
        [](bench::Writer &out, double r) { out.f64(r); });
}
