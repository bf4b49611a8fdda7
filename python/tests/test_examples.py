"""The user-facing scripts of examples/embed run as a user runs them (a
subprocess with $WEIR set), so that CI runs them: example.py (kernels.weir and
gmm.weir from Python) and the Dask example map_blocks.py (two worker
processes, checked against NumPy inside the script)."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT


def run_script(path, weir_bin, cache, timeout=120):
    env = dict(os.environ, WEIR=weir_bin, WEIR_CACHE=cache)
    return subprocess.run([sys.executable, path], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_example_script(weir_bin, cache):
    r = run_script(os.path.join(ROOT, "examples", "embed", "python", "example.py"), weir_bin, cache)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "[110. 111. 112. 113.]" in r.stdout, r.stdout
    assert "WeirArgumentError at" in r.stdout and "kernels.weir:" in r.stdout
    assert "gmm_objective" in r.stdout


def test_dask_example_script(weir_bin, cache):
    pytest.importorskip("distributed")
    r = run_script(os.path.join(ROOT, "examples", "embed", "dask", "map_blocks.py"), weir_bin, cache,
                   timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
