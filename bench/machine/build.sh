#!/bin/sh
# Builds the machine-limit probes into bench/machine/build/.
#   CC=clang ./build.sh        (default: cc)
set -eu
cd "$(dirname "$0")"
mkdir -p build
for X in stream peakflops; do
    ${CC:-cc} -O3 -march=native -std=c11 -Wall -Wextra -Werror -o build/$X $X.c -lm
done
