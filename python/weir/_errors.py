"""The exceptions of the Weir binding.

Errors reported by compiled Weir code (through the context, ``weir_error``)
are raised as a subclass of :class:`WeirError` chosen by the error's code;
errors the binding finds before calling (an argument of the wrong dtype or
rank) are :class:`WeirTypeError` and :class:`WeirShapeError`; a failed
compilation is :class:`WeirBuildError`.
"""

# The kinds of error of the C runtime (enum weir_error_code in weir.h).
WEIR_OK = 0
WEIR_ERR_PROGRAM = 1
WEIR_ERR_ARGUMENT = 2
WEIR_ERR_NOMEM = 3
WEIR_ERR_OPTIONS = 4


class WeirError(Exception):
    """An error of Weir code or of the binding.

    Attributes:
      code      the runtime's error code (1 program, 2 argument, 3 out of
                memory), or None for an error found by the binding itself;
      location  the Weir source location "path/file.weir:LINE:COL" ("" when
                the runtime knows none; None for the binding's own errors);
      message   the message without the location.
    ``str(e)`` is the full text, "LOCATION: message" for runtime errors.
    """

    def __init__(self, text, code=None, location=None, message=None):
        super().__init__(text)
        self.text = text
        self.code = code
        self.location = location
        self.message = text if message is None else message

    def __str__(self):
        return self.text

    def __reduce__(self):
        # Exceptions travel between processes (Dask ships a worker's
        # exception to the client): keep every attribute.
        return (type(self), (self.text, self.code, self.location, self.message))


class WeirProgramError(WeirError):
    """The Weir program failed: index out of bounds, negative size, division
    by zero, a failed assertion, ... (code 1)."""


class WeirArgumentError(WeirError, ValueError):
    """The caller's arrays do not fit the entry: arguments whose sizes
    disagree, a destination (``out=``) of the wrong dims, a destination
    overlapping an argument (code 2)."""


class WeirMemoryError(WeirError, MemoryError):
    """Out of memory, or a result too large for memory (code 3)."""


class WeirTypeError(WeirError, TypeError):
    """An argument of the wrong type: a NumPy array of another dtype than the
    parameter's, a float for an integer parameter, ... (found by the binding
    before the call)."""


class WeirShapeError(WeirError, ValueError):
    """An argument of the wrong rank, or an ``out=`` array that cannot be
    written in place (found by the binding before the call)."""


class WeirBuildError(WeirError):
    """Compiling the Weir source failed (the compiler's diagnostics are the
    message), or the compiled library could not be loaded."""


class WeirCompilerNotFound(WeirBuildError, FileNotFoundError):
    """No ``weir`` compiler was found."""


_BY_CODE = {
    WEIR_ERR_PROGRAM: WeirProgramError,
    WEIR_ERR_ARGUMENT: WeirArgumentError,
    WEIR_ERR_NOMEM: WeirMemoryError,
}


def error_from_runtime(code, text, location, message):
    """The exception for an error the runtime reported."""
    cls = _BY_CODE.get(code, WeirError)
    return cls(text, code, location, message)
