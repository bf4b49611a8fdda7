"""Time the ADBench GMM objective (examples/gmm.weir) called from Python.

    WEIR=path/to/weir python/.venv/bin/python examples/embed/python/gmm_time.py [INSTANCE.in] [RUNS]

Default instance: examples/data/adbench/gmm_d10_K5.in (ADBench's 1k set: n =
1000 points, d = 10, K = 5), read from Weir's text value format. Prints the
median time per call through the binding (arguments already NumPy arrays) and
the `weir run --stats` command that times the same entry on the same input
from a compiled executable, for comparison (the difference is the binding's
per-call overhead, a few microseconds).
"""

import json
import os
import statistics
import sys
import time

import numpy as np

import weir

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
GMM = os.path.join(ROOT, "examples", "gmm.weir")
DEFAULT = os.path.join(ROOT, "examples", "data", "adbench", "gmm_d10_K5.in")


def read_values(path):
    """Numbers and nested arrays of numbers in Weir's text value format."""
    text = open(path).read()
    values, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
        elif text[i] == "[":
            depth, j = 0, i
            while True:
                depth += {"[": 1, "]": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            values.append(np.array(json.loads(text[i:j]), dtype=np.float64))
            i = j
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            tok = text[i:j]
            values.append(float(tok) if any(c in tok for c in ".eEn") else int(tok))
            i = j
    return values


def main():
    inst = sys.argv[1] if len(sys.argv) > 1 else DEFAULT
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    g = weir.load(GMM)
    args = read_values(inst)
    alphas, means, icf, x = args[:4]
    print(f"{os.path.relpath(inst, ROOT)}: K={means.shape[0]} d={means.shape[1]} n={x.shape[0]}")
    value = g.gmm_objective(*args)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        g.gmm_objective(*args)
        times.append(time.perf_counter_ns() - t0)
    med = statistics.median(times)
    print(f"objective {value!r}")
    print(f"Python (weir binding): median {med / 1e3:.1f} us per call over {runs} calls")
    out = os.path.splitext(inst)[0] + ".out"
    if os.path.exists(out):
        print(f"expected  {open(out).read().strip()}")
    print("compare with the compiled executable (ns_per_run on stderr):")
    print(f"  weir run --stats --runs {runs} -e gmm_objective {os.path.relpath(GMM, ROOT)} "
          f"{os.path.relpath(inst, ROOT)}")


if __name__ == "__main__":
    main()
