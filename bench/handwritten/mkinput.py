#!/usr/bin/env python3
"""Input generator for the hand-written C baselines (bench/handwritten/).

Writes the inputs of one benchmark entry, either in the programs' binary format
(default) or in Weir's text value syntax (--text), from a seed and sizes:

  python3 mkinput.py add3 --n 100 --seed 1 -o add3_100.bin
  python3 mkinput.py cross --seed 1 -o cross.bin
  python3 mkinput.py ht --seed 1 -o ht.bin
  python3 mkinput.py ba_project --seed 1 -o ba_project.bin
  python3 mkinput.py ba_objective --cams 3 --pts 5 --obs 10 --seed 1 -o ba.bin
  python3 mkinput.py gmm_objective --n 100 --d 3 --k 5 --seed 1 -o gmm.bin
  python3 mkinput.py --text gmm_objective --n 100 --d 3 --k 5 --seed 1 -o gmm.txt
  python3 mkinput.py gmm_objective --from-text ../../examples/data/adbench/gmm_d2_K5.in -o g.bin
  python3 mkinput.py scan --n 10000000 --seed 1 -o scan.bin          (uniform in [-1, 1))
  python3 mkinput.py histogram --n 10000000 --bins 1000 --seed 1 -o h.bin
      (k = --bins, then n indices uniform in -p..k+p-1 with p = max(1, k // 200):
       about 1% of them fall outside 0..k and are ignored by the kernel)
  python3 mkinput.py filter --n 10000000 --seed 1 -o filter.bin      (standard normal:
      about half of the values are positive and kept, in random order)
  python3 mkinput.py partition --n 10000000 --seed 1 -o partition.bin   (standard
      normal: about 31%, 38% and 31% of the values fall below -0.5, in
      [-0.5, 0.5) and above, in random order)
  python3 mkinput.py padstencil --n 10000000 --seed 1 -o ps.bin    (uniform in [-1, 1))
  python3 mkinput.py rotstencil --n 10000000 --seed 1 -o rs.bin    (the same values)
  python3 mkinput.py transposecat --n 2000 --m 2000 --k 100 --seed 1 -o tc.bin
      (a: n x m, b: k x n, uniform in [-1, 1), a's elements first)
  python3 mkinput.py nw --n 2048 --penalty 10 --seed 1 -o nw.bin
      (Rodinia nw's size n: penalty, then refs, an (n+1) x (n+1) i64 matrix
       uniform in -4..11, BLOSUM62's range, row by row)

ADBench instances (../../../shared/data/adbench/, format in its FileFormat.md),
built exactly as `weir adbench gmm|ba FILE` builds them (a BA file stores one
camera, point, weight and feature; observation i uses camera i mod n and point
i mod m, and every copy is the same):

  python3 mkinput.py gmm_objective --adbench .../adbench/gmm/1k/gmm_d10_K25.txt -o g.bin
  python3 mkinput.py ba_objective --adbench .../adbench/ba/ba1_n49_m7776_p31843.txt -o ba1.bin

PolyBench/C 4.2.1 kernels (deterministic inputs, PolyBench's init_array
formulas as in the *_polybench entries of examples/{mm,2mm,3mm,jacobi1d,
jacobi2d,seidel2d,lu,forward_subst}.weir; --seed is ignored):

  python3 mkinput.py gemm --size LARGE -o gemm_large.bin     (alpha beta C A B)
  python3 mkinput.py mm2 --size MEDIUM -o 2mm.bin            (alpha beta A B C D)
  python3 mkinput.py mm3 --size SMALL -o 3mm.bin             (A B C D)
  python3 mkinput.py jacobi1d --size MINI -o j1.bin          (TSTEPS A B)
  python3 mkinput.py jacobi2d -o j2.bin                      (TSTEPS A B; MEDIUM)
  python3 mkinput.py seidel2d --dims 10,50 -o s.bin          (TSTEPS A)
  python3 mkinput.py lu --dims 1024 -o lu.bin                (A)
  python3 mkinput.py trisolv --size LARGE -o t.bin           (L b)

Sizes (--size, default MEDIUM; --dims overrides them, in this order):
  gemm     NI,NJ,NK        MINI 20,25,30  SMALL 60,70,80  MEDIUM 200,220,240
                           LARGE 1000,1100,1200  EXTRALARGE 2000,2300,2600
  mm2      NI,NJ,NK,NL     16,18,22,24 / 40,50,70,80 / 180,190,210,220 /
                           800,900,1100,1200 / 1600,1800,2200,2400
  mm3      NI,NJ,NK,NL,NM  16,18,20,22,24 / 40,50,60,70,80 / 180,190,200,210,220 /
                           800,900,1000,1100,1200 / 1600,1800,2000,2200,2400
  jacobi1d TSTEPS,N        20,30 / 40,120 / 100,400 / 500,2000 / 1000,4000
  jacobi2d TSTEPS,N        20,30 / 40,90 / 100,250 / 500,1300 / 1000,2800
  seidel2d TSTEPS,N        20,40 / 40,120 / 100,400 / 500,2000 / 1000,4000
  lu       N               40 / 120 / 400 / 2000 / 4000
  trisolv  N               40 / 120 / 400 / 2000 / 4000

The same KIND, sizes and seed give the same values in both formats (text
floats use the shortest repr that reads back to the same double).  Without -o
the output goes to stdout.  --from-text converts a Weir value file (the
arguments of the entry, in order) to the binary format.  Large arrays are
built with NumPy when it can be imported, else with the array module (same
values either way).

Binary format (native little-endian, values one after another in parameter
order; size parameters are not passed): f64/i64 8 bytes, f32/i32 4 bytes,
bool 1 byte; an array of rank r is r int64 dims, then its elements row-major.
"""

import argparse
import array
import math
import random
import struct
import sys

try:
    import numpy as np
except ImportError:  # pure-Python fallback (array module)
    np = None

# Entry parameters: (name, element type, fixed dims; None = a size parameter).
SIGNATURES = {
    'add3': [('a', 'f64', (None,)), ('b', 'f64', (None,)), ('c', 'f64', (None,))],
    'cross': [('a', 'f64', (3,)), ('b', 'f64', (3,))],
    'ba_project': [('cam', 'f64', (11,)), ('x', 'f64', (3,))],
    'ba_objective': [('cams', 'f64', (None, 11)), ('xs', 'f64', (None, 3)), ('w', 'f64', (None,)),
                     ('obs', 'i64', (None, 2)), ('feats', 'f64', (None, 2))],
    'gmm_objective': [('alphas', 'f64', (None,)), ('means', 'f64', (None, None)),
                      ('icf', 'f64', (None, None)), ('x', 'f64', (None, None)),
                      ('gamma', 'f64', ()), ('m', 'i64', ())],
    'ht': [('aa', 'f64', (3,))],
    'gemm': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('c', 'f64', (None, None)),
             ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'mm2': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('a', 'f64', (None, None)),
            ('b', 'f64', (None, None)), ('c', 'f64', (None, None)), ('d', 'f64', (None, None))],
    'mm3': [('a', 'f64', (None, None)), ('b', 'f64', (None, None)),
            ('c', 'f64', (None, None)), ('d', 'f64', (None, None))],
    'jacobi1d': [('tsteps', 'i64', ()), ('a', 'f64', (None,)), ('b', 'f64', (None,))],
    'jacobi2d': [('tsteps', 'i64', ()), ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'seidel2d': [('tsteps', 'i64', ()), ('a', 'f64', (None, None))],
    'scan': [('a', 'f64', (None,))],
    'histogram': [('k', 'i64', ()), ('is', 'i64', (None,))],
    'filter': [('a', 'f64', (None,))],
    'partition': [('a', 'f64', (None,))],
    'padstencil': [('a', 'f64', (None,))],
    'rotstencil': [('a', 'f64', (None,))],
    'transposecat': [('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'nw': [('penalty', 'i64', ()), ('refs', 'i64', (None, None))],
    'lu': [('a', 'f64', (None, None))],
    'trisolv': [('l', 'f64', (None, None)), ('b', 'f64', (None,))],
}

# Result types, in the same form (a list: tuple components in order).
RESULTS = {
    'add3': [('f64', (None,))],
    'cross': [('f64', (3,))],
    'ba_project': [('f64', (2,))],
    'ba_objective': [('f64', (None, 2)), ('f64', (None,))],
    'gmm_objective': [('f64', ())],
    'ht': [('f64', (3, 3))],
    'gemm': [('f64', (None, None))],
    'mm2': [('f64', (None, None))],
    'mm3': [('f64', (None, None))],
    'jacobi1d': [('f64', (None,))],
    'jacobi2d': [('f64', (None, None))],
    'seidel2d': [('f64', (None, None))],
    'scan': [('f64', (None,))],
    'histogram': [('i64', (None,))],
    'filter': [('f64', (None,))],
    'partition': [('f64', (None,)), ('f64', (None,)), ('f64', (None,))],
    'padstencil': [('f64', (None,))],
    'rotstencil': [('f64', (None,))],
    'transposecat': [('f64', (None, None))],
    'nw': [('i64', (None, None))],
    'lu': [('f64', (None, None))],
    'trisolv': [('f64', (None,))],
}

# Weir program and entry point of each benchmark (relative to the repository root).
ENTRIES = {
    'add3': ('examples/add3.weir', 'add3'),
    'cross': ('examples/cross.weir', 'cross'),
    'ba_project': ('examples/ba.weir', 'ba_project'),
    'ba_objective': ('examples/ba.weir', 'ba_objective'),
    'gmm_objective': ('examples/gmm.weir', 'gmm_objective'),
    'ht': ('examples/ht.weir', 'angle_axis_to_rotation_matrix'),
    'gemm': ('examples/mm.weir', 'gemm'),
    'mm2': ('examples/2mm.weir', 'mm2'),
    'mm3': ('examples/3mm.weir', 'mm3'),
    'jacobi1d': ('examples/jacobi1d.weir', 'jacobi_1d'),
    'jacobi2d': ('examples/jacobi2d.weir', 'jacobi_2d'),
    'seidel2d': ('examples/seidel2d.weir', 'seidel_2d'),
    'scan': ('examples/scan.weir', 'prefix_sum'),
    'histogram': ('examples/histogram.weir', 'histogram'),
    'filter': ('examples/filter.weir', 'positives'),
    'partition': ('examples/partition.weir', 'partition3'),
    'padstencil': ('examples/pad_stencil.weir', 'pad_stencil'),
    'rotstencil': ('examples/periodic_stencil.weir', 'periodic_stencil'),
    'transposecat': ('examples/transpose_cat.weir', 'transpose_cat'),
    'nw': ('examples/nw.weir', 'nw'),
    'lu': ('examples/lu.weir', 'lu'),
    'trisolv': ('examples/forward_subst.weir', 'forward_subst'),
}

# PolyBench/C 4.2.1 dataset sizes, in the order of --dims.
POLYBENCH_SIZES = {
    'gemm': ('NI,NJ,NK', {'MINI': (20, 25, 30), 'SMALL': (60, 70, 80), 'MEDIUM': (200, 220, 240),
                          'LARGE': (1000, 1100, 1200), 'EXTRALARGE': (2000, 2300, 2600)}),
    'mm2': ('NI,NJ,NK,NL', {'MINI': (16, 18, 22, 24), 'SMALL': (40, 50, 70, 80),
                            'MEDIUM': (180, 190, 210, 220), 'LARGE': (800, 900, 1100, 1200),
                            'EXTRALARGE': (1600, 1800, 2200, 2400)}),
    'mm3': ('NI,NJ,NK,NL,NM', {'MINI': (16, 18, 20, 22, 24), 'SMALL': (40, 50, 60, 70, 80),
                               'MEDIUM': (180, 190, 200, 210, 220),
                               'LARGE': (800, 900, 1000, 1100, 1200),
                               'EXTRALARGE': (1600, 1800, 2000, 2200, 2400)}),
    'jacobi1d': ('TSTEPS,N', {'MINI': (20, 30), 'SMALL': (40, 120), 'MEDIUM': (100, 400),
                              'LARGE': (500, 2000), 'EXTRALARGE': (1000, 4000)}),
    'jacobi2d': ('TSTEPS,N', {'MINI': (20, 30), 'SMALL': (40, 90), 'MEDIUM': (100, 250),
                              'LARGE': (500, 1300), 'EXTRALARGE': (1000, 2800)}),
    'seidel2d': ('TSTEPS,N', {'MINI': (20, 40), 'SMALL': (40, 120), 'MEDIUM': (100, 400),
                              'LARGE': (500, 2000), 'EXTRALARGE': (1000, 4000)}),
    'lu': ('N', {'MINI': (40,), 'SMALL': (120,), 'MEDIUM': (400,), 'LARGE': (2000,),
                 'EXTRALARGE': (4000,)}),
    'trisolv': ('N', {'MINI': (40,), 'SMALL': (120,), 'MEDIUM': (400,), 'LARGE': (2000,),
                      'EXTRALARGE': (4000,)}),
}


class Arr:
    """An array value: shape (tuple of ints) and flat row-major elements (a
    list, an array.array or a 1-D NumPy array)."""

    def __init__(self, shape, flat):
        self.shape = tuple(shape)
        self.flat = flat if isinstance(flat, (list, array.array)) or _is_ndarray(flat) else list(flat)
        assert math.prod(self.shape) == len(self.flat), (self.shape, len(self.flat))


def _is_ndarray(x):
    return np is not None and isinstance(x, np.ndarray)


# ---------------------------------------------------------------------------
# Generators


def _u(rng, lo, hi):
    return rng.uniform(lo, hi)


def rodrigues(rot, x):
    """The Weir/ADBench rodriguesRotatePoint (used to place points in front of cameras)."""
    sq = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2]
    if sq == 0.0:
        return list(x)
    t = math.sqrt(sq)
    c, s = math.cos(t), math.sin(t)
    w = [r / t for r in rot]
    wx = [w[1] * x[2] - w[2] * x[1], w[2] * x[0] - w[0] * x[2], w[0] * x[1] - w[1] * x[0]]
    tmp = (w[0] * x[0] + w[1] * x[1] + w[2] * x[2]) * (1.0 - c)
    return [x[i] * c + wx[i] * s + w[i] * tmp for i in range(3)]


def make_camera(rng):
    """11 parameters: small rotation, centre, focal length, principal point, distortion."""
    rot = [_u(rng, -0.2, 0.2) for _ in range(3)]
    centre = [_u(rng, -2.0, 2.0), _u(rng, -2.0, 2.0), _u(rng, -12.0, -8.0)]
    f = _u(rng, 300.0, 1000.0)
    x0 = [_u(rng, -10.0, 10.0), _u(rng, -10.0, 10.0)]
    k = [_u(rng, -0.05, 0.05), _u(rng, -0.005, 0.005)]
    return rot + centre + [f] + x0 + k


def gen_add3(rng, a):
    return [Arr((a.n,), [_u(rng, -10.0, 10.0) for _ in range(a.n)]) for _ in range(3)]


def gen_cross(rng, a):
    return [Arr((3,), [_u(rng, -10.0, 10.0) for _ in range(3)]) for _ in range(2)]


def gen_ht(rng, a):
    return [Arr((3,), [_u(rng, -2.0, 2.0) for _ in range(3)])]


def gen_ba_project(rng, a):
    cam = make_camera(rng)
    # a point in front of the camera: Xcam with z in [2, 10] inside the field of view,
    # then X = C + R^T Xcam (R^T is the rotation by -r).
    z = _u(rng, 2.0, 10.0)
    xcam = [_u(rng, -0.5, 0.5) * z, _u(rng, -0.5, 0.5) * z, z]
    back = rodrigues([-r for r in cam[0:3]], xcam)
    x = [cam[3 + i] + back[i] for i in range(3)]
    return [Arr((11,), cam), Arr((3,), x)]


def gen_ba_objective(rng, a):
    n, m, p = a.cams, a.pts, a.obs
    if p > 0 and (n < 1 or m < 1):
        sys.exit('mkinput: --obs > 0 needs --cams >= 1 and --pts >= 1')
    cams = []
    for _ in range(n):
        cams += make_camera(rng)
    # cameras sit around z = -10 looking along +z with small rotations; points in
    # the box [-1, 1]^3 are in front of every camera (z_cam roughly 6..14).
    xs = [_u(rng, -1.0, 1.0) for _ in range(3 * m)]
    w = [_u(rng, 0.5, 1.5) for _ in range(p)]
    obs = []
    for i in range(p):
        if a.obs_pattern == 'cyclic':  # ADBench's replication: (i mod n, i mod m)
            obs += [i % n, i % m]
        else:
            obs += [rng.randrange(n), rng.randrange(m)]
    feats = [_u(rng, -200.0, 200.0) for _ in range(2 * p)]
    return [Arr((n, 11), cams), Arr((m, 3), xs), Arr((p,), w), Arr((p, 2), obs), Arr((p, 2), feats)]


def gen_gmm_objective(rng, a):
    n, d, k = a.n, a.d, a.k
    q = d + d * (d - 1) // 2
    alphas = [rng.gauss(0.0, 1.0) for _ in range(k)]
    means = [_u(rng, -1.0, 1.0) for _ in range(k * d)]
    icf = []
    for _ in range(k):
        icf += [rng.gauss(0.0, 0.3) for _ in range(d)]  # log of the diagonal
        icf += [rng.gauss(0.0, 0.3) for _ in range(q - d)]  # strictly lower part
    x = [rng.gauss(0.0, 1.0) for _ in range(n * d)]
    return [Arr((k,), alphas), Arr((k, d), means), Arr((k, q), icf), Arr((n, d), x),
            float(a.gamma), int(a.m)]


def gen_scan(rng, a):
    # one rng.random() per element, straight into an array: 10^7 values take
    # a few seconds and no list of Python floats (same values with or without
    # NumPy)
    r = rng.random
    return [Arr((a.n,), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n))))]


def gen_histogram(rng, a):
    k = a.bins
    pad = max(1, k // 200)
    span = k + 2 * pad
    r = rng.random
    return [k, Arr((a.n,), array.array('q', (int(r() * span) - pad for _ in range(a.n))))]


def gen_filter(rng, a):
    # standard normal values, one rng.gauss() each: about half of them are
    # positive, and which ones is random (a branch on the sign mispredicts
    # half the time); straight into an array as for scan
    g = rng.gauss
    return [Arr((a.n,), array.array('d', (g(0.0, 1.0) for _ in range(a.n))))]


def gen_partition(rng, a):
    # standard normal values, one rng.gauss() each, as for filter: about 31%
    # below -0.5, 38% in [-0.5, 0.5) and 31% above, which part each value
    # goes to random (a branch on it mispredicts often)
    g = rng.gauss
    return [Arr((a.n,), array.array('d', (g(0.0, 1.0) for _ in range(a.n))))]


def gen_padstencil(rng, a):
    # uniform in [-1, 1), one rng.random() each, straight into an array as
    # for scan
    r = rng.random
    return [Arr((a.n,), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n))))]


def gen_rotstencil(rng, a):
    # the same values as padstencil's (uniform in [-1, 1))
    return gen_padstencil(rng, a)


def gen_transposecat(rng, a):
    # a: n x m, then b: k x n, uniform in [-1, 1) as for scan
    if a.m < 0:
        sys.exit('mkinput: --m must be >= 0')
    r = rng.random
    return [Arr((a.n, a.m), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n * a.m)))),
            Arr((a.k, a.n), array.array('d', (2.0 * r() - 1.0 for _ in range(a.k * a.n))))]


def gen_nw(rng, a):
    # Rodinia nw at size n: the score matrices are (n+1) x (n+1); refs (the
    # BLOSUM62 score of each pair of letters in Rodinia) uniform in -4..11,
    # BLOSUM62's range, one rng.random() each, row by row
    if a.penalty < 0:
        sys.exit('mkinput: --penalty must be >= 0')
    m = a.n + 1
    r = rng.random
    return [a.penalty, Arr((m, m), array.array('q', (int(r() * 16) - 4 for _ in range(m * m))))]


# ---------------------------------------------------------------------------
# PolyBench/C 4.2.1 inputs: element (r, c) of a rows x cols matrix is
# (r * (c + cofs) + add) % mod / div, computed exactly in integers and then
# divided in double precision (Python's int / int and NumPy's float64 division
# of exactly representable integers both round the exact quotient once, as the
# C code and the Weir entries do).


def _poly_matrix(rows, cols, cofs, add, mod, div):
    """[rows][cols] with ((r * (c + cofs) + add) % mod) / div (mod None: no %)."""
    if np is not None:
        r = np.arange(rows, dtype=np.int64)[:, None]
        c = np.arange(cols, dtype=np.int64)[None, :]
        v = r * (c + cofs) + add
        if mod is not None:
            v = v % mod
        return Arr((rows, cols), (v.astype(np.float64) / float(div)).reshape(-1))
    flat = array.array('d')
    for r in range(rows):
        if mod is None:
            flat.extend([(r * (c + cofs) + add) / div for c in range(cols)])
        else:
            flat.extend([((r * (c + cofs) + add) % mod) / div for c in range(cols)])
    return Arr((rows, cols), flat)


def _poly_vector(n, add, div):
    """[n] with (i + add) / div."""
    if np is not None:
        return Arr((n,), (np.arange(n, dtype=np.int64) + add).astype(np.float64) / float(div))
    return Arr((n,), array.array('d', [(i + add) / div for i in range(n)]))


def gen_gemm(rng, a):
    ni, nj, nk = a.dims
    return [1.5, 1.2,
            _poly_matrix(ni, nj, 0, 1, ni, ni),   # C[i][j] = ((i*j+1) % ni) / ni
            _poly_matrix(ni, nk, 1, 0, nk, nk),   # A[i][k] = (i*(k+1) % nk) / nk
            _poly_matrix(nk, nj, 2, 0, nj, nj)]   # B[k][j] = (k*(j+2) % nj) / nj


def gen_mm2(rng, a):
    ni, nj, nk, nl = a.dims
    return [1.5, 1.2,
            _poly_matrix(ni, nk, 0, 1, ni, ni),   # A = ((i*j+1) % ni) / ni
            _poly_matrix(nk, nj, 1, 0, nj, nj),   # B = (i*(j+1) % nj) / nj
            _poly_matrix(nj, nl, 3, 1, nl, nl),   # C = ((i*(j+3)+1) % nl) / nl
            _poly_matrix(ni, nl, 2, 0, nk, nk)]   # D = (i*(j+2) % nk) / nk


def gen_mm3(rng, a):
    ni, nj, nk, nl, nm = a.dims
    return [_poly_matrix(ni, nk, 0, 1, ni, 5 * ni),   # A = ((i*j+1) % ni) / (5*ni)
            _poly_matrix(nk, nj, 1, 2, nj, 5 * nj),   # B = ((i*(j+1)+2) % nj) / (5*nj)
            _poly_matrix(nj, nm, 3, 0, nl, 5 * nl),   # C = (i*(j+3) % nl) / (5*nl)
            _poly_matrix(nm, nl, 2, 2, nk, 5 * nk)]   # D = ((i*(j+2)+2) % nk) / (5*nk)


def gen_jacobi1d(rng, a):
    tsteps, n = a.dims
    return [tsteps, _poly_vector(n, 2, n), _poly_vector(n, 3, n)]   # (i+2)/n, (i+3)/n


def gen_jacobi2d(rng, a):
    tsteps, n = a.dims
    return [tsteps,
            _poly_matrix(n, n, 2, 2, None, n),    # A = (i*(j+2)+2) / n
            _poly_matrix(n, n, 3, 3, None, n)]    # B = (i*(j+3)+3) / n


def gen_seidel2d(rng, a):
    tsteps, n = a.dims
    return [tsteps, _poly_matrix(n, n, 2, 2, None, n)]   # A = (i*(j+2)+2) / n


def gen_lu(rng, a):
    # A lower triangular, A[i][j] = (-j % n) / n + 1 below the diagonal (C's
    # truncating %: -j for j < n), 1 on it; then B = A * A^T with PolyBench's
    # sums B[r][s] = sum over t = 0 .. n-1 in order of A[r][t] * A[s][t].
    # Every A[i][j] on or below the diagonal is positive, so the products
    # with t > min(r, s) are +0.0 and leave the sum as it is: the sums run
    # over t <= min(r, s) only, as one rank-one update of the trailing block
    # per t (the same bits as PolyBench's loop, as lu_polybench computes).
    (n,) = a.dims
    col = [1.0 - j / n for j in range(n)]       # A[i][j], j < i; A[i][i] = 1
    if np is not None:
        low = np.tril(np.broadcast_to(np.array(col), (n, n)), -1) + np.eye(n)
        b = np.zeros((n, n))
        for t in range(n):
            v = low[t:, t]
            b[t:, t:] += np.outer(v, v)
        return [Arr((n, n), b.reshape(-1))]
    low = [[col[j] if j < i else (1.0 if j == i else 0.0) for j in range(n)] for i in range(n)]
    flat = array.array('d', [0.0]) * (n * n)
    for t in range(n):
        for r in range(t, n):
            for s in range(t, n):
                flat[r * n + s] += low[r][t] * low[s][t]
    return [Arr((n, n), flat)]


def gen_trisolv(rng, a):
    # L[i][j] = (i + n - j + 1) * 2 / n for j <= i (0 above the diagonal, which
    # PolyBench leaves uninitialised and the kernel never reads), b[i] = i
    (n,) = a.dims
    flat = array.array('d', [0.0]) * (n * n)
    for i in range(n):
        flat[i * n:i * n + i + 1] = array.array('d', [float(i + n - j + 1) * 2.0 / n
                                                      for j in range(i + 1)])
    return [Arr((n, n), flat), Arr((n,), array.array('d', [float(i) for i in range(n)]))]


# ---------------------------------------------------------------------------
# ADBench text files (the same instance as `weir adbench gmm|ba FILE`,
# crates/driver/src/adbench.rs)


class _Tokens:
    def __init__(self, path, what):
        with open(path) as f:
            self.tok = f.read().split()
        self.pos, self.what, self.path = 0, what, path

    def floats(self, cnt):
        if self.pos + cnt > len(self.tok):
            sys.exit('mkinput: %s file %s ends early (after %d numbers)' %
                     (self.what, self.path, len(self.tok)))
        try:
            out = [float(t) for t in self.tok[self.pos:self.pos + cnt]]
        except ValueError as e:
            sys.exit('mkinput: %s file %s: %s' % (self.what, self.path, e))
        self.pos += cnt
        return out

    def end(self):
        if self.pos != len(self.tok):
            sys.exit('mkinput: %s file %s: %d numbers left over after the instance (not a %s file?)' %
                     (self.what, self.path, len(self.tok) - self.pos, self.what))

    def count(self):
        v = self.floats(1)[0]
        if not (v >= 0 and v == int(v) and v <= 1e12):
            sys.exit('mkinput: %s file %s: number %d should be a count, found %r' %
                     (self.what, self.path, self.pos, v))
        return int(v)


def adbench_gmm(path):
    t = _Tokens(path, 'GMM')
    d, k, n = t.count(), t.count(), t.count()
    q = d + d * (d - 1) // 2 if d > 0 else 0
    alphas = t.floats(k)
    means = t.floats(k * d)
    icf = t.floats(k * q)
    x = t.floats(n * d)
    gamma = t.floats(1)[0]
    m = int(t.floats(1)[0])
    t.end()
    return [Arr((k,), alphas), Arr((k, d), means), Arr((k, q), icf), Arr((n, d), x), gamma, m]


def adbench_ba(path):
    t = _Tokens(path, 'BA')
    n, m, p = t.count(), t.count(), t.count()
    if n == 0 or m == 0:
        sys.exit('mkinput: BA file %s: the number of cameras and points must be positive' % path)
    cam = t.floats(11)
    x = t.floats(3)
    w = t.floats(1)[0]
    feat = t.floats(2)
    t.end()
    if np is not None:
        idx = np.arange(p, dtype=np.int64)
        obs = np.empty((p, 2), dtype=np.int64)
        obs[:, 0] = idx % n
        obs[:, 1] = idx % m
        return [Arr((n, 11), np.tile(np.array(cam), n)), Arr((m, 3), np.tile(np.array(x), m)),
                Arr((p,), np.full(p, w)), Arr((p, 2), obs.reshape(-1)),
                Arr((p, 2), np.tile(np.array(feat), p))]
    obs = array.array('q', [0]) * (2 * p)
    obs[0::2] = array.array('q', [i % n for i in range(p)])
    obs[1::2] = array.array('q', [i % m for i in range(p)])
    return [Arr((n, 11), array.array('d', cam) * n), Arr((m, 3), array.array('d', x) * m),
            Arr((p,), array.array('d', [w]) * p), Arr((p, 2), obs),
            Arr((p, 2), array.array('d', feat) * p)]


GENERATORS = {
    'add3': gen_add3, 'cross': gen_cross, 'ht': gen_ht, 'ba_project': gen_ba_project,
    'ba_objective': gen_ba_objective, 'gmm_objective': gen_gmm_objective,
    'gemm': gen_gemm, 'mm2': gen_mm2, 'mm3': gen_mm3,
    'jacobi1d': gen_jacobi1d, 'jacobi2d': gen_jacobi2d, 'seidel2d': gen_seidel2d,
    'scan': gen_scan, 'histogram': gen_histogram, 'filter': gen_filter,
    'partition': gen_partition, 'padstencil': gen_padstencil,
    'rotstencil': gen_rotstencil,
    'transposecat': gen_transposecat,
    'nw': gen_nw, 'lu': gen_lu, 'trisolv': gen_trisolv,
}

ADBENCH_READERS = {'gmm_objective': adbench_gmm, 'ba_objective': adbench_ba}

# ---------------------------------------------------------------------------
# Weir text values


def fmt_f64(x):
    x = float(x)
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return repr(x).replace('e+', 'e')


def fmt_scalar(ty, x):
    return fmt_f64(x) if ty == 'f64' else str(int(x))


def fmt_value(ty, v):
    if not isinstance(v, Arr):
        return fmt_scalar(ty, v)

    def rec(shape, flat, off):
        if not shape:
            return fmt_scalar(ty, flat[off])
        step = math.prod(shape[1:])
        return '[' + ', '.join(rec(shape[1:], flat, off + i * step) for i in range(shape[0])) + ']'

    return rec(v.shape, v.flat, 0)


def parse_values(text):
    """Parse Weir text values (numbers, inf/nan, true/false, arrays, tuples) into
    nested Python lists (arrays), tuples and floats/ints."""
    toks = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ',':
            if ch == ',':
                toks.append(',')
            i += 1
        elif text.startswith('--', i):  # comment
            while i < n and text[i] != '\n':
                i += 1
        elif ch in '[]()':
            toks.append(ch)
            i += 1
        else:
            j = i
            while j < n and not (text[j].isspace() or text[j] in ',[]()'):
                j += 1
            toks.append(text[i:j])
            i = j
    pos = 0

    def atom(t):
        if t in ('true', 'false'):
            return t == 'true'
        neg = t.startswith('-')
        body = (t[1:] if neg else t).replace('_', '')
        if body in ('inf', 'nan'):
            x = float(body)
            return -x if neg else x
        if body.lower().startswith('0x'):
            x = int(body.lower().removesuffix('i64').removesuffix('i32'), 16)
            return -x if neg else x
        is_float = False
        for suf in ('f64', 'f32', 'i64', 'i32'):
            if body.endswith(suf):
                body = body[:-3]
                is_float = suf[0] == 'f'
                break
        x = float(body) if (is_float or any(c in body for c in '.eE')) else int(body)
        return -x if neg else x

    def value():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t in '[(':
            close = ']' if t == '[' else ')'
            items = []
            while toks[pos] != close:
                items.append(value())
                if toks[pos] == ',':
                    pos += 1
            pos += 1
            return items if t == '[' else tuple(items)
        return atom(t)

    out = []
    while pos < len(toks):
        out.append(value())
    return out


def to_arr(v, fixed, ty):
    """A nested list as an Arr with the parameter's rank; the inner dims of an
    empty array come from the signature's constants (else 0)."""
    rank = len(fixed)
    shape, cur = [], v
    for r in range(rank):
        if not isinstance(cur, list):
            sys.exit('mkinput: value has a lower rank than the parameter')
        shape.append(len(cur))
        if not cur:
            shape += [f if f is not None else 0 for f in fixed[r + 1:]]
            break
        cur = cur[0]
    flat = []

    def rec(x, depth):
        if depth == rank:
            flat.append(float(x) if ty == 'f64' else int(x))
            return
        if len(x) != shape[depth]:
            sys.exit('mkinput: irregular array')
        for y in x:
            rec(y, depth + 1)

    rec(v, 0)
    return Arr(shape, flat)


# ---------------------------------------------------------------------------
# Binary


def _flat_bytes(ty, flat):
    """The elements as packed little-endian bytes (bulk conversion)."""
    code = 'd' if ty == 'f64' else 'q'
    if _is_ndarray(flat):
        return np.ascontiguousarray(flat, dtype='<f8' if ty == 'f64' else '<i8').tobytes()
    if not (isinstance(flat, array.array) and flat.typecode == code):
        flat = array.array(code, [float(x) if ty == 'f64' else int(x) for x in flat])
    if sys.byteorder != 'little':
        flat = array.array(code, flat)
        flat.byteswap()
    return flat.tobytes()


def pack_value(ty, fixed, v):
    code = '<d' if ty == 'f64' else '<q'
    if not fixed:
        return struct.pack(code, float(v) if ty == 'f64' else int(v))
    assert isinstance(v, Arr) and len(v.shape) == len(fixed)
    return struct.pack('<%dq' % len(v.shape), *v.shape) + _flat_bytes(ty, v.flat)


def unpack_values(kind, data, sig=None):
    """Decode a binary stream of values of the given types (default: the kind's
    results); arrays come back as Arr, scalars as float/int."""
    sig = sig if sig is not None else RESULTS[kind]
    off, vals = 0, []
    for ty, fixed in sig:
        code = 'd' if ty == 'f64' else 'q'
        if not fixed:
            vals.append(struct.unpack_from('<' + code, data, off)[0])
            off += 8
            continue
        rank = len(fixed)
        shape = struct.unpack_from('<%dq' % rank, data, off)
        off += 8 * rank
        cnt = math.prod(shape)
        if off + 8 * cnt > len(data):
            raise ValueError('the binary data ends inside an array of shape %s' % (shape,))
        flat = array.array(code, data[off:off + 8 * cnt])
        if sys.byteorder != 'little':
            flat.byteswap()
        off += 8 * cnt
        vals.append(Arr(shape, flat))
    if off != len(data):
        raise ValueError('%d trailing bytes in the binary data' % (len(data) - off))
    return vals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('kind', choices=sorted(SIGNATURES))
    ap.add_argument('--text', action='store_true', help="write Weir's text value syntax")
    ap.add_argument('--from-text', metavar='FILE', help='convert a Weir value file instead of generating')
    ap.add_argument('--adbench', metavar='FILE',
                    help='gmm_objective, ba_objective: convert an ADBench instance (text file)')
    ap.add_argument('--size', choices=['MINI', 'SMALL', 'MEDIUM', 'LARGE', 'EXTRALARGE'],
                    default='MEDIUM', help='PolyBench kernels: dataset size (default MEDIUM)')
    ap.add_argument('--dims', metavar='N,N,..',
                    help='PolyBench kernels: explicit sizes instead of --size (order above)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--n', type=int, default=100,
                    help='add3, scan, histogram, filter, partition, padstencil, rotstencil: length; '
                    'gmm: number of points; transposecat: rows of a, columns of b; '
                    'nw: Rodinia size (the matrices are n+1 square)')
    ap.add_argument('--bins', type=int, default=1000, help='histogram: number of bins k')
    ap.add_argument('--penalty', type=int, default=10, help='nw: gap penalty')
    ap.add_argument('--d', type=int, default=3, help='gmm: dimension')
    ap.add_argument('--k', type=int, default=5,
                    help='gmm: number of components; transposecat: rows of b')
    ap.add_argument('--gamma', type=float, default=1.0, help='gmm: Wishart gamma')
    ap.add_argument('--m', type=int, default=0,
                    help='gmm: Wishart m; transposecat: columns of a')
    ap.add_argument('--cams', type=int, default=3, help='ba_objective: cameras')
    ap.add_argument('--pts', type=int, default=5, help='ba_objective: points')
    ap.add_argument('--obs', type=int, default=10, help='ba_objective: observations')
    ap.add_argument('--obs-pattern', choices=['cyclic', 'random'], default='cyclic',
                    help='ba_objective: (i mod cams, i mod pts) as ADBench, or random pairs')
    ap.add_argument('-o', '--output', help='output file (default: stdout)')
    a = ap.parse_args()

    sig = SIGNATURES[a.kind]
    if a.from_text and a.adbench:
        sys.exit('mkinput: --from-text and --adbench exclude each other')
    if a.kind in POLYBENCH_SIZES:
        names, table = POLYBENCH_SIZES[a.kind]
        if a.dims:
            try:
                a.dims = tuple(int(x) for x in a.dims.split(','))
            except ValueError:
                sys.exit('mkinput: --dims needs comma-separated integers (%s)' % names)
            # the sizes are moduli and divisors of the init formulas: positive;
            # TSTEPS may be 0
            lows = [0 if nm == 'TSTEPS' else 1 for nm in names.split(',')]
            if len(a.dims) != len(lows) or any(x < lo for x, lo in zip(a.dims, lows)):
                sys.exit('mkinput: %s --dims needs %s (sizes >= 1, TSTEPS >= 0)' % (a.kind, names))
        else:
            a.dims = table[a.size]
    elif a.dims:
        sys.exit('mkinput: --dims is for the PolyBench kernels only')
    if a.adbench:
        if a.kind not in ADBENCH_READERS:
            sys.exit('mkinput: --adbench is for %s only' % ' and '.join(sorted(ADBENCH_READERS)))
        vals = ADBENCH_READERS[a.kind](a.adbench)
    elif a.from_text:
        with open(a.from_text) as f:
            raw = parse_values(f.read())
        if len(raw) != len(sig):
            sys.exit('mkinput: %s has %d values, %s takes %d' % (a.from_text, len(raw), a.kind, len(sig)))
        vals = [to_arr(v, fixed, ty) if fixed else v for v, (_, ty, fixed) in zip(raw, sig)]
    else:
        for opt in ('n', 'd', 'k', 'bins', 'cams', 'pts', 'obs'):
            if getattr(a, opt) < 0:
                sys.exit('mkinput: --%s must be >= 0' % opt)
        vals = GENERATORS[a.kind](random.Random(a.seed), a)

    if a.text:
        data = ('\n'.join(fmt_value(ty, v) for v, (_, ty, _f) in zip(vals, sig)) + '\n').encode()
    else:
        data = b''.join(pack_value(ty, fixed, v) for v, (_, ty, fixed) in zip(vals, sig))
    if a.output and a.output != '-':
        with open(a.output, 'wb') as f:
            f.write(data)
    else:
        sys.stdout.buffer.write(data)


if __name__ == '__main__':
    main()
