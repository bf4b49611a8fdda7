#!/usr/bin/env python3
"""Oracle for examples/histogram.weir: `k` bins counting the indices `is`,
those outside 0..k ignored (numpy.bincount of the in-range indices,
cross-checked with a plain loop).

Writes examples/data/histogram_5000.{in,out} (indices from a fixed seed, a
few of them out of range) and rewrites the test block of examples/histogram.weir.
Usage: python3 tools/oracles/histogram.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def histogram(k, idx):
    idx = np.asarray(idx, dtype=np.int64)
    r = np.bincount(idx[(idx >= 0) & (idx < k)], minlength=k).astype(np.int64)
    loop = [0] * k
    for i in idx.tolist():
        if 0 <= i < k:
            loop[i] += 1
    assert r.tolist() == loop
    return r


def main():
    w = Writer()
    rng = np.random.default_rng(20251124)
    k = 100
    idx = rng.integers(-3, k + 3, 5000, dtype=np.int64)
    w.data('data/histogram_5000.in', [k, idx])
    w.data('data/histogram_5000.out', [histogram(k, idx)])

    blk = Block('histogram')
    i64 = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
    cases = [
        (5, [0, 1, 1, 4, 2, 4, 4]),
        # out of range: negative, k, far beyond, and the extremes of i64
        (5, [0, -1, 5, 1, 6, 100, -100, 1, -9223372036854775807, 9223372036854775807, 4]),
        (3, [7, -1, 3]),          # nothing in range: all zero
        (4, []),                  # no indices: k zeros
        (0, [0, 1, -1]),          # no bins: every index is out of range
        (0, []),
        (1, [0, 0, 0]),
    ]
    for k, xs in cases:
        blk.input(k, i64(xs)).output(histogram(k, xs))
    blk.input_file('data/histogram_5000.in').output_file('data/histogram_5000.out')
    blk.input(-1, i64([0, 1])).error('negative')
    w.blocks('histogram.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
