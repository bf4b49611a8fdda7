#!/bin/sh
# Builds the hand-written C baselines into bench/handwritten/build/.
#   CC=clang ./build.sh        (default: cc)
set -eu
cd "$(dirname "$0")"
mkdir -p build
for X in add3 cross ba_project ba_objective gmm_objective ht gemm mm2 mm3 jacobi1d jacobi2d seidel2d scan histogram filter partition padstencil transposecat rotstencil nw lu trisolv; do
    ${CC:-cc} -O3 -march=native -std=c11 -Wall -Wextra -Werror -o build/$X $X.c -lm
done
