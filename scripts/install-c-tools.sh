#!/usr/bin/env bash
# The C tools the test suite uses beside gcc: clang (the generated C must compile
# warning-free under both), libgc-dev (Boehm GC, for the CG ablation variant) and
# valgrind (memcheck of compiled examples), and fonts-dejavu-core (the text of
# `weir bench`'s figures). Debian/Ubuntu; needs root or sudo.
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
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${need[@]}" >/dev/null
