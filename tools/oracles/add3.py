#!/usr/bin/env python3
"""Oracle for examples/add3.weir: v1 + v2 + v3 with NumPy.

Writes examples/data/add3_100.{in,out} (the paper's 100-element case, inputs
from a fixed seed) and rewrites the test block of examples/add3.weir.
Usage: python3 tools/oracles/add3.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def main():
    w = Writer()
    rng = np.random.default_rng(20240603)
    a, b, c = (np.round(rng.uniform(-100.0, 100.0, 100), 6) for _ in range(3))
    w.data('data/add3_100.in', [a, b, c])
    w.data('data/add3_100.out', [(a + b) + c])

    blk = Block('add3')
    x = np.array([1.0, 2.0, -3.5])
    y = np.array([0.25, -8.0, 1e-3])
    z = np.array([1e10, 0.1, 0.2])
    blk.input(x, y, z).output((x + y) + z)
    blk.input(np.array([0.1]), np.array([0.2]), np.array([0.3])).output(
        (np.array([0.1]) + 0.2) + 0.3)
    e = np.zeros(0)
    blk.input(e, e, e).output(e)
    blk.input_file('data/add3_100.in').output_file('data/add3_100.out')
    blk.input(x, y, np.array([1.0])).error('size mismatch')
    blk.input(x, np.array([1.0, 2.0]), z).error('size mismatch')
    w.blocks('add3.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
