"""filter (examples/filter.weir `positives`): the elements of an [n]f64 vector
greater than 0.0, in order, `filter (\\x -> x > 0.0) a` (-0.0, 0.0 and NaN are
dropped).  The result's length depends on the data.  NumPy: boolean indexing
`a[a > 0.0]`.  JAX: jit needs static shapes, so the jitted part compacts into
an array as long as the input (each kept element scattered to its position,
the running count of kept elements before it: `cumsum` of the mask) and
returns it with the count; the call then cuts it to the count outside jit
(`int(k)` waits for the device, the slice is one more dispatch).  Numba: the
hand-written C's loop (an unconditional store to out[k], k advanced by the
comparison) into a fresh array of the input's length, returning the view
out[:k]."""

import numpy as np

from harness import njit

PARAMS = [('a', 'f64', 1)]
RESULT = [('f64', 1)]


def check(a):
    pass


def numpy_impl(a):
    return a[a > 0.0]


def jax_impl(a):
    """Under jit: the kept elements at the front of an array of a's length
    (zeros after them), and their number."""
    import jax.numpy as jnp
    keep = a > 0.0
    pos = jnp.cumsum(keep) - 1
    # dropped elements go to index n, out of range, which mode='drop' discards
    dest = jnp.where(keep, pos, a.shape[0])
    out = jnp.zeros_like(a).at[dest].set(a, mode='drop')
    return out, jnp.count_nonzero(keep)


def prepare_jax(args):
    import jax
    import jax.numpy as jnp
    (a,) = args
    f = jax.jit(jax_impl)

    def call(a):
        out, k = f(a)
        return out[:int(k)]
    return call, [jnp.asarray(a, dtype=jnp.float64)]


@njit
def numba_impl(a):
    n = a.shape[0]
    out = np.empty(n)
    k = 0
    for i in range(n):
        x = a[i]
        out[k] = x
        k += x > 0.0
    return out[:k]
