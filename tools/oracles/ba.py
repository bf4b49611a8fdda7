#!/usr/bin/env python3
"""Oracle for examples/ba.weir (bundle adjustment, ADBench definition), NumPy.

The projection and objective are adbench_expected.{rodrigues_rotate, project,
ba_objective} (vectorised NumPy), and every case is also cross-checked against
a rotation-matrix formulation (adbench_expected.project_via_matrix).
Rewrites the test blocks of examples/ba.weir; the ADBench instances it
references are written by adbench_expected.py.
Usage: python3 tools/oracles/ba.py [--check]
"""

import numpy as np

from weirval import Block, Writer
from adbench_expected import (ba_objective, close, project, project_via_matrix,
                              rodrigues_rotate)

A = lambda *xs: np.array(xs, dtype=np.float64)

# cameras: rotation(3) centre(3) focal(1) principal point(2) radial distortion(2)
CAM0 = A(0.1, -0.2, 0.05, 0.3, -0.1, -8.0, 520.0, 12.5, -7.25, 0.01, -0.002)
CAM1 = A(0.0, 0.0, 0.0, -1.0, 0.5, -6.5, 300.0, 0.0, 0.0, -0.05, 0.003)   # zero rotation
CAM2 = A(-1.2, 0.7, 2.1, 2.0, 1.0, -4.0, 100.0, -3.0, 4.0, 0.0, 0.0)     # large rotation
X0 = A(0.5, -0.25, 1.0)
X1 = A(-1.5, 2.0, 3.5)
X2 = A(0.0, 0.0, 0.0)


def main():
    w = Writer()
    bl = []

    b = Block('ba_rodrigues')
    for rot, x in ((A(0.0, 0.0, 0.0), A(1.0, 2.0, 3.0)),
                   (A(1e-170, 0.0, 0.0), A(1.0, 2.0, 3.0)),   # squared norm underflows to 0
                   (A(0.0, 0.0, np.pi / 2), A(1.0, 0.0, 0.0)),
                   (A(0.1, -0.2, 0.05), A(0.5, -0.25, 1.0)),
                   (A(-1.2, 0.7, 2.1), A(-1.5, 2.0, 3.5))):
        b.input(rot, x).output(rodrigues_rotate(rot[None, :], x[None, :])[0])
    b.input(A(0.1, 0.2), A(1.0, 2.0, 3.0)).error('size mismatch')
    bl.append(b)

    b = Block('ba_project').structure('stack_array 5')
    for cam, x in ((CAM0, X0), (CAM0, X1), (CAM1, X0), (CAM1, X2), (CAM2, X1)):
        got = project(cam[None, :], x[None, :])[0]
        assert close(got, project_via_matrix([cam], [x])[0], 1e-9)
        b.input(cam, x).output(got)
    b.input(CAM0[:10].copy(), X0).error('size mismatch')
    bl.append(b)

    b = Block('ba_objective').structure('stack_array 6')
    cams = np.stack([CAM0, CAM1, CAM2])
    xs = np.stack([X0, X1, X2, A(0.25, 0.75, -1.0)])
    obs = np.array([[0, 0], [1, 0], [2, 1], [0, 3], [1, 2], [2, 3], [0, 1]], dtype=np.int64)
    wts = A(1.0, 0.5, 0.9, -0.75, 1.25, 0.1, 2.0)
    feats = np.array([[15.0, -20.0], [-30.5, 12.0], [0.0, 0.0], [100.0, 100.0],
                      [-40.0, 25.0], [3.0, -4.0], [-200.0, 180.0]])
    args = (cams, xs, wts, obs, feats)
    reproj, werr = ba_objective(*args)
    chk = wts[:, None] * (project_via_matrix(cams[obs[:, 0]], xs[obs[:, 1]]) - feats)
    assert close(reproj, chk, 1e-9)
    b.input(*args).output(reproj, werr)
    # one observation
    one = (cams[:1], xs[:1], wts[:1], obs[:1], feats[:1])
    b.input(*one).output(*ba_objective(*one))
    for name in ('ba_test', 'ba1_n49_m7776_p31843'):
        b.input_file(f'data/adbench/{name}.in').output_file(f'data/adbench/{name}.out')
    # camera index out of range
    bad = obs.copy()
    bad[2, 0] = 3
    b.input(cams, xs, wts, bad, feats).error('out of bounds')
    # one feature missing
    b.input(cams, xs, wts, obs, feats[:-1].copy()).error('size mismatch')
    # cameras with 10 parameters
    b.input(cams[:, :10].copy(), xs, wts, obs, feats).error('size mismatch')
    bl.append(b)

    w.blocks('ba.weir', bl)
    w.finish()


if __name__ == '__main__':
    main()
