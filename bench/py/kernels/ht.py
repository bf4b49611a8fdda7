"""ht (examples/ht.weir `angle_axis_to_rotation_matrix`): the rotation matrix
of an angle-axis vector [3]f64 -> [3][3]f64 (ADBench's hand-tracking helper);
the identity when the angle is below 1e-4."""

import math

import numpy as np

from harness import expect_dim, njit

PARAMS = [('aa', 'f64', 1)]
RESULT = [('f64', 2)]


def check(aa):
    expect_dim('aa', aa.shape[0], 3)


def numpy_impl(aa):
    # Rodrigues' formula in matrix form: R = c I + s [u]x + (1 - c) u u^T
    n = np.sqrt(aa @ aa)
    if n < 0.0001:
        return np.eye(3)
    u = aa / n
    s, c = np.sin(n), np.cos(n)
    ux = np.array([[0.0, -u[2], u[1]],
                   [u[2], 0.0, -u[0]],
                   [-u[1], u[0], 0.0]])
    return c * np.eye(3) + s * ux + (1.0 - c) * np.outer(u, u)


def jax_impl(aa):
    import jax.numpy as jnp
    from jax import lax
    n = jnp.sqrt(aa @ aa)

    def rotation(_):
        u = aa / n
        s, c = jnp.sin(n), jnp.cos(n)
        ux = jnp.array([[0.0, -u[2], u[1]],
                        [u[2], 0.0, -u[0]],
                        [-u[1], u[0], 0.0]])
        return c * jnp.eye(3) + s * ux + (1.0 - c) * jnp.outer(u, u)

    return lax.cond(n < 0.0001, lambda _: jnp.eye(3, dtype=aa.dtype), rotation, None)


@njit
def numba_impl(aa):
    R = np.zeros((3, 3))
    n = math.sqrt(aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2])
    if n < 0.0001:
        R[0, 0] = 1.0
        R[1, 1] = 1.0
        R[2, 2] = 1.0
        return R
    x = aa[0] / n
    y = aa[1] / n
    z = aa[2] / n
    s = math.sin(n)
    c = math.cos(n)
    R[0, 0] = x * x + (1.0 - x * x) * c
    R[0, 1] = x * y * (1.0 - c) - z * s
    R[0, 2] = x * z * (1.0 - c) + y * s
    R[1, 0] = x * y * (1.0 - c) + z * s
    R[1, 1] = y * y + (1.0 - y * y) * c
    R[1, 2] = y * z * (1.0 - c) - x * s
    R[2, 0] = x * z * (1.0 - c) - y * s
    R[2, 1] = z * y * (1.0 - c) + x * s
    R[2, 2] = z * z + (1.0 - z * z) * c
    return R
