#!/usr/bin/env python3
"""Oracle for examples/sobol.weir: Sobol sequences from direction numbers.

The direction numbers of a dimension (Bratley and Fox's recurrence on the
primitive polynomial's degree s, coefficients a and initial m_1..m_s) and
the points x_i = XOR of v[k] over the bits k of gray(i) = i ^ (i >> 1), as
x_i / 2^32, are computed with plain Python integers, and the points are
checked against the Gray-code recurrence x_{i+1} = x_i ^ v[ctz(i+1)] done
with NumPy uint32 arithmetic. The first dimension is the van der Corput
sequence (v[k] = 2^(31-k)); the polynomials of dimensions 2 to 6 are those
of Joe and Kuo's table (new-joe-kuo-6.21201): (s, a, m) = (1, 0, [1]),
(2, 1, [1, 3]), (3, 1, [1, 3, 1]), (3, 2, [1, 1, 1]), (4, 1, [1, 1, 3, 3]).

Writes examples/data/sobol_*.{in,out} and rewrites the test blocks of
examples/sobol.weir.
Usage: python3 tools/oracles/sobol.py [--check]
"""

import numpy as np

from weirval import Block, Writer

POLYS = [(1, 0, [1]), (2, 1, [1, 3]), (3, 1, [1, 3, 1]), (3, 2, [1, 1, 1]),
         (4, 1, [1, 1, 3, 3])]
MASK = 0xffffffff


def directions(s, a, m0):
    m = list(m0) + [0] * (32 - s)
    for k in range(s, 32):
        r = m[k - s] ^ (m[k - s] << s)
        for j in range(1, s):
            if (a >> (s - 1 - j)) & 1:
                r ^= m[k - j] << j
        m[k] = r & MASK
    return [(m[k] << (31 - k)) & MASK for k in range(32)]


def van_der_corput():
    return [1 << (31 - k) for k in range(32)]


def points(n, dirs):
    out = []
    for i in range(n):
        g = i ^ (i >> 1)
        row = []
        for v in dirs:
            x = 0
            for k in range(32):
                if (g >> k) & 1:
                    x ^= v[k]
            row.append(x / 4294967296.0)
        out.append(row)
    return np.array(out, dtype=np.float64).reshape(n, len(dirs))


def points_recurrence(n, dirs):
    d = np.array(dirs, dtype=np.uint32)           # [d][32]
    x = np.zeros(len(dirs), dtype=np.uint32)
    out = np.zeros((n, len(dirs)))
    for i in range(n):
        out[i] = x.astype(np.float64) / 4294967296.0
        c = ((i + 1) & -(i + 1)).bit_length() - 1  # ctz(i + 1)
        x = x ^ d[:, c & 31]
    return out


def main():
    w = Writer()
    dirs = [van_der_corput()] + [directions(*p) for p in POLYS]
    assert dirs[1] == directions(1, 0, [1])
    u32 = lambda vs: np.array(vs, dtype=np.uint32)

    blk = Block('directions')
    for s, a, m0 in POLYS:
        blk.input(s, a, u32(m0)).output(u32(directions(s, a, m0)))
    blocks = [blk]

    cases = [(8, dirs[:2]), (5, dirs[:1]), (0, dirs[:3]), (1, dirs)]
    for name in ('sobol_direct', 'sobol_seq'):
        b = Block(name)
        for n, ds in cases:
            p = points(n, ds)
            assert np.array_equal(p, points_recurrence(n, ds))
            b.input(n, np.array(ds, dtype=np.uint32)).output(p)
        b.input_file('data/sobol_1000x6.in').output_file('data/sobol_1000x6.out')
        blocks.append(b)
    w.blocks('sobol.weir', blocks)
    big = points(1000, dirs)
    assert np.array_equal(big, points_recurrence(1000, dirs))
    w.data('data/sobol_1000x6.in', [1000, np.array(dirs, dtype=np.uint32)])
    w.data('data/sobol_1000x6.out', [big])
    w.finish()


if __name__ == '__main__':
    main()
