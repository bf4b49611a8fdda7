"""jacobi1d (examples/jacobi1d.weir `jacobi_1d`, PolyBench jacobi-1d):
tsteps i64, a [n], b [n] -> the final A [n].  Each step smooths A's interior
into B, then B's interior into A (0.33333 (x[i-1] + x[i] + x[i+1]));
boundaries keep their values.  Works on copies of a and b."""

from harness import expect_dim, njit

PARAMS = [('tsteps', 'i64', 0), ('a', 'f64', 1), ('b', 'f64', 1)]
RESULT = [('f64', 1)]


def check(tsteps, a, b):
    expect_dim('b', b.shape[0], a.shape[0])


def numpy_impl(tsteps, a, b):
    A = a.copy()
    B = b.copy()
    for _ in range(tsteps):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
    return A


def jax_impl(tsteps, a, b):
    from jax import lax

    def step(_, ab):
        A, B = ab
        B = B.at[1:-1].set(0.33333 * (A[:-2] + A[1:-1] + A[2:]))
        A = A.at[1:-1].set(0.33333 * (B[:-2] + B[1:-1] + B[2:]))
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
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1])
        for i in range(1, n - 1):
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1])
    return A
