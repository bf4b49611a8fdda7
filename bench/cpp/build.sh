#!/bin/sh
# Builds the idiomatic C++ baselines into bench/cpp/build/.
#   CXX=clang++ ./build.sh        (default: c++)
#   ./build.sh gemm mm3           (only these programs)
set -eu
cd "$(dirname "$0")"
mkdir -p build
PROGRAMS=${*:-"add3 cross ba_project ba_objective gmm_objective ht gemm mm2 mm3 jacobi1d jacobi2d seidel2d scan histogram filter partition padstencil transposecat rotstencil nw lu trisolv"}
for X in $PROGRAMS; do
    ${CXX:-c++} -O3 -march=native -std=c++17 -Wall -Wextra -Werror -o build/$X $X.cpp
done
