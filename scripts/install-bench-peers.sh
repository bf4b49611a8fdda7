#!/usr/bin/env bash
# Installs the benchmark peers of `weir bench` (bench/README.md):
#   - apt: g++ and Eigen 3 (libeigen3-dev) for the C++ and Eigen baselines;
#   - a Python virtual environment in bench/.venv with NumPy, JAX (CPU) and Numba.
# The test suite never needs any of this; `weir bench` skips (and says so) the
# implementations whose peer is missing. Debian/Ubuntu; apt needs root or sudo.
# Usage: scripts/install-bench-peers.sh [--no-apt] [--no-python]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
do_apt=1
do_py=1
for a in "$@"; do
  case "$a" in
    --no-apt) do_apt=0 ;;
    --no-python) do_py=0 ;;
    *) echo "usage: $0 [--no-apt] [--no-python]" >&2; exit 2 ;;
  esac
done
if [ $do_apt -eq 1 ]; then
  need=()
  [ -e /usr/include/eigen3/Eigen/Dense ] || need+=(libeigen3-dev)
  command -v g++ >/dev/null 2>&1 || need+=(g++)
  [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
  command -v taskset >/dev/null 2>&1 || need+=(util-linux)
  command -v gcc >/dev/null 2>&1 || need+=(gcc)
  command -v python3 >/dev/null 2>&1 || need+=(python3)
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
  if [ ${#need[@]} -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi
if [ $do_py -eq 1 ]; then
  venv="$root/bench/.venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  # Pinned so results are comparable between runs; bump deliberately.
  "$venv/bin/python" -m pip install -q -r "$root/bench/requirements.txt"
  "$venv/bin/python" - <<'PY'
import numpy, numba, jax
print(f"numpy {numpy.__version__}, numba {numba.__version__}, jax {jax.__version__}")
PY
fi
