#!/bin/sh
# Builds the C++/Eigen baselines into bench/eigen/build/.
#   CXX=clang++ ./build.sh                (default: c++)
#   EIGEN_INCLUDE=/path/to/eigen3 ./build.sh   (default: /usr/include/eigen3)
#   EIGEN_MARCH=x86-64-v3 ./build.sh      (-march=; default: native; any other
#                                          value builds into build/$EIGEN_MARCH/,
#                                          as `weir bench` builds eigen-v3 beside eigen)
#   ./build.sh gemm mm2                   (only these programs)
# Eigen's directory is passed with -isystem rather than -I: Eigen 3.4.0's own
# headers trip -Wunused-variable (AVX PacketMath.h, F32ToBf16) with g++ 12, and
# -Werror must apply to our code only.
set -eu
cd "$(dirname "$0")"
EIGEN_INCLUDE=${EIGEN_INCLUDE:-/usr/include/eigen3}
EIGEN_MARCH=${EIGEN_MARCH:-native}
case $EIGEN_MARCH in
    native) OUT=build ;;
    *[!A-Za-z0-9._-]*|'') echo "build.sh: EIGEN_MARCH=$EIGEN_MARCH is not a -march value" >&2; exit 2 ;;
    *) OUT=build/$EIGEN_MARCH ;;
esac
[ -f "$EIGEN_INCLUDE/Eigen/Core" ] || { echo "build.sh: Eigen 3 headers not found in $EIGEN_INCLUDE (apt install libeigen3-dev, or set EIGEN_INCLUDE)" >&2; exit 2; }
PROGS=${*:-add3 cross ba_project ba_objective gmm_objective ht gemm mm2 mm3 jacobi1d jacobi2d seidel2d padstencil transposecat rotstencil nw lu trisolv}
mkdir -p "$OUT"
for X in $PROGS; do
    ${CXX:-c++} -O3 -march="$EIGEN_MARCH" -std=c++17 -DNDEBUG -isystem "$EIGEN_INCLUDE" -Wall -Wextra -Werror \
        -o "$OUT/$X" $X.cpp
done
