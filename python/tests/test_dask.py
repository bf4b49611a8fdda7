"""A Weir kernel as the per-block function of dask.array.map_blocks on a
local cluster of two worker processes (the Library is pickled to the
workers, which load it from the cache the client built)."""

import math

import numpy as np
import pytest

import weir

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")


def iterate_numpy(a, steps):
    y = a.copy()
    for _ in range(steps):
        y = y - 0.25 * np.sin(y) + 0.1 * np.cos(2.0 * y)
    return y


def test_iterate_matches_numpy(blocks):
    a = np.random.default_rng(0).standard_normal(1000)
    np.testing.assert_allclose(blocks.iterate(5, a), iterate_numpy(a, 5), rtol=1e-13, atol=1e-14)


def test_smooth_matches_python(blocks):
    a = np.random.default_rng(1).standard_normal(50)
    y = a.copy()
    for _ in range(3):
        z = y.copy()
        z[1:-1] = 0.25 * y[:-2] + 0.5 * y[1:-1] + 0.25 * y[2:]
        y = z
    np.testing.assert_allclose(blocks.smooth(3, a), y, rtol=1e-14, atol=1e-15)


def test_map_blocks_on_local_cluster(blocks, kernels):
    steps = 8
    x = np.random.default_rng(2).standard_normal(40_000)
    lib = blocks  # captured by the task function: pickled as (source, options)

    def per_block(b):
        return lib.iterate(steps, b)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        arr = da.from_array(x, chunks=5_000)
        got = arr.map_blocks(per_block, dtype=np.float64).compute()
        # The library was loaded in the worker processes (from the cache).
        loaded = client.run(lambda: sorted(
            lib.directory for lib in __import__("weir")._lib._loaded.values()))
        assert len(loaded) == 2
        assert sum(blocks.directory in dirs for dirs in loaded.values()) >= 1
        # An error in a block comes back to the client as the Weir error.
        bad = da.from_array(np.arange(8.0), chunks=4).map_blocks(
            lambda b: lib.iterate(1.5, b), dtype=np.float64)
        with pytest.raises(weir.WeirTypeError):
            bad.compute()
        k = kernels
        bad = da.from_array(np.arange(8.0), chunks=4).map_blocks(
            lambda b: k.add3(b, b[:1], b), dtype=np.float64)
        with pytest.raises(weir.WeirArgumentError) as ei:
            bad.compute()
        assert "kernels.weir:" in ei.value.location and ei.value.code == 2
    np.testing.assert_allclose(got, iterate_numpy(x, steps), rtol=1e-13, atol=1e-14)
    assert not math.isnan(got.sum())
