"""ba_project (examples/ba.weir `ba_project`): project one point x [3]f64 with
one camera cam [11]f64 -> [2]f64 (ADBench bundle adjustment)."""

import numpy as np

from harness import expect_dim, njit
from kernels._ba import jax_project, nb_project, np_project

PARAMS = [('cam', 'f64', 1), ('x', 'f64', 1)]
RESULT = [('f64', 1)]


def check(cam, x):
    expect_dim('cam', cam.shape[0], 11)
    expect_dim('x', x.shape[0], 3)


def numpy_impl(cam, x):
    return np_project(cam, x)


def jax_impl(cam, x):
    return jax_project(cam, x)


@njit
def numba_impl(cam, x):
    out = np.empty(2)
    nb_project(cam, x, out)
    return out
