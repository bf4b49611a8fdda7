"""transposecat (examples/transpose_cat.weir `transpose_cat`): a [n][m]f64
and b [k][n]f64 -> the transpose of a stacked on b, [m + k][n]f64.  NumPy:
`np.concatenate((a.T, b))` (a.T is a view; concatenate copies it once into
the result); JAX: `jnp.concatenate((a.T, b))` under jit; Numba: the
hand-written C's loop over 64 x 64 tiles (inner loop along a row of the
result) into a fresh array, then b copied after it.  All three are bit-identical to Weir (elements are copied, never
computed)."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('a', 'f64', 2), ('b', 'f64', 2)]
RESULT = [('f64', 2)]


def check(a, b):
    expect_dim('b (inner)', b.shape[1], a.shape[0])


def numpy_impl(a, b):
    return np.concatenate((a.T, b))


def jax_impl(a, b):
    import jax.numpy as jnp
    return jnp.concatenate((a.T, b))


@njit
def numba_impl(a, b):
    n, m = a.shape
    k = b.shape[0]
    out = np.empty((m + k, n))
    t = 64
    for j0 in range(0, m, t):
        j1 = min(j0 + t, m)
        for i0 in range(0, n, t):
            i1 = min(i0 + t, n)
            for j in range(j0, j1):
                for i in range(i0, i1):
                    out[j, i] = a[i, j]
    out[m:, :] = b
    return out
