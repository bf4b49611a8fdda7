"""Calling Weir kernels from Python (python/README.md has the whole story).

    scripts/install-python.sh
    WEIR=target/release/weir python/.venv/bin/python examples/embed/python/example.py

or, in an environment where `pip install ./python` installed the package with
its compiler, `python examples/embed/python/example.py` (no $WEIR needed).

weir.load compiles a .weir file with `weir lib` (once: the library is cached
under ~/.cache/weir/py, keyed by the source, the compiler and the options) and
returns a Library with one function per entry point.
"""

import inspect
import os

import numpy as np

import weir

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..")

k = weir.load(os.path.join(EXAMPLES, "embed", "kernels.weir"))
print(k)
print(k.add3.__doc__.splitlines()[0])  # the entry's Weir signature
print("add3", inspect.signature(k.add3))  # (a, b, c, *, out=None): help(k.add3) shows both

a, b, c = np.arange(4.0), np.full(4, 10.0), np.full(4, 100.0)
print("add3          ", k.add3(a, b, c))                  # a new array
out = np.empty(4)
k.add3(a, b, c, out=out)                                  # into an array of yours
print("add3 out=     ", out)
print("add3 keywords ", k.add3(c=c, a=a, b=b))           # the Weir parameter names

m = np.array([[1.0, 5.0, 2.0], [-1.0, -4.0, -2.0]])
sums, maxs = k.row_stats(m)                               # two results: a tuple
print("row_stats     ", sums, maxs)
print("row_stats(m.T)", *k.row_stats(m.T))                # strided: copied, then passed

kept, count = k.above(1.0, [0.5, 3.0, -1.0, 7.0, 2.0])    # size known after the call
print("above 1.0     ", kept, count)
print("count_true    ", k.count_true(np.array([True, False, True])))

# Errors are exceptions with the Weir source location.
try:
    k.add3(a, b[:3], c)
except weir.WeirArgumentError as e:
    print("error         ", type(e).__name__, "at", e.location, "--", e.message)
try:
    k.add3(a, b.astype(np.float32), c)
except weir.WeirTypeError as e:
    print("error         ", e)

# The ADBench GMM objective (examples/gmm.weir) on a random instance.
g = weir.load(os.path.join(EXAMPLES, "gmm.weir"))
rng = np.random.default_rng(0)
K, d, n = 5, 3, 100
alphas = rng.standard_normal(K)
means = rng.random((K, d))
icf = rng.standard_normal((K, d + d * (d - 1) // 2))
x = rng.standard_normal((n, d))
print("gmm_objective ", g.gmm_objective(alphas, means, icf, x, 1.0, 0))
