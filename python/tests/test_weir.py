"""Tests of the Python binding (python/weir) against NumPy."""

import gc
import math
import os
import pickle
import subprocess
import sys
import threading
import weakref

import numpy as np
import pytest

import weir
import weir._build
import weir._lib
from conftest import ADBENCH, EXTRA, GMM, KERNELS, read_values

RNG = np.random.default_rng(20240611)


# ---------------------------------------------------------------------------
# Every entry of examples/embed/kernels.weir
# ---------------------------------------------------------------------------


def test_entries_and_docstrings(kernels):
    assert list(kernels.entries) == [
        "nothing", "add3", "row_stats", "above", "scaled_matvec", "count_true",
    ]
    assert kernels.add3.__doc__.splitlines()[0] == (
        "entry add3 [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) : [n]f64"
    )
    assert kernels["add3"] is kernels.add3
    assert "add3" in kernels and "nope" not in kernels
    with pytest.raises(KeyError):
        kernels["nope"]
    assert kernels.entries["above"].signature.startswith("entry above")


def test_nothing(kernels):
    assert kernels.nothing(2.5) == 2.5
    assert type(kernels.nothing(2.5)) is float
    assert kernels.nothing(3) == 3.0  # an int for a float parameter is fine
    assert kernels.nothing(np.float64(-1.5)) == -1.5


@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_add3(kernels, n):
    a, b, c = (RNG.standard_normal(n) for _ in range(3))
    r = kernels.add3(a, b, c)
    assert isinstance(r, np.ndarray) and r.dtype == np.float64 and r.shape == (n,)
    np.testing.assert_array_equal(r, (a + b) + c)


def test_add3_lists(kernels):
    np.testing.assert_array_equal(kernels.add3([1, 2], [3.5, 4], (5, 6)), [9.5, 12.0])


def test_row_stats(kernels):
    a = RNG.standard_normal((5, 4))
    sums, maxs = kernels.row_stats(a)
    np.testing.assert_allclose(sums, a.sum(axis=1), rtol=1e-14, atol=1e-14)
    np.testing.assert_array_equal(maxs, a.max(axis=1))


@pytest.mark.parametrize("t", [-10.0, 0.0, 0.5, 10.0])
def test_above(kernels, t):
    xs = RNG.standard_normal(200)
    ys, count = kernels.above(t, xs)
    np.testing.assert_array_equal(ys, xs[xs > t])
    assert count == int((xs > t).sum()) and type(count) is int


def test_above_empty(kernels):
    ys, count = kernels.above(0.0, np.empty(0))
    assert ys.shape == (0,) and count == 0


def test_scaled_matvec(kernels):
    a = RNG.standard_normal((6, 3))
    v = RNG.standard_normal(3)
    np.testing.assert_allclose(kernels.scaled_matvec(-2.0, a, v), -2.0 * (a @ v), rtol=1e-13)


def test_count_true(kernels):
    mask = RNG.random(50) < 0.3
    count, ints = kernels.count_true(mask)
    assert count == int(mask.sum())
    assert ints.dtype == np.int32
    np.testing.assert_array_equal(ints, mask.astype(np.int32))
    count, _ = kernels.count_true([True, False, True])
    assert count == 2


# ---------------------------------------------------------------------------
# Non-contiguous arguments and zero-copy
# ---------------------------------------------------------------------------


def test_transposed_matrix(kernels):
    m = RNG.standard_normal((4, 6))
    t = m.T  # 6 x 4, Fortran-ordered
    assert not t.flags.c_contiguous
    sums, maxs = kernels.row_stats(t)
    np.testing.assert_allclose(sums, t.sum(axis=1), rtol=1e-14, atol=1e-14)
    np.testing.assert_array_equal(maxs, t.max(axis=1))
    v = RNG.standard_normal(4)
    np.testing.assert_allclose(kernels.scaled_matvec(1.5, t, v), 1.5 * (t @ v), rtol=1e-13)


def test_strided_slice(kernels):
    base = RNG.standard_normal(30)
    a = base[::3]
    b = base[1::3]
    c = base[2::3][::-1]
    r = kernels.add3(a, b, c)
    np.testing.assert_array_equal(r, (a + b) + c)


class _Spy:
    """Counts calls of np.ascontiguousarray made by the binding."""

    def __init__(self):
        self.calls = 0

    def __call__(self, a, *args, **kw):
        self.calls += 1
        return np.ascontiguousarray(a, *args, **kw)


def test_contiguous_arguments_are_not_copied(kernels, monkeypatch):
    spy = _Spy()
    monkeypatch.setattr(weir._lib, "_ascontiguousarray", spy)
    a, b, c = (RNG.standard_normal(100) for _ in range(3))
    kernels.add3(a, b, c)
    kernels.row_stats(RNG.standard_normal((3, 5)))
    assert spy.calls == 0
    kernels.add3(a, b[::-1], c)  # one strided argument: one copy
    assert spy.calls == 1
    kernels.row_stats(RNG.standard_normal((3, 5)).T)
    assert spy.calls == 2


def test_pointer_passed_is_the_arrays(kernels, monkeypatch):
    # The address the binding passes for a contiguous argument is the
    # array's own data pointer.
    seen = []
    real = weir._lib._from_buffer

    def spy(a):
        seen.append(a)
        return real(a)

    monkeypatch.setattr(weir._lib, "_from_buffer", spy)
    # A fresh entry function (the fast path binds its helpers when made).
    lib = weir.Library(kernels.directory, kernels.name)
    a, b, c = (RNG.standard_normal(10) for _ in range(3))
    lib.add3(a, b, c)
    assert any(x is a for x in seen) and any(x is b for x in seen) and any(x is c for x in seen)


# ---------------------------------------------------------------------------
# out=
# ---------------------------------------------------------------------------


def test_out(kernels):
    a, b, c = (RNG.standard_normal(20) for _ in range(3))
    out = np.empty(20)
    r = kernels.add3(a, b, c, out=out)
    assert r is out
    np.testing.assert_array_equal(out, (a + b) + c)
    m = RNG.standard_normal((4, 3))
    s, x = np.empty(4), np.empty(4)
    r = kernels.row_stats(m, out=(s, x))
    assert r[0] is s and r[1] is x
    np.testing.assert_array_equal(x, m.max(axis=1))


def test_out_existential(kernels):
    xs = np.array([0.5, 3.0, -1.0, 7.0])
    buf = np.full(4, np.nan)
    ys, count = kernels.above(1.0, xs, out=buf)
    assert count == 2 and list(ys) == [3.0, 7.0]
    assert ys.base is buf or np.shares_memory(ys, buf)


def test_out_existential_smaller_than_the_bound(kernels):
    # Any out= that holds the actual result is accepted, even one smaller
    # than the bound (the length of xs); one too small for the result is
    # the caller's argument error, with the rows it needs.
    xs = np.array([0.5, 3.0, -1.0, 7.0, 9.0])
    buf = np.full(3, np.nan)
    ys, count = kernels.above(1.0, xs, out=buf)
    assert count == 3 and list(ys) == [3.0, 7.0, 9.0]
    assert np.shares_memory(ys, buf)
    with pytest.raises(weir.WeirArgumentError) as ei:
        kernels.above(1.0, xs, out=np.empty(2))
    e = ei.value
    assert "too small" in e.message and "out of memory" not in e.message
    assert e.rows_needed == {0: 3}


def test_out_too_small(kernels):
    a = np.ones(4)
    with pytest.raises(weir.WeirArgumentError) as ei:
        kernels.add3(a, a, a, out=np.empty(3))
    e = ei.value
    assert e.code == weir.WEIR_ERR_ARGUMENT
    assert "kernels.weir:" in e.location
    assert "destination 0 of `add3` has dims 3 where the result needs 4" in e.message
    assert str(e) == f"{e.location}: {e.message}"


def test_out_wrong_dtype_and_layout(kernels):
    a = np.ones(4)
    with pytest.raises(weir.WeirTypeError):
        kernels.add3(a, a, a, out=np.empty(4, dtype=np.float32))
    with pytest.raises(weir.WeirShapeError):
        kernels.add3(a, a, a, out=np.empty(8)[::2])
    with pytest.raises(weir.WeirShapeError):
        kernels.row_stats(np.ones((2, 2)), out=np.empty(2))
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        kernels.nothing(1.0, out=np.empty(1))  # no array result: no out=


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def test_wrong_dtype(kernels):
    a = np.ones(3)
    with pytest.raises(weir.WeirTypeError) as ei:
        kernels.add3(a, np.ones(3, dtype=np.int64), a)
    e = ei.value
    assert isinstance(e, TypeError) and isinstance(e, weir.WeirError)
    assert "`b`" in str(e) and "float64" in str(e) and "int64" in str(e)
    with pytest.raises(weir.WeirTypeError):
        kernels.count_true(np.array([1, 0, 1]))  # ints for a bool array
    with pytest.raises(weir.WeirTypeError):
        kernels.count_true([1, 0])
    with pytest.raises(weir.WeirTypeError):
        kernels.nothing("1.0")


def test_float_for_integer_parameter(extra):
    a = np.arange(3.0)
    assert extra.pick(a, 2) == 2.0
    assert extra.pick(a, np.int32(1)) == 1.0
    with pytest.raises(weir.WeirTypeError) as ei:
        extra.pick(a, 1.0)
    assert "`i`" in str(ei.value)
    with pytest.raises(weir.WeirTypeError):
        extra.ramp([1.5, 2.0])  # floats in a list for an i64 array


def test_wrong_rank(kernels):
    with pytest.raises(weir.WeirShapeError) as ei:
        kernels.add3(np.ones((2, 2)), np.ones(2), np.ones(2))
    assert isinstance(ei.value, ValueError) and "`a`" in str(ei.value)
    with pytest.raises(weir.WeirShapeError):
        kernels.row_stats(np.ones(3))
    with pytest.raises(weir.WeirShapeError):
        kernels.nothing(np.ones(3))


def test_wrong_argument_count(kernels):
    with pytest.raises(TypeError):
        kernels.add3(np.ones(2), np.ones(2))


def test_sizes_disagree(kernels):
    with pytest.raises(weir.WeirArgumentError) as ei:
        kernels.add3(np.ones(4), np.ones(3), np.ones(4))
    e = ei.value
    assert isinstance(e, ValueError)
    assert e.code == 2
    assert "kernels.weir:" in e.location
    assert e.location.endswith("kernels.weir:9:1")
    assert "size mismatch" in e.message
    assert str(e) == e.location + ": " + e.message


def test_program_error(extra):
    with pytest.raises(weir.WeirProgramError) as ei:
        extra.pick(np.arange(3.0), 3)
    e = ei.value
    assert e.code == weir.WEIR_ERR_PROGRAM
    assert "extra.weir:" in e.location
    assert "index out of bounds" in e.message
    # The context is fine afterwards.
    assert extra.pick(np.arange(3.0), 0) == 0.0


def test_errors_pickle(kernels):
    try:
        kernels.add3(np.ones(4), np.ones(3), np.ones(4))
    except weir.WeirArgumentError as e:
        e2 = pickle.loads(pickle.dumps(e))
        assert type(e2) is type(e)
        assert (e2.code, e2.location, e2.message, str(e2)) == (e.code, e.location, e.message, str(e))


def test_error_classes():
    assert issubclass(weir.WeirMemoryError, MemoryError)
    assert issubclass(weir.WeirArgumentError, ValueError)
    assert issubclass(weir.WeirShapeError, ValueError)
    assert issubclass(weir.WeirTypeError, TypeError)
    for c in (weir.WeirProgramError, weir.WeirArgumentError, weir.WeirMemoryError,
              weir.WeirTypeError, weir.WeirShapeError, weir.WeirBuildError):
        assert issubclass(c, weir.WeirError)


# ---------------------------------------------------------------------------
# Other shapes and types (tests/extra.weir)
# ---------------------------------------------------------------------------


def test_unbounded_result_retries(extra):
    a = np.array([3, 4, 5])
    np.testing.assert_array_equal(extra.ramp(a), np.arange(12))
    assert extra.ramp(np.zeros(0, dtype=np.int64)).shape == (0,)
    np.testing.assert_array_equal(extra.ramp([2000, 1]), np.arange(2001))


def test_existential_inner_dim(extra):
    a = np.array([[1.0, -1.0, 2.0], [3.0, 4.0, -5.0]])
    np.testing.assert_array_equal(extra.row_positives(a), [[1.0, 2.0], [3.0, 4.0]])
    assert extra.row_positives(np.zeros((2, 3))).shape == (2, 0)
    assert extra.row_positives(np.zeros((0, 3))).shape[0] == 0
    with pytest.raises(weir.WeirProgramError):
        extra.row_positives(np.array([[1.0, 2.0], [3.0, -4.0]]))


def test_scalars(extra):
    x, k, b, y, j = extra.scalars(1.25, 41, True, 3.0, 10)
    assert x == np.float32(2.5) and isinstance(x, np.float32)
    assert k == 42 and isinstance(k, np.int32)
    assert b is False
    assert y == 1.5 and type(y) is float
    assert j == 9 and type(j) is int
    with pytest.raises(weir.WeirTypeError):
        extra.scalars(1.0, 2**31, True, 1.0, 1)  # out of i32's range
    with pytest.raises(weir.WeirTypeError):
        extra.scalars(1.0, 1, 1, 1.0, 1)  # an int for a bool


def test_f32_i32_rank3(extra):
    a = RNG.standard_normal(9).astype(np.float32)
    r = extra.scale32(np.float32(0.5), a)
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r, np.float32(0.5) * a)
    with pytest.raises(weir.WeirTypeError):
        extra.scale32(0.5, a.astype(np.float64))
    c = RNG.integers(-100, 100, (3, 4, 5)).astype(np.int32)
    np.testing.assert_array_equal(extra.cube_sums(c), c.astype(np.int64).sum(axis=(1, 2)))
    np.testing.assert_array_equal(extra.cube_sums(c.transpose(1, 0, 2)),
                                  c.transpose(1, 0, 2).astype(np.int64).sum(axis=(1, 2)))


def test_small_and_unsigned_integers(extra):
    ch = [RNG.integers(0, 256, 7).astype(np.uint8) for _ in range(4)]
    px = extra.pack_argb(*ch)
    assert px.dtype == np.uint32
    want = (ch[0].astype(np.uint32) << 24 | ch[1].astype(np.uint32) << 16
            | ch[2].astype(np.uint32) << 8 | ch[3].astype(np.uint32))
    np.testing.assert_array_equal(px, want)
    red = extra.unpack_red(px)
    assert red.dtype == np.uint8
    np.testing.assert_array_equal(red, ch[1])
    # a list of Python ints converts; a value out of range, a float or a
    # signed dtype for an unsigned parameter does not
    np.testing.assert_array_equal(extra.unpack_red([0xAABBCCDD]), [0xBB])
    with pytest.raises(weir.WeirTypeError):
        extra.unpack_red([2**32])
    with pytest.raises(weir.WeirTypeError):
        extra.unpack_red(np.zeros(3, dtype=np.int32))
    with pytest.raises(weir.WeirTypeError):
        extra.pack_argb(ch[0], ch[1], ch[2], [1.5] * 7)
    r = extra.small_scalars(-128, 20000, 255, 0, 2**32 - 1, 2**64 - 1)
    assert r == (127, -25536, 0, 65535, 2**31 - 1, 2**64 - 1 - 0xFF)
    assert [type(x) for x in r] == [np.int8, np.int16, np.uint8, np.uint16, np.uint32, np.uint64]
    for bad in ((128, 0, 0, 0, 0, 0), (0, 0, -1, 0, 0, 0), (0, 0, 0, 0, 0, 2**64)):
        with pytest.raises(weir.WeirTypeError):
            extra.small_scalars(*bad)
    assert extra.small_scalars(np.int8(5), np.int16(1), np.uint8(1), np.uint16(1), np.uint32(2),
                               np.uint64(1))[0] == 4


def test_no_parameters(extra):
    np.testing.assert_array_equal(extra.consts(), [1.0, 2.0, 3.0])


def test_read_only_argument(kernels):
    a = np.arange(5.0)
    a.flags.writeable = False
    np.testing.assert_array_equal(kernels.add3(a, a, a), 3 * a)


# ---------------------------------------------------------------------------
# Threads, contexts, pickling, the cache
# ---------------------------------------------------------------------------


def test_two_threads(kernels):
    errors = []
    ptrs = {}
    # (both threads hold their contexts at once: a context is freed when its
    # thread ends, and the next one may get the same address)
    both = threading.Barrier(2, timeout=60)

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(300):
                a, b, c = (rng.standard_normal(257) for _ in range(3))
                np.testing.assert_array_equal(kernels.add3(a, b, c), (a + b) + c)
                xs = rng.standard_normal(100)
                ys, n = kernels.above(0.0, xs)
                np.testing.assert_array_equal(ys, xs[xs > 0.0])
            ptrs[seed] = kernels._context()
            both.wait()
        except Exception as e:  # pragma: no cover
            errors.append(e)

    ts = [threading.Thread(target=work, args=(s,)) for s in (1, 2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors
    assert ptrs[1] != ptrs[2]  # one context per thread


def test_contexts_freed_with_library(kernels):
    lib = weir.Library(kernels.directory, kernels.name)
    lib.nothing(1.0)
    ctx = lib._tls.ctx
    ref, cref = weakref.ref(lib), weakref.ref(ctx)
    del lib, ctx
    gc.collect()
    assert ref() is None and cref() is None


def test_pickle_same_process(kernels):
    k2 = pickle.loads(pickle.dumps(kernels))
    assert k2 is kernels


def test_pickle_other_process(kernels, tmp_path):
    p = tmp_path / "lib.pkl"
    p.write_bytes(pickle.dumps(kernels))
    code = (
        "import pickle, sys, numpy as np\n"
        "k = pickle.load(open(sys.argv[1], 'rb'))\n"
        "print(k.add3(np.ones(3), np.ones(3), np.arange(3.0)).tolist())\n"
    )
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[2.0, 3.0, 4.0]"


def test_cache_reuse_and_key(weir_bin, tmp_path):
    cache = tmp_path / "c"
    k1 = weir.load(KERNELS, weir=weir_bin, cache_dir=cache)
    folders = os.listdir(cache / "py")
    assert len(folders) == 1 and folders[0].startswith("kernels-")
    assert weir.load(KERNELS, weir=weir_bin, cache_dir=cache) is k1
    # Other options are another build.
    k2 = weir.load(KERNELS, weir=weir_bin, cache_dir=cache, flags=("--unsafe",))
    assert k2 is not k1
    assert len(os.listdir(cache / "py")) == 2
    # A changed source is another build.
    src = tmp_path / "k.weir"
    src.write_text("entry f (x: f64) : f64 = x + 1.0\n")
    assert weir.load(src, weir=weir_bin, cache_dir=cache).f(1.0) == 2.0
    src.write_text("entry f (x: f64) : f64 = x + 2.0\n")
    assert weir.load(src, weir=weir_bin, cache_dir=cache).f(1.0) == 3.0
    assert not [f for f in os.listdir(cache / "py") if f.startswith(".tmp")]


def test_concurrent_loaders(weir_bin, tmp_path):
    # Several processes compile the same program into an empty cache at once:
    # all succeed and one library folder is left.
    cache = tmp_path / "c"
    code = (
        "import sys, numpy as np, weir\n"
        "k = weir.load(sys.argv[1], weir=sys.argv[2], cache_dir=sys.argv[3])\n"
        "assert k.add3(np.ones(2), np.ones(2), np.ones(2)).tolist() == [3.0, 3.0]\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, KERNELS, weir_bin, str(cache)],
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
    assert len(os.listdir(cache / "py")) == 1


def test_load_library_folder(weir_bin, tmp_path):
    out = tmp_path / "built"
    subprocess.run([weir_bin, "lib", KERNELS, "-o", str(out)], check=True, capture_output=True)
    k = weir.load_library(out)
    assert k.nothing(4.0) == 4.0
    assert pickle.loads(pickle.dumps(k)) is k


def test_compiler_not_found(tmp_path, monkeypatch):
    monkeypatch.delenv("WEIR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(weir._build, "_bundled", None)  # (installed from the wheel)
    with pytest.raises(weir.WeirCompilerNotFound) as ei:
        weir.load(KERNELS, cache_dir=tmp_path)
    assert "cargo install --locked --path crates/cli" in str(ei.value)
    with pytest.raises(weir.WeirCompilerNotFound):
        weir.load(KERNELS, weir=str(tmp_path / "nope"), cache_dir=tmp_path)


def test_build_error(weir_bin, tmp_path):
    src = tmp_path / "bad.weir"
    src.write_text("entry f (x: f64) : f64 = x + true\n")
    with pytest.raises(weir.WeirBuildError) as ei:
        weir.load(src, weir=weir_bin, cache_dir=tmp_path / "c")
    assert "bad.weir" in str(ei.value)
    assert not [f for f in os.listdir(tmp_path / "c" / "py") if f.startswith(".tmp")]


# ---------------------------------------------------------------------------
# GMM (examples/gmm.weir) against a NumPy implementation of ADBench's objective
# ---------------------------------------------------------------------------

ADBENCH_PI = 3.14159265359


def _logsumexp(v, axis=None):
    m = np.max(v, axis=axis, keepdims=True)
    return np.squeeze(np.log(np.sum(np.exp(v - m), axis=axis, keepdims=True)) + m, axis=axis)


def gmm_objective_numpy(alphas, means, icf, x, gamma, m):
    """ADBench's GMM objective: the log-likelihood of x under K Gaussians
    with inverse Cholesky factors Q_k (log-diagonal, then the strictly lower
    part column by column), minus n logsumexp(alphas), plus the log Wishart
    prior."""
    k, d = means.shape
    n = x.shape[0]
    logdiag = icf[:, :d]
    q = np.zeros((k, d, d))
    q[:, np.arange(d), np.arange(d)] = np.exp(logdiag)
    rows = [j for i in range(d) for j in range(i + 1, d)]
    cols = [i for i in range(d) for j in range(i + 1, d)]
    q[:, rows, cols] = icf[:, d:]
    xc = x[:, None, :] - means[None, :, :]  # n x k x d
    qx = np.einsum("kij,nkj->nki", q, xc)
    main = alphas[None, :] + logdiag.sum(axis=1)[None, :] - 0.5 * np.sum(qx * qx, axis=2)
    lik = -n * d * 0.5 * math.log(2 * ADBENCH_PI) + _logsumexp(main, axis=1).sum() \
        - n * _logsumexp(alphas)
    big_n = d + m + 1
    log_gamma_d = 0.25 * d * (d - 1) * math.log(ADBENCH_PI) + sum(
        math.lgamma(0.5 * big_n + 0.5 * (1 - j)) for j in range(1, d + 1))
    c = big_n * d * (math.log(gamma) - 0.5 * math.log(2.0)) - log_gamma_d
    frob = np.sum(np.exp(logdiag) ** 2, axis=1) + np.sum(icf[:, d:] ** 2, axis=1)
    prior = np.sum(0.5 * gamma * gamma * frob - m * logdiag.sum(axis=1)) - k * c
    return float(lik + prior)


@pytest.mark.parametrize("k,d,n,seed", [(1, 1, 1, 0), (3, 2, 10, 1), (5, 4, 30, 2), (4, 7, 25, 3)])
def test_gmm_random(gmm, k, d, n, seed):
    rng = np.random.default_rng(seed)
    alphas = rng.standard_normal(k)
    means = rng.random((k, d))
    icf = rng.standard_normal((k, d + d * (d - 1) // 2)) * 0.5
    x = rng.standard_normal((n, d))
    gamma, m = 1.0 + rng.random(), int(rng.integers(0, 3))
    got = gmm.gmm_objective(alphas, means, icf, x, gamma, m)
    want = gmm_objective_numpy(alphas, means, icf, x, gamma, m)
    assert type(got) is float
    assert got == pytest.approx(want, rel=1e-10, abs=1e-10)


def test_gmm_adbench_instance(gmm):
    inp = os.path.join(ADBENCH, "gmm_d2_K5.in")
    alphas, means, icf, x, gamma, m = read_values(inp)
    (expected,) = read_values(os.path.join(ADBENCH, "gmm_d2_K5.out"))
    args = [np.array(alphas), np.array(means), np.array(icf), np.array(x), gamma, m]
    got = gmm.gmm_objective(*args)
    assert got == pytest.approx(expected, rel=1e-10)
    assert gmm_objective_numpy(*args) == pytest.approx(expected, rel=1e-10)


def test_gmm_helpers(gmm):
    v = RNG.standard_normal(10) * 100
    assert gmm.gmm_logsumexp(v) == pytest.approx(float(_logsumexp(v)), rel=1e-12)
    with pytest.raises(weir.WeirProgramError):
        gmm.gmm_qtimesv(np.ones(5), np.ones(3))  # icf too short: out of bounds
