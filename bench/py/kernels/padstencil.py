"""padstencil (examples/pad_stencil.weir `pad_stencil`): pad an [n]f64 vector
with one 0.0 on each side, then the 3-point stencil over the padded array,
((p[i] + p[i+1]) + p[i+2]) * 0.5.  NumPy: `np.pad`, then the sum of three
shifted slices in that order (one padded copy and two temporaries; bit-identical
to Weir); JAX: the same with `jnp.pad` under jit; Numba: the hand-written C's
loop (first and last elements peeled off, no padded copy) into a fresh
array."""

import numpy as np

from harness import njit

PARAMS = [('a', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a):
    pass


def numpy_impl(a):
    p = np.pad(a, 1)
    return (p[:-2] + p[1:-1] + p[2:]) * 0.5


def jax_impl(a):
    import jax.numpy as jnp
    p = jnp.pad(a, 1)
    return (p[:-2] + p[1:-1] + p[2:]) * 0.5


@njit
def numba_impl(a):
    n = a.shape[0]
    out = np.empty(n)
    if n == 0:
        return out
    if n == 1:
        out[0] = ((0.0 + a[0]) + 0.0) * 0.5
        return out
    out[0] = ((0.0 + a[0]) + a[1]) * 0.5
    for i in range(1, n - 1):
        out[i] = ((a[i - 1] + a[i]) + a[i + 1]) * 0.5
    out[n - 1] = ((a[n - 2] + a[n - 1]) + 0.0) * 0.5
    return out
