#!/usr/bin/env python3
"""Oracle for tests/regress/batch.weir (the DPS rule `batch-lanes`).

`spread`: for each point i in order, acc + sqrt(max dists) + dists[0], where
dists[kk] folds over j from w[kk]: t = x[i][j] - c[kk][j], tri = t + sum over
q < j in order of x[i][q] * c[kk][q], s + tri * tri. `shifted`: for each
point, the maximum over kk of sum over j of x[i][j] * w[kk + 1] (an index
error when k >= 1: w[k] is past the end). Plain Python floats (IEEE doubles,
one rounding per operation in that order): the semantics of the program,
whatever order the compiled loops run in.
Usage: python3 tools/oracles/batch.py [--check]
"""

import math
import random

from weirval import Block, Writer


def spread(x, c, w):
    acc = 0.0
    for row in x:
        dists = []
        for kk, crow in enumerate(c):
            s = w[kk]
            for j, xv in enumerate(row):
                t = xv - crow[j]
                tri = t
                for q in range(j):
                    tri = tri + row[q] * crow[q]
                s = s + tri * tri
            dists.append(s)
        best = max(dists) if dists else -math.inf
        acc = acc + math.sqrt(best) + dists[0]
    return acc


def dot_rows(a, i, j, init):
    acc = init
    for k in range(len(a[i])):
        acc = acc + a[i][k] * a[j][k]
    return acc


def tri(c, a):
    n = len(a)
    return [[dot_rows(a, i, j, c[i][j]) if j <= i else c[i][j] for j in range(n)]
            for i in range(n)]


def upper(a):
    n = len(a)
    return [[0.0 if i < j else dot_rows(a, i, j, 0.0) for j in range(n)] for i in range(n)]


def ignores(n):
    acc = n
    for i in range(n):
        acc = i
    return acc


def main():
    w = Writer()
    rng = random.Random(19)
    blk = Block('spread')
    x, c, wt = [[1e16, 1.0], [1.0, -1e16]], [[0.0, 0.0]], [0.0]
    blk.input(x, c, wt).output(spread(x, c, wt))
    blk.structure('stack_array 8 index_check 2')
    for n, d, k in [(0, 3, 2), (1, 3, 2), (7, 4, 3), (8, 1, 1), (9, 5, 4), (17, 3, 5), (40, 6, 3)]:
        x = [[rng.choice([-1.5, -0.25, 0.5, 1.0, 2.0, 0.1, 3.3]) for _ in range(d)] for _ in range(n)]
        c = [[rng.uniform(-1.0, 1.0) for _ in range(d)] for _ in range(k)]
        wt = [rng.uniform(0.0, 1.0) for _ in range(k)]
        if n > 9:
            x[8][0], x[9][0] = 1e16, -1e16
        name = f'batch_{n}x{d}x{k}'
        w.data(f'data/{name}.in', [x, c, wt])
        w.data(f'data/{name}.out', [spread(x, c, wt)])
        blk.input_file(f'../../examples/data/{name}.in')
        blk.output_file(f'../../examples/data/{name}.out')
    blk.input([[1.0]], [[1.0, 2.0]], [1.0]).error('size mismatch')
    sh = Block('shifted')
    sh.structure('stack_array 3')
    sh.input([[1.0, 2.0]] * 9, [1.0, 2.0, 3.0]).error('index 3 in an array of length 3')
    sh.input([[1.0, 2.0]] * 9, [1.0]).error('index 1 in an array of length 1')
    sh.input([], [1.0]).output(0.0)
    tb, ub = Block('tri'), Block('upper')
    tb.structure('stack_array 3 index_check 0')
    for n, m in [(0, 3), (1, 2), (7, 3), (8, 1), (9, 4), (17, 5)]:
        a = [[rng.choice([-1.5, -0.25, 0.5, 1.0, 2.0, 0.1, 3.3]) for _ in range(m)] for _ in range(n)]
        c = [[rng.uniform(-1.0, 1.0) for _ in range(n)] for _ in range(n)]
        if n >= 9 and m >= 3:
            a[9 - 1][0], a[9 - 1][1], a[9 - 1][2] = 1e16, 1.0, -1e16
        tb.input(c, a).output(tri(c, a))
        ub.input(a).output(upper(a))
    tb.input([[1.0]], [[1.0], [2.0]]).error('size mismatch')
    # a sum that ignores its accumulator: the last point's index (fuzz
    # seed 1129, program 284)
    ig = Block('ignores')
    for n in [2, 10, 8, 0]:
        a = [float(x + 1) for x in range(n)]
        ig.input(a, 0.0).output(ignores(n))
    w.blocks('../tests/regress/batch.weir', [blk, sh, tb, ub, ig])
    w.finish()


if __name__ == '__main__':
    main()
