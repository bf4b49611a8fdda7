#!/bin/sh
# Cross-checks the hand-written C baselines against the Weir interpreter.
#
#   bench/handwritten/check.sh            (WEIR=path/to/weir to override the binary)
#
# For each benchmark and several generated inputs (mkinput.py, same seed in the
# binary and the text format) it runs the C program (--runs 1) and
# `weir run examples/X.weir -e ENTRY`, and compares with compare.py (Weir's
# test criterion, relative tolerance 1e-9).  It then runs the C programs on the
# ADBench instances under examples/data/adbench/ (converted with
# mkinput.py --from-text) and compares with their NumPy-computed .out files,
# and checks that mkinput.py --adbench builds the same instances from the
# ADBench text files in ../shared/data/adbench (skipped when that is absent).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WEIR=${WEIR:-$ROOT/target/release/weir}
PY=${PYTHON:-python3}
[ -x "$WEIR" ] || { echo "check.sh: no Weir binary at $WEIR (cargo build --release -p weir-cli)" >&2; exit 2; }

"$HERE/build.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

entry_of() {  # KIND -> "weir-file entry"
    case $1 in
        add3) echo "examples/add3.weir add3" ;;
        cross) echo "examples/cross.weir cross" ;;
        ba_project) echo "examples/ba.weir ba_project" ;;
        ba_objective) echo "examples/ba.weir ba_objective" ;;
        gmm_objective) echo "examples/gmm.weir gmm_objective" ;;
        ht) echo "examples/ht.weir angle_axis_to_rotation_matrix" ;;
        gemm) echo "examples/mm.weir gemm" ;;
        mm2) echo "examples/2mm.weir mm2" ;;
        mm3) echo "examples/3mm.weir mm3" ;;
        jacobi1d) echo "examples/jacobi1d.weir jacobi_1d" ;;
        jacobi2d) echo "examples/jacobi2d.weir jacobi_2d" ;;
        seidel2d) echo "examples/seidel2d.weir seidel_2d" ;;
        scan) echo "examples/scan.weir prefix_sum" ;;
        histogram) echo "examples/histogram.weir histogram" ;;
        filter) echo "examples/filter.weir positives" ;;
        partition) echo "examples/partition.weir partition3" ;;
        padstencil) echo "examples/pad_stencil.weir pad_stencil" ;;
        transposecat) echo "examples/transpose_cat.weir transpose_cat" ;;
        rotstencil) echo "examples/periodic_stencil.weir periodic_stencil" ;;
        nw) echo "examples/nw.weir nw" ;;
        lu) echo "examples/lu.weir lu" ;;
        trisolv) echo "examples/forward_subst.weir forward_subst" ;;
        pb_atax) echo "examples/polybench/atax.weir atax" ;;
        pb_bicg) echo "examples/polybench/bicg.weir bicg" ;;
        pb_gemver) echo "examples/polybench/gemver.weir gemver" ;;
        pb_gesummv) echo "examples/polybench/gesummv.weir gesummv" ;;
        pb_mvt) echo "examples/polybench/mvt.weir mvt" ;;
        pb_symm) echo "examples/polybench/symm.weir symm" ;;
        pb_syr2k) echo "examples/polybench/syr2k.weir syr2k" ;;
        pb_syrk) echo "examples/polybench/syrk.weir syrk" ;;
        pb_trmm) echo "examples/polybench/trmm.weir trmm" ;;
        pb_doitgen) echo "examples/polybench/doitgen.weir doitgen" ;;
        pb_cholesky) echo "examples/polybench/cholesky.weir cholesky" ;;
        pb_covariance) echo "examples/polybench/covariance.weir covariance" ;;
        pb_correlation) echo "examples/polybench/correlation.weir correlation" ;;
        pb_fdtd2d) echo "examples/polybench/fdtd2d.weir fdtd_2d" ;;
        pb_heat3d) echo "examples/polybench/heat3d.weir heat_3d" ;;
        pb_adi) echo "examples/polybench/adi.weir adi" ;;
        pb_floyd_warshall) echo "examples/polybench/floyd_warshall.weir floyd_warshall" ;;
        pb_durbin) echo "examples/polybench/durbin.weir durbin" ;;
        pb_gramschmidt) echo "examples/polybench/gramschmidt.weir gramschmidt" ;;
        pb_ludcmp) echo "examples/polybench/ludcmp.weir ludcmp" ;;
        pb_nussinov) echo "examples/polybench/nussinov.weir nussinov" ;;
        pb_deriche) echo "examples/polybench/deriche.weir deriche" ;;
    esac
}

# one case: KIND [mkinput options...]
check_case() {
    kind=$1; shift
    set -- $(entry_of "$kind") "$@"
    file=$1; entry=$2; shift 2
    "$PY" "$HERE/mkinput.py" "$kind" "$@" -o "$TMP/in.bin"
    "$PY" "$HERE/mkinput.py" --text "$kind" "$@" -o "$TMP/in.txt"
    "$HERE/build/$kind" --runs 1 --in "$TMP/in.bin" --out "$TMP/c.bin"
    (cd "$ROOT" && "$WEIR" run --color never "$file" -e "$entry" "$TMP/in.txt") > "$TMP/weir.txt"
    printf '%-48s ' "$kind $*"
    "$PY" "$HERE/compare.py" "$kind" "$TMP/c.bin" "$TMP/weir.txt" || fail=1
}

# one ADBench instance: KIND NAME (examples/data/adbench/NAME.{in,out})
check_data() {
    kind=$1; name=$2
    d=$ROOT/examples/data/adbench
    "$PY" "$HERE/mkinput.py" "$kind" --from-text "$d/$name.in" -o "$TMP/in.bin"
    "$HERE/build/$kind" --runs 1 --in "$TMP/in.bin" --out "$TMP/c.bin"
    printf '%-48s ' "$kind adbench/$name (NumPy .out)"
    "$PY" "$HERE/compare.py" "$kind" "$TMP/c.bin" "$d/$name.out" || fail=1
    set -- $(entry_of "$kind")
    (cd "$ROOT" && "$WEIR" run --color never "$1" -e "$2" "$d/$name.in") > "$TMP/weir.txt"
    printf '%-48s ' "$kind adbench/$name (weir run)"
    "$PY" "$HERE/compare.py" "$kind" "$TMP/c.bin" "$TMP/weir.txt" || fail=1
}

for s in 1 2 3; do check_case add3 --n 100 --seed $s; done
check_case add3 --n 0
check_case add3 --n 1000 --seed 4
for s in 1 2 3 4 5; do check_case cross --seed $s; done
for s in 1 2 3 4 5; do check_case ht --seed $s; done
for s in 1 2 3 4 5; do check_case ba_project --seed $s; done
check_case ba_objective --cams 3 --pts 5 --obs 10 --seed 1
check_case ba_objective --cams 4 --pts 20 --obs 50 --seed 2 --obs-pattern random
check_case ba_objective --cams 10 --pts 200 --obs 1000 --seed 3
check_case gmm_objective --n 100 --d 3 --k 5 --seed 1
check_case gmm_objective --n 10 --d 1 --k 1 --seed 2
check_case gmm_objective --n 50 --d 10 --k 7 --seed 3 --gamma 0.7 --m 2
check_case gmm_objective --n 200 --d 20 --k 10 --seed 4 --gamma 1.3 --m 1

# PolyBench kernels: the PolyBench inputs (--size) and sizes that leave partial
# blocks in the blocked matrix products (--dims)
for k in gemm mm2 mm3 jacobi1d jacobi2d seidel2d; do
    check_case $k --size MINI
    check_case $k --size SMALL
done
check_case gemm --dims 130,260,150
check_case mm2 --dims 20,140,130,270
check_case mm3 --dims 20,140,130,270,30
check_case jacobi1d --dims 3,2
check_case jacobi2d --dims 0,5
check_case seidel2d --dims 2,3

# scan and histogram (about 1% of the generated indices are out of range)
for s in 1 2 3; do check_case scan --n 1000 --seed $s; done
check_case scan --n 0
check_case histogram --n 1000 --bins 10 --seed 1
check_case histogram --n 5000 --bins 1000 --seed 2
check_case histogram --n 0 --bins 5
check_case histogram --n 10 --bins 0 --seed 3

# filter (standard normal values: about half of them kept)
for s in 1 2 3; do check_case filter --n 1000 --seed $s; done
check_case filter --n 0
check_case filter --n 1 --seed 4

# partition (standard normal values: about 31%, 38% and 31% in the three parts)
for s in 1 2 3; do check_case partition --n 1000 --seed $s; done
check_case partition --n 0
check_case partition --n 1 --seed 4

# pad then stencil (n = 0, 1, 2: the peeled first and last elements), and
# transpose then concatenate (sizes that leave partial 64 x 64 tiles, empty
# parts; not n = 0 with m > 0: Weir's text `[]` for a gives m = 0)
for s in 1 2 3; do check_case padstencil --n 1000 --seed $s; done
for n in 0 1 2; do check_case padstencil --n $n --seed 4; done
check_case transposecat --n 70 --m 45 --k 9 --seed 1
check_case transposecat --n 130 --m 64 --k 1 --seed 2
check_case transposecat --n 5 --m 0 --k 3 --seed 3
check_case transposecat --n 3 --m 4 --k 0 --seed 4

# the stencil on a ring (n = 0, 1, 2, 3: the peeled ends meet or overlap)
for s in 1 2 3; do check_case rotstencil --n 1000 --seed $s; done
for n in 0 1 2 3; do check_case rotstencil --n $n --seed 4; done

# Needleman-Wunsch (n = 0: a 1 x 1 matrix), LU and forward substitution
# (PolyBench's inputs, and sizes 1 and 2)
for s in 1 2; do check_case nw --n 63 --seed $s; done
check_case nw --n 130 --penalty 3 --seed 3
for n in 0 1; do check_case nw --n $n --seed 4; done
for k in lu trisolv; do
    check_case $k --size MINI
    check_case $k --size SMALL
    check_case $k --dims 1
    check_case $k --dims 2
done

# PolyBench/C 4.2.1 linear algebra (examples/polybench/): PolyBench's inputs,
# small --dims, and the C against the oracle's .out files
# (tools/oracles/polybench_more.py)
for k in atax bicg gemver gesummv mvt symm syr2k syrk trmm doitgen cholesky; do
    check_case pb_$k --size MINI
    check_case pb_$k --size SMALL
done
for k in atax bicg symm syr2k syrk trmm; do check_case pb_$k --dims 1,1; check_case pb_$k --dims 3,2; done
for k in gemver gesummv mvt cholesky; do check_case pb_$k --dims 1; check_case pb_$k --dims 3; done
check_case pb_doitgen --dims 1,1,1
check_case pb_doitgen --dims 3,2,5

# PolyBench/C 4.2.1 data mining, solvers, medley and stencils
# (examples/polybench/): PolyBench's inputs and small --dims
PB_MORE="covariance correlation fdtd2d heat3d adi floyd_warshall durbin gramschmidt ludcmp nussinov deriche"
for k in $PB_MORE; do
    check_case pb_$k --size MINI
    check_case pb_$k --size SMALL
done
for d in 3,2 1,3; do check_case pb_covariance --dims $d; check_case pb_correlation --dims $d; done
for d in 1,1,1 3,2,5; do check_case pb_fdtd2d --dims $d; done
for d in 0,4 2,3; do check_case pb_heat3d --dims $d; check_case pb_adi --dims $d; done
for d in 1 3; do for k in floyd_warshall durbin ludcmp; do check_case pb_$k --dims $d; done; done
for d in 1,1 3,2; do check_case pb_gramschmidt --dims $d; done
for d in 1 4; do check_case pb_nussinov --dims $d; done
for d in 1,1 3,5; do check_case pb_deriche --dims $d; done

# hand-made edge cases (text inputs, converted to binary)
edge() {  # KIND "text values"
    kind=$1
    printf '%s\n' "$2" > "$TMP/in.txt"
    set -- $(entry_of "$kind")
    "$PY" "$HERE/mkinput.py" "$kind" --from-text "$TMP/in.txt" -o "$TMP/in.bin"
    "$HERE/build/$kind" --runs 1 --in "$TMP/in.bin" --out "$TMP/c.bin"
    (cd "$ROOT" && "$WEIR" run --color never "$1" -e "$2" "$TMP/in.txt") > "$TMP/weir.txt"
    printf '%-48s ' "$kind (edge case)"
    "$PY" "$HERE/compare.py" "$kind" "$TMP/c.bin" "$TMP/weir.txt" || fail=1
}
edge ht '[0.0, 0.0, 0.0]'
edge ht '[3e-05, -4e-05, 5e-05]'
edge ht '[0.0001, -0.0001, 5e-05]'
edge ba_project '[0.0, 0.0, 0.0, -1.0, 0.5, -6.5, 300.0, 0.0, 0.0, -0.05, 0.003] [0.5, -0.25, 1.0]'
edge gemm '2.0 3.0 [[1.0, -0.0]] [[0.5]] [[4.0, 0.25]]'
edge jacobi1d '4 [1.0] [2.0]'
edge ba_project '[1e-170, 0.0, 0.0, -1.0, 0.5, -6.5, 300.0, 0.0, 0.0, -0.05, 0.003] [0.5, -0.25, 1.0]'
edge scan '[1e16, 1.0, 1.0, -1e16, 0.1, 0.2]'
edge histogram '3 [0, -9223372036854775807, 9223372036854775807, 2, 2, 3, -1]'
edge filter '[0.0, -0.0, nan, inf, -inf, 5e-324, -5e-324, -1.0, 2.0, nan]'
edge filter '[-1.0, -2.0]'
edge partition '[-0.5, 0.5, -0.0, 0.0, nan, inf, -inf, -0.5000000000000001, 0.49999999999999994, nan]'
edge partition '[-1.0, -2.0]'
edge partition '[0.0, 0.25]'
edge partition '[2.0, nan]'
edge padstencil '[1.0, 1e16, -1e16]'
edge padstencil '[-0.0]'
edge padstencil '[-0.0, -0.0, -0.0]'
edge padstencil '[inf, -inf, nan, 1.0]'
edge rotstencil '[1.0, 1e16, -1e16]'
edge rotstencil '[-0.0]'
edge rotstencil '[inf, -inf, nan, 1.0]'
edge nw '10 []'
edge nw '0 [[0, 0, 0], [0, -9223372036854775807, 3], [0, 2, 9223372036854775807]]'
edge lu '[]'
edge lu '[[4.0, 3.0], [6.0, 3.0]]'
edge lu '[[0.0, 1.0], [1.0, 1.0]]'
edge trisolv '[] []'
edge trisolv '[[2.0, 7.5], [1.0, -0.0]] [1.0, 2.0]'

# the in-place examples' fixed-seed cases against their NumPy oracle's .out
# files (tools/oracles/inplace.py)
check_example() {  # KIND NAME (examples/data/NAME.{in,out})
    kind=$1; name=$2
    d=$ROOT/examples/data
    "$PY" "$HERE/mkinput.py" "$kind" --from-text "$d/$name.in" -o "$TMP/in.bin"
    "$HERE/build/$kind" --runs 1 --in "$TMP/in.bin" --out "$TMP/c.bin"
    printf '%-48s ' "$kind $name (oracle .out)"
    "$PY" "$HERE/compare.py" "$kind" "$TMP/c.bin" "$d/$name.out" || fail=1
}
check_example nw nw_64
check_example lu lu_64
check_example lu lu_small
check_example trisolv forward_subst_64
check_example trisolv forward_subst_small
for k in atax bicg gemver gesummv mvt symm syr2k syrk trmm doitgen cholesky; do
    check_example pb_$k polybench/${k}_mini
    check_example pb_$k polybench/${k}_small
done
for k in $PB_MORE; do
    check_example pb_$k polybench/${k}_mini
    check_example pb_$k polybench/${k}_small
done

check_data gmm_objective gmm_test
check_data gmm_objective gmm_d2_K5
check_data gmm_objective gmm_d10_K5
check_data ba_objective ba_test
check_data ba_objective ba1_n49_m7776_p31843

# mkinput.py --adbench reads the ADBench text files into the same instance as
# examples/data/adbench/*.in (which came from `weir adbench`): same bytes
SHARED=$ROOT/../shared/data/adbench
if [ -d "$SHARED" ]; then
    for pair in "gmm_objective gmm/test.txt gmm_test" "gmm_objective gmm/1k/gmm_d10_K5.txt gmm_d10_K5" \
                "ba_objective ba/test.txt ba_test" "ba_objective ba/ba1_n49_m7776_p31843.txt ba1_n49_m7776_p31843"; do
        set -- $pair
        "$PY" "$HERE/mkinput.py" "$1" --adbench "$SHARED/$2" -o "$TMP/a.bin"
        "$PY" "$HERE/mkinput.py" "$1" --from-text "$ROOT/examples/data/adbench/$3.in" -o "$TMP/b.bin"
        printf '%-48s ' "$1 --adbench $2"
        if cmp -s "$TMP/a.bin" "$TMP/b.bin"; then echo "same bytes as $3.in"; else echo "FAIL: differs from $3.in"; fail=1; fi
    done
else
    echo "(skipped the --adbench checks: no $SHARED)"
fi

if [ $fail -ne 0 ]; then echo "check.sh: FAILURES" >&2; exit 1; fi
echo "check.sh: all agree"
