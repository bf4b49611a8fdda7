#!/usr/bin/env bash
# Runs the README's test command N times in a row (default 10) under load, to
# find tests that fail only when the machine is busy or when their threads
# race: LOAD busy processes (default: one per core) compete with the tests the
# whole time. Each run's output goes to DIR/run-K.log; a summary line per run
# (exit status, seconds, the failing tests) goes to DIR/summary.txt.
#   bash scripts/flake-hunt.sh [N] [DIR]        # LOAD=0 for no extra load
# The first run builds what is missing (its time includes the build); run it
# in a fresh clone (`git clone . /tmp/x`) to test what CI tests, after the
# README's set-up line (the Python tests need python/.venv).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n="${1:-10}"
out="${2:-$root/target/flake-hunt}"
load="${LOAD:-$(nproc)}"
if [ ! -x "$root/python/.venv/bin/python" ]; then
  echo "flake-hunt: run the README's set-up line first (bash scripts/install-c-tools.sh && bash scripts/install-python.sh)" >&2
  exit 2
fi
mkdir -p "$out"
: > "$out/summary.txt"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
}
trap cleanup EXIT
for _ in $(seq 1 "$load"); do
  (while :; do :; done) &
  pids+=($!)
done
export CI="${CI:-true}"
cd "$root"
fails=0
for k in $(seq 1 "$n"); do
  t0=$(date +%s)
  cargo test --workspace --no-fail-fast > "$out/run-$k.log" 2>&1
  rc=$?
  t1=$(date +%s)
  failed=$(grep -E '^test .* FAILED$|^    [^ ].* \(line [0-9]+\)$|^error: test failed' "$out/run-$k.log" | tr '\n' ' ')
  line="run $k: rc=$rc $((t1 - t0)) s ${failed}"
  echo "$line" | tee -a "$out/summary.txt"
  [ "$rc" -eq 0 ] || fails=$((fails + 1))
done
echo "$fails of $n runs failed (load: $load busy processes; logs in $out)" | tee -a "$out/summary.txt"
[ "$fails" -eq 0 ]
