"""Keyword arguments, parameter names in signatures and help(), and where the
binding finds the compiler (the one installed with the package first)."""

import inspect
import os
import pathlib
import pydoc

import numpy as np
import pytest

import weir
import weir._build
import weir._lib

RNG = np.random.default_rng(7)


def params_of(f):
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]


POS = inspect.Parameter.POSITIONAL_OR_KEYWORD
KW = inspect.Parameter.KEYWORD_ONLY
NO = inspect.Parameter.empty


# ---------------------------------------------------------------------------
# Signatures
# ---------------------------------------------------------------------------


def test_signatures_show_weir_names(kernels, extra):
    assert params_of(kernels.add3) == [
        ("a", POS, NO), ("b", POS, NO), ("c", POS, NO), ("out", KW, None),
    ]
    assert str(inspect.signature(kernels.scaled_matvec)) == "(s, a, v, *, out=None)"
    assert str(inspect.signature(kernels.above)) == "(t, xs, *, out=None)"
    # no array result: no out=
    assert str(inspect.signature(kernels.nothing)) == "(x)"
    assert str(inspect.signature(extra.scalars)) == "(x, k, b, y, j)"
    assert str(inspect.signature(extra.consts)) == "(*, out=None)"
    # an entry that only has the general path
    assert str(inspect.signature(extra.row_positives)) == "(a, *, out=None)"
    assert kernels.entries["add3"].arg_names == ["a", "b", "c"]
    for f in (kernels.add3, extra.row_positives):
        assert f.__name__ == f.__qualname__ == f.__code__.co_name


def test_help_shows_signature_and_weir_types(kernels):
    text = pydoc.render_doc(kernels.add3, renderer=pydoc.plaintext)
    assert "add3(a, b, c, *, out=None)" in text
    assert "entry add3 [n] (a: [n]f64) (b: [n]f64) (c: [n]f64) : [n]f64" in text
    assert "1-d array of f64 (NumPy float64)" in text
    doc = kernels.above.__doc__
    assert doc.splitlines()[0] == "entry above (t: f64) (xs: []f64) : ([]f64, i64)"
    assert "t   f64 scalar (float)" in doc and "size known after the call" in doc


# ---------------------------------------------------------------------------
# Keyword arguments
# ---------------------------------------------------------------------------


def test_keyword_arguments(kernels):
    a, b, c = (RNG.standard_normal(5) for _ in range(3))
    want = (a + b) + c
    np.testing.assert_array_equal(kernels.add3(a=a, b=b, c=c), want)
    np.testing.assert_array_equal(kernels.add3(c=c, b=b, a=a), want)
    np.testing.assert_array_equal(kernels.add3(a, c=c, b=b), want)
    # conversions (the general path) with keywords
    np.testing.assert_array_equal(kernels.add3(c=[1, 2], a=[3.0, 4.0], b=(5, 6)), [9.0, 12.0])
    m, v = RNG.standard_normal((3, 4)), RNG.standard_normal(4)
    np.testing.assert_allclose(kernels.scaled_matvec(v=v, a=m, s=2.0), 2.0 * (m @ v))
    out = np.empty(5)
    assert kernels.add3(b=b, a=a, c=c, out=out) is out
    np.testing.assert_array_equal(out, want)
    ys, n = kernels.above(xs=[0.5, 3.0, -1.0, 7.0], t=1.0)
    assert n == 2 and list(ys) == [3.0, 7.0]
    assert kernels.nothing(x=2.5) == 2.5


def test_keyword_arguments_general_path(extra):
    a = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, 6.0]])
    # (an existential inner dim: this entry has no generated fast path)
    np.testing.assert_array_equal(extra.row_positives(a=a), [[1.0, 3.0], [5.0, 6.0]])
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        extra.row_positives()


def test_argument_errors(kernels):
    a = np.ones(3)
    with pytest.raises(TypeError, match=r"add3\(\) missing 2 required positional arguments: 'b' and 'c'"):
        kernels.add3(a)
    with pytest.raises(TypeError, match=r"add3\(\) missing 1 required positional argument: 'c'"):
        kernels.add3(a, b=a)
    with pytest.raises(TypeError, match=r"add3\(\) got an unexpected keyword argument 'd'"):
        kernels.add3(a, a, a, d=a)
    with pytest.raises(TypeError, match=r"add3\(\) got multiple values for argument 'a'"):
        kernels.add3(a, a, a, a=a)
    with pytest.raises(TypeError, match=r"add3\(\) takes 3 positional arguments but 4 were given"):
        kernels.add3(a, a, a, a)  # out= is keyword-only
    with pytest.raises(TypeError, match=r"nothing\(\) got an unexpected keyword argument 'y'"):
        kernels.nothing(y=1.0)
    # a wrong argument given by keyword is named by its keyword
    with pytest.raises(weir.WeirTypeError, match="parameter `c`"):
        kernels.add3(a, a, c=np.ones(3, dtype=np.int64))


# ---------------------------------------------------------------------------
# Names that Python or the generated code cannot use as they are
# ---------------------------------------------------------------------------


def test_names_that_need_care(names):
    assert str(inspect.signature(names.clash)) == (
        "(out_, lambda_, x1, x0, ctx, d, fn, lib, ND, *, out=None)"
    )
    # The C names of these are output_23, retries_24, int_, x_q, p_weird: the
    # manifest's weir_name gives the source names back.
    assert str(inspect.signature(names.prefixes)) == "(output, retries, int, x_q, weird)"
    # a tuple parameter is one argument per leaf
    assert str(inspect.signature(names.pair)) == "(p_0, p_1, v)"
    o, x1 = np.arange(3.0), np.full(3, 10.0)
    kw = dict(lambda_=2.0, x0=100.0, ctx=1000, d=0.5, fn=0.25, lib=0.125, ND=0.0625)
    want = o * 2.0 + x1 + 100.0 + 1000 + 0.5 + 0.25 + 0.125 + 0.0625
    np.testing.assert_array_equal(names.clash(o, x1=x1, **kw), want)
    np.testing.assert_array_equal(names.clash(out_=o, x1=x1, **kw), want)
    np.testing.assert_array_equal(names.clash(x1=x1, out_=o, **kw, out=np.empty(3)), want)
    np.testing.assert_array_equal(names.clash(o, 2.0, x1, 100.0, 1000, 0.5, 0.25, 0.125, 0.0625),
                                  want)
    # x1 and x0 given in the other order (the generated code's own names)
    r = names.clash(o, 2.0, x0=100.0, x1=x1, ctx=1000, d=0.5, fn=0.25, lib=0.125, ND=0.0625)
    np.testing.assert_array_equal(r, want)
    assert names.prefixes(weird=5.0, x_q=4.0, int=3.0, retries=2, output=1.0) == 15.0
    assert names.pair(p_1=2, p_0=0.5, v=[1.0, 2.0]) == 5.5
    with pytest.raises(weir.WeirTypeError, match="parameter `lambda_`"):
        names.clash(o, "no", x1, 0.0, 0, 0.0, 0.0, 0.0, 0.0)


def test_py_names():
    py = weir._lib._py_names
    # older manifests have C names only
    assert py([{"name": "a"}, {"name": "out_3"}, {"name": "int_"}]) == ["a", "out_3", "int_"]
    assert py([{"name": "p_weird", "weir_name": "weird"}, {"name": "x_q", "weir_name": "x'"}]) == [
        "weird", "x_q",
    ]
    assert py([{"name": "out_2", "weir_name": "out"}, {"name": "class", "weir_name": "class"},
               {"name": "a", "weir_name": "a"}, {"name": "a_", "weir_name": "a"}]) == [
        "out_", "class_", "a", "a_",
    ]
    assert py([{"name": "_x", "weir_name": "_x"}, {"name": "", "weir_name": "1"}]) == ["p_x", "x1"]


# ---------------------------------------------------------------------------
# The compiler installed with the package
# ---------------------------------------------------------------------------


def fake_install(tmp_path, exe_record="../../../bin/weir"):
    """A venv-like layout with the package `weir` installed from a wheel
    that carries the compiler: its RECORD lists weir/_build.py and the
    executable."""
    from importlib import metadata

    site = tmp_path / "lib" / "python3" / "site-packages"
    (site / "weir").mkdir(parents=True)
    (site / "weir" / "_build.py").write_text("")
    info = site / "weir-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: weir\nVersion: 0.1.0\n")
    (info / "RECORD").write_text(
        f"weir/_build.py,,\n{exe_record},,\nweir-0.1.0.dist-info/RECORD,,\n"
    )
    exe = tmp_path / "bin" / "weir"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\necho weir 0.0.0\n")
    exe.chmod(0o755)
    return metadata.PathDistribution(info), site / "weir", exe


def test_bundled_compiler_in(tmp_path):
    dist, pkg, exe = fake_install(tmp_path)
    found = weir._build.bundled_compiler_in(dist, str(pkg))
    assert found is not None and os.path.samefile(found, exe)
    # another copy of the package (e.g. the repository's python/ on the path)
    assert weir._build.bundled_compiler_in(dist, str(tmp_path)) is None
    exe.chmod(0o644)
    assert weir._build.bundled_compiler_in(dist, str(pkg)) is None


def test_bundled_compiler_not_in_a_pure_install(tmp_path):
    dist, pkg, _ = fake_install(tmp_path, exe_record="weir/__init__.py")
    assert weir._build.bundled_compiler_in(dist, str(pkg)) is None


def test_compiler_lookup_order(tmp_path, monkeypatch):
    def exe(name):
        p = tmp_path / name
        p.write_text("#!/bin/sh\n")
        p.chmod(0o755)
        return str(p)

    arg, env, bundled, on_path = exe("arg"), exe("env"), exe("bundled"), tmp_path / "p"
    on_path.mkdir()
    (on_path / "weir").write_text("#!/bin/sh\n")
    (on_path / "weir").chmod(0o755)
    monkeypatch.setenv("PATH", str(on_path))
    monkeypatch.setenv("WEIR", env)
    monkeypatch.setattr(weir._build, "_bundled", bundled)
    find = weir._build.find_compiler
    assert find(arg) == arg
    assert find() == env
    monkeypatch.delenv("WEIR")
    assert find() == bundled
    monkeypatch.setattr(weir._build, "_bundled", None)
    assert find() == str(on_path / "weir")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(weir.WeirCompilerNotFound, match="pip install ./python"):
        find()


def test_this_install_has_no_bundled_compiler_or_finds_it():
    # Under scripts/install-python.sh the package is imported from the
    # working tree: nothing bundled. From the wheel: the executable exists.
    b = weir._build.bundled_compiler()
    assert b is None or (os.access(b, os.X_OK) and pathlib.Path(b).name.startswith("weir"))
