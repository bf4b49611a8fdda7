"""Call Weir kernels from Python.

    import numpy as np, weir
    k = weir.load("examples/embed/kernels.weir")   # compiles with `weir lib`, cached
    k.add3(np.ones(3), np.ones(3), np.ones(3))     # array([3., 3., 3.])

``weir.load`` compiles a .weir file with the ``weir`` compiler into a cache
folder (once per source, compiler and options) and loads it with ctypes; every
entry point of the program becomes a function of the returned
:class:`Library`. Arguments are NumPy arrays of the entry's dtype and rank
(passed without a copy when C-contiguous) or Python values, positionally or
by their Weir names (``help(lib.add3)`` shows them); results are new
NumPy arrays (or ``out=`` arrays) and scalars. Errors raise subclasses of
:class:`WeirError`. See python/README.md.
"""

from ._errors import (
    WEIR_ERR_ARGUMENT,
    WEIR_ERR_NOMEM,
    WEIR_ERR_PROGRAM,
    WeirArgumentError,
    WeirBuildError,
    WeirCompilerNotFound,
    WeirError,
    WeirMemoryError,
    WeirProgramError,
    WeirShapeError,
    WeirTypeError,
)
from ._lib import Entry, Library, load, load_library

__version__ = "0.1.0"

__all__ = [
    "load",
    "load_library",
    "Library",
    "Entry",
    "WeirError",
    "WeirProgramError",
    "WeirArgumentError",
    "WeirMemoryError",
    "WeirTypeError",
    "WeirShapeError",
    "WeirBuildError",
    "WeirCompilerNotFound",
    "WEIR_ERR_PROGRAM",
    "WEIR_ERR_ARGUMENT",
    "WEIR_ERR_NOMEM",
]
