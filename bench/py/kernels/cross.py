"""cross (examples/cross.weir `cross`): the cross product of two [3]f64."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('a', 'f64', 1), ('b', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a, b):
    expect_dim('a', a.shape[0], 3)
    expect_dim('b', b.shape[0], 3)


def numpy_impl(a, b):
    return np.cross(a, b)


def jax_impl(a, b):
    import jax.numpy as jnp
    return jnp.cross(a, b)


@njit
def numba_impl(a, b):
    out = np.empty(3)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out
