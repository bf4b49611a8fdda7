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
# mkinput.py --from-text) and compares with their NumPy-computed .out files.
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
edge ba_project '[1e-170, 0.0, 0.0, -1.0, 0.5, -6.5, 300.0, 0.0, 0.0, -0.05, 0.003] [0.5, -0.25, 1.0]'

check_data gmm_objective gmm_test
check_data gmm_objective gmm_d2_K5
check_data gmm_objective gmm_d10_K5
check_data ba_objective ba_test
check_data ba_objective ba1_n49_m7776_p31843

if [ $fail -ne 0 ]; then echo "check.sh: FAILURES" >&2; exit 1; fi
echo "check.sh: all agree"
