#!/usr/bin/env bash
# Installs the Python binding of Weir (python/, import name `weir`) into a
# virtual environment at python/.venv, with pinned NumPy, Dask (distributed)
# and pytest, for the tests in python/tests and the examples under
# examples/embed/python and examples/embed/dask. Idempotent: an existing venv
# is reused and pip skips what is already installed.
#
# This is the repository's fast path (CI runs it every time): the package is
# not built with its build backend (maturin, which compiles the `weir`
# compiler in release mode, minutes on a small machine), but made importable
# from the working tree with a .pth file in the venv, so edits to
# python/weir are picked up and the tests use the compiler cargo built
# ($WEIR). A Python user installs package and compiler with one command,
# `pip install ./python` (see python/README.md); scripts/build-wheel.sh
# builds that wheel.
# Needs python3 with the venv module (CPython >= 3.9) and network access to PyPI.
#   scripts/install-python.sh            # then:
#   WEIR=target/release/weir python/.venv/bin/python -m pytest -q python/tests
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/python/.venv"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install \
  "numpy==2.4.6" \
  "dask[distributed]==2026.8.0" \
  "pytest==9.2.0"
# An installed copy of the package (an earlier version of this script, or
# a wheel) would come first on sys.path: remove it.
if "$venv/bin/python" -m pip --disable-pip-version-check show -q weir >/dev/null 2>&1; then
  "${pip[@]}" uninstall -y weir
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
printf '%s\n' "$root/python" > "$site/weir-source.pth"
"$venv/bin/python" -c 'import weir'
