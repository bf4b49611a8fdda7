#!/usr/bin/env python3
"""Oracle for examples/ht.weir (ADBench's angle_axis_to_rotation_matrix), NumPy.

Each expected matrix is computed with ADBench's formula and cross-checked
against the matrix exponential of the cross-product matrix of aa (a Taylor
series, independent of the closed form); near-zero inputs give the identity.
Rewrites the test block of examples/ht.weir.
Usage: python3 tools/oracles/ht.py [--check]
"""

import math

import numpy as np

from weirval import Block, Writer
from adbench_expected import close


def rotation(aa):
    n = math.sqrt(float(np.sum(aa * aa)))
    if n < 0.0001:
        return np.eye(3)
    x, y, z = aa / n
    s, c = math.sin(n), math.cos(n)
    return np.array([[x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
                     [x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s],
                     [x * z * (1 - c) - y * s, z * y * (1 - c) + x * s, z * z + (1 - z * z) * c]])


def expm_cross(aa):
    k = np.array([[0.0, -aa[2], aa[1]], [aa[2], 0.0, -aa[0]], [-aa[1], aa[0], 0.0]])
    out, term = np.eye(3), np.eye(3)
    for i in range(1, 60):
        term = term @ k / i
        out = out + term
    return out


def main():
    w = Writer()
    b = Block('angle_axis_to_rotation_matrix').structure('alloc 0 stack_array 0')
    cases = [(0.0, 0.0, 0.0), (5e-5, 0.0, 0.0), (3e-5, -4e-5, 5e-5),
             (0.0, 0.0, 2e-4), (1e-4, -1e-4, 5e-5),
             (0.0, 0.0, math.pi / 2), (1.0, 0.0, 0.0), (0.1, -0.2, 0.3),
             (-1.2, 0.7, 2.1), (2.0, 2.0, -1.0)]
    for aa in cases:
        aa = np.array(aa)
        r = rotation(aa)
        if np.linalg.norm(aa) >= 0.0001:
            assert close(r, expm_cross(aa), 1e-12), aa
            assert close(r @ r.T, np.eye(3), 1e-12)
        b.input(aa).output(r)
    b.input(np.array([0.1, 0.2])).error('size mismatch')
    w.blocks('ht.weir', [b])
    w.finish()


if __name__ == '__main__':
    main()
