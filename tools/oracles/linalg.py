#!/usr/bin/env python3
"""Oracle for examples/linalg.weir (dps-ftilde Fig. 3 linear-algebra library).

Expected outputs are computed with NumPy only; the test blocks of
examples/linalg.weir are rewritten in place.
Usage: python3 tools/oracles/linalg.py [--check]
"""

import numpy as np

from weirval import Block, Writer

F = lambda *xs: np.array(xs, dtype=np.float64)
M = lambda rows: np.array(rows, dtype=np.float64)

v3a = F(1.5, -2.25, 0.125)
v3b = F(-0.5, 4.0, 3.75)
v5a = F(0.1, 0.2, 0.3, -1.7, 2.5e3)
v5b = F(3.0, -0.25, 1e-3, 7.5, -12.0)
empty = np.zeros(0)

m23 = M([[1.0, -2.0, 0.5], [3.25, 0.0, -4.5]])
m23b = M([[0.1, 0.2, 0.3], [-1.5, 2.5, 1e-2]])
m34 = M([[0.5, 1.0, -1.0, 2.0], [1.5, -0.25, 3.0, 0.0], [2.0, 2.0, 0.75, -3.5]])
m11 = M([[2.5]])


def main():
    w = Writer()
    bl = []

    b = Block('test_vectorRange')
    for n in (0, 1, 5):
        b.input(n).output(np.arange(n, dtype=np.int64))
    bl.append(b)

    b = Block('test_vectorMap')
    for v in (v3a, v5a, empty):
        b.input(v).output(v * v + 1.0)
    bl.append(b)

    b = Block('test_vectorMap2')
    for x, y in ((v3a, v3b), (v5a, v5b), (empty, empty)):
        b.input(x, y).output(2.0 * x - y)
    b.input(v3a, v5a).error('size mismatch')
    bl.append(b)

    for name, op in (('test_vectorAdd', np.add), ('test_vectorSub', np.subtract),
                     ('test_vectorEMul', np.multiply)):
        b = Block(name)
        for x, y in ((v3a, v3b), (v5a, v5b), (empty, empty)):
            b.input(x, y).output(op(x, y))
        b.input(v5a, v3b).error('size mismatch')
        bl.append(b)

    b = Block('test_vectorSMul')
    for v, s in ((v3a, 2.0), (v5a, -0.3), (empty, 4.0)):
        b.input(v, s).output(v * s)
    bl.append(b)

    b = Block('test_vectorSum')
    for v in (v3a, v5a, empty):
        b.input(v).output(float(np.sum(v)))
    bl.append(b)

    b = Block('test_vectorDot')
    for x, y in ((v3a, v3b), (v5a, v5b), (empty, empty)):
        b.input(x, y).output(float(np.dot(x, y)))
    b.input(v3a, v5b).error('size mismatch')
    bl.append(b)

    b = Block('test_vectorNorm')
    for v in (v3a, v5a, F(3.0, 4.0), empty):
        b.input(v).output(float(np.linalg.norm(v)))
    bl.append(b)

    b = Block('test_normOfSum')
    for x, y in ((v3a, v3b), (v5a, v5b)):
        b.input(x, y).output(float(np.linalg.norm(x + y)))
    b.input(v3a, v5b).error('size mismatch')
    bl.append(b)

    # vectorSlice v s e = v[s..e] (inclusive end, as in the paper)
    b = Block('test_vectorSlice')
    for v, s, e in ((v5a, 1, 3), (v5a, 0, 4), (v5a, 4, 4), (v3a, 2, 1)):
        b.input(v, s, e).output(v[s:e + 1])
    b.input(v5a, 3, 5).error('out of bounds')
    bl.append(b)

    b = Block('test_vectorCross')
    for x, y in ((v3a, v3b), (F(1, 0, 0), F(0, 1, 0)), (v3b, v3b)):
        b.input(x, y).output(np.cross(x, y))
    b.input(F(1.0, 2.0), F(3.0, 4.0)).error('size mismatch')
    bl.append(b)

    b = Block('test_matrixRows')
    for m in (m23, m34, m11):
        b.input(m).output(m.shape[0])
    bl.append(b)

    b = Block('test_matrixCols')
    for m in (m23, m34, m11):
        b.input(m).output(m.shape[1])
    # matrixCols reads m[0] (as in the paper), so a matrix without rows fails
    b.input(np.zeros((0, 0))).error('out of bounds')
    bl.append(b)

    b = Block('test_matrixMap')
    for m in (m23, m34):
        b.input(m).output(m * 2.0)
    bl.append(b)

    b = Block('test_matrixMap2')
    for x, y in ((m23, m23b), (m11, m11)):
        b.input(x, y).output(x - y * 0.5)
    b.input(m23, m34).error('size mismatch')
    bl.append(b)

    b = Block('test_matrixAdd')
    for x, y in ((m23, m23b), (m11, m11)):
        b.input(x, y).output(x + y)
    b.input(m23, m23.T.copy()).error('size mismatch')
    bl.append(b)

    b = Block('test_matrixTranspose')
    for m in (m23, m34, m11):
        b.input(m).output(m.T.copy())
    bl.append(b)

    b = Block('test_matrixMul')
    for x, y in ((m23, m34), (m23b.T.copy(), m23), (m11, m11)):
        b.input(x, y).output(x @ y)
    b.input(m23, m23b).error('size mismatch')
    bl.append(b)

    b = Block('test_vectorOutProd')
    for x, y in ((v3a, v5b), (v5a, v3b), (F(2.0), F(-3.0))):
        b.input(x, y).output(np.outer(x, y))
    bl.append(b)

    w.blocks('linalg.weir', bl)
    w.finish()


if __name__ == '__main__':
    main()
