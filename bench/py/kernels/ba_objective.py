"""ba_objective (examples/ba.weir `ba_objective`): ADBench's bundle-adjustment
objective.  cams [n][11], xs [m][3], w [p], obs [p][2] (camera, point),
feats [p][2] -> (reprojection error [p][2], weight error [p])."""

import numpy as np

from harness import InputError, expect_dim, njit
from kernels._ba import jax_project, nb_project, np_project_many

PARAMS = [('cams', 'f64', 2), ('xs', 'f64', 2), ('w', 'f64', 1), ('obs', 'i64', 2),
          ('feats', 'f64', 2)]
RESULT = [('f64', 2), ('f64', 1)]


def check(cams, xs, w, obs, feats):
    expect_dim('cams (inner)', cams.shape[1], 11)
    expect_dim('xs (inner)', xs.shape[1], 3)
    p = w.shape[0]
    expect_dim('obs', obs.shape[0], p)
    expect_dim('obs (inner)', obs.shape[1], 2)
    expect_dim('feats', feats.shape[0], p)
    expect_dim('feats (inner)', feats.shape[1], 2)
    # (JAX would silently clamp an out-of-range gather index)
    if p and (obs[:, 0].min() < 0 or obs[:, 0].max() >= cams.shape[0]):
        raise InputError('out of bounds: a camera index of obs is not below %d' % cams.shape[0])
    if p and (obs[:, 1].min() < 0 or obs[:, 1].max() >= xs.shape[0]):
        raise InputError('out of bounds: a point index of obs is not below %d' % xs.shape[0])


def numpy_impl(cams, xs, w, obs, feats):
    proj = np_project_many(cams[obs[:, 0]], xs[obs[:, 1]])
    return w[:, None] * (proj - feats), 1.0 - w * w


def jax_impl(cams, xs, w, obs, feats):
    import jax
    proj = jax.vmap(jax_project)(cams[obs[:, 0]], xs[obs[:, 1]])
    return w[:, None] * (proj - feats), 1.0 - w * w


@njit
def numba_impl(cams, xs, w, obs, feats):
    p = w.shape[0]
    reproj = np.empty((p, 2))
    werr = np.empty(p)
    proj = np.empty(2)
    for i in range(p):
        nb_project(cams[obs[i, 0]], xs[obs[i, 1]], proj)
        reproj[i, 0] = w[i] * (proj[0] - feats[i, 0])
        reproj[i, 1] = w[i] * (proj[1] - feats[i, 1])
        werr[i] = 1.0 - w[i] * w[i]
    return reproj, werr
