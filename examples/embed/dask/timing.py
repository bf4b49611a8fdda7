"""Dask run time of a Weir per-block kernel on 2 workers vs 1 worker.

    WEIR=path/to/weir python/.venv/bin/python examples/embed/dask/timing.py [N] [STEPS]

The same data (N f64 values made on the workers with a fixed seed, in 16
blocks, persisted before timing) goes through `iterate` of blocks.weir (STEPS
iterations of a transcendental recurrence per element) with
dask.array.map_blocks, reduced to one number so that the result's transfer
does not dominate; the time is the median of several runs (after one untimed
warm-up that loads the library on every worker). LocalCluster(processes=True,
threads_per_worker=1) with n_workers=1 and n_workers=2: the speedup is bounded
by the machine's free cores (os.cpu_count() is printed).
"""

import os
import statistics
import sys
import time

import numpy as np

import dask.array as da
import distributed

import weir

HERE = os.path.dirname(os.path.abspath(__file__))


def run(lib, n, steps, workers, runs=5):
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster):
        arr = da.random.default_rng(42).standard_normal(n, chunks=n // 16).persist()
        graph = arr.map_blocks(lambda b: lib.iterate(steps, b), dtype=np.float64).sum()
        value = graph.compute()  # warm-up: every worker loads the library
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            v = graph.compute()
            times.append(time.perf_counter() - t0)
            assert v == value
        return statistics.median(times), value


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    lib = weir.load(os.path.join(HERE, "blocks.weir"))
    print(f"n={n} steps={steps}, 16 blocks, {os.cpu_count()} CPUs")
    t1, v1 = run(lib, n, steps, 1)
    t2, v2 = run(lib, n, steps, 2)
    assert v1 == v2
    # One process, no Dask: the kernel on the whole array, for reference.
    x = da.random.default_rng(42).standard_normal(n, chunks=n // 16).compute()
    t0 = time.perf_counter()
    lib.iterate(steps, x)
    tw = time.perf_counter() - t0
    print(f"no Dask, one call on the whole array: {tw * 1e3:8.1f} ms")
    print(f"Dask, 1 worker:                       {t1 * 1e3:8.1f} ms (median of 5)")
    print(f"Dask, 2 workers:                      {t2 * 1e3:8.1f} ms (median of 5)")
    print(f"speedup 2 vs 1 worker: {t1 / t2:.2f}x")


if __name__ == "__main__":
    main()
