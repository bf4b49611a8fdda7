"""The cost of calling a Weir kernel from Python, in ns per call.

    WEIR=path/to/weir python/.venv/bin/python examples/embed/python/overhead.py

`nothing` (kernels.weir) is the empty entry (one f64 in, one out): what the
binding costs on top of a C call (ctypes, the thread's context, converting the
argument and the result). `add3` on 100 elements adds what an array entry
costs: checking three arrays, taking their addresses, the shape function,
allocating the result. Each number is the median over several timed loops of
many calls; compare with examples/embed/c (the same calls from C).
"""

import os
import statistics
import sys
import time

import numpy as np

import weir

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "..", "kernels.weir")


def ns_per_call(f, calls=20000, loops=7):
    f()  # warm up (context, caches)
    samples = []
    for _ in range(loops):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            f()
        samples.append((time.perf_counter_ns() - t0) / calls)
    return statistics.median(samples)


def main():
    k = weir.load(KERNELS)
    x = 1.5
    a, b, c = (np.random.default_rng(i).standard_normal(100) for i in range(3))
    out = np.empty(100)
    rows = [
        ("nothing(1.5)", lambda: k.nothing(x)),
        ("add3, 100 elements", lambda: k.add3(a, b, c)),
        ("add3, 100 elements, out=", lambda: k.add3(a, b, c, out=out)),
        ("NumPy a + b + c, 100 elements", lambda: a + b + c),
        ("empty Python call (baseline)", lambda: None),
    ]
    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}, {k.version and 'weir ' + k.version}")
    for label, f in rows:
        print(f"{label:34s} {ns_per_call(f):8.0f} ns/call")


if __name__ == "__main__":
    main()
