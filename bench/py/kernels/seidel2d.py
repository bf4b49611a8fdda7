"""seidel2d (examples/seidel2d.weir `seidel_2d`, PolyBench seidel-2d):
tsteps i64, a [n][n] -> [n][n].  In-place Gauss-Seidel sweeps on a copy of a:
for each step, rows i = 1..n-2 in order, within a row columns j = 1..n-2 in
order, A[i][j] = (sum of the 3x3 neighbourhood) / 9, where the row above and
the left neighbour already hold this sweep's values.

Only the Numba version keeps the reference's order of the nine additions.
The NumPy and JAX versions vectorise per row what does not depend on the
recurrence -- U[j] = up[j-1] + up[j] + up[j+1] (already updated row above) and
T[j] = A[i][j] + A[i][j+1] + down[j-1] + down[j] + down[j+1] (old values) --
and then run the recurrence  A[i][j] = ((U[j] + A[i][j-1]) + T[j]) / 9  along
the row sequentially, which reassociates the sum (differences of a few ulps)."""

from harness import expect_dim, njit

PARAMS = [('tsteps', 'i64', 0), ('a', 'f64', 2)]
RESULT = [('f64', 2)]


def check(tsteps, a):
    expect_dim('a (inner)', a.shape[1], a.shape[0])


def numpy_impl(tsteps, a):
    A = a.copy()
    n = A.shape[0]
    for _ in range(tsteps):
        for i in range(1, n - 1):
            up, row, down = A[i - 1], A[i], A[i + 1]
            U = up[:-2] + up[1:-1] + up[2:]
            T = row[1:-1] + row[2:] + down[:-2] + down[1:-1] + down[2:]
            # the Gauss-Seidel recurrence along the row: a plain Python loop
            left = row[0].item()
            new = []
            for u, t in zip(U.tolist(), T.tolist()):
                left = (u + left + t) / 9.0
                new.append(left)
            row[1:-1] = new
    return A


def jax_impl(tsteps, a):
    from jax import lax
    n = a.shape[0]
    if n < 3:                    # no interior (static shape)
        return a

    def along_row(left, ut):
        u, t = ut
        v = (u + left + t) / 9.0
        return v, v

    def row_update(i, A):
        rows = lax.dynamic_slice_in_dim(A, i - 1, 3, axis=0)
        up, row, down = rows[0], rows[1], rows[2]
        U = up[:-2] + up[1:-1] + up[2:]
        T = row[1:-1] + row[2:] + down[:-2] + down[1:-1] + down[2:]
        _, inner = lax.scan(along_row, row[0], (U, T))
        return lax.dynamic_update_slice_in_dim(A, row.at[1:-1].set(inner)[None], i, axis=0)

    def sweep(_, A):
        return lax.fori_loop(1, n - 1, row_update, A)

    return lax.fori_loop(0, tsteps, sweep, a)


@njit
def numba_impl(tsteps, a):
    n = a.shape[0]
    A = a.copy()
    for _ in range(tsteps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1]
                           + A[i, j - 1] + A[i, j] + A[i, j + 1]
                           + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0
    return A
