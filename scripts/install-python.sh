#!/usr/bin/env bash
# Installs the Python binding of Weir (python/, import name `weir`) into a
# virtual environment at python/.venv, with pinned NumPy, Dask (distributed)
# and pytest, for the tests in python/tests and the examples under
# examples/embed/python and examples/embed/dask. Idempotent: an existing venv
# is reused and pip skips what is already installed; the package itself is
# reinstalled each time (it is small) so edits to python/weir are picked up.
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
"${pip[@]}" install --no-deps --force-reinstall "$root/python"
