#!/usr/bin/env python3
"""Self-test of the Python peers: on tiny random inputs, the NumPy, JAX and
Numba implementations of every kernel must agree with each other
(|x - y| <= 1e-8 max(1, |x|, |y|) elementwise, a NaN only where the other has
a NaN), return results of the declared types (float64, int64) and ranks, and
leave their inputs unchanged (a NaN counts as equal to itself); the result
must also survive the binary encoding round trip.

  selftest.py [KERNEL ...] [--seeds N]

Exit status 0 when everything agrees, 1 otherwise.  (Agreement with the
reference -- Weir / hand-written C -- is the runner's cross-check.)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

harness.select('numpy', 'jax', 'numba')

import numpy as np  # noqa: E402

TOL = 1e-8


def _camera(rng, zero_rotation=False):
    rot = np.zeros(3) if zero_rotation else rng.uniform(-0.5, 0.5, 3)
    centre = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-9, -7)])
    return np.concatenate([rot, centre, [rng.uniform(200, 600)], rng.uniform(-10, 10, 2),
                           [rng.uniform(-0.05, 0.05), rng.uniform(-0.005, 0.005)]])


def tiny_inputs(kernel, rng):
    u = rng.uniform
    if kernel == 'add3':
        n = int(rng.integers(0, 9))
        return [u(-10, 10, n) for _ in range(3)]
    if kernel == 'cross':
        return [u(-2, 2, 3), u(-2, 2, 3)]
    if kernel == 'ht':
        return [u(-2, 2, 3) if rng.random() < 0.8 else u(-1e-5, 1e-5, 3)]
    if kernel == 'ba_project':
        return [_camera(rng, rng.random() < 0.25), u(-1, 1, 3)]
    if kernel == 'ba_objective':
        n, m, p = 3, 5, 9
        cams = np.array([_camera(rng, i == 1) for i in range(n)])
        obs = np.stack([rng.integers(0, n, p), rng.integers(0, m, p)], axis=1).astype(np.int64)
        return [cams, u(-1, 1, (m, 3)), u(-1.5, 1.5, p), obs, u(-100, 100, (p, 2))]
    if kernel == 'gmm_objective':
        k, d, n = int(rng.integers(1, 4)), int(rng.integers(1, 5)), int(rng.integers(1, 8))
        q = d + d * (d - 1) // 2
        return [u(-1, 1, k), u(-1, 1, (k, d)), u(-0.5, 0.5, (k, q)), u(-1, 1, (n, d)),
                float(u(0.5, 2)), int(rng.integers(0, 4))]
    if kernel == 'gemm':
        ni, nj, nk = rng.integers(1, 6, 3)
        return [float(u(-2, 2)), float(u(-2, 2)), u(-1, 1, (ni, nj)), u(-1, 1, (ni, nk)),
                u(-1, 1, (nk, nj))]
    if kernel == 'mm2':
        ni, nj, nk, nl = rng.integers(1, 6, 4)
        return [float(u(-2, 2)), float(u(-2, 2)), u(-1, 1, (ni, nk)), u(-1, 1, (nk, nj)),
                u(-1, 1, (nj, nl)), u(-1, 1, (ni, nl))]
    if kernel == 'mm3':
        ni, nj, nk, nl, nm = rng.integers(1, 6, 5)
        return [u(-1, 1, (ni, nk)), u(-1, 1, (nk, nj)), u(-1, 1, (nj, nm)), u(-1, 1, (nm, nl))]
    if kernel == 'jacobi1d':
        n = int(rng.integers(1, 9))
        return [int(rng.integers(0, 5)), u(-2, 2, n), u(-2, 2, n)]
    if kernel == 'jacobi2d':
        n = int(rng.integers(1, 7))
        return [int(rng.integers(0, 4)), u(-2, 2, (n, n)), u(-2, 2, (n, n))]
    if kernel == 'seidel2d':
        n = int(rng.integers(1, 7))
        return [int(rng.integers(0, 4)), u(-2, 2, (n, n))]
    if kernel == 'scan':
        return [u(-10, 10, int(rng.integers(0, 9)))]
    if kernel == 'histogram':
        k = int(rng.integers(0, 6))
        return [k, rng.integers(-3, k + 3, int(rng.integers(0, 12))).astype(np.int64)]
    if kernel == 'filter':
        # about half kept; a few exact zeros of both signs and NaNs (dropped)
        x = u(-10, 10, int(rng.integers(0, 12)))
        x[rng.random(x.shape) < 0.15] = 0.0
        x[rng.random(x.shape) < 0.1] = -0.0
        x[rng.random(x.shape) < 0.1] = np.nan
        return [x]
    if kernel == 'partition':
        # all three parts; the boundaries -0.5 and 0.5, zeros of both signs
        # and NaNs (third part)
        x = u(-2, 2, int(rng.integers(0, 12)))
        x[rng.random(x.shape) < 0.1] = -0.5
        x[rng.random(x.shape) < 0.1] = 0.5
        x[rng.random(x.shape) < 0.1] = -0.0
        x[rng.random(x.shape) < 0.1] = np.nan
        return [x]
    if kernel in ('padstencil', 'rotstencil'):
        # lengths 0..8, as for scan (0, 1 and 2 take the peeled ends' paths)
        return [u(-10, 10, int(rng.integers(0, 9)))]
    if kernel == 'transposecat':
        # up to 150 x 150: several 64 x 64 tiles, partial ones at the edges
        n, m, k = int(rng.integers(0, 150)), int(rng.integers(0, 150)), int(rng.integers(0, 4))
        return [u(-10, 10, (n, m)), u(-10, 10, (k, n))]
    if kernel == 'nw':
        # n = 0 .. 7 (n = 0: no matrix), scores in BLOSUM62's range
        n = int(rng.integers(0, 8))
        return [int(rng.integers(0, 12)), rng.integers(-4, 12, (n, n)).astype(np.int64)]
    if kernel == 'lu':
        # diagonally dominant: no pivoting needed
        n = int(rng.integers(0, 7))
        a = u(-1, 1, (n, n))
        return [a + np.diag(np.abs(a).sum(axis=1) + 1.0)]
    if kernel == 'trisolv':
        # the upper triangle is not read: random too
        n = int(rng.integers(0, 7))
        l = u(-1, 1, (n, n))
        return [l + np.diag(np.sign(np.diag(l)) + (np.diag(l) == 0)), u(-2, 2, n)]
    raise ValueError(kernel)


def run_impl(mod, impl, args):
    fn, cargs = harness.prepare(mod, impl, args)
    res = fn(*cargs)
    if impl == 'jax':
        res = harness.block(res)
    comps = list(res) if len(mod.RESULT) > 1 else [res]
    for c, (ty, rank) in zip(comps, mod.RESULT):
        c = np.asarray(c)
        if c.dtype != (np.float64 if ty == 'f64' else np.int64):
            raise AssertionError('%s: result dtype %s' % (impl, c.dtype))
        if c.ndim != rank:
            raise AssertionError('%s: result rank %d, expected %d' % (impl, c.ndim, rank))
    # binary round trip
    back = harness.decode_result(harness.encode_result(res, mod.RESULT), mod.RESULT)
    return [np.asarray(b, dtype=np.float64) for b in back]


def close(x, y):
    if x.shape != y.shape:
        return False
    nan = np.isnan(x)
    if not np.array_equal(nan, np.isnan(y)):
        return False
    x, y = x[~nan], y[~nan]
    return bool(np.all(np.abs(x - y) <= TOL * np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))))


def main(argv):
    seeds = 5
    kernels = []
    i = 0
    while i < len(argv):
        if argv[i] == '--seeds':
            seeds = int(argv[i + 1])
            i += 2
        else:
            kernels.append(argv[i])
            i += 1
    kernels = kernels or list(harness.KERNELS)
    failures = 0
    for kernel in kernels:
        mod = harness.load_kernel(kernel)
        problems = []
        for seed in range(seeds):
            rng = np.random.default_rng(1000 + seed)
            args = tiny_inputs(kernel, rng)
            mod.check(*args)
            results = {}
            for impl in harness.IMPLS:
                # a fresh copy of the inputs for each implementation
                mine = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                try:
                    results[impl] = run_impl(mod, impl, mine)
                except Exception as e:  # report and go on
                    problems.append('seed %d %s: %s: %s' % (seed, impl, type(e).__name__, e))
                    continue
                if not all(np.array_equal(a, b, equal_nan=True) for a, b in zip(mine, args)):
                    problems.append('seed %d %s: mutated its inputs' % (seed, impl))
            ref = results.get('numpy')
            for impl in ('jax', 'numba'):
                if ref is not None and impl in results:
                    if not all(close(a, b) for a, b in zip(ref, results[impl])):
                        problems.append('seed %d: numpy and %s disagree' % (seed, impl))
        failures += bool(problems)
        print('%-14s %s' % (kernel, 'ok (%d seeds)' % seeds if not problems else 'FAIL'))
        for p in problems:
            print('    ' + p)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
