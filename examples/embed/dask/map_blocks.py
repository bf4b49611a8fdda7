"""A Weir kernel as Dask's per-block function (see README.md here).

    WEIR=path/to/weir python/.venv/bin/python examples/embed/dask/map_blocks.py

Compiles blocks.weir once on the client (weir.load, cached), starts a local
cluster of two worker processes, and runs `iterate` on every block of a
chunked array with dask.array.map_blocks, then `smooth` with
dask.array.map_overlap (a stencil needs its neighbours' cells), checking both
against NumPy. The Library is pickled into the task graph as "load
blocks.weir with these options"; each worker loads it from the cache.
"""

import os

import numpy as np

import dask.array as da
import distributed

import weir

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 20
PASSES = 4


def iterate_numpy(a, steps):
    y = a.copy()
    for _ in range(steps):
        y = y - 0.25 * np.sin(y) + 0.1 * np.cos(2.0 * y)
    return y


def smooth_numpy(a, passes):
    y = a.copy()
    for _ in range(passes):
        z = y.copy()
        z[1:-1] = 0.25 * y[:-2] + 0.5 * y[1:-1] + 0.25 * y[2:]
        y = z
    return y


def main():
    lib = weir.load(os.path.join(HERE, "blocks.weir"))
    print(lib)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        # The data is made on the workers (no big graph); x is a copy for NumPy.
        arr = da.random.default_rng(0).standard_normal(2_000_000, chunks=250_000).persist()
        x = arr.compute()

        # Elementwise work: each block on its own.
        y = arr.map_blocks(lambda b: lib.iterate(STEPS, b), dtype=np.float64).compute()
        np.testing.assert_allclose(y, iterate_numpy(x, STEPS), rtol=1e-12, atol=1e-13)
        print(f"iterate: {len(arr.chunks[0])} blocks on {len(client.scheduler_info()['workers'])} "
              "workers, matches NumPy")

        # A stencil: PASSES cells of overlap on each side; the ends of the
        # whole array are kept by the kernel itself ("none" boundary).
        s = arr.map_overlap(lambda b: lib.smooth(PASSES, b), depth=PASSES, boundary="none",
                            dtype=np.float64).compute()
        np.testing.assert_allclose(s, smooth_numpy(x, PASSES), rtol=1e-13, atol=1e-14)
        print("smooth: map_overlap, matches NumPy")


if __name__ == "__main__":
    main()
