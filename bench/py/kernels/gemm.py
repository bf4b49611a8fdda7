"""gemm (examples/mm.weir `gemm`, PolyBench gemm): alpha f64, beta f64,
c [ni][nj], a [ni][nk], b [nk][nj] -> alpha A B + beta C  [ni][nj]."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('alpha', 'f64', 0), ('beta', 'f64', 0), ('c', 'f64', 2), ('a', 'f64', 2),
          ('b', 'f64', 2)]
RESULT = [('f64', 2)]


def check(alpha, beta, c, a, b):
    ni, nj = c.shape
    expect_dim('a', a.shape[0], ni)
    expect_dim('b', b.shape[0], a.shape[1])
    expect_dim('b (inner)', b.shape[1], nj)


def numpy_impl(alpha, beta, c, a, b):
    return alpha * a @ b + beta * c


def jax_impl(alpha, beta, c, a, b):
    return alpha * a @ b + beta * c


@njit
def numba_impl(alpha, beta, c, a, b):
    ni, nj = c.shape
    nk = a.shape[1]
    out = np.empty((ni, nj))
    for i in range(ni):
        for j in range(nj):
            out[i, j] = beta * c[i, j]
        for k in range(nk):
            aik = alpha * a[i, k]
            for j in range(nj):
                out[i, j] += aik * b[k, j]
    return out
