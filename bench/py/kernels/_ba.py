"""Bundle-adjustment projection (examples/ba.weir `project`, ADBench) shared by
ba_project and ba_objective, in the three styles.

A camera is 11 values: rotation r[0:3] (angle-axis), centre C[3:6], focal
length f[6], principal point x0[7:9], radial distortion k[9:11].
  Xcam = rodrigues(r, X - C)    (first-order form X + r x X when r = 0)
  p = Xcam[0:2] / Xcam[2];  proj = p (1 + k0 |p|^2 + k1 |p|^4) f + x0
"""

import math

import numpy as np

from harness import njit


# --- NumPy, one point (3-vectors) -------------------------------------------

def np_project(cam, X):
    rot = cam[0:3]
    x = X - cam[3:6]
    sqtheta = rot @ rot
    if sqtheta != 0.0:
        theta = np.sqrt(sqtheta)
        w = rot / theta
        c, s = np.cos(theta), np.sin(theta)
        xcam = x * c + np.cross(w, x) * s + w * ((w @ x) * (1.0 - c))
    else:
        xcam = x + np.cross(rot, x)
    p = xcam[0:2] / xcam[2]
    rsq = p @ p
    dist = p * (1.0 + cam[9] * rsq + cam[10] * rsq * rsq)
    return dist * cam[6] + cam[7:9]


# --- NumPy, vectorised over many (camera, point) pairs ------------------------

def np_project_many(C, X):
    """C: [p][11] cameras, X: [p][3] points (row i projected by camera i)."""
    rot = C[:, 0:3]
    x = X - C[:, 3:6]
    sqtheta = np.einsum('ij,ij->i', rot, rot)
    nonzero = sqtheta != 0.0
    theta = np.sqrt(sqtheta)
    safe = np.where(nonzero, theta, 1.0)[:, None]
    w = rot / safe
    c = np.cos(theta)[:, None]
    s = np.sin(theta)[:, None]
    wx = np.einsum('ij,ij->i', w, x)[:, None]
    rotated = x * c + np.cross(w, x) * s + w * (wx * (1.0 - c))
    first_order = x + np.cross(rot, x)
    xcam = np.where(nonzero[:, None], rotated, first_order)
    p = xcam[:, 0:2] / xcam[:, 2:3]
    rsq = np.einsum('ij,ij->i', p, p)
    lam = 1.0 + C[:, 9] * rsq + C[:, 10] * rsq * rsq
    return p * (lam * C[:, 6])[:, None] + C[:, 7:9]


# --- JAX, one point (vmapped by ba_objective) --------------------------------

def jax_project(cam, X):
    import jax.numpy as jnp
    rot = cam[0:3]
    x = X - cam[3:6]
    sqtheta = rot @ rot
    nonzero = sqtheta != 0.0
    theta = jnp.sqrt(sqtheta)
    w = rot / jnp.where(nonzero, theta, 1.0)
    c, s = jnp.cos(theta), jnp.sin(theta)
    rotated = x * c + jnp.cross(w, x) * s + w * ((w @ x) * (1.0 - c))
    xcam = jnp.where(nonzero, rotated, x + jnp.cross(rot, x))
    p = xcam[0:2] / xcam[2]
    rsq = p @ p
    dist = p * (1.0 + cam[9] * rsq + cam[10] * rsq * rsq)
    return dist * cam[6] + cam[7:9]


# --- Numba, scalar code (the order of operations of the Weir program) --------

@njit
def nb_project(cam, X, out):
    x0 = X[0] - cam[3]
    x1 = X[1] - cam[4]
    x2 = X[2] - cam[5]
    r0 = cam[0]
    r1 = cam[1]
    r2 = cam[2]
    sqtheta = r0 * r0 + r1 * r1 + r2 * r2
    if sqtheta != 0.0:
        theta = math.sqrt(sqtheta)
        c = math.cos(theta)
        s = math.sin(theta)
        inv = 1.0 / theta
        w0 = r0 * inv
        w1 = r1 * inv
        w2 = r2 * inv
        tmp = (w0 * x0 + w1 * x1 + w2 * x2) * (1.0 - c)
        y0 = (x0 * c + (w1 * x2 - w2 * x1) * s) + w0 * tmp
        y1 = (x1 * c + (w2 * x0 - w0 * x2) * s) + w1 * tmp
        y2 = (x2 * c + (w0 * x1 - w1 * x0) * s) + w2 * tmp
    else:
        y0 = x0 + (r1 * x2 - r2 * x1)
        y1 = x1 + (r2 * x0 - r0 * x2)
        y2 = x2 + (r0 * x1 - r1 * x0)
    p0 = y0 / y2
    p1 = y1 / y2
    rsq = p0 * p0 + p1 * p1
    lam = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq
    out[0] = (p0 * lam) * cam[6] + cam[7]
    out[1] = (p1 * lam) * cam[6] + cam[8]
