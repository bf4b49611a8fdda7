#!/usr/bin/env bash
# Builds the wheel of the Python package `weir` with the Weir compiler in it
# (python/pyproject.toml, maturin with `bindings = "bin"`):
#   target/wheels/weir-VERSION-py3-none-PLATFORM.whl
# `pip install` of that wheel gives `import weir` and the `weir` command in
# the environment's bin/ (which the package finds by itself). pip fetches
# maturin from PyPI (build isolation); cargo builds the compiler in release
# mode into target/ with the workspace's Cargo.lock (--locked), so a
# target/release that is up to date is reused.
#   scripts/build-wheel.sh [OUT_DIR]     # default: target/wheels
# Needs python3 (>= 3.9, with pip), cargo, and network access to PyPI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/target/wheels}"
py="${PYTHON:-python3}"
mkdir -p "$out"
"$py" -m pip wheel --no-deps --disable-pip-version-check -q -w "$out" "$root/python"
ls "$out"/weir-*.whl
