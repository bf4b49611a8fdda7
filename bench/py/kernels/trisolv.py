"""trisolv (examples/forward_subst.weir `forward_subst`, PolyBench trisolv):
l [n][n], b [n] -> x [n], the solution of L x = b by forward substitution
(only the lower triangle of l is read).

Numba keeps PolyBench's order (x[i] = b[i], then x[i] -= L[i][j] * x[j] for
j < i, then x[i] /= L[i][i]), as the C code.  NumPy subtracts each row's dot
product with the solved part at once, `(b[i] - L[i, :i] @ x[:i]) / L[i, i]`,
and JAX the same under a mask inside `lax.fori_loop` (static shapes): both
reassociate the sum, so they agree to rounding."""

import numpy as np

from harness import expect_dim, njit

PARAMS = [('l', 'f64', 2), ('b', 'f64', 1)]
RESULT = [('f64', 1)]


def check(l, b):
    expect_dim('l', l.shape[0], b.shape[0])
    expect_dim('l (inner)', l.shape[1], b.shape[0])


def numpy_impl(l, b):
    n = b.shape[0]
    x = np.empty(n)
    for i in range(n):
        x[i] = (b[i] - l[i, :i] @ x[:i]) / l[i, i]
    return x


def jax_impl(l, b):
    import jax.numpy as jnp
    from jax import lax
    n = b.shape[0]
    if n == 0:                 # (static) the loop's body would index nothing
        return jnp.zeros(0, dtype=b.dtype)
    idx = jnp.arange(n)

    def step(i, x):
        s = jnp.sum(jnp.where(idx < i, l[i] * x, 0.0))
        return x.at[i].set((b[i] - s) / l[i, i])

    return lax.fori_loop(0, n, step, jnp.zeros(n, dtype=b.dtype))


@njit
def numba_impl(l, b):
    n = b.shape[0]
    x = np.empty(n)
    for i in range(n):
        xi = b[i]
        for j in range(i):
            xi -= l[i, j] * x[j]
        x[i] = xi / l[i, i]
    return x
