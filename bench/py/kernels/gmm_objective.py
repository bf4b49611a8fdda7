"""gmm_objective (examples/gmm.weir `gmm_objective`): ADBench's Gaussian
mixture model objective with a Wishart prior.
alphas [k], means [k][d], icf [k][q] (q = d + d(d-1)/2: log of the diagonal of
Q_k, then its strictly lower entries column by column), x [n][d], gamma f64,
m i64 -> f64."""

import math

import numpy as np

from harness import expect_dim, njit

PARAMS = [('alphas', 'f64', 1), ('means', 'f64', 2), ('icf', 'f64', 2), ('x', 'f64', 2),
          ('gamma', 'f64', 0), ('m', 'i64', 0)]
RESULT = [('f64', 0)]

ADBENCH_PI = 3.14159265359   # ADBench's constant (defs.h)


def check(alphas, means, icf, x, gamma, m):
    k = alphas.shape[0]
    d = means.shape[1]
    expect_dim('means', means.shape[0], k)
    expect_dim('icf', icf.shape[0], k)
    expect_dim('icf (inner)', icf.shape[1], d + d * (d - 1) // 2)
    expect_dim('x (inner)', x.shape[1], d)


def _log_gamma_distrib(a, p):
    return 0.25 * p * (p - 1) * math.log(ADBENCH_PI) + sum(
        math.lgamma(a + 0.5 * (0 - j)) for j in range(p))


def _wishart_const(d, m, gamma):
    """The constant part of the log Wishart prior of one component (scalars)."""
    nn = d + m + 1
    return (nn * d) * (math.log(gamma) - 0.5 * math.log(2.0)) - _log_gamma_distrib(0.5 * nn, d)


# --- NumPy -------------------------------------------------------------------

def _np_logsumexp(v, axis):
    mx = np.max(v, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(v - mx), axis=axis)) + np.squeeze(mx, axis)


def numpy_impl(alphas, means, icf, x, gamma, m):
    k, d = means.shape
    n = x.shape[0]
    qdiag = np.exp(icf[:, :d])                      # [k][d]
    sum_qs = np.sum(icf[:, :d], axis=1)             # [k]
    # Q_k = diag(qdiag_k) + L_k, L_k's entries packed column by column
    cols, rows = np.triu_indices(d, 1)
    Q = np.zeros((k, d, d))
    Q[:, rows, cols] = icf[:, d:]
    Q[:, np.arange(d), np.arange(d)] = qdiag
    xc = x[None, :, :] - means[:, None, :]          # [k][n][d]: x_i - mu_k
    qx = xc @ Q.transpose(0, 2, 1)                  # Q_k (x_i - mu_k): k stacked GEMMs
    main = (alphas + sum_qs)[:, None] - 0.5 * np.einsum('kni,kni->kn', qx, qx)   # [k][n]
    slse = np.sum(_np_logsumexp(main, 0))
    const = -n * d * 0.5 * math.log(2.0 * ADBENCH_PI)
    err = const + slse - n * _np_logsumexp(alphas, 0)
    frob = np.sum(qdiag * qdiag, axis=1) + np.sum(icf[:, d:] ** 2, axis=1)
    prior = np.sum(0.5 * gamma * gamma * frob - m * sum_qs) - k * _wishart_const(d, m, gamma)
    return np.float64(err + prior)


# --- JAX ---------------------------------------------------------------------

def jax_impl(alphas, means, icf, x, gamma, m):
    import jax.numpy as jnp
    from jax.scipy.special import gammaln, logsumexp
    k, d = means.shape
    n = x.shape[0]
    qdiag = jnp.exp(icf[:, :d])
    sum_qs = jnp.sum(icf[:, :d], axis=1)
    cols, rows = np.triu_indices(d, 1)              # static: depends on the shape only
    Q = jnp.zeros((k, d, d), icf.dtype)
    Q = Q.at[:, rows, cols].set(icf[:, d:])
    Q = Q.at[:, np.arange(d), np.arange(d)].set(qdiag)
    xc = x[None, :, :] - means[:, None, :]          # [k][n][d]
    qx = xc @ Q.transpose(0, 2, 1)
    main = (alphas + sum_qs)[:, None] - 0.5 * jnp.einsum('kni,kni->kn', qx, qx)
    slse = jnp.sum(logsumexp(main, axis=0))
    const = -n * d * 0.5 * math.log(2.0 * ADBENCH_PI)
    err = const + slse - n * logsumexp(alphas)
    mf = m.astype(jnp.float64)
    nn = d + mf + 1.0
    lgd = 0.25 * d * (d - 1) * math.log(ADBENCH_PI) + jnp.sum(
        gammaln(0.5 * nn - 0.5 * jnp.arange(d, dtype=jnp.float64)))
    c = nn * d * (jnp.log(gamma) - 0.5 * math.log(2.0)) - lgd
    frob = jnp.sum(qdiag * qdiag, axis=1) + jnp.sum(icf[:, d:] ** 2, axis=1)
    prior = jnp.sum(0.5 * gamma * gamma * frob - mf * sum_qs) - k * c
    return err + prior


# --- Numba -------------------------------------------------------------------

@njit
def _nb_logsumexp(v):
    mx = -np.inf
    for i in range(v.shape[0]):
        if v[i] > mx:
            mx = v[i]
    s = 0.0
    for i in range(v.shape[0]):
        s += math.exp(v[i] - mx)
    return math.log(s) + mx


@njit
def numba_impl(alphas, means, icf, x, gamma, m):
    k, d = means.shape
    n = x.shape[0]
    qdiag = np.empty((k, d))
    sum_qs = np.empty(k)
    for kk in range(k):
        s = 0.0
        for j in range(d):
            qdiag[kk, j] = math.exp(icf[kk, j])
            s += icf[kk, j]
        sum_qs[kk] = s
    main = np.empty(k)
    xc = np.empty(d)
    qx = np.empty(d)
    slse = 0.0
    for i in range(n):
        for kk in range(k):
            for j in range(d):
                xc[j] = x[i, j] - means[kk, j]
                qx[j] = qdiag[kk, j] * xc[j]
            # strictly lower entries, column by column
            pos = d
            for col in range(d):
                for j in range(col + 1, d):
                    qx[j] += icf[kk, pos] * xc[col]
                    pos += 1
            sq = 0.0
            for j in range(d):
                sq += qx[j] * qx[j]
            main[kk] = alphas[kk] + sum_qs[kk] - 0.5 * sq
        slse += _nb_logsumexp(main)
    const = (0 - n * d) * 0.5 * math.log(2.0 * ADBENCH_PI)
    err = const + slse - n * _nb_logsumexp(alphas)
    # log Wishart prior
    nn = d + m + 1
    lgd = 0.25 * d * (d - 1) * math.log(ADBENCH_PI)
    for j in range(d):
        lgd += math.lgamma(0.5 * nn + 0.5 * (0 - j))
    c = (nn * d) * (math.log(gamma) - 0.5 * math.log(2.0)) - lgd
    q = icf.shape[1]
    out = 0.0
    for kk in range(k):
        s1 = 0.0
        for j in range(d):
            s1 += qdiag[kk, j] * qdiag[kk, j]
        s2 = 0.0
        for j in range(d, q):
            s2 += icf[kk, j] * icf[kk, j]
        out = out + 0.5 * gamma * gamma * (s1 + s2) - m * sum_qs[kk]
    return err + (out - k * c)
