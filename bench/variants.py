#!/usr/bin/env python3
"""The ablation benchmark of dps-ftilde §5 (Figs. 10-11): for add3, cross, BA
(project and the objective), GMM and HT, every Weir variant (CL, CG, CLF, D, DF,
DFB, DFBs) beside the hand-written C in bench/handwritten/, on the same binary
inputs, run by run interleaved. Prints the median time per call, the min-max,
peak RSS, Weir's own peak heap/region bytes and system allocations per call in
the last call, and the ratio to hand-written C. Results are cross-checked against
the hand-written C before they are shown.

    python3 bench/variants.py            # default sizes (a few minutes)
    python3 bench/variants.py --reps 3 --quick
    python3 bench/variants.py --paper    # the paper's call counts (BA 1e7: slow; CL leaks GBs)

Needs: cargo (to build weir), cc, and libgc-dev for CG (scripts/install-c-tools.sh).
Not a test: timings are noisy on a shared 2-core machine; read the medians.
"""

import argparse
import os
import statistics
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAND = os.path.join(ROOT, "bench", "handwritten")
BUILD = os.path.join(ROOT, "bench", "build")
VARIANTS = ["CL", "CG", "CLF", "D", "DF", "DFB", "DFBs"]

# name, example file, entry, mkinput args, calls (default, paper), hand-written program
WORKLOADS = [
    ("add3 (n=100)", "add3.weir", "add3", ["add3", "--n", "100"], (1_000_000, 1_000_000), "add3"),
    ("cross", "cross.weir", "cross", ["cross"], (1_000_000, 1_000_000), "cross"),
    ("BA project", "ba.weir", "ba_project", ["ba_project"], (1_000_000, 10_000_000), "ba_project"),
    ("BA objective (10 cams, 200 pts, 1000 obs)", "ba.weir", "ba_objective",
     ["ba_objective", "--cams", "10", "--pts", "200", "--obs", "1000"], (1_000, 1_000), "ba_objective"),
    ("GMM objective (n=100, d=3, K=5)", "gmm.weir", "gmm_objective",
     ["gmm_objective", "--n", "100", "--d", "3", "--k", "5"], (10_000, 10_000), "gmm_objective"),
    ("HT angle_axis_to_rotation_matrix", "ht.weir", "angle_axis_to_rotation_matrix", ["ht"],
     (1_000_000, 1_000_000), "ht"),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def stats(stderr):
    for line in stderr.splitlines():
        if line.startswith("stats:"):
            d = {}
            for kv in line.split()[1:]:
                k, _, v = kv.partition("=")
                d[k] = float(v)
            return d
    raise RuntimeError("no stats line in: " + stderr)


def doubles(path):
    with open(path, "rb") as f:
        b = f.read()
    n = len(b) // 8
    return struct.unpack("<%dd" % n, b[: n * 8]), b


def same(a, b, tol=1e-9):
    (x, xb), (y, yb) = a, b
    if len(xb) != len(yb):
        return False
    for p, q in zip(x, y):
        if p != q and not (abs(p - q) <= tol * max(1.0, abs(p), abs(q))):
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5, help="timed runs per implementation (median)")
    ap.add_argument("--quick", action="store_true", help="a tenth of the calls")
    ap.add_argument("--paper", action="store_true", help="the paper's call counts")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    os.makedirs(BUILD, exist_ok=True)
    run(["cargo", "build", "--release", "-q", "-p", "weir-cli"], cwd=ROOT)
    weir = os.path.join(ROOT, "target", "release", "weir")
    run(["bash", os.path.join(HAND, "build.sh")], cwd=HAND)
    rows = []
    for (name, ex, entry, mk, calls, hand) in WORKLOADS:
        n = calls[1] if args.paper else calls[0]
        if args.quick:
            n = max(1, n // 10)
        inp = os.path.join(BUILD, entry + ".bin")
        run([sys.executable, os.path.join(HAND, "mkinput.py")] + mk + ["--seed", "1", "-o", inp])
        impls = [("hand-written C", [os.path.join(HAND, "build", hand)])]
        for v in variants:
            exe = os.path.join(BUILD, "%s_%s" % (entry, v))
            try:
                run([weir, "build", "--variant", v, os.path.join(ROOT, "examples", ex), "-o", exe])
            except subprocess.CalledProcessError as e:
                print("skipping %s %s: %s" % (name, v, e.stderr.strip()[:300]), file=sys.stderr)
                continue
            impls.append(("weir " + v, [exe, "-e", entry]))
        # Cross-check every implementation on one call.
        ref = None
        ok = {}
        for label, cmd in impls:
            out = os.path.join(BUILD, "%s.out" % label.replace(" ", "_"))
            run(cmd + ["--runs", "1", "--in", inp, "--out", out])
            val = doubles(out)
            if ref is None:
                ref = val
            ok[label] = same(val, ref)
            if not ok[label]:
                print("MISMATCH: %s %s differs from hand-written C" % (name, label), file=sys.stderr)
        times = {label: [] for label, _ in impls}
        last = {}
        for _ in range(args.reps):
            for label, cmd in impls:  # interleaved, run by run
                r = run(cmd + ["--runs", str(n), "--in", inp, "--out", os.devnull, "--stats"])
                s = stats(r.stderr)
                times[label].append(s["ns_per_run"])
                last[label] = s
        base = statistics.median(times["hand-written C"])
        for label, _ in impls:
            t = times[label]
            s = last[label]
            rows.append((name, label, statistics.median(t), min(t), max(t), s.get("peak_rss_kb", 0),
                         s.get("peak_bytes", 0), s.get("sys_allocs_last_run", s.get("sys_allocs", 0)),
                         statistics.median(t) / base, ok[label], n))
        print_rows(rows[-len(impls):])
    print()
    print("| workload | implementation | calls | median ns/call | min-max | peak RSS KiB | peak heap/region B | sys allocs in last call | vs hand C | agrees |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print("| %s | %s | %d | %.1f | %.1f-%.1f | %d | %d | %d | %.2f | %s |" % (
            r[0], r[1], r[10], r[2], r[3], r[4], r[5], r[6], r[7], r[8], "yes" if r[9] else "NO"))


def print_rows(rows):
    print("\n%s (%d calls per run)" % (rows[0][0], rows[0][10]))
    print("  %-16s %12s %22s %10s %12s %6s %8s" % ("impl", "median ns", "min-max", "RSS KiB", "heap B", "x hand", "agrees"))
    for r in rows:
        print("  %-16s %12.1f %10.1f-%-11.1f %10d %12d %6.2f %8s" % (
            r[1], r[2], r[3], r[4], r[5], r[6], r[8], "yes" if r[9] else "NO"))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
