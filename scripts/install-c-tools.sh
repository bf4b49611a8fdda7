#!/usr/bin/env bash
# The C tools the test suite uses beside gcc: clang (the generated C must compile
# warning-free under both), libgc-dev (Boehm GC, for the CG ablation variant) and
# valgrind (memcheck of compiled examples), and fonts-dejavu-core (the text of
# `weir bench`'s figures). Debian/Ubuntu: apt-get, non-interactive, as root or
# with sudo. Tests whose tool is missing are reported as ignored, except under
# CI=true, where they fail (.ci/run runs this script first).
set -euo pipefail
need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
[ -e /usr/include/gc.h ] || need+=(libgc-dev)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v gcc >/dev/null 2>&1 || need+=(gcc)
# a TrueType font for the figures of `weir bench` (its test draws them)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-c-tools.sh: missing ${need[*]}, and no apt-get here: install them with your system's package manager" >&2
  exit 1
fi
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-c-tools.sh: missing ${need[*]}: run this script as root (no sudo here)" >&2
    exit 1
  fi
  SUDO=(sudo -E)
fi
echo "install-c-tools.sh: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
# What the tests check for themselves: each tool runs, and a Boehm GC program links.
missing=()
command -v clang >/dev/null 2>&1 || missing+=(clang)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <gc.h>\nint main(void) { GC_INIT(); return 0; }\n' >"$probe/gc.c"
"${CC:-cc}" "$probe/gc.c" -o "$probe/gc" -lgc >/dev/null 2>&1 || missing+=(libgc-dev)
if [ ${#missing[@]} -ne 0 ]; then
  echo "install-c-tools.sh: still missing after apt-get: ${missing[*]}" >&2
  exit 1
fi
