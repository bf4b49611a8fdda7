"""Issue 46: an array of tuples or records is passed as one array per
component (``xs_a``, ``xs_b``); they must agree in the dims of the array.
Components that disagree raise WeirArgumentError naming the parameter and
both sizes, before anything is written (tests/regress_c/tuple_array_sizes.weir;
the C API, executables and Rust: crates/cli/tests/embed_tuple_sizes.rs)."""

import os

import numpy as np
import pytest

import weir
from conftest import ROOT

TUPLES = os.path.join(ROOT, "tests", "regress_c", "tuple_array_sizes.weir")


@pytest.fixture(scope="module")
def tup(weir_bin, cache):
    return weir.load(TUPLES, weir=weir_bin, cache_dir=cache)


A3 = np.array([1.0, 2.0, 3.0])
B3 = np.array([1, 2, 3], dtype=np.int64)
B4 = np.array([0, 0, 0, 1], dtype=np.int64)
MSG = "invalid argument: argument `xs`: field `b` has 4 elements, field `a` 3"


def check(exc, message):
    e = exc.value
    assert e.code == weir.WEIR_ERR_ARGUMENT
    assert e.message == message, e.message
    # (the entry's location)
    assert "tuple_array_sizes.weir:" in e.location, e.location


def test_sumt_components_of_different_lengths(tup):
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.sumt(A3, B4)
    check(exc, MSG)
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.sumt(xs_a=A3, xs_b=B4)
    check(exc, MSG)
    assert tup.sumt(A3, B3) == 12.0


def test_upd_leaves_out_untouched(tup):
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.upd(A3, B4, 0)
    check(exc, MSG)
    oa, ob = np.full(3, -7.0), np.full(4, -7, dtype=np.int64)
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.upd(A3, B4, 0, out=(oa, ob))
    check(exc, MSG)
    assert (oa == -7.0).all() and (ob == -7).all()
    a, b = tup.upd(A3, B3, 1)
    np.testing.assert_array_equal(a, [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(b, [1, 0, 3])


def test_norm_tuple(tup):
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.norm(A3, np.array([1.0, 2.0]))
    check(exc, "invalid argument: argument `xs`: component `1` has 2 elements, component `0` 3")


def test_grid_rank_2(tup):
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.grid(np.zeros((2, 3)), np.zeros((2, 4, 3), dtype=np.int64))
    check(exc, "invalid argument: argument `g`: component `1` has outer dims 2 x 4, component `0` 2 x 3")
    r = tup.grid(np.zeros((2, 3)), np.ones((2, 3, 3), dtype=np.int64))
    np.testing.assert_array_equal(r, np.full((2, 3), 3.0))


def test_nested_records(tup):
    pts = np.zeros((2, 3))
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.nest(pts, pts, np.ones(3))
    check(exc, "invalid argument: argument `ps`: field `w` has length 3, field `pts.0` 2")
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.nest(pts, np.zeros((2, 2)), np.ones(2))
    check(exc, "invalid argument: argument `ps`: field `pts.1` has outer dims 2 x 2, field `pts.0` 2 x 3")


def test_keep_results_agree(tup):
    with pytest.raises(weir.WeirArgumentError) as exc:
        tup.keep(A3, B4)
    check(exc, MSG)
    a, b = tup.keep(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, -1, 2, 3], dtype=np.int64))
    assert a.shape == b.shape == (3,)
    np.testing.assert_array_equal(a, [1.0, 3.0, 4.0])
    np.testing.assert_array_equal(b, [1, 2, 3])


def test_tuple_of_arrays_has_lengths_of_its_own(tup):
    assert tup.pair(np.array([1.0, 2.0]), B3) == 5
