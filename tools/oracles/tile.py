#!/usr/bin/env python3
"""Oracle for tests/regress/tile.weir (the DPS rule `tile-accumulate`).

out[i][j] = f64(j), then + a[i][q] * (bc[q] * br[j]) for q = 0, 1, ... in
order, with plain Python floats (IEEE doubles, one rounding per operation in
that order): the semantics of the fold, whatever order the compiled loops
run in. Inputs are random with a fixed seed, plus values whose sum depends on
the order (1e16, 1, -1e16, placed in different tiles of the fold's steps).
Rows and columns around the register blocks of 4 x 32 too.
Writes examples/data/tile_*.{in,out} and rewrites the test block.
Also the oracle of tests/regress/distribute.weir (two products, (a*b)*c).
Usage: python3 tools/oracles/tile.py [--check]
"""

import random

from weirval import Block, Writer


def outer(a, bc, br):
    out = []
    for row in a:
        r = []
        for j, y in enumerate(br):
            acc = float(j)
            for q, x in enumerate(row):
                acc = acc + x * (bc[q] * y)
            r.append(acc)
        out.append(r)
    return out


def product(a, b):
    """a * b, each element's sum in order from 0.0."""
    out = []
    for row in a:
        r = []
        for j in range(len(b[0]) if b else 0):
            acc = 0.0
            for q, x in enumerate(row):
                acc = acc + x * b[q][j]
            r.append(acc)
        out.append(r)
    return out


def two(a, b, c):
    return product(product(a, b), c)


def case(rng, n, k, m, spikes=False):
    a = [[rng.choice([-1.5, -0.25, 0.5, 1.0, 2.0, 0.1, 3.3]) for _ in range(k)] for _ in range(n)]
    bc = [rng.uniform(-2.0, 2.0) for _ in range(k)]
    br = [rng.uniform(-1.0, 1.0) for _ in range(m)]
    if spikes and n > 0 and k > 129:
        bc[0], bc[128], bc[129] = 1.0, 1.0, 1.0
        a[0][0], a[0][128], a[0][129] = 1e16, 1.0, -1e16
    return a, bc, br


def main():
    w = Writer()
    rng = random.Random(18)
    blk = Block('outer')
    a = [[1e16, 1.0, -1e16], [1.0, 2.0, 3.0]]
    bc, br = [1.0, 1.0, 1.0], [1.0, 1.0]
    blk.input(a, bc, br).output(outer(a, bc, br))
    blk.structure('loop 21 index_check 0 wrap_add 0 stack_array 4')
    for n, k, m, spikes in [(3, 130, 258, True), (1, 128, 256, False), (2, 129, 257, False),
                            (2, 127, 255, False), (1, 1, 513, False), (4, 300, 1, False),
                            (2, 0, 300, False), (3, 5, 0, False),
                            # register blocks of 4 rows by 32 columns and what is left over
                            (5, 130, 289, True), (9, 129, 64, True), (8, 3, 95, False),
                            (4, 40, 32, False), (7, 2, 31, False)]:
        a, bc, br = case(rng, n, k, m, spikes)
        name = f'tile_{n}x{k}x{m}'
        w.data(f'data/{name}.in', [a, bc, br])
        w.data(f'data/{name}.out', [outer(a, bc, br)])
        blk.input_file(f'../../examples/data/{name}.in')
        blk.output_file(f'../../examples/data/{name}.out')
    blk.input([[]], [], [1.0]).output([[0.0]])
    blk.input([[1.0, 2.0]], [1.0], [1.0]).error('size mismatch')
    w.blocks('../tests/regress/tile.weir', [blk])

    # tests/regress/distribute.weir: two products through a row temporary
    two_blk = Block('two')
    a, b, c = [[1e16, 1.0, -1e16]], [[1.0], [1.0], [1.0]], [[1.0, 2.0]]
    two_blk.input(a, b, c).output(two(a, b, c))
    two_blk.structure('stack_array 8 index_check 0')
    for n, k, m, l in [(5, 3, 33, 2), (9, 130, 40, 35), (1, 2, 3, 4), (4, 1, 32, 64)]:
        a = [[rng.uniform(-1.0, 1.0) for _ in range(k)] for _ in range(n)]
        b = [[rng.uniform(-1.0, 1.0) for _ in range(m)] for _ in range(k)]
        c = [[rng.uniform(-1.0, 1.0) for _ in range(l)] for _ in range(m)]
        if n > 1 and k > 129:
            a[1][0], a[1][128], a[1][129] = 1e16, 1.0, -1e16
            b[0][0], b[128][0], b[129][0] = 1.0, 1.0, 1.0
        name = f'two_{n}x{k}x{m}x{l}'
        w.data(f'data/{name}.in', [a, b, c])
        w.data(f'data/{name}.out', [two(a, b, c)])
        two_blk.input_file(f'../../examples/data/{name}.in')
        two_blk.output_file(f'../../examples/data/{name}.out')
    two_blk.input([], [], [[1.0]]).output([])
    two_blk.input([[1.0]], [[1.0, 2.0]], [[1.0]]).error('size mismatch')
    w.blocks('../tests/regress/distribute.weir', [two_blk])
    w.finish()


if __name__ == '__main__':
    main()
