"""histogram (examples/histogram.weir `histogram`): k i64, is [n]i64 -> [k]i64,
the number of indices equal to each bin 0..k-1; indices outside 0..k are
ignored (`reduce_by_index (replicate k 0) (+) 0 is (map (\\_ -> 1) is)`).
NumPy: `np.bincount` of the in-range indices (a boolean mask selects them:
bincount rejects negative values and would grow past k); JAX: a scatter-add
`zeros(k).at[idx].add(1, mode='drop')` under jit, with out-of-range indices
mapped to k first (JAX would wrap negative ones), k static (it is the result's
shape); Numba: the counting loop."""

import numpy as np

from harness import InputError, njit

PARAMS = [('k', 'i64', 0), ('is', 'i64', 1)]
RESULT = [('i64', 1)]


def check(k, idx):
    if k < 0:
        raise InputError('k: negative number of bins %d' % k)


def numpy_impl(k, idx):
    return np.bincount(idx[(idx >= 0) & (idx < k)], minlength=k).astype(np.int64, copy=False)


def jax_impl(k, idx):
    import jax.numpy as jnp
    ok = (idx >= 0) & (idx < k)
    return jnp.zeros(k, dtype=jnp.int64).at[jnp.where(ok, idx, k)].add(1, mode='drop')


def prepare_jax(args):
    import functools

    import jax
    import jax.numpy as jnp
    k, idx = args
    f = jax.jit(jax_impl, static_argnums=0)
    return functools.partial(f, int(k)), [jnp.asarray(idx, dtype=jnp.int64)]


@njit
def numba_impl(k, idx):
    bins = np.zeros(k, dtype=np.int64)
    for j in range(idx.shape[0]):
        i = idx[j]
        if i >= 0 and i < k:
            bins[i] += 1
    return bins
