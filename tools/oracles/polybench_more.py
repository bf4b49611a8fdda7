#!/usr/bin/env python3
"""Oracle for the PolyBench/C 4.2.1 ports in examples/polybench/*.weir.

Each kernel is registered with its dataset sizes (MINI and SMALL, the ones the
test blocks use), its inputs (PolyBench's init_array, integer expressions
divided in double precision, as NumPy arrays) and its kernel, a line-by-line
transcription of PolyBench's kernel_* loop nest on plain Python floats (IEEE
binary64, one rounding per operation, no FMA: the order of the floating-point
operations is PolyBench's, so the results are PolyBench's bit for bit).

Writes examples/data/polybench/K_{mini,small}.in (the arguments of the
examples/polybench/K.weir entry, in order) and K_{mini,small}.out (its
results, one value per tuple component).  The small hand-checkable cases and
the error cases are in the .weir files' test blocks themselves.
Usage: python3 tools/oracles/polybench_more.py [--check] [KERNEL ...]
"""

import math
import sys

import numpy as np

from weirval import Writer

# name -> (sizes {'mini': dims, 'small': dims}, init(*dims) -> args, kernel(*args) -> [results])
KERNELS = {}


def kernel(name, mini, small):
    """Register `init` and `run` (the two functions of a class-like pair) for
    a kernel: use as @kernel('atax', (38, 42), (116, 124)) on a function
    returning (init, run)."""
    def reg(make):
        init, run = make()
        KERNELS[name] = ({'mini': mini, 'small': small}, init, run)
        return make
    return reg


def grid(rows, cols):
    i = np.arange(rows, dtype=np.int64)[:, None]
    j = np.arange(cols, dtype=np.int64)[None, :]
    return i, j


def f(a):
    return np.asarray(a).astype(np.float64)


def lists(a):
    """A NumPy array as nested lists of Python floats (the kernels below work on these)."""
    return np.asarray(a, dtype=np.float64).tolist()


def arr(x):
    return np.array(x, dtype=np.float64)


# ================================================================
# PolyBench/C 4.2.1, linear algebra: kernels and BLAS
# ================================================================

# ---------------------------------------------------------------- atax
# M N: MINI 38 42, SMALL 116 124, MEDIUM 390 410, LARGE 1900 2100, EXTRALARGE 1800 2200

@kernel('atax', (38, 42), (116, 124))
def _atax():
    def init(m, n):
        fn = float(n)
        x = 1.0 + f(np.arange(n)) / fn
        i, j = grid(m, n)
        a = f((i + j) % n) / (5 * m)
        return [a, x]

    def run(a, x):
        A, X = lists(a), lists(x)
        m, n = len(A), len(X)
        y = [0.0] * n
        tmp = [0.0] * m
        for i in range(m):
            tmp[i] = 0.0
            for j in range(n):
                tmp[i] = tmp[i] + A[i][j] * X[j]
            for j in range(n):
                y[j] = y[j] + A[i][j] * tmp[i]
        return [arr(y)]
    return init, run


# ---------------------------------------------------------------- bicg
# M N: MINI 38 42, SMALL 116 124, MEDIUM 390 410, LARGE 1900 2100, EXTRALARGE 1800 2200

@kernel('bicg', (38, 42), (116, 124))
def _bicg():
    def init(m, n):
        p = f(np.arange(m) % m) / m
        r = f(np.arange(n) % n) / n
        i, j = grid(n, m)
        a = f(i * (j + 1) % n) / n
        return [a, p, r]

    def run(a, p, r):
        A, P, R = lists(a), lists(p), lists(r)
        n, m = len(R), len(P)
        s = [0.0] * m
        q = [0.0] * n
        for i in range(n):
            q[i] = 0.0
            for j in range(m):
                s[j] = s[j] + R[i] * A[i][j]
                q[i] = q[i] + A[i][j] * P[j]
        return [arr(s), arr(q)]
    return init, run


# ---------------------------------------------------------------- gemver
# N: MINI 40, SMALL 120, MEDIUM 400, LARGE 2000, EXTRALARGE 4000

@kernel('gemver', (40,), (120,))
def _gemver():
    def init(n):
        fn = float(n)
        i = f(np.arange(n))
        u1 = i.copy()
        u2 = ((i + 1) / fn) / 2.0
        v1 = ((i + 1) / fn) / 4.0
        v2 = ((i + 1) / fn) / 6.0
        y = ((i + 1) / fn) / 8.0
        z = ((i + 1) / fn) / 9.0
        x = np.zeros(n)
        w = np.zeros(n)
        ii, jj = grid(n, n)
        a = f(ii * jj % n) / n
        return [1.5, 1.2, a, u1, v1, u2, v2, w, x, y, z]

    def run(alpha, beta, a, u1, v1, u2, v2, w, x, y, z):
        A = lists(a)
        U1, V1, U2, V2, W, X, Y, Z = (lists(v) for v in (u1, v1, u2, v2, w, x, y, z))
        n = len(A)
        for i in range(n):
            for j in range(n):
                A[i][j] = A[i][j] + U1[i] * V1[j] + U2[i] * V2[j]
        for i in range(n):
            for j in range(n):
                X[i] = X[i] + beta * A[j][i] * Y[j]
        for i in range(n):
            X[i] = X[i] + Z[i]
        for i in range(n):
            for j in range(n):
                W[i] = W[i] + alpha * A[i][j] * X[j]
        return [arr(A), arr(X), arr(W)]
    return init, run


# ---------------------------------------------------------------- gesummv
# N: MINI 30, SMALL 90, MEDIUM 250, LARGE 1300, EXTRALARGE 2800

@kernel('gesummv', (30,), (90,))
def _gesummv():
    def init(n):
        x = f(np.arange(n) % n) / n
        i, j = grid(n, n)
        a = f((i * j + 1) % n) / n
        b = f((i * j + 2) % n) / n
        return [1.5, 1.2, a, b, x]

    def run(alpha, beta, a, b, x):
        A, B, X = lists(a), lists(b), lists(x)
        n = len(X)
        tmp = [0.0] * n
        y = [0.0] * n
        for i in range(n):
            tmp[i] = 0.0
            y[i] = 0.0
            for j in range(n):
                tmp[i] = A[i][j] * X[j] + tmp[i]
                y[i] = B[i][j] * X[j] + y[i]
            y[i] = alpha * tmp[i] + beta * y[i]
        return [arr(y)]
    return init, run


# ---------------------------------------------------------------- mvt
# N: MINI 40, SMALL 120, MEDIUM 400, LARGE 2000, EXTRALARGE 4000

@kernel('mvt', (40,), (120,))
def _mvt():
    def init(n):
        i = np.arange(n)
        x1 = f(i % n) / n
        x2 = f((i + 1) % n) / n
        y1 = f((i + 3) % n) / n
        y2 = f((i + 4) % n) / n
        ii, jj = grid(n, n)
        a = f(ii * jj % n) / n
        return [x1, x2, y1, y2, a]

    def run(x1, x2, y1, y2, a):
        X1, X2, Y1, Y2, A = lists(x1), lists(x2), lists(y1), lists(y2), lists(a)
        n = len(A)
        for i in range(n):
            for j in range(n):
                X1[i] = X1[i] + A[i][j] * Y1[j]
        for i in range(n):
            for j in range(n):
                X2[i] = X2[i] + A[j][i] * Y2[j]
        return [arr(X1), arr(X2)]
    return init, run


# ---------------------------------------------------------------- symm
# M N: MINI 20 30, SMALL 60 80, MEDIUM 200 240, LARGE 1000 1200, EXTRALARGE 2000 2600

@kernel('symm', (20, 30), (60, 80))
def _symm():
    def init(m, n):
        i, j = grid(m, n)
        c = f((i + j) % 100) / m
        b = f((n + i - j) % 100) / m
        i, j = grid(m, m)
        a = np.where(j <= i, f((i + j) % 100) / m, -999.0)
        return [1.5, 1.2, c, a, b]

    def run(alpha, beta, c, a, b):
        C, A, B = lists(c), lists(a), lists(b)
        m, n = len(C), len(C[0]) if C else 0
        for i in range(m):
            for j in range(n):
                temp2 = 0.0
                for k in range(i):
                    C[k][j] += alpha * B[i][j] * A[i][k]
                    temp2 += B[k][j] * A[i][k]
                C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2
        return [arr(C)]
    return init, run


# ---------------------------------------------------------------- syr2k
# M N: MINI 20 30, SMALL 60 80, MEDIUM 200 240, LARGE 1000 1200, EXTRALARGE 2000 2600

@kernel('syr2k', (20, 30), (60, 80))
def _syr2k():
    def init(m, n):
        i, j = grid(n, m)
        a = f((i * j + 1) % n) / n
        b = f((i * j + 2) % m) / m
        i, j = grid(n, n)
        c = f((i * j + 3) % n) / m
        return [1.5, 1.2, c, a, b]

    def run(alpha, beta, c, a, b):
        C, A, B = lists(c), lists(a), lists(b)
        n, m = len(A), len(A[0]) if A else 0
        for i in range(n):
            for j in range(i + 1):
                C[i][j] *= beta
            for k in range(m):
                for j in range(i + 1):
                    C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k]
        return [arr(C)]
    return init, run


# ---------------------------------------------------------------- syrk
# M N: MINI 20 30, SMALL 60 80, MEDIUM 200 240, LARGE 1000 1200, EXTRALARGE 2000 2600

@kernel('syrk', (20, 30), (60, 80))
def _syrk():
    def init(m, n):
        i, j = grid(n, m)
        a = f((i * j + 1) % n) / n
        i, j = grid(n, n)
        c = f((i * j + 2) % m) / m
        return [1.5, 1.2, c, a]

    def run(alpha, beta, c, a):
        C, A = lists(c), lists(a)
        n, m = len(A), len(A[0]) if A else 0
        for i in range(n):
            for j in range(i + 1):
                C[i][j] *= beta
            for k in range(m):
                for j in range(i + 1):
                    C[i][j] += alpha * A[i][k] * A[j][k]
        return [arr(C)]
    return init, run


# ---------------------------------------------------------------- trmm
# M N: MINI 20 30, SMALL 60 80, MEDIUM 200 240, LARGE 1000 1200, EXTRALARGE 2000 2600

@kernel('trmm', (20, 30), (60, 80))
def _trmm():
    def init(m, n):
        i, j = grid(m, m)
        # below the diagonal (i+j) % m / m, 1 on it; PolyBench leaves the part
        # above uninitialised (the kernel never reads it): 0 here
        a = np.where(j < i, f((i + j) % m) / m, np.where(j == i, 1.0, 0.0))
        i, j = grid(m, n)
        b = f((n + (i - j)) % n) / n
        return [1.5, a, b]

    def run(alpha, a, b):
        A, B = lists(a), lists(b)
        m, n = len(B), len(B[0]) if B else 0
        for i in range(m):
            for j in range(n):
                for k in range(i + 1, m):
                    B[i][j] += A[k][i] * B[k][j]
                B[i][j] = alpha * B[i][j]
        return [arr(B)]
    return init, run


# ---------------------------------------------------------------- doitgen
# NQ NR NP: MINI 8 10 12, SMALL 20 25 30, MEDIUM 40 50 60, LARGE 140 150 160,
# EXTRALARGE 220 250 270

@kernel('doitgen', (8, 10, 12), (20, 25, 30))
def _doitgen():
    def init(nq, nr, np_):
        r = np.arange(nr, dtype=np.int64)[:, None, None]
        q = np.arange(nq, dtype=np.int64)[None, :, None]
        p = np.arange(np_, dtype=np.int64)[None, None, :]
        a = f((r * q + p) % np_) / np_
        i, j = grid(np_, np_)
        c4 = f(i * j % np_) / np_
        return [a, c4]

    def run(a, c4):
        A, C4 = lists(a), lists(c4)
        nr = len(A)
        nq = len(A[0]) if nr else 0
        np_ = len(C4)
        s = [0.0] * np_
        for r in range(nr):
            for q in range(nq):
                for p in range(np_):
                    s[p] = 0.0
                    for t in range(np_):
                        s[p] += A[r][q][t] * C4[t][p]
                for p in range(np_):
                    A[r][q][p] = s[p]
        return [np.array(A, dtype=np.float64).reshape(nr, nq, np_)]
    return init, run


# ---------------------------------------------------------------- cholesky
# N: MINI 40, SMALL 120, MEDIUM 400, LARGE 2000, EXTRALARGE 4000

@kernel('cholesky', (40,), (120,))
def _cholesky():
    def init(n):
        # lower triangular with (-j % n) / n + 1 below the diagonal (C's
        # truncating %: -j for 0 <= j < n), 1 on it, then B = A A^T summed
        # over t = 0 .. n-1 in order (PolyBench's loop: t outermost)
        A = [[(float(-j) / n + 1.0 if j < i else (1.0 if j == i else 0.0)) for j in range(n)]
             for i in range(n)]
        B = [[0.0] * n for _ in range(n)]
        for t in range(n):
            for r in range(n):
                for s in range(n):
                    B[r][s] += A[r][t] * A[s][t]
        return [arr(B).reshape(n, n)]

    def run(a):
        A = lists(a)
        n = len(A)
        for i in range(n):
            for j in range(i):
                for k in range(j):
                    A[i][j] -= A[i][k] * A[j][k]
                A[i][j] /= A[j][j]
            for k in range(i):
                A[i][i] -= A[i][k] * A[i][k]
            A[i][i] = math.sqrt(A[i][i])
        return [arr(A).reshape(n, n)]
    return init, run


# ================================================================
# PolyBench/C 4.2.1, solvers, data mining, medley and stencils
# ====================================================================
# covariance, correlation, fdtd-2d, heat-3d, adi, floyd-warshall, durbin,
# gramschmidt, ludcmp, nussinov, deriche: PolyBench's init_array and
# kernel_* loop nests transcribed line by line on Python floats and ints
# (one rounding per operation, in the C code's order; math.sqrt, math.exp
# and math.pow are the C library's).


def _mat(rows, cols, fn):
    return [[fn(i, j) for j in range(cols)] for i in range(rows)]


def _f64(x):
    return np.array(x, dtype=np.float64)


def _i64(x):
    return np.array(x, dtype=np.int64)


# ---------------------------------------------------------------- covariance

def covariance_init(m, n):
    # float_n = n; data[i][j] = ((double) i * j) / M, i < N, j < M
    return [float(n), _f64(_mat(n, m, lambda i, j: float(i) * j / m))]


def covariance(float_n, data):
    data = [[float(x) for x in row] for row in data]
    n = len(data)
    m = len(data[0]) if n else 0
    mean = [0.0] * m
    for j in range(m):
        mean[j] = 0.0
        for i in range(n):
            mean[j] += data[i][j]
        mean[j] /= float_n
    for i in range(n):
        for j in range(m):
            data[i][j] -= mean[j]
    cov = [[0.0] * m for _ in range(m)]
    for i in range(m):
        for j in range(i, m):
            cov[i][j] = 0.0
            for k in range(n):
                cov[i][j] += data[k][i] * data[k][j]
            cov[i][j] /= (float_n - 1.0)
            cov[j][i] = cov[i][j]
    return [_f64(cov).reshape(m, m)]


# ---------------------------------------------------------------- correlation

def correlation_init(m, n):
    # float_n = n; data[i][j] = (double)(i * j) / M + i
    return [float(n), _f64(_mat(n, m, lambda i, j: float(i * j) / m + i))]


def correlation(float_n, data):
    data = [[float(x) for x in row] for row in data]
    n = len(data)
    m = len(data[0]) if n else 0
    eps = 0.1
    mean = [0.0] * m
    stddev = [0.0] * m
    for j in range(m):
        mean[j] = 0.0
        for i in range(n):
            mean[j] += data[i][j]
        mean[j] /= float_n
    for j in range(m):
        stddev[j] = 0.0
        for i in range(n):
            stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j])
        stddev[j] /= float_n
        stddev[j] = math.sqrt(stddev[j])
        stddev[j] = 1.0 if stddev[j] <= eps else stddev[j]
    for i in range(n):
        for j in range(m):
            data[i][j] -= mean[j]
            data[i][j] /= math.sqrt(float_n) * stddev[j]
    corr = [[0.0] * m for _ in range(m)]
    for i in range(m - 1):
        corr[i][i] = 1.0
        for j in range(i + 1, m):
            corr[i][j] = 0.0
            for k in range(n):
                corr[i][j] += data[k][i] * data[k][j]
            corr[j][i] = corr[i][j]
    if m > 0:
        corr[m - 1][m - 1] = 1.0
    return [_f64(corr).reshape(m, m)]


# ---------------------------------------------------------------- fdtd-2d

def fdtd2d_init(tmax, nx, ny):
    return [tmax,
            _f64(_mat(nx, ny, lambda i, j: float(i) * (j + 1) / nx)),
            _f64(_mat(nx, ny, lambda i, j: float(i) * (j + 2) / ny)),
            _f64(_mat(nx, ny, lambda i, j: float(i) * (j + 3) / nx)),
            _f64([float(t) for t in range(tmax)])]


def fdtd2d(tmax, ex, ey, hz, fict):
    ex = [[float(x) for x in r] for r in ex]
    ey = [[float(x) for x in r] for r in ey]
    hz = [[float(x) for x in r] for r in hz]
    nx = len(ex)
    ny = len(ex[0]) if nx else 0
    for t in range(tmax):
        for j in range(ny):
            ey[0][j] = float(fict[t])
        for i in range(1, nx):
            for j in range(ny):
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j])
        for i in range(nx):
            for j in range(1, ny):
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1])
        for i in range(nx - 1):
            for j in range(ny - 1):
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j])
    return [_f64(ex).reshape(nx, ny), _f64(ey).reshape(nx, ny), _f64(hz).reshape(nx, ny)]


# ---------------------------------------------------------------- heat-3d

def heat3d_init(tsteps, n):
    a = _f64([_mat(n, n, lambda j, k, i=i: float(i + j + (n - k)) * 10 / n) for i in range(n)])
    return [tsteps, a.reshape(n, n, n), a.copy().reshape(n, n, n)]


def heat3d(tsteps, a, b):
    A = [[[float(x) for x in r] for r in p] for p in a]
    B = [[[float(x) for x in r] for r in p] for p in b]
    n = len(A)
    for t in range(1, tsteps + 1):
        for src, dst in ((A, B), (B, A)):
            for i in range(1, n - 1):
                for j in range(1, n - 1):
                    for k in range(1, n - 1):
                        dst[i][j][k] = (0.125 * (src[i + 1][j][k] - 2.0 * src[i][j][k] + src[i - 1][j][k])
                                        + 0.125 * (src[i][j + 1][k] - 2.0 * src[i][j][k] + src[i][j - 1][k])
                                        + 0.125 * (src[i][j][k + 1] - 2.0 * src[i][j][k] + src[i][j][k - 1])
                                        + src[i][j][k])
    return [_f64(A).reshape(n, n, n)]


# ---------------------------------------------------------------- adi

def adi_init(tsteps, n):
    return [tsteps, _f64(_mat(n, n, lambda i, j: float(i + n - j) / n))]


def adi(tsteps, u):
    u = [[float(x) for x in r] for r in u]
    n = len(u)
    v = [[0.0] * n for _ in range(n)]
    p = [[0.0] * n for _ in range(n)]
    q = [[0.0] * n for _ in range(n)]
    DX = 1.0 / float(n)
    DY = 1.0 / float(n)
    DT = 1.0 / float(tsteps)
    B1 = 2.0
    B2 = 1.0
    mul1 = B1 * DT / (DX * DX)
    mul2 = B2 * DT / (DY * DY)
    a = -mul1 / 2.0
    b = 1.0 + mul1
    c = a
    d = -mul2 / 2.0
    e = 1.0 + mul2
    f = d
    for t in range(1, tsteps + 1):
        for i in range(1, n - 1):
            v[0][i] = 1.0
            p[i][0] = 0.0
            q[i][0] = v[0][i]
            for j in range(1, n - 1):
                p[i][j] = -c / (a * p[i][j - 1] + b)
                q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1]
                           - a * q[i][j - 1]) / (a * p[i][j - 1] + b)
            v[n - 1][i] = 1.0
            for j in range(n - 2, 0, -1):
                v[j][i] = p[i][j] * v[j + 1][i] + q[i][j]
        for i in range(1, n - 1):
            u[i][0] = 1.0
            p[i][0] = 0.0
            q[i][0] = u[i][0]
            for j in range(1, n - 1):
                p[i][j] = -f / (d * p[i][j - 1] + e)
                q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j]
                           - d * q[i][j - 1]) / (d * p[i][j - 1] + e)
            u[i][n - 1] = 1.0
            for j in range(n - 2, 0, -1):
                u[i][j] = p[i][j] * u[i][j + 1] + q[i][j]
    return [_f64(u).reshape(n, n)]


# ---------------------------------------------------------------- floyd-warshall

def floyd_warshall_init(n):
    def w(i, j):
        s = i + j
        return 999 if (s % 13 == 0 or s % 7 == 0 or s % 11 == 0) else i * j % 7 + 1
    return [_i64(_mat(n, n, w)).reshape(n, n)]


def floyd_warshall(path):
    path = [[int(x) for x in r] for r in path]
    n = len(path)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                s = path[i][k] + path[k][j]
                path[i][j] = path[i][j] if path[i][j] < s else s
    return [_i64(path).reshape(n, n)]


# ---------------------------------------------------------------- durbin

def durbin_init(n):
    return [_f64([float(n + 1 - i) for i in range(n)])]


def durbin(r):
    r = [float(x) for x in r]
    n = len(r)
    y = [0.0] * n
    z = [0.0] * n
    y[0] = -r[0]
    beta = 1.0
    alpha = -r[0]
    for k in range(1, n):
        beta = (1 - alpha * alpha) * beta
        s = 0.0
        for i in range(k):
            s += r[k - i - 1] * y[i]
        alpha = - (r[k] + s) / beta
        for i in range(k):
            z[i] = y[i] + alpha * y[k - i - 1]
        for i in range(k):
            y[i] = z[i]
        y[k] = alpha
    return [_f64(y)]


# ---------------------------------------------------------------- gramschmidt

def gramschmidt_init(m, n):
    # A[i][j] = (((double) ((i*j) % m) / m) * 100) + 10
    return [_f64(_mat(m, n, lambda i, j: (float((i * j) % m) / m) * 100 + 10)).reshape(m, n)]


def gramschmidt(a):
    A = [[float(x) for x in r] for r in a]
    m = len(A)
    n = len(A[0]) if m else 0
    R = [[0.0] * n for _ in range(n)]
    Q = [[0.0] * n for _ in range(m)]
    for k in range(n):
        nrm = 0.0
        for i in range(m):
            nrm += A[i][k] * A[i][k]
        R[k][k] = math.sqrt(nrm)
        for i in range(m):
            Q[i][k] = A[i][k] / R[k][k]
        for j in range(k + 1, n):
            R[k][j] = 0.0
            for i in range(m):
                R[k][j] += Q[i][k] * A[i][j]
            for i in range(m):
                A[i][j] = A[i][j] - Q[i][k] * R[k][j]
    return [_f64(R).reshape(n, n), _f64(Q).reshape(m, n)]


# ---------------------------------------------------------------- ludcmp

def ludcmp_init(n):
    fn = float(n)
    b = [(i + 1) / fn / 2.0 + 4 for i in range(n)]
    A = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            A[i][j] = float(-j) / n + 1   # C's (-j % n) is -j for 0 <= j < n
        for j in range(i + 1, n):
            A[i][j] = 0.0
        A[i][i] = 1.0
    B = [[0.0] * n for _ in range(n)]
    for t in range(n):
        for r in range(n):
            for s in range(n):
                B[r][s] += A[r][t] * A[s][t]
    return [_f64(B).reshape(n, n), _f64(b)]


def ludcmp(a, b):
    A = [[float(x) for x in r] for r in a]
    b = [float(x) for x in b]
    n = len(b)
    x = [0.0] * n
    y = [0.0] * n
    for i in range(n):
        for j in range(i):
            w = A[i][j]
            for k in range(j):
                w -= A[i][k] * A[k][j]
            A[i][j] = w / A[j][j]
        for j in range(i, n):
            w = A[i][j]
            for k in range(i):
                w -= A[i][k] * A[k][j]
            A[i][j] = w
    for i in range(n):
        w = b[i]
        for j in range(i):
            w -= A[i][j] * y[j]
        y[i] = w
    for i in range(n - 1, -1, -1):
        w = y[i]
        for j in range(i + 1, n):
            w -= A[i][j] * x[j]
        x[i] = w / A[i][i]
    return [_f64(x)]


# ---------------------------------------------------------------- nussinov

def nussinov_init(n):
    # seq[i] = (i + 1) % 4 (PolyBench's char bases), table all 0
    return [_i64([(i + 1) % 4 for i in range(n)]), np.zeros((n, n), dtype=np.int64)]


def nussinov(seq, table):
    seq = [int(x) for x in seq]
    T = [[int(x) for x in r] for r in table]
    n = len(seq)

    def match(b1, b2):
        return 1 if b1 + b2 == 3 else 0

    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n):
            if j - 1 >= 0:
                T[i][j] = max(T[i][j], T[i][j - 1])
            if i + 1 < n:
                T[i][j] = max(T[i][j], T[i + 1][j])
            if j - 1 >= 0 and i + 1 < n:
                if i < j - 1:
                    T[i][j] = max(T[i][j], T[i + 1][j - 1] + match(seq[i], seq[j]))
                else:
                    T[i][j] = max(T[i][j], T[i + 1][j - 1])
            for k in range(i + 1, j):
                T[i][j] = max(T[i][j], T[i][k] + T[k + 1][j])
    return [_i64(T).reshape(n, n)]


# ---------------------------------------------------------------- deriche

def deriche_init(w, h):
    # alpha = 0.25; imgIn[i][j] = (double)((313*i + 991*j) % 65536) / 65535.0f
    return [0.25, _f64(_mat(w, h, lambda i, j: float((313 * i + 991 * j) % 65536) / 65535.0)).reshape(w, h)]


def deriche(alpha, img_in):
    X = [[float(x) for x in r] for r in img_in]
    W = len(X)
    H = len(X[0]) if W else 0
    exp, pw = math.exp, math.pow
    k = (1.0 - exp(-alpha)) * (1.0 - exp(-alpha)) / (1.0 + 2.0 * alpha * exp(-alpha) - exp(2.0 * alpha))
    a1 = a5 = k
    a2 = a6 = k * exp(-alpha) * (alpha - 1.0)
    a3 = a7 = k * exp(-alpha) * (alpha + 1.0)
    a4 = a8 = -k * exp(-2.0 * alpha)
    b1 = pw(2.0, -alpha)
    b2 = -exp(-2.0 * alpha)
    c1 = c2 = 1.0
    y1 = [[0.0] * H for _ in range(W)]
    y2 = [[0.0] * H for _ in range(W)]
    out = [[0.0] * H for _ in range(W)]
    for i in range(W):
        ym1 = ym2 = xm1 = 0.0
        for j in range(H):
            y1[i][j] = a1 * X[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2
            xm1 = X[i][j]
            ym2 = ym1
            ym1 = y1[i][j]
    for i in range(W):
        yp1 = yp2 = xp1 = xp2 = 0.0
        for j in range(H - 1, -1, -1):
            y2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2
            xp2 = xp1
            xp1 = X[i][j]
            yp2 = yp1
            yp1 = y2[i][j]
    for i in range(W):
        for j in range(H):
            out[i][j] = c1 * (y1[i][j] + y2[i][j])
    for j in range(H):
        tm1 = ym1 = ym2 = 0.0
        for i in range(W):
            y1[i][j] = a5 * out[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2
            tm1 = out[i][j]
            ym2 = ym1
            ym1 = y1[i][j]
    for j in range(H):
        tp1 = tp2 = yp1 = yp2 = 0.0
        for i in range(W - 1, -1, -1):
            y2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2
            tp2 = tp1
            tp1 = out[i][j]
            yp2 = yp1
            yp1 = y2[i][j]
    for i in range(W):
        for j in range(H):
            out[i][j] = c2 * (y1[i][j] + y2[i][j])
    return [_f64(out).reshape(W, H)]


# name (the file stem) -> (sizes MINI and SMALL in PolyBench's order, init, kernel)
KERNELS.update({
    'covariance': ({'mini': (28, 32), 'small': (80, 100)}, covariance_init, covariance),       # M N
    'correlation': ({'mini': (28, 32), 'small': (80, 100)}, correlation_init, correlation),    # M N
    'fdtd2d': ({'mini': (20, 20, 30), 'small': (40, 60, 80)}, fdtd2d_init, fdtd2d),             # TMAX NX NY
    'heat3d': ({'mini': (20, 10), 'small': (40, 20)}, heat3d_init, heat3d),                     # TSTEPS N
    'adi': ({'mini': (20, 20), 'small': (40, 60)}, adi_init, adi),                              # TSTEPS N
    'floyd_warshall': ({'mini': (60,), 'small': (180,)}, floyd_warshall_init, floyd_warshall),  # N
    'durbin': ({'mini': (40,), 'small': (120,)}, durbin_init, durbin),                          # N
    'gramschmidt': ({'mini': (20, 30), 'small': (60, 80)}, gramschmidt_init, gramschmidt),      # M N
    'ludcmp': ({'mini': (40,), 'small': (120,)}, ludcmp_init, ludcmp),                          # N
    'nussinov': ({'mini': (60,), 'small': (180,)}, nussinov_init, nussinov),                    # N
    'deriche': ({'mini': (64, 64), 'small': (192, 128)}, deriche_init, deriche),                # W H
})


# ================================================================

def main():
    names = [a for a in sys.argv[1:] if not a.startswith('--')]
    for nm in names:
        if nm not in KERNELS:
            sys.exit(f'polybench_more.py: no kernel {nm!r} (have: {" ".join(KERNELS)})')
    w = Writer([a for a in sys.argv[1:] if a.startswith('--')])
    for name, (sizes, init, run) in KERNELS.items():
        if names and name not in names:
            continue
        for size in ('mini', 'small'):
            args = init(*sizes[size])
            outs = run(*args)
            w.data(f'data/polybench/{name}_{size}.in', list(args))
            w.data(f'data/polybench/{name}_{size}.out', list(outs))
    w.finish()


if __name__ == '__main__':
    main()
