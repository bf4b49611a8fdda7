"""partition (examples/partition.weir `partition3`): the three-way partition
of an [n]f64 vector, `partition2 (\\x -> x < -0.5) (\\x -> x < 0.5) a`: the
elements below -0.5; those in [-0.5, 0.5); the rest (>= 0.5, and NaN, which
fails both comparisons); each part in input order.  The parts' lengths depend
on the data.  NumPy: boolean masks, `a[p]`, `a[q & ~p]`, `a[~q]` with
`p = a < -0.5` and `q = a < 0.5`.  JAX: jit needs static shapes, so the jitted
part writes the three parts one after another into one array of the input's
length (the concatenation of the parts is a permutation of a): each element is
scattered to its part's offset plus the running count of that part's
elements before it (one `cumsum` of the n x 3 one-hot matrix of the parts),
and the array comes back with the parts' counts; the call then cuts it into
the parts outside jit (`int(k)` waits for the device, each slice is one more
dispatch).  Numba: the
hand-written C's loop (every element stored at the front of all three
buffers, the count of its part advanced by the comparisons) into three fresh
arrays of the input's length, returning the views out[:k]."""

import numpy as np

from harness import njit

PARAMS = [('a', 'f64', 1)]
RESULT = [('f64', 1), ('f64', 1), ('f64', 1)]


def check(a):
    pass


def numpy_impl(a):
    p = a < -0.5
    q = a < 0.5
    return a[p], a[q & ~p], a[~q]


def jax_impl(a):
    """Under jit: the three parts one after another in an array of a's length,
    and the lengths of the first two."""
    import jax.numpy as jnp
    p = a < -0.5
    q = a < 0.5
    part = 2 - q.astype(jnp.int32) - p.astype(jnp.int32)  # 0, 1 or 2
    # running counts of the three parts, one column each (one cumsum of the
    # n x 3 one-hot matrix of the parts)
    onehot = (part[:, None] == jnp.arange(3)[None, :]).astype(jnp.int64)
    running = jnp.cumsum(onehot, axis=0)
    counts = running[-1] if a.shape[0] else jnp.zeros(3, jnp.int64)
    offsets = jnp.concatenate([jnp.zeros(1, jnp.int64), jnp.cumsum(counts)[:2]])
    # an element's position: its part's offset plus the number of that part's
    # elements before it; every element is in exactly one part, so the
    # positions are a permutation of 0..n-1
    dest = offsets[part] + jnp.take_along_axis(running, part[:, None], axis=1)[:, 0] - 1
    out = jnp.zeros_like(a).at[dest].set(a, unique_indices=True)
    return out, counts[0], counts[1]


def prepare_jax(args):
    import jax
    import jax.numpy as jnp
    (a,) = args
    f = jax.jit(jax_impl)

    def call(a):
        out, k0, k1 = f(a)
        k0, k1 = int(k0), int(k1)
        return out[:k0], out[k0:k0 + k1], out[k0 + k1:]
    return call, [jnp.asarray(a, dtype=jnp.float64)]


@njit
def numba_impl(a):
    n = a.shape[0]
    lo = np.empty(n)
    mid = np.empty(n)
    hi = np.empty(n)
    kl = 0
    km = 0
    kh = 0
    for i in range(n):
        x = a[i]
        p = int(x < -0.5)
        pq = int(x < 0.5)  # x < -0.5 implies x < 0.5
        lo[kl] = x
        mid[km] = x
        hi[kh] = x
        kl += p
        km += pq - p
        kh += 1 - pq
    return lo[:kl], mid[:km], hi[:kh]
