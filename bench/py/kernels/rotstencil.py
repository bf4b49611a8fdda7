"""rotstencil (examples/periodic_stencil.weir `periodic_stencil`): the
3-point stencil on a ring, ((l[i] + a[i]) + r[i]) / 3.0 with l and r the
array rotated by one each way.  NumPy: `np.roll` both ways, then the sum in
that order (two rolled copies and two temporaries; bit-identical to Weir);
JAX: the same with `jnp.roll` under jit; Numba: the hand-written C's loop
(the wrapping first and last elements peeled off, no rotated copy) into a
fresh array."""

import numpy as np

from harness import njit

PARAMS = [('a', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a):
    pass


def numpy_impl(a):
    return (np.roll(a, 1) + a + np.roll(a, -1)) / 3.0


def jax_impl(a):
    import jax.numpy as jnp
    return (jnp.roll(a, 1) + a + jnp.roll(a, -1)) / 3.0


@njit
def numba_impl(a):
    n = a.shape[0]
    out = np.empty(n)
    if n == 0:
        return out
    if n == 1:
        out[0] = ((a[0] + a[0]) + a[0]) / 3.0
        return out
    out[0] = ((a[n - 1] + a[0]) + a[1]) / 3.0
    for i in range(1, n - 1):
        out[i] = ((a[i - 1] + a[i]) + a[i + 1]) / 3.0
    out[n - 1] = ((a[n - 2] + a[n - 1]) + a[0]) / 3.0
    return out
