"""add3 (examples/add3.weir `add3`): (a + b) + c on three [n]f64 vectors."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('a', 'f64', 1), ('b', 'f64', 1), ('c', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a, b, c):
    expect_dim('b', b.shape[0], a.shape[0])
    expect_dim('c', c.shape[0], a.shape[0])


def numpy_impl(a, b, c):
    return a + b + c


def jax_impl(a, b, c):
    return a + b + c


@njit
def numba_impl(a, b, c):
    n = a.shape[0]
    out = np.empty(n)
    for i in range(n):
        out[i] = a[i] + b[i] + c[i]
    return out
