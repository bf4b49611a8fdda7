#!/usr/bin/env python3
"""Oracle for examples/gmm.weir (ADBench GMM objective), with NumPy.

The objective itself is adbench_expected.gmm_objective (an independent NumPy
implementation of ADBench's definition: it unpacks each Q_k into a full matrix
and uses einsum, unlike the Weir program's packed-index loops).
Rewrites the test blocks of examples/gmm.weir; the ADBench instances it
references are written by adbench_expected.py.
Usage: python3 tools/oracles/gmm.py [--check]
"""

import os

import numpy as np

from weirval import Block, Writer
from adbench_expected import data_dir, gmm_objective, logsumexp, read_gmm, unpack_q


def rnd(rng, shape, lo, hi):
    return np.round(rng.uniform(lo, hi, shape), 4)


def main():
    w = Writer()
    rng = np.random.default_rng(7)

    b = Block('gmm_logsumexp')
    for v in ([0.5], [1.0, 2.0, 3.0], [1000.0, 1000.0], [-1000.0, -1001.5, -999.25],
              [0.0, -2.0, 700.0, 710.0]):
        v = np.array(v)
        b.input(v).output(logsumexp(v))
    bl = [b]

    b = Block('gmm_qtimesv')
    for d in (1, 2, 3, 4):
        icf = rnd(rng, d * (d + 1) // 2, -1.0, 1.0)
        v = rnd(rng, d, -2.0, 2.0)
        b.input(icf, v).output(unpack_q(icf, d) @ v)
    # icf too short for d = 3 (needs 6 entries)
    b.input(np.array([0.1, 0.2, 0.3, 0.4, 0.5]), np.array([1.0, 2.0, 3.0])).error('out of bounds')
    bl.append(b)

    b = Block('gmm_objective')
    src = os.path.join(data_dir(), 'gmm', 'test.txt')
    if not os.path.exists(src):
        raise SystemExit(f'ADBench data not found: {src} (set WEIR_SHARED_DATA)')
    test = read_gmm(src)
    b.input(*test).output(gmm_objective(*test))
    # d = 3 (three packed lower entries per component), K = 2, n = 4
    k, d, n = 2, 3, 4
    case = (rnd(rng, k, -1.0, 1.0), rnd(rng, (k, d), -1.0, 1.0),
            rnd(rng, (k, d * (d + 1) // 2), -0.8, 0.8), rnd(rng, (n, d), -2.0, 2.0), 1.3, 2)
    b.input(*case).output(gmm_objective(*case))
    # K = 3, d = 4, n = 5, gamma 0.6, m 0
    k, d, n = 3, 4, 5
    case2 = (rnd(rng, k, -2.0, 2.0), rnd(rng, (k, d), -1.0, 1.0),
             rnd(rng, (k, d * (d + 1) // 2), -0.5, 0.5), rnd(rng, (n, d), -1.5, 1.5), 0.6, 0)
    b.input(*case2).output(gmm_objective(*case2))
    for name in ('gmm_test', 'gmm_d2_K5', 'gmm_d10_K5'):
        b.input_file(f'data/adbench/{name}.in').output_file(f'data/adbench/{name}.out')
    alphas, means, icf, x, gamma, m = case
    # points of the wrong dimension
    b.input(alphas, means, icf, x[:, :2].copy(), gamma, m).error('size mismatch')
    # one alpha too many
    b.input(np.append(alphas, 0.5), means, icf, x, gamma, m).error('size mismatch')
    bl.append(b)

    w.blocks('gmm.weir', bl)
    w.finish()


if __name__ == '__main__':
    main()
