"""mm2 (examples/2mm.weir `mm2`, PolyBench 2mm): alpha, beta, a [ni][nk],
b [nk][nj], c [nj][nl], d [ni][nl] -> alpha A B C + beta D  [ni][nl]
(tmp = alpha A B first, then tmp C + beta D)."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('alpha', 'f64', 0), ('beta', 'f64', 0), ('a', 'f64', 2), ('b', 'f64', 2),
          ('c', 'f64', 2), ('d', 'f64', 2)]
RESULT = [('f64', 2)]


def check(alpha, beta, a, b, c, d):
    ni, nk = a.shape
    expect_dim('b', b.shape[0], nk)
    expect_dim('c', c.shape[0], b.shape[1])
    expect_dim('d', d.shape[0], ni)
    expect_dim('d (inner)', d.shape[1], c.shape[1])


def numpy_impl(alpha, beta, a, b, c, d):
    return alpha * a @ b @ c + beta * d


def jax_impl(alpha, beta, a, b, c, d):
    return alpha * a @ b @ c + beta * d


@njit
def numba_impl(alpha, beta, a, b, c, d):
    ni, nk = a.shape
    nj = b.shape[1]
    nl = c.shape[1]
    tmp = np.zeros((ni, nj))
    for i in range(ni):
        for k in range(nk):
            aik = alpha * a[i, k]
            for j in range(nj):
                tmp[i, j] += aik * b[k, j]
    out = np.empty((ni, nl))
    for i in range(ni):
        for j in range(nl):
            out[i, j] = beta * d[i, j]
        for k in range(nj):
            t = tmp[i, k]
            for j in range(nl):
                out[i, j] += t * c[k, j]
    return out
