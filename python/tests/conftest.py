"""Fixtures of the binding's tests: the `weir` compiler ($WEIR, else the one
installed with the package, else `weir` on PATH; every test is skipped when
there is none), a cache folder of the
test session, and the libraries compiled from examples/embed/kernels.weir,
examples/gmm.weir, tests/extra.weir and tests/names.weir."""

import os

import pytest

import weir
import weir._build

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
KERNELS = os.path.join(ROOT, "examples", "embed", "kernels.weir")
GMM = os.path.join(ROOT, "examples", "gmm.weir")
BLOCKS = os.path.join(ROOT, "examples", "embed", "dask", "blocks.weir")
EXTRA = os.path.join(HERE, "extra.weir")
NAMES = os.path.join(HERE, "names.weir")
ADBENCH = os.path.join(ROOT, "examples", "data", "adbench")


@pytest.fixture(scope="session")
def weir_bin():
    # $WEIR, else the compiler installed with the package, else PATH
    try:
        return weir._build.find_compiler()
    except weir.WeirCompilerNotFound:
        pytest.skip("no Weir compiler: set $WEIR, install the wheel, or put `weir` on PATH")


@pytest.fixture(scope="session")
def cache(tmp_path_factory):
    return str(tmp_path_factory.mktemp("weir-cache"))


@pytest.fixture(scope="session")
def kernels(weir_bin, cache):
    return weir.load(KERNELS, weir=weir_bin, cache_dir=cache)


@pytest.fixture(scope="session")
def extra(weir_bin, cache):
    return weir.load(EXTRA, weir=weir_bin, cache_dir=cache)


@pytest.fixture(scope="session")
def names(weir_bin, cache):
    return weir.load(NAMES, weir=weir_bin, cache_dir=cache)


@pytest.fixture(scope="session")
def gmm(weir_bin, cache):
    return weir.load(GMM, weir=weir_bin, cache_dir=cache)


@pytest.fixture(scope="session")
def blocks(weir_bin, cache):
    return weir.load(BLOCKS, weir=weir_bin, cache_dir=cache)


def read_values(path):
    """The values of a file in Weir's text value format (only what the
    ADBench files use: numbers and nested arrays), as Python lists/numbers."""
    import json

    with open(path) as f:
        text = f.read()
    values, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == "[":
            depth, j = 0, i
            while True:
                depth += {"[": 1, "]": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            values.append(json.loads(text[i:j]))
            i = j
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            tok = text[i:j]
            values.append(float(tok) if any(c in tok for c in ".eEn") else int(tok))
            i = j
    return values
