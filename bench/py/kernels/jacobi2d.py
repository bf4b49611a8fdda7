"""jacobi2d (examples/jacobi2d.weir `jacobi_2d`, PolyBench jacobi-2d):
tsteps i64, a [n][n], b [n][n] -> the final A [n][n].  Each step smooths A's
interior into B (0.2 (centre + left + right + below + above)), then B's into A;
boundaries keep their values.  Works on copies of a and b."""

from harness import expect_dim, njit

PARAMS = [('tsteps', 'i64', 0), ('a', 'f64', 2), ('b', 'f64', 2)]
RESULT = [('f64', 2)]


def check(tsteps, a, b):
    n = a.shape[0]
    expect_dim('a (inner)', a.shape[1], n)
    expect_dim('b', b.shape[0], n)
    expect_dim('b (inner)', b.shape[1], n)


def numpy_impl(tsteps, a, b):
    A = a.copy()
    B = b.copy()
    for _ in range(tsteps):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1]
                               + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1]
                               + B[:-2, 1:-1])
    return A


def jax_impl(tsteps, a, b):
    from jax import lax

    def smooth(X):
        return 0.2 * (X[1:-1, 1:-1] + X[1:-1, :-2] + X[1:-1, 2:] + X[2:, 1:-1] + X[:-2, 1:-1])

    def step(_, ab):
        A, B = ab
        B = B.at[1:-1, 1:-1].set(smooth(A))
        A = A.at[1:-1, 1:-1].set(smooth(B))
        return A, B

    if a.shape[0] < 3:          # no interior (static shape)
        return a
    A, _ = lax.fori_loop(0, tsteps, step, (a, b))
    return A


@njit
def numba_impl(tsteps, a, b):
    n = a.shape[0]
    A = a.copy()
    B = b.copy()
    for _ in range(tsteps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                B[i, j] = 0.2 * (A[i, j] + A[i, j - 1] + A[i, j + 1] + A[i + 1, j] + A[i - 1, j])
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = 0.2 * (B[i, j] + B[i, j - 1] + B[i, j + 1] + B[i + 1, j] + B[i - 1, j])
    return A
