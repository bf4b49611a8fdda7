"""mm3 (examples/3mm.weir `mm3`, PolyBench 3mm): a [ni][nk], b [nk][nj],
c [nj][nm], d [nm][nl] -> (A B)(C D)  [ni][nl]."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('a', 'f64', 2), ('b', 'f64', 2), ('c', 'f64', 2), ('d', 'f64', 2)]
RESULT = [('f64', 2)]


def check(a, b, c, d):
    expect_dim('b', b.shape[0], a.shape[1])
    expect_dim('c', c.shape[0], b.shape[1])
    expect_dim('d', d.shape[0], c.shape[1])


def numpy_impl(a, b, c, d):
    return (a @ b) @ (c @ d)


def jax_impl(a, b, c, d):
    return (a @ b) @ (c @ d)


@njit
def _matmul(x, y):
    n, kk = x.shape
    m = y.shape[1]
    out = np.zeros((n, m))
    for i in range(n):
        for k in range(kk):
            xik = x[i, k]
            for j in range(m):
                out[i, j] += xik * y[k, j]
    return out


@njit
def numba_impl(a, b, c, d):
    return _matmul(_matmul(a, b), _matmul(c, d))
