#!/usr/bin/env python3
"""Oracle for examples/partition.weir: `partition2 (\\x -> x < -0.5)
(\\x -> x < 0.5) a`, the three-way partition of `a` into the elements below
-0.5, those in [-0.5, 0.5), and the rest (>= 0.5, and nan, which fails every
comparison), each part in the order of `a` (a plain Python loop; checked
against NumPy's boolean masks a[a < -0.5], a[(a >= -0.5) & (a < 0.5)] and
a[~(a < 0.5)]).

Writes examples/data/partition_1000.{in,out} (inputs from a fixed seed, a few
exact zeros of both signs, the boundaries -0.5 and 0.5, nan and infinities)
and rewrites the test block of examples/partition.weir.
Usage: python3 tools/oracles/partition.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def partition3(a):
    low, mid, high = [], [], []
    for x in a:
        x = float(x)
        if x < -0.5:
            low.append(x)
        elif x < 0.5:
            mid.append(x)
        else:
            high.append(x)
    parts = tuple(np.array(p, dtype=np.float64) for p in (low, mid, high))
    a = np.asarray(a, dtype=np.float64)
    p = a < -0.5
    q = ~p & (a < 0.5)
    masks = (p, q, ~p & ~q)
    # same elements, same order, same bits (the signs of zeros, nan's payload)
    for part, m in zip(parts, masks):
        assert np.array_equal(part.view(np.int64), a[m].view(np.int64)), 'the masks disagree'
    assert sum(len(x) for x in parts) == len(a)
    return parts


def main():
    w = Writer()
    rng = np.random.default_rng(20251126)
    a = np.round(rng.standard_normal(1000), 6)
    a[::97] = 0.0
    a[1::131] = -0.0
    a[2::89] = -0.5
    a[3::83] = 0.5
    a[4::251] = np.nan
    a[5::331] = np.inf
    a[6::337] = -np.inf
    w.data('data/partition_1000.in', [a])
    w.data('data/partition_1000.out', list(partition3(a)))

    blk = Block('partition3')
    inf, nan = float('inf'), float('nan')
    for xs in ([-1.0, 0.0, 1.0, -2.0, 0.25, 2.0],
               [-3.0, -0.75, -1e300],                 # all in the first part
               [0.0, 0.25, -0.25, 1e-300],            # all in the second
               [0.75, 3.0, 1e300],                    # all in the third
               [nan, 1.0, nan, -1.0, nan, 0.0],       # nan fails x < -0.5 and x < 0.5
               [-0.0, 0.0, -0.0],                     # zeros of both signs, kept as they are
               [-0.5, 0.5, -0.5000000000000001, 0.49999999999999994],  # the boundaries
               [inf, -inf, 0.0, -inf, inf],
               [2.5],
               [-2.5]):
        x = np.array(xs)
        blk.input(x).output(*partition3(x))
    e = np.zeros(0)
    blk.input(e).output(e, e, e)
    blk.input_file('data/partition_1000.in').output_file('data/partition_1000.out')
    w.blocks('partition.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
