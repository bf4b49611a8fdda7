"""scan (examples/scan.weir `prefix_sum`): the inclusive prefix sum of an
[n]f64 vector, `scan (+) 0.0 a`.  NumPy: `np.cumsum` (add.accumulate, a
running sum from left to right: bit-identical to Weir); JAX: `jnp.cumsum`
under jit (XLA's CPU lowering is an associative scan, so the additions are
grouped differently: ~1e-13 of the largest prefix on 10^7 uniform values);
Numba: the running-sum loop into a fresh array."""

import numpy as np

from harness import njit

PARAMS = [('a', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a):
    pass


def numpy_impl(a):
    return np.cumsum(a)


def jax_impl(a):
    import jax.numpy as jnp
    return jnp.cumsum(a)


@njit
def numba_impl(a):
    n = a.shape[0]
    out = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc += a[i]
        out[i] = acc
    return out
