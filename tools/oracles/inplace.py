#!/usr/bin/env python3
"""Oracle for the in-place update examples: examples/nw.weir
(Needleman-Wunsch, Rodinia `nw`), examples/lu.weir (PolyBench/C 4.2.1 `lu`),
examples/forward_subst.weir (PolyBench/C 4.2.1 `trisolv`) and
examples/histogram_loop.weir (a histogram as a loop of updates).

Each kernel is computed independently of Weir with plain Python loops that
transcribe the reference C code (Python ints and floats: one rounding per
operation, in the C code's order) and cross-checked against a NumPy
computation:
  * nw: the recurrence row by row; NumPy sweeps the anti-diagonals instead
    (every element of an anti-diagonal depends only on the two before it),
    which must give the same integers;
  * lu: PolyBench's row-by-row kernel; NumPy's right-looking elimination
    (for each pivot, scale the column, then subtract an outer product) must
    agree bit for bit (each element gets the same operations in the same
    order), and L @ U must reproduce A;
  * forward substitution: PolyBench's kernel; numpy.linalg.solve must agree
    to rounding;
  * histogram: numpy.bincount of the in-range indices against a plain loop.
Inputs are random with fixed seeds (small literal cases, a few random ones,
a data file of moderate size), plus PolyBench's own init_array for lu and
trisolv at the MINI and SMALL sizes.

Writes examples/data/{nw_64,lu_64,lu_mini,lu_small,forward_subst_64,
forward_subst_mini,forward_subst_small,histogram_loop_3000}.{in,out} and
rewrites the test blocks of the four .weir files.
Usage: python3 tools/oracles/inplace.py [--check]
"""

import numpy as np

from weirval import Block, Writer

POLYBENCH_N = {'mini': 40, 'small': 120}   # lu and trisolv: MINI, SMALL


def i64(xs):
    return np.array(xs, dtype=np.int64)


def f64(xs):
    return np.array(xs, dtype=np.float64)


# ---------------------------------------------------------------- nw

def nw(penalty, refs):
    """Rodinia nw's recurrence, row by row, left to right (Python ints)."""
    refs = np.asarray(refs, dtype=np.int64)
    n = refs.shape[0]
    assert refs.shape == (n, n)
    R = refs.tolist()
    m = [[0] * n for _ in range(n)]
    for i in range(n):
        m[i][0] = -i * penalty
    for j in range(n):
        m[0][j] = -j * penalty
    for i in range(1, n):
        for j in range(1, n):
            m[i][j] = max(m[i-1][j-1] + R[i][j], m[i][j-1] - penalty, m[i-1][j] - penalty)
    r = np.array(m, dtype=np.int64).reshape(n, n)
    assert np.array_equal(r, nw_diagonals(penalty, refs)), 'nw: anti-diagonal sweep disagrees'
    return r


def nw_diagonals(penalty, refs):
    """The same matrix, one anti-diagonal d = i + j at a time (NumPy)."""
    n = refs.shape[0]
    m = np.zeros((n, n), dtype=np.int64)
    m[:, 0] = -np.arange(n, dtype=np.int64) * penalty
    m[0, :] = -np.arange(n, dtype=np.int64) * penalty
    for d in range(2, 2 * n - 1):
        i = np.arange(max(1, d - n + 1), min(n - 1, d - 1) + 1)
        j = d - i
        m[i, j] = np.maximum(np.maximum(m[i - 1, j - 1] + refs[i, j], m[i, j - 1] - penalty),
                             m[i - 1, j] - penalty)
    return m


# ---------------------------------------------------------------- lu

def lu(a):
    """PolyBench 4.2.1 kernel_lu, line by line, on Python floats."""
    a = np.asarray(a, dtype=np.float64)
    n = a.shape[0]
    assert a.shape == (n, n)
    A = [[float(x) for x in row] for row in a]
    for i in range(n):
        for j in range(i):
            for k in range(j):
                A[i][j] -= A[i][k] * A[k][j]
            A[i][j] /= A[j][j]
        for j in range(i, n):
            for k in range(i):
                A[i][j] -= A[i][k] * A[k][j]
    r = np.array(A, dtype=np.float64).reshape(n, n)
    assert np.array_equal(r, lu_right_looking(a)), 'lu: right-looking order disagrees'
    if n:
        L = np.tril(r, -1) + np.eye(n)
        U = np.triu(r)
        assert np.allclose(L @ U, a, rtol=1e-10, atol=1e-10 * np.abs(a).max()), 'lu: L @ U != A'
    return r


def lu_right_looking(a):
    """The k-i-j (right-looking) order of examples/lu.weir, with NumPy."""
    A = np.array(a, dtype=np.float64)
    n = A.shape[0]
    for k in range(n):
        A[k + 1:, k] = A[k + 1:, k] / A[k, k]
        A[k + 1:, k + 1:] = A[k + 1:, k + 1:] - np.outer(A[k + 1:, k], A[k, k + 1:])
    return A


def lu_init(n):
    """PolyBench 4.2.1 lu's init_array: lower triangular A (A[i][j] =
    (-j % n) / n + 1 with C's truncating %, 1 on the diagonal), then A * A^T
    summed over t in order (a rank-one update per t reproduces that order)."""
    A = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            A[i][j] = float(-(j % n)) / n + 1.0   # C: -j % n == -(j % n) for j >= 0
        A[i][i] = 1.0
    B = np.zeros((n, n))
    for t in range(n):
        B = B + np.outer(A[:, t], A[:, t])
    return B


def diag_dominant(rng, n):
    a = np.round(rng.uniform(-1.0, 1.0, (n, n)), 3)
    return a + np.diag(np.round(np.abs(a).sum(axis=1) + 1.0, 3))


# ---------------------------------------------------------------- trisolv

def forward_subst(l, b):
    """PolyBench 4.2.1 kernel_trisolv, line by line, on Python floats."""
    l = np.asarray(l, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = b.shape[0]
    assert l.shape == (n, n)
    L = l.tolist()
    x = [0.0] * n
    for i in range(n):
        x[i] = float(b[i])
        for j in range(i):
            x[i] -= L[i][j] * x[j]
        x[i] = x[i] / L[i][i]
    r = np.array(x, dtype=np.float64)
    if n:
        s = np.linalg.solve(np.tril(l), b)
        assert np.allclose(r, s, rtol=1e-9, atol=1e-12 * np.abs(s).max()), 'trisolv: solve disagrees'
    return r


def trisolv_init(n):
    """PolyBench 4.2.1 trisolv's init_array: L[i][j] = (i + n - j + 1) * 2 / n
    for j <= i (0 above the diagonal), b[i] = i."""
    L = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            L[i][j] = float(i + n - j + 1) * 2.0 / n
    return L, np.arange(n, dtype=np.float64)


def lower(rng, n):
    l = np.tril(np.round(rng.uniform(-1.0, 1.0, (n, n)), 3))
    d = np.round(rng.uniform(1.0, 2.0, n), 3) * rng.choice([-1.0, 1.0], n)
    return l - np.diag(np.diag(l)) + np.diag(d)


# ---------------------------------------------------------------- histogram

def histogram(k, idx):
    idx = np.asarray(idx, dtype=np.int64)
    r = np.bincount(idx[(idx >= 0) & (idx < k)], minlength=k).astype(np.int64)
    loop = [0] * k
    for i in idx.tolist():
        if 0 <= i < k:
            loop[i] += 1
    assert r.tolist() == loop
    return r


# ----------------------------------------------------------------

def main():
    w = Writer()
    rng = np.random.default_rng(20260217)

    # nw: penalty 10 as in Rodinia, refs in BLOSUM62's range -4..11
    b = Block('nw').structure('inplace 2')
    refs = lambda n: rng.integers(-4, 12, (n, n), dtype=np.int64)  # noqa: E731
    b.input(10, np.zeros((0, 0), dtype=np.int64)).output(np.zeros((0, 0), dtype=np.int64))
    b.input(10, i64([[5]])).output(nw(10, i64([[5]])))
    r2 = i64([[0, 0], [0, 7]])
    b.input(10, r2).output(nw(10, r2))
    r3 = i64([[0, 0, 0], [0, 1, 2], [0, 3, -4]])
    b.input(10, r3).output(nw(10, r3))
    for n, pen in ((4, 10), (5, 1), (6, 0), (7, 3)):
        r = refs(n)
        b.input(pen, r).output(nw(pen, r))
    r64 = refs(64)
    w.data('data/nw_64.in', [10, r64])
    w.data('data/nw_64.out', [nw(10, r64)])
    b.input_file('data/nw_64.in').output_file('data/nw_64.out')
    b.input(10, refs(3)[:2].copy()).error('size mismatch')
    w.blocks('nw.weir', [b])

    # lu
    b, bp = Block('lu'), Block('lu_polybench')
    b.input(np.zeros((0, 0))).output(np.zeros((0, 0)))
    b.input(f64([[2.0]])).output(lu(f64([[2.0]])))
    a2 = f64([[4.0, 3.0], [6.0, 3.0]])
    b.input(a2).output(lu(a2))
    a3 = f64([[4.0, 1.0, 2.0], [2.0, 5.0, 1.0], [1.0, 2.0, 6.0]])
    b.input(a3).output(lu(a3))
    for n in (4, 5, 7):
        a = diag_dominant(rng, n)
        b.input(a).output(lu(a))
    a64 = diag_dominant(rng, 64)
    w.data('data/lu_64.in', [a64])
    w.data('data/lu_64.out', [lu(a64)])
    b.input_file('data/lu_64.in').output_file('data/lu_64.out')
    for size, n in POLYBENCH_N.items():
        a = lu_init(n)
        w.data(f'data/lu_{size}.in', [a])
        w.data(f'data/lu_{size}.out', [lu(a)])
        b.input_file(f'data/lu_{size}.in').output_file(f'data/lu_{size}.out')
        bp.input(n).output_file(f'data/lu_{size}.out')
    bp.input(0).output(np.zeros((0, 0)))
    bp.input(-1).error('negative')
    b.input(np.round(rng.uniform(-1.0, 1.0, (2, 3)), 3)).error('size mismatch')
    b.structure('inplace 3 index_check 0 wrap_add 0')
    bp.structure('inplace 3 index_check 1 wrap_add 0')
    w.blocks('lu.weir', [b, bp])

    # forward substitution
    b, bp = Block('forward_subst'), Block('forward_subst_polybench')
    b.input(np.zeros((0, 0)), np.zeros(0)).output(np.zeros(0))
    b.input(f64([[2.0]]), f64([3.0])).output(forward_subst(f64([[2.0]]), f64([3.0])))
    l3 = f64([[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [1.0, 2.0, 4.0]])
    b.input(l3, f64([2.0, 4.0, 9.0])).output(forward_subst(l3, f64([2.0, 4.0, 9.0])))
    # the upper triangle is never read
    l3u = l3 + np.triu(np.full((3, 3), 7.5), 1)
    b.input(l3u, f64([2.0, 4.0, 9.0])).output(forward_subst(l3, f64([2.0, 4.0, 9.0])))
    for n in (4, 6):
        l, bb = lower(rng, n), np.round(rng.uniform(-2.0, 2.0, n), 3)
        b.input(l, bb).output(forward_subst(l, bb))
    l64, b64 = lower(rng, 64), np.round(rng.uniform(-2.0, 2.0, 64), 3)
    w.data('data/forward_subst_64.in', [l64, b64])
    w.data('data/forward_subst_64.out', [forward_subst(l64, b64)])
    b.input_file('data/forward_subst_64.in').output_file('data/forward_subst_64.out')
    for size, n in POLYBENCH_N.items():
        l, bb = trisolv_init(n)
        w.data(f'data/forward_subst_{size}.in', [l, bb])
        w.data(f'data/forward_subst_{size}.out', [forward_subst(l, bb)])
        b.input_file(f'data/forward_subst_{size}.in').output_file(f'data/forward_subst_{size}.out')
        bp.input(n).output_file(f'data/forward_subst_{size}.out')
    bp.input(0).output(np.zeros(0))
    bp.input(-2).error('negative')
    b.input(l3, f64([2.0, 4.0])).error('size mismatch')
    b.input(l3[:2].copy(), f64([2.0, 4.0, 9.0])).error('size mismatch')
    b.structure('inplace 1')
    bp.structure('inplace 1')
    w.blocks('forward_subst.weir', [b, bp])

    # histogram as a loop (the cases of histogram.py, and a data file)
    b = Block('histogram_loop')
    cases = [
        (5, [0, 1, 1, 4, 2, 4, 4]),
        (5, [0, -1, 5, 1, 6, 100, -100, 1, -9223372036854775807, 9223372036854775807, 4]),
        (3, [7, -1, 3]),
        (4, []),
        (0, [0, 1, -1]),
        (0, []),
        (1, [0, 0, 0]),
    ]
    for k, xs in cases:
        b.input(k, i64(xs)).output(histogram(k, xs))
    k = 50
    idx = rng.integers(-2, k + 2, 3000, dtype=np.int64)
    w.data('data/histogram_loop_3000.in', [k, idx])
    w.data('data/histogram_loop_3000.out', [histogram(k, idx)])
    b.input_file('data/histogram_loop_3000.in').output_file('data/histogram_loop_3000.out')
    b.input(-1, i64([0, 1])).error('negative')
    b.input(-1, i64([])).error('negative')
    b.structure('inplace 1')
    w.blocks('histogram_loop.weir', [b])

    w.finish()


if __name__ == '__main__':
    main()
