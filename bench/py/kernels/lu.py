"""lu (examples/lu.weir `lu`, PolyBench lu): a [n][n] -> its LU
decomposition without pivoting, in place on a copy (U on and above the
diagonal, L's multipliers below it; L's diagonal is 1).

All three eliminate right-looking, as the C code: for each pivot k, the
column below it is divided by a[k][k], then the trailing block loses the
outer product of that column and the pivot's row (NumPy: `np.outer` on the
slices; JAX: the same on the whole matrix under masks, inside
`lax.fori_loop`, since slice shapes must be static; Numba: the three loops).
Every element gets the C code's operations in its order; XLA may contract
a multiply and a subtraction into an FMA, so JAX agrees to rounding."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('a', 'f64', 2)]
RESULT = [('f64', 2)]


def check(a):
    expect_dim('a (inner)', a.shape[1], a.shape[0])


def numpy_impl(a):
    A = a.copy()
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    return A


def jax_impl(a):
    import jax.numpy as jnp
    from jax import lax
    n = a.shape[0]
    if n == 0:                 # (static) the loop's body would index nothing
        return a
    idx = jnp.arange(n)

    def step(k, A):
        below = idx > k
        col = jnp.where(below, A[:, k] / A[k, k], 0.0)
        row = jnp.where(below, A[k], 0.0)
        A = A - jnp.outer(col, row)
        return A.at[:, k].set(jnp.where(below, col, A[:, k]))

    return lax.fori_loop(0, n, step, a)


@njit
def numba_impl(a):
    A = a.copy()
    n = A.shape[0]
    for k in range(n):
        for i in range(k + 1, n):
            l = A[i, k] / A[k, k]
            A[i, k] = l
            for j in range(k + 1, n):
                A[i, j] -= l * A[k, j]
    return A
