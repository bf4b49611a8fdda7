#!/usr/bin/env python3
"""Oracle for the PolyBench/C 4.2.1 examples: examples/mm.weir (gemm),
2mm.weir, 3mm.weir, jacobi1d.weir, jacobi2d.weir, seidel2d.weir.

Inputs are generated as PolyBench's init_array functions do (integer
expressions divided in double precision); the kernels are computed with NumPy
(matrix products with `@`, the Jacobi stencils with whole-array slices, in
PolyBench's order of the sums), and seidel-2d with a plain Python loop that is
a line-by-line transcription of PolyBench's in-place C loop nest.

Writes examples/data/{gemm,2mm,3mm,jacobi1d,jacobi2d,seidel2d}_{mini,small}.{in,out}
(.in: the arguments of the array-taking entry point; .out: the result) and
rewrites the test blocks of the six .weir files.
Usage: python3 tools/oracles/polybench.py [--check]
"""

import numpy as np

from weirval import Block, Writer

SIZES = {
    'gemm': {'mini': (20, 25, 30), 'small': (60, 70, 80)},              # NI NJ NK
    '2mm': {'mini': (16, 18, 22, 24), 'small': (40, 50, 70, 80)},       # NI NJ NK NL
    '3mm': {'mini': (16, 18, 20, 22, 24), 'small': (40, 50, 60, 70, 80)},  # NI NJ NK NL NM
    'jacobi1d': {'mini': (20, 30), 'small': (40, 120)},                 # TSTEPS N
    'jacobi2d': {'mini': (20, 30), 'small': (40, 90)},                  # TSTEPS N
    'seidel2d': {'mini': (20, 40), 'small': (40, 120)},                 # TSTEPS N
}


def grid(rows, cols):
    i = np.arange(rows, dtype=np.int64)[:, None]
    j = np.arange(cols, dtype=np.int64)[None, :]
    return i, j


def f(a):
    return a.astype(np.float64)


# ---------------------------------------------------------------- gemm

def gemm_init(ni, nj, nk):
    i, j = grid(ni, nj)
    c = f((i * j + 1) % ni) / ni
    i, k = grid(ni, nk)
    a = f(i * (k + 1) % nk) / nk
    k, j = grid(nk, nj)
    b = f(k * (j + 2) % nj) / nj
    return 1.5, 1.2, c, a, b


def gemm(alpha, beta, c, a, b):
    return alpha * (a @ b) + beta * c


# ---------------------------------------------------------------- 2mm

def mm2_init(ni, nj, nk, nl):
    i, j = grid(ni, nk)
    a = f((i * j + 1) % ni) / ni
    i, j = grid(nk, nj)
    b = f(i * (j + 1) % nj) / nj
    i, j = grid(nj, nl)
    c = f((i * (j + 3) + 1) % nl) / nl
    i, j = grid(ni, nl)
    d = f(i * (j + 2) % nk) / nk
    return 1.5, 1.2, a, b, c, d


def mm2(alpha, beta, a, b, c, d):
    return (alpha * (a @ b)) @ c + beta * d


# ---------------------------------------------------------------- 3mm

def mm3_init(ni, nj, nk, nl, nm):
    i, j = grid(ni, nk)
    a = f((i * j + 1) % ni) / (5 * ni)
    i, j = grid(nk, nj)
    b = f((i * (j + 1) + 2) % nj) / (5 * nj)
    i, j = grid(nj, nm)
    c = f(i * (j + 3) % nl) / (5 * nl)
    i, j = grid(nm, nl)
    d = f((i * (j + 2) + 2) % nk) / (5 * nk)
    return a, b, c, d


def mm3(a, b, c, d):
    return (a @ b) @ (c @ d)


# ---------------------------------------------------------------- jacobi-1d

def jacobi1d_init(tsteps, n):
    i = f(np.arange(n))
    return tsteps, (i + 2) / n, (i + 3) / n


def jacobi1d(tsteps, a, b):
    a, b = a.copy(), b.copy()
    for _ in range(tsteps):
        b[1:-1] = 0.33333 * (a[:-2] + a[1:-1] + a[2:])
        a[1:-1] = 0.33333 * (b[:-2] + b[1:-1] + b[2:])
    return a


# ---------------------------------------------------------------- jacobi-2d

def jacobi2d_init(tsteps, n):
    i, j = grid(n, n)
    return tsteps, (f(i) * (j + 2) + 2) / n, (f(i) * (j + 3) + 3) / n


def jacobi2d(tsteps, a, b):
    a, b = a.copy(), b.copy()
    for _ in range(tsteps):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
                               + a[2:, 1:-1] + a[:-2, 1:-1])
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:]
                               + b[2:, 1:-1] + b[:-2, 1:-1])
    return a


# ---------------------------------------------------------------- seidel-2d

def seidel2d_init(tsteps, n):
    i, j = grid(n, n)
    return tsteps, (f(i) * (j + 2) + 2) / n


def seidel2d(tsteps, a):
    """PolyBench's kernel_seidel_2d, line by line, on Python floats."""
    n = len(a)
    A = [[float(x) for x in row] for row in a]
    for t in range(tsteps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                           + A[i][j-1] + A[i][j] + A[i][j+1]
                           + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0
    return np.array(A, dtype=np.float64).reshape(n, n)


# ----------------------------------------------------------------

def rnd(rng, shape):
    return np.round(rng.uniform(-2.0, 2.0, shape), 3)


def sized(w, b, bp, prefix, init, kernel):
    """Cases at MINI and SMALL: array entry `b` reads the generated inputs from
    a file, size entry `bp` gets the sizes; both expect the same output file."""
    for size in ('mini', 'small'):
        dims = SIZES[prefix][size]
        args = init(*dims)
        out = kernel(*args)
        w.data(f'data/{prefix}_{size}.in', list(args))
        w.data(f'data/{prefix}_{size}.out', [out])
        b.input_file(f'data/{prefix}_{size}.in').output_file(f'data/{prefix}_{size}.out')
        bp.input(*dims).output_file(f'data/{prefix}_{size}.out')


def main():
    w = Writer()
    rng = np.random.default_rng(4242)

    # gemm
    b, bp = Block('gemm'), Block('gemm_polybench')
    c, a, bb = rnd(rng, (2, 3)), rnd(rng, (2, 4)), rnd(rng, (4, 3))
    b.input(0.5, -1.25, c, a, bb).output(gemm(0.5, -1.25, c, a, bb))
    b.input(2.0, 3.0, np.array([[1.0]]), np.zeros((1, 0)), np.zeros((0, 1))).output(np.array([[3.0]]))
    sized(w, b, bp, 'gemm', gemm_init, gemm)
    b.input(0.5, -1.25, c, a, bb[:3].copy()).error('size mismatch')
    w.blocks('mm.weir', [b, bp])

    # 2mm
    b, bp = Block('mm2'), Block('mm2_polybench')
    a, bb, c, d = rnd(rng, (2, 3)), rnd(rng, (3, 4)), rnd(rng, (4, 2)), rnd(rng, (2, 2))
    b.input(1.5, 1.2, a, bb, c, d).output(mm2(1.5, 1.2, a, bb, c, d))
    sized(w, b, bp, '2mm', mm2_init, mm2)
    b.input(1.5, 1.2, a, bb, c[:3].copy(), d).error('size mismatch')
    w.blocks('2mm.weir', [b, bp])

    # 3mm
    b, bp = Block('mm3'), Block('mm3_polybench')
    a, bb, c, d = rnd(rng, (2, 3)), rnd(rng, (3, 4)), rnd(rng, (4, 5)), rnd(rng, (5, 2))
    b.input(a, bb, c, d).output(mm3(a, bb, c, d))
    sized(w, b, bp, '3mm', mm3_init, mm3)
    b.input(a, bb, c, d.T.copy()).error('size mismatch')
    w.blocks('3mm.weir', [b, bp])

    # jacobi-1d
    b, bp = Block('jacobi_1d'), Block('jacobi_1d_polybench')
    a, bb = rnd(rng, 6), rnd(rng, 6)
    for t in (0, 1, 3):
        b.input(t, a, bb).output(jacobi1d(t, a, bb))
    b.input(5, a[:2].copy(), bb[:2].copy()).output(jacobi1d(5, a[:2], bb[:2]))
    sized(w, b, bp, 'jacobi1d', jacobi1d_init, jacobi1d)
    b.input(2, a, bb[:5].copy()).error('size mismatch')
    w.blocks('jacobi1d.weir', [b, bp])

    # jacobi-2d
    b, bp = Block('jacobi_2d'), Block('jacobi_2d_polybench')
    a, bb = rnd(rng, (5, 5)), rnd(rng, (5, 5))
    for t in (0, 1, 2):
        b.input(t, a, bb).output(jacobi2d(t, a, bb))
    sized(w, b, bp, 'jacobi2d', jacobi2d_init, jacobi2d)
    b.input(1, a, bb[:4].copy()).error('size mismatch')
    b.input(1, a[:, :4].copy(), a[:, :4].copy()).error('size mismatch')
    w.blocks('jacobi2d.weir', [b, bp])

    # seidel-2d
    b, bp = Block('seidel_2d'), Block('seidel_2d_polybench')
    a = rnd(rng, (5, 5))
    for t in (0, 1, 2):
        b.input(t, a).output(seidel2d(t, a))
    a4 = rnd(rng, (4, 4))
    b.input(3, a4).output(seidel2d(3, a4))
    b.input(2, np.array([[1.0, 2.0], [3.0, 4.0]])).output(np.array([[1.0, 2.0], [3.0, 4.0]]))
    sized(w, b, bp, 'seidel2d', seidel2d_init, seidel2d)
    b.input(1, rnd(rng, (3, 4))).error('size mismatch')
    w.blocks('seidel2d.weir', [b, bp])

    w.finish()


if __name__ == '__main__':
    main()
