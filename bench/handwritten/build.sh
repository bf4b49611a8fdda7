#!/bin/sh
# Builds the hand-written C baselines into bench/handwritten/build/.
#   CC=clang ./build.sh        (default: cc)
set -eu
cd "$(dirname "$0")"
mkdir -p build
for X in add3 cross ba_project ba_objective gmm_objective ht gemm mm2 mm3 jacobi1d jacobi2d seidel2d scan histogram filter partition padstencil transposecat rotstencil nw lu trisolv pb_atax pb_bicg pb_gemver pb_gesummv pb_mvt pb_symm pb_syr2k pb_syrk pb_trmm pb_doitgen pb_cholesky pb_covariance pb_correlation pb_fdtd2d pb_heat3d pb_adi pb_floyd_warshall pb_durbin pb_gramschmidt pb_ludcmp pb_nussinov pb_deriche; do
    ${CC:-cc} -O3 -march=native -std=c11 -Wall -Wextra -Werror -o build/$X $X.c -lm
done
