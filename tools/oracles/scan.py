#!/usr/bin/env python3
"""Oracle for examples/scan.weir: the inclusive prefix sum `scan (+) 0.0 a`,
a running sum from left to right starting at 0.0 (plain Python floats, one
addition per element, in the order Weir's sequential scan adds them; checked
against numpy.cumsum, whose add.accumulate adds in the same order).

Writes examples/data/scan_1000.{in,out} (inputs from a fixed seed) and
rewrites the test block of examples/scan.weir.
Usage: python3 tools/oracles/scan.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def prefix_sum(a):
    out, acc = [], 0.0
    for x in a:
        acc = acc + float(x)
        out.append(acc)
    r = np.array(out, dtype=np.float64)
    if len(a) and np.all(np.isfinite(a)):
        # 0.0 + -0.0 is 0.0 where cumsum keeps the first element's sign
        assert np.array_equal(r, np.cumsum(a) + 0.0), 'cumsum disagrees'
    return r


def main():
    w = Writer()
    rng = np.random.default_rng(20251123)
    a = np.round(rng.uniform(-100.0, 100.0, 1000), 6)
    w.data('data/scan_1000.in', [a])
    w.data('data/scan_1000.out', [prefix_sum(a)])

    blk = Block('prefix_sum')
    for xs in ([1.0, 2.0, 3.0, 4.0],
               [0.1, 0.2, 0.3],
               # the order shows: 1e16 + 1.0 rounds back to 1e16, twice
               [1e16, 1.0, 1.0, -1e16],
               [-0.0],
               [2.5],
               [1.0, float('inf'), -1.0, float('-inf'), 3.0]):
        x = np.array(xs)
        blk.input(x).output(prefix_sum(x))
    e = np.zeros(0)
    blk.input(e).output(e)
    blk.input_file('data/scan_1000.in').output_file('data/scan_1000.out')
    w.blocks('scan.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
