#!/usr/bin/env python3
"""Oracle for examples/cross.weir: numpy.cross of 3-vectors.

Rewrites the test block of examples/cross.weir.
Usage: python3 tools/oracles/cross.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def main():
    w = Writer()
    blk = Block('cross')
    cases = [
        ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
        ([1.5, -2.25, 0.125], [-0.5, 4.0, 3.75]),
        ([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]),
        ([1e8, -3.0, 2.5e-7], [4.0, 1e-3, -6.0]),
    ]
    for a, b in cases:
        a, b = np.array(a), np.array(b)
        blk.input(a, b).output(np.cross(a, b))
    blk.input(np.array([1.0, 2.0]), np.array([3.0, 4.0, 5.0])).error('size mismatch')
    blk.input(np.array([1.0, 2.0, 3.0]), np.array([3.0, 4.0, 5.0, 6.0])).error('size mismatch')
    w.blocks('cross.weir', [blk])
    w.finish()


if __name__ == '__main__':
    main()
