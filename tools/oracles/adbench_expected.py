#!/usr/bin/env python3
"""Expected outputs for ADBench instances, computed with NumPy.

Reads ADBench's text format (shared/data/adbench/FileFormat.md) directly:
  gmm/test.txt, gmm/1k/gmm_d2_K5.txt, gmm/1k/gmm_d10_K5.txt,
  ba/test.txt, ba/ba1_n49_m7776_p31843.txt
and writes, under examples/data/adbench/:
  NAME.in   the instance in Weir's value format, in the argument order of
            `weir adbench gmm|ba FILE`:
              GMM: alphas [K]f64, means [K][d]f64, icf [K][d+d(d-1)/2]f64,
                   x [n][d]f64, gamma f64, m i64
              BA:  cams [n][11]f64, xs [m][3]f64, w [p]f64, obs [p][2]i64,
                   feats [p][2]f64 (replicated as ADBench does: observation i
                   uses camera i mod n and point i mod m)
  NAME.out  the expected results: GMM one f64; BA the [p][2]f64 reprojection
            errors and the [p]f64 weight errors.

The objectives are the ADBench definitions (Srajer, Kukelova, Fitzgibbon 2018;
ADBench's C++ reference src/cpp/shared/{gmm,ba}.h, read for the formulas only),
implemented here independently with NumPy. ADBench's PI constant is
3.14159265359 (defs.h), not math.pi; it enters the GMM constants.

The data folder is ../shared/data relative to the project root, or the folder
named by $WEIR_SHARED_DATA. Usage: python3 tools/oracles/adbench_expected.py [--check]
"""

import math
import os
import sys

import numpy as np

from weirval import Writer, ROOT

ADBENCH_PI = 3.14159265359


def data_dir():
    d = os.environ.get('WEIR_SHARED_DATA') or os.path.join(ROOT, '..', 'shared', 'data')
    return os.path.join(d, 'adbench')


# --------------------------------------------------------------------------
# Readers (ADBench text format)
# --------------------------------------------------------------------------


def read_gmm(path):
    with open(path) as f:
        tok = f.read().split()
    d, k, n = int(tok[0]), int(tok[1]), int(tok[2])
    pos = 3

    def take(cnt):
        nonlocal pos
        out = np.array([float(t) for t in tok[pos:pos + cnt]], dtype=np.float64)
        pos += cnt
        return out
    icf_sz = d * (d + 1) // 2
    alphas = take(k)
    means = take(k * d).reshape(k, d)
    icf = take(k * icf_sz).reshape(k, icf_sz)
    x = take(n * d).reshape(n, d)
    gamma = float(tok[pos])
    m = int(tok[pos + 1])
    assert pos + 2 == len(tok), path
    return alphas, means, icf, x, gamma, m


def read_ba(path):
    with open(path) as f:
        tok = f.read().split()
    n, m, p = int(tok[0]), int(tok[1]), int(tok[2])
    vals = [float(t) for t in tok[3:]]
    assert len(vals) == 11 + 3 + 1 + 2, path
    cam = np.array(vals[0:11])
    x = np.array(vals[11:14])
    w = vals[14]
    feat = np.array(vals[15:17])
    cams = np.tile(cam, (n, 1))
    xs = np.tile(x, (m, 1))
    ws = np.full(p, w)
    idx = np.arange(p, dtype=np.int64)
    obs = np.stack([idx % n, idx % m], axis=1).astype(np.int64)
    feats = np.tile(feat, (p, 1))
    return cams, xs, ws, obs, feats


# --------------------------------------------------------------------------
# GMM objective (log-likelihood with Wishart prior, ADBench's definition)
# --------------------------------------------------------------------------


def unpack_q(icf_row, d):
    """Q = diag(exp(log-diagonal)) + L, where L's strictly lower entries are
    stored column by column (column-major order, as ADBench's icf)."""
    q = np.diag(np.exp(icf_row[:d]))
    # (i, j) with i < j in row-major order = L's strictly lower entries (j, i)
    # in column-major order
    cols, rows = np.triu_indices(d, 1)
    q[rows, cols] = icf_row[d:]
    return q


def logsumexp(a, axis=None):
    mx = np.max(a, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(a - mx), axis=axis, keepdims=True)) + mx
    return np.squeeze(out, axis=axis) if axis is not None else float(out.reshape(()))


def log_gamma_distrib(a, p):
    return 0.25 * p * (p - 1) * math.log(ADBENCH_PI) + \
        sum(math.lgamma(a + 0.5 * (1 - j)) for j in range(1, p + 1))


def gmm_objective(alphas, means, icf, x, gamma, m):
    k, d = means.shape
    n = x.shape[0]
    assert alphas.shape == (k,) and icf.shape == (k, d * (d + 1) // 2) and x.shape[1] == d
    qs = np.stack([unpack_q(icf[j], d) for j in range(k)])          # [k][d][d]
    sum_qs = icf[:, :d].sum(axis=1)                                   # log det Q_k
    xc = x[:, None, :] - means[None, :, :]                            # [n][k][d]
    qx = np.einsum('kab,nkb->nka', qs, xc)                            # Q_k (x_i - mu_k)
    main = alphas[None, :] + sum_qs[None, :] - 0.5 * np.sum(qx * qx, axis=2)
    slse = float(np.sum(logsumexp(main, axis=1)))
    constant = -n * d * 0.5 * math.log(2 * ADBENCH_PI)
    lik = constant + slse - n * logsumexp(alphas)
    # Wishart prior
    nn = d + m + 1
    c = nn * d * (math.log(gamma) - 0.5 * math.log(2)) - log_gamma_distrib(0.5 * nn, d)
    frob = np.sum(np.exp(icf[:, :d]) ** 2, axis=1) + np.sum(icf[:, d:] ** 2, axis=1)
    prior = float(np.sum(0.5 * gamma * gamma * frob - m * sum_qs)) - k * c
    return lik + prior


def gmm_loglik_direct(alphas, means, icf, x):
    """Cross-check of the likelihood part: log sum_k w_k N(x_i; mu_k, (Q^T Q)^-1)
    with the Gaussian density evaluated through the covariance matrix."""
    k, d = means.shape
    w = np.exp(alphas) / np.sum(np.exp(alphas))
    total = 0.0
    for xi in x:
        dens = 0.0
        for j in range(k):
            q = unpack_q(icf[j], d)
            cov = np.linalg.inv(q.T @ q)
            r = xi - means[j]
            dens += w[j] * math.exp(-0.5 * r @ np.linalg.solve(cov, r)) / \
                math.sqrt((2 * ADBENCH_PI) ** d * np.linalg.det(cov))
        total += math.log(dens)
    return total


# --------------------------------------------------------------------------
# BA objective
# --------------------------------------------------------------------------


def rodrigues_rotate(rot, x):
    """ADBench's rodrigues_rotate_point, vectorised over rows of rot and x."""
    sqtheta = np.sum(rot * rot, axis=1)
    nz = sqtheta != 0
    theta = np.sqrt(np.where(nz, sqtheta, 1.0))
    cos_t = np.cos(theta)[:, None]
    sin_t = np.sin(theta)[:, None]
    w = rot * (1.0 / theta)[:, None]
    tmp = np.sum(w * x, axis=1)[:, None] * (1.0 - cos_t)
    full = x * cos_t + np.cross(w, x) * sin_t + w * tmp
    small = x + np.cross(rot, x)
    return np.where(nz[:, None], full, small)


def project(cams, x):
    """Project points x[i] by cameras cams[i] (rows of 11 parameters)."""
    xcam = rodrigues_rotate(cams[:, 0:3], x - cams[:, 3:6])
    p = xcam[:, 0:2] / xcam[:, 2:3]
    rsq = np.sum(p * p, axis=1)[:, None]
    distorted = p * (1.0 + cams[:, 9:10] * rsq + cams[:, 10:11] * rsq * rsq)
    return distorted * cams[:, 6:7] + cams[:, 7:9]


def project_via_matrix(cams, x):
    """Cross-check of `project` with the rotation matrix
    R = I + sin t K + (1 - cos t) K^2 (K: cross matrix of the unit axis)."""
    out = []
    for cam, xi in zip(cams, x):
        r = cam[0:3]
        t = math.sqrt(float(r @ r))
        if t == 0:
            rm = np.eye(3)
        else:
            a = r / t
            kx = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
            rm = np.eye(3) + math.sin(t) * kx + (1 - math.cos(t)) * (kx @ kx)
        xc = rm @ (xi - cam[3:6])
        p = xc[:2] / xc[2]
        rsq = p @ p
        out.append(p * (1 + cam[9] * rsq + cam[10] * rsq ** 2) * cam[6] + cam[7:9])
    return np.array(out)


def ba_objective(cams, xs, w, obs, feats):
    proj = project(cams[obs[:, 0]], xs[obs[:, 1]])
    reproj = w[:, None] * (proj - feats)
    werr = 1.0 - w * w
    return reproj, werr


def close(a, b, rel=1e-10):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return bool(np.all(np.abs(a - b) <= rel * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))))


# --------------------------------------------------------------------------

GMM_FILES = [('gmm_test', 'gmm/test.txt'),
             ('gmm_d2_K5', 'gmm/1k/gmm_d2_K5.txt'),
             ('gmm_d10_K5', 'gmm/1k/gmm_d10_K5.txt')]
BA_FILES = [('ba_test', 'ba/test.txt'),
            ('ba1_n49_m7776_p31843', 'ba/ba1_n49_m7776_p31843.txt')]


def main():
    src = data_dir()
    if not os.path.isdir(src):
        sys.exit(f'ADBench data not found at {src} (set WEIR_SHARED_DATA)')
    w = Writer()
    for name, rel in GMM_FILES:
        args = read_gmm(os.path.join(src, rel))
        val = gmm_objective(*args)
        alphas, means, icf, x, gamma, m = args
        if x.shape[0] * means.shape[0] <= 5000:
            # the likelihood part, checked against the density formula
            k, d = means.shape
            nn = d + m + 1
            prior = float(np.sum(0.5 * gamma ** 2 * (np.sum(np.exp(icf[:, :d]) ** 2, axis=1)
                                                     + np.sum(icf[:, d:] ** 2, axis=1))
                                 - m * icf[:, :d].sum(axis=1))) \
                - k * (nn * d * (math.log(gamma) - 0.5 * math.log(2))
                       - log_gamma_distrib(0.5 * nn, d))
            assert close(val - prior, gmm_loglik_direct(alphas, means, icf, x), 1e-9), name
        w.data(f'data/adbench/{name}.in', list(args))
        w.data(f'data/adbench/{name}.out', [val])
        print(f'{name}: {val!r}')
    for name, rel in BA_FILES:
        args = read_ba(os.path.join(src, rel))
        reproj, werr = ba_objective(*args)
        cams, xs, ws, obs, feats = args
        chk = ws[:5, None] * (project_via_matrix(cams[obs[:5, 0]], xs[obs[:5, 1]]) - feats[:5])
        assert close(reproj[:5], chk, 1e-9), name
        w.data(f'data/adbench/{name}.in', list(args))
        w.data(f'data/adbench/{name}.out', [reproj, werr])
        print(f'{name}: reproj[0] = {reproj[0].tolist()}, werr[0] = {float(werr[0])!r}')
    w.finish()


if __name__ == '__main__':
    main()
