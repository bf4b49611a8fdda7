#!/usr/bin/env python3
"""Oracle for examples/filter.weir: `filter (\\x -> x > 0.0) a`, the elements
of `a` greater than 0.0 in their order (a plain Python loop; checked against
NumPy's boolean indexing a[a > 0]).  -0.0, 0.0 and nan are dropped.

Writes examples/data/filter_1000.{in,out} (inputs from a fixed seed, about
half of them positive, a few exact zeros) and rewrites the test block of
examples/filter.weir.
Usage: python3 tools/oracles/filter.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def positives(a):
    kept = [float(x) for x in a if float(x) > 0.0]
    r = np.array(kept, dtype=np.float64)
    a = np.asarray(a, dtype=np.float64)
    # same elements, same order, same bits (a -0.0 or nan would not pass x > 0)
    assert np.array_equal(r.view(np.int64), a[a > 0].view(np.int64)), 'a[a > 0] disagrees'
    return r


def main():
    w = Writer()
    rng = np.random.default_rng(20251125)
    a = np.round(rng.standard_normal(1000), 6)
    a[::97] = 0.0
    a[1::131] = -0.0
    w.data('data/filter_1000.in', [a])
    w.data('data/filter_1000.out', [positives(a)])

    blk = Block('positives')
    inf, nan = float('inf'), float('nan')
    for xs in ([1.0, -2.0, 3.0, -4.0, 5.0],
               [0.5, 2.0, 1e-300, 7.0],              # all kept
               [-1.0, -0.5, -1e-300, -7.0],          # none kept
               [0.0, -0.0, 0.0],                      # zeros of both signs: none kept
               [-0.0, 5e-324, -5e-324],               # the smallest subnormals
               [nan, 1.0, -nan, 2.0, nan],            # nan is not > 0
               [inf, -inf, 3.5, -inf, inf],
               [2.5],
               [-2.5]):
        x = np.array(xs)
        blk.input(x).output(positives(x))
    e = np.zeros(0)
    blk.input(e).output(e)
    blk.input_file('data/filter_1000.in').output_file('data/filter_1000.out')
    w.blocks('filter.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
