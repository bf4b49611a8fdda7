"""Loading a compiled Weir library with ctypes and calling its entries.

One :class:`Library` per loaded library; each entry becomes a Python function
(``lib.add3``, ``lib["add3"]``) made once from the manifest (``NAME.json``),
with the entry's parameter names (positional or keyword arguments; see
``_py_names``) and a docstring that starts with its Weir signature,
with the ctypes argument and result types fixed up front, so that a call does
only the work its arguments need: convert or check each argument, ask the
shape function for the result dims, allocate the results, call.
"""

import ctypes
import json
import keyword
import os
import re
import threading
import weakref

import numpy as np

from . import _build
from ._errors import (
    WEIR_ERR_ARGUMENT,
    WEIR_ERR_NOMEM,
    WeirArgumentError,
    WeirBuildError,
    WeirError,
    WeirMemoryError,
    WeirShapeError,
    WeirTypeError,
    error_from_runtime,
)

# elem -> (NumPy dtype, ctypes type)
ELEMS = {
    "f64": (np.dtype(np.float64), ctypes.c_double),
    "f32": (np.dtype(np.float32), ctypes.c_float),
    "i64": (np.dtype(np.int64), ctypes.c_int64),
    "i32": (np.dtype(np.int32), ctypes.c_int32),
    "i16": (np.dtype(np.int16), ctypes.c_int16),
    "i8": (np.dtype(np.int8), ctypes.c_int8),
    "u64": (np.dtype(np.uint64), ctypes.c_uint64),
    "u32": (np.dtype(np.uint32), ctypes.c_uint32),
    "u16": (np.dtype(np.uint16), ctypes.c_uint16),
    "u8": (np.dtype(np.uint8), ctypes.c_uint8),
    "bool": (np.dtype(np.bool_), ctypes.c_bool),
}

# How many times a call is retried with the rows the runtime asks for
# (results of data-dependent size without a bound; one such result per call).
MAX_RETRIES = 8

_c_void_p = ctypes.c_void_p
_c_int64 = ctypes.c_int64
_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof
_byref = ctypes.byref
_ndarray = np.ndarray
_empty = np.empty
_ascontiguousarray = np.ascontiguousarray


def _ptr(a):
    """The address of a C-contiguous array's first element. ctypes'
    from_buffer is several times cheaper than ``a.ctypes.data``; it needs a
    writeable, non-empty buffer, else the slow way."""
    try:
        return _addressof(_from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


# ---------------------------------------------------------------------------
# Converting arguments
# ---------------------------------------------------------------------------

# The ranges of the integer types.
INT_RANGES = {
    f"{s}{w}": ((-(2 ** (w - 1)), 2 ** (w - 1) - 1) if s == "i" else (0, 2**w - 1))
    for s in "iu"
    for w in (8, 16, 32, 64)
}


def _describe(x):
    if isinstance(x, np.ndarray):
        return f"an array of {x.dtype}" if x.ndim else f"a 0-d array of {x.dtype}"
    if isinstance(x, np.generic):
        return f"a NumPy {x.dtype} scalar"
    return f"a Python {type(x).__name__}"


def _scalar_converter(entry, pname, elem):
    """A function converting a Python or NumPy scalar to the C value of a
    scalar parameter of type ``elem`` (raising WeirTypeError)."""
    dtype = ELEMS[elem][0]
    where = f"{entry}: parameter `{pname}`"

    def bad(x, why=""):
        return WeirTypeError(f"{where} expects {elem} (NumPy {dtype}), got {_describe(x)}{why}")

    def kind_of(x):
        if isinstance(x, (bool, np.bool_)):
            return "b"
        if isinstance(x, (int, np.integer)):
            return "i"
        if isinstance(x, (float, np.floating)):
            return "f"
        if isinstance(x, np.ndarray) and x.ndim == 0:
            if x.dtype != dtype:
                raise bad(x)
            return "a"
        if isinstance(x, np.ndarray):
            raise WeirShapeError(f"{where} expects a scalar ({elem}), got a {x.ndim}-d array")
        raise bad(x)

    if elem in ("f64", "f32"):

        def conv(x):
            if type(x) is float:
                return x
            k = kind_of(x)
            if k in "ifa":
                return float(x)
            raise bad(x)

    elif elem in INT_RANGES:
        lo, hi = INT_RANGES[elem]

        def conv(x):
            if type(x) is int and lo <= x <= hi:
                return x
            k = kind_of(x)
            if k not in "ia":
                raise bad(x, " (a float is not converted to an integer)" if k == "f" else "")
            v = int(x)
            if not lo <= v <= hi:
                raise WeirTypeError(f"{where} expects {elem}, got {v}, out of its range")
            return v

    else:

        def conv(x):
            if type(x) is bool:
                return x
            k = kind_of(x)
            if k in "ba":
                return bool(x)
            raise bad(x)

    return conv


def _array_converter(entry, pname, elem, rank):
    """A function returning a C-contiguous array of dtype ``elem`` and rank
    ``rank`` for an argument: the argument itself when it is one already,
    a contiguous copy of a NumPy array of that dtype, a conversion of a list."""
    dtype = ELEMS[elem][0]
    where = f"{entry}: parameter `{pname}`"

    def wrong_rank(a):
        return WeirShapeError(
            f"{where} expects a {rank}-d array of {elem}, got a {a.ndim}-d array of shape {a.shape}"
        )

    def convert_other(x):
        # Lists, tuples, scalars, other array-likes: converted with the
        # parameter's dtype, refusing to turn floats into integers or
        # numbers into booleans.
        try:
            a = np.asarray(x)
        except ValueError as e:
            raise WeirShapeError(f"{where}: cannot make an array of {elem} from the argument: {e}")
        if a.dtype != dtype:
            k = a.dtype.kind
            ok = a.size == 0 or (
                (dtype.kind == "f" and k in "iuf")
                or (dtype.kind in "iu" and k in "iu")
                or (dtype.kind == "b" and k == "b")
            )
            if not ok:
                raise WeirTypeError(
                    f"{where} expects {elem} (NumPy {dtype}), got {_describe(x)} "
                    f"converting to {a.dtype}"
                )
            try:
                a = np.asarray(x, dtype=dtype) if a.dtype.kind != "O" else a.astype(dtype)
            except (OverflowError, ValueError, TypeError) as e:
                raise WeirTypeError(f"{where}: cannot convert the argument to {elem}: {e}")
        if a.ndim != rank:
            raise wrong_rank(a)
        return _ascontiguousarray(a)

    def conv(x):
        if isinstance(x, _ndarray):
            if x.dtype is not dtype and x.dtype != dtype:
                raise WeirTypeError(
                    f"{where} expects an array of {elem} (NumPy {dtype}), got an array of {x.dtype}"
                )
            if x.ndim != rank:
                raise wrong_rank(x)
            if x.flags.c_contiguous:
                return x
            return _ascontiguousarray(x)
        return convert_other(x)

    return conv


# ---------------------------------------------------------------------------
# Contexts
# ---------------------------------------------------------------------------


class _Ctx:
    """A runtime context, freed with this object (when its thread ends or
    its Library is collected)."""

    __slots__ = ("ptr", "_free", "__weakref__")

    def __init__(self, new, free):
        p = new()
        if not p:
            raise WeirMemoryError("out of memory: weir_ctx_new failed", WEIR_ERR_NOMEM, "")
        self.ptr = p
        self._free = free

    def __del__(self):
        p, self.ptr = self.ptr, None
        if p:
            try:
                self._free(p)
            except Exception:  # interpreter shutdown
                pass


def _py_names(params):
    """The Python names of an entry's parameters: each one's Weir name
    (``weir_name`` in the manifest; a prime ``'`` spelled ``_q`` as in C),
    else its C name, else ``x<i>``; one that is a Python keyword, ``out``
    (the results' keyword) or taken by an earlier parameter gets a ``_``
    appended; one starting with ``_`` gets a ``p`` in front (names starting
    with ``_`` are the generated code's own)."""
    names = []
    for i, p in enumerate(params):
        name = None
        for cand in (p.get("weir_name"), p.get("name")):
            if cand:
                cand = cand.replace("'", "_q")
                if cand.isidentifier():
                    name = cand
                    break
        if name is None:
            name = f"x{i}"
        if name.startswith("_"):
            name = "p" + name
        while keyword.iskeyword(name) or name == "out" or name in names:
            name += "_"
        names.append(name)
    return names


def _elem_doc(elem, rank):
    dt = ELEMS[elem][0]
    if rank == 0:
        py = {"f64": "float", "i64": "int", "bool": "bool"}.get(elem)
        return f"{elem} scalar" + (f" ({py})" if py else f" (NumPy {dt})")
    return f"{rank}-d array of {elem} (NumPy {dt})"


def _docstring(e, names):
    """The docstring of entry ``e``: its Weir signature, then how Python
    calls it."""
    lines = [e.signature or f"entry {e.name}"]
    if names:
        lines.append("")
        lines.append("Arguments (positional or keyword):")
        w = max(len(n) for n in names)
        for n, p in zip(names, e.params):
            lines.append(f"  {n.ljust(w)}  {_elem_doc(p['elem'], p['rank'])}")
    res = []
    for r in e.results:
        if r["kind"] == "array":
            d = e.dests[r["dest"]]
            extra = ", size known after the call" if d.get("size_ret") is not None else ""
            res.append(_elem_doc(d["elem"], d["rank"]) + extra)
        else:
            res.append(_elem_doc(e.rets[r["ret"]], 0))
    lines.append("")
    if len(res) == 1:
        lines.append("Returns: " + res[0])
    elif res:
        lines.append("Returns a tuple:")
        lines += [f"  {x}" for x in res]
    if e.dests:
        lines.append("")
        lines.append("out=: an array (a tuple, one per array result) to write the array "
                     "results into.")
    if any(p["rank"] for p in e.params):
        lines.append("Sizes ([n]) are not passed: they come from the arrays.")
    return "\n".join(lines)


def _finish(f, e, names):
    """Name ``f`` after entry ``e`` (also in its code, which Python's
    argument errors quote) and give it its docstring."""
    if f.__code__.co_name != e.name:
        try:
            f.__code__ = f.__code__.replace(co_name=e.name, co_qualname=e.name)
        except TypeError:  # Python < 3.11: no co_qualname
            f.__code__ = f.__code__.replace(co_name=e.name)
    f.__name__ = f.__qualname__ = e.name
    f.__doc__ = _docstring(e, names)
    f.__module__ = "weir"
    f.entry = e
    return f


_GLOBAL_NAME = re.compile(r"(?<![.\w])([A-Za-z]\w*)")


def _def_line(e, names):
    """``def NAME(p1, p2, *, out=None):`` (``out`` only when the entry has an
    array result)."""
    params = list(names) + (["*", "out=None"] if e.dests else [])
    return f"def {_def_name(e)}({', '.join(params)}):"


def _def_name(e):
    return e.name if e.name.isidentifier() and not keyword.iskeyword(e.name) else "call"


class Entry:
    """What the manifest says of one entry point (``lib.entries[name]``)."""

    def __init__(self, desc):
        self.name = desc["name"]
        self.signature = desc.get("signature", "")
        self.symbol = desc["symbol"]
        self.shape_symbol = desc["shape_symbol"]
        self.params = desc["params"]
        self.dests = desc["dests"]
        self.rets = desc["rets"]
        self.results = desc["results"]
        #: The Python names of the parameters, in order (keyword arguments).
        self.arg_names = _py_names(self.params)

    def __repr__(self):
        return f"<weir entry {self.signature or self.name}>"


# ---------------------------------------------------------------------------
# Libraries
# ---------------------------------------------------------------------------


class Library:
    """A compiled Weir library: one callable per entry point.

    Made by :func:`weir.load` (from source, through the cache) or
    :func:`weir.load_library` (from a folder ``weir lib`` wrote). Each entry
    is an attribute (``lib.add3(a, b, c)``) unless its name is taken by a
    method of this class, and is always ``lib["add3"]``. Calls from several
    threads are safe: each thread gets a context of its own (freed when the
    thread ends or the library is collected). A Library pickles as how to
    load it again (source path and options, or folder), so it can be shipped
    to other processes (Dask workers), which load it from their cache.
    """

    def __init__(self, directory, name=None, *, _origin=None):
        directory = os.path.abspath(directory)
        if name is None:
            name = _manifest_name(directory)
        manifest_path = os.path.join(directory, name + ".json")
        so_path = os.path.join(directory, "lib" + name + ".so")
        try:
            with open(manifest_path, encoding="utf-8") as f:
                manifest = json.load(f)
        except (OSError, ValueError) as e:
            raise WeirBuildError(f"cannot read the manifest {manifest_path}: {e}") from None
        try:
            cdll = ctypes.CDLL(so_path, mode=getattr(os, "RTLD_LOCAL", 0))
        except OSError as e:
            raise WeirBuildError(f"cannot load {so_path}: {e}") from None
        self.name = manifest.get("library", name)
        self.directory = directory
        self.manifest = manifest
        self.source = manifest.get("source")
        self._origin = _origin if _origin is not None else ("dir", directory, name)
        self._cdll = cdll
        self._setup_runtime(cdll)
        abi = cdll.weir_abi_version()
        if abi != manifest.get("weir_abi"):
            raise WeirBuildError(
                f"{so_path}: runtime ABI {abi}, but the manifest says {manifest.get('weir_abi')}"
            )
        self._tls = threading.local()
        self._ctxs = weakref.WeakSet()  # every live context, for stats/debugging
        self.entries = {}
        self._funcs = {}
        for desc in manifest["entries"]:
            e = Entry(desc)
            fn = self._make_entry(e)
            self.entries[e.name] = e
            self._funcs[e.name] = fn
            if not hasattr(type(self), e.name) and not e.name.startswith("_"):
                self.__dict__[e.name] = fn

    # -- runtime functions -------------------------------------------------

    def _setup_runtime(self, cdll):
        vp = ctypes.c_void_p
        cdll.weir_ctx_new.argtypes = []
        cdll.weir_ctx_new.restype = vp
        cdll.weir_ctx_free.argtypes = [vp]
        cdll.weir_ctx_free.restype = None
        for f in ("weir_error", "weir_error_location", "weir_error_message"):
            getattr(cdll, f).argtypes = [vp]
            getattr(cdll, f).restype = ctypes.c_char_p
        cdll.weir_error_code.argtypes = [vp]
        cdll.weir_error_code.restype = ctypes.c_int
        cdll.weir_retry_rows.argtypes = [vp, ctypes.c_int]
        cdll.weir_retry_rows.restype = ctypes.c_int64
        cdll.weir_abi_version.argtypes = []
        cdll.weir_abi_version.restype = ctypes.c_int
        cdll.weir_version.argtypes = []
        cdll.weir_version.restype = ctypes.c_char_p
        self._new = cdll.weir_ctx_new
        self._free = cdll.weir_ctx_free
        self._retry_rows = cdll.weir_retry_rows

    def _context(self):
        """This thread's context (its pointer)."""
        try:
            return self._tls.ptr
        except AttributeError:
            c = _Ctx(self._new, self._free)
            self._tls.ctx = c
            self._tls.ptr = c.ptr
            self._ctxs.add(c)
            return c.ptr

    def _error(self, ctx):
        lib = self._cdll

        def s(b):
            return (b or b"").decode("utf-8", "replace")

        return error_from_runtime(
            lib.weir_error_code(ctx),
            s(lib.weir_error(ctx)),
            s(lib.weir_error_location(ctx)),
            s(lib.weir_error_message(ctx)),
        )

    # -- entries -----------------------------------------------------------

    def _make_entry(self, e):
        """The Python function calling entry ``e``."""
        cdll = self._cdll
        vp, i64 = ctypes.c_void_p, ctypes.c_int64
        nparams = len(e.params)
        convs = []  # (is_array, converter)
        param_types = []
        for p, pname in zip(e.params, e.arg_names):
            ctype = ELEMS[p["elem"]][1]
            if p["rank"] == 0:
                convs.append((False, _scalar_converter(e.name, pname, p["elem"])))
                param_types.append(ctype)
            else:
                convs.append((True, _array_converter(e.name, pname, p["elem"], p["rank"])))
                param_types += [vp] + [i64] * p["rank"]
        dest_types = []
        for d in e.dests:
            dest_types += [vp] + [i64] * d["rank"]
        ret_ctypes = [ELEMS[r][1] for r in e.rets]
        fn = getattr(cdll, e.symbol)
        fn.argtypes = [vp] + dest_types + param_types + [vp] * len(ret_ctypes)
        fn.restype = ctypes.c_int
        shape_fn = getattr(cdll, e.shape_symbol)
        shape_fn.argtypes = [vp] + param_types + [vp] * len(e.dests)
        shape_fn.restype = ctypes.c_int

        # Results: ("a", dest index) or ("s", ret index).
        results = [("a", r["dest"]) if r["kind"] == "array" else ("s", r["ret"]) for r in e.results]
        array_dests = [k for kind, k in results if kind == "a"]
        ndests = len(e.dests)
        dest_dtypes = [ELEMS[d["elem"]][0] for d in e.dests]
        dest_ranks = [d["rank"] for d in e.dests]
        size_rets = [d.get("size_ret") for d in e.dests]
        sized = [k for k in range(ndests) if size_rets[k] is not None]
        # The manifest names one size result per existential outer dim; an
        # entry with more size results than that (an existential inner dim)
        # is not described well enough to be called from here.
        # Existential inner dims (`[n][]f64`): (dim, ret index) per dest; the
        # result is written densely at the front of its destination.
        inner_sizes = [[tuple(x) for x in d.get("inner_size_rets", [])] for d in e.dests]
        accounted = (sum(1 for kind, _ in results if kind == "s") + len(sized)
                     + sum(len(i) for i in inner_sizes))
        unsupported = None
        if accounted != len(e.rets):
            unsupported = (
                f"{e.name}: the manifest does not account for every size result "
                "(built by another version of weir?)"
            )
        # Converting a scalar result: Python float/int/bool for f64/i64/bool,
        # NumPy scalars for the other types (their type is kept).
        ret_conv = []
        for r in e.rets:
            if r not in ("f64", "i64", "bool"):
                ret_conv.append(ELEMS[r][0].type)
            else:
                ret_conv.append(None)
        nresults = len(results)
        name = e.name
        lib = self
        context = self._context
        retry_rows = self._retry_rows
        dims_types = [ctypes.c_int64 * max(r, 1) for r in dest_ranks]

        def check_out(out):
            if nresults == 1 or len(array_dests) == 1:
                outs = out if isinstance(out, (tuple, list)) else (out,)
            else:
                outs = out
            if not isinstance(outs, (tuple, list)) or len(outs) != len(array_dests):
                raise WeirShapeError(
                    f"{name}: out= must be {'an array' if len(array_dests) == 1 else 'a tuple of'} "
                    f"{len(array_dests)} array{'s' if len(array_dests) != 1 else ''} "
                    "(one per array result)"
                )
            got = [None] * ndests
            for k, o in zip(array_dests, outs):
                dt = dest_dtypes[k]
                if not isinstance(o, _ndarray):
                    raise WeirTypeError(f"{name}: out= needs NumPy arrays, got {_describe(o)}")
                if o.dtype != dt:
                    raise WeirTypeError(
                        f"{name}: out= array for result {k} must be of {dt}, got {o.dtype}"
                    )
                if o.ndim != dest_ranks[k]:
                    raise WeirShapeError(
                        f"{name}: out= array for result {k} must be {dest_ranks[k]}-d, got {o.ndim}-d"
                    )
                if not (o.flags.c_contiguous and o.flags.writeable):
                    raise WeirShapeError(
                        f"{name}: out= arrays must be writeable and C-contiguous"
                    )
                got[k] = o
            return got

        def allocate(k, dims):
            try:
                return _empty(dims, dest_dtypes[k])
            except (MemoryError, ValueError):
                if size_rets[k] is not None:
                    # A bound too large for memory: the entry fails and
                    # tells the rows it needs (weir_retry_rows).
                    return None
                raise WeirMemoryError(
                    f"{name}: out of memory allocating result {k} of dims {dims}",
                    WEIR_ERR_NOMEM,
                    "",
                )

        def general(args, out):
            if unsupported:
                raise WeirError(unsupported)
            ctx = context()
            cargs = []
            keep = []
            for (is_array, conv), x in zip(convs, args):
                if is_array:
                    a = conv(x)
                    keep.append(a)
                    cargs.append(_ptr(a))
                    cargs.extend(a.shape)
                else:
                    cargs.append(conv(x))
            if ndests:
                if out is None:
                    dims = [t() for t in dims_types]
                    if shape_fn(ctx, *cargs, *dims):
                        raise lib._error(ctx)
                    dims = [tuple(d)[:r] for d, r in zip(dims, dest_ranks)]
                    outs = [allocate(k, dims[k]) for k in range(ndests)]
                    mine = True
                else:
                    outs = check_out(out)
                    dims = [o.shape for o in outs]
                    mine = False
            else:
                if out is not None:
                    raise WeirShapeError(f"{name}: out= given, but it has no array result")
                outs = dims = ()
                mine = False
            rets = [t() for t in ret_ctypes]
            retrefs = [_byref(r) for r in rets]
            for _ in range(MAX_RETRIES + 1):
                dargs = []
                for o, d in zip(outs, dims):
                    if o is None:
                        dargs.append(None)
                        dargs.extend(d)
                    else:
                        dargs.append(_ptr(o))
                        dargs.extend(o.shape)
                if not fn(ctx, *dargs, *cargs, *retrefs):
                    break
                err = lib._error(ctx)
                if sized and err.code == WEIR_ERR_NOMEM and not mine:
                    # The caller's out= holds fewer rows than the result:
                    # their argument, with the rows it needs.
                    need = {k: retry_rows(ctx, k) for k in sized}
                    need = {k: r for k, r in need.items() if r >= 0}
                    if need:
                        e = WeirArgumentError(err.text, WEIR_ERR_ARGUMENT, err.location, err.message)
                        e.rows_needed = need
                        raise e
                if not (mine and sized and err.code == WEIR_ERR_NOMEM):
                    raise err
                again = False
                for k in sized:
                    rows = retry_rows(ctx, k)
                    if rows >= 0:
                        d = (rows,) + tuple(dims[k][1:])
                        dims[k] = d
                        outs[k] = _empty(d, dest_dtypes[k])
                        again = True
                if not again:
                    raise err
            else:
                raise err
            res = []
            for kind, k in results:
                if kind == "a":
                    o = outs[k]
                    sr = size_rets[k]
                    if inner_sizes[k]:
                        dims = list(o.shape)
                        if sr is not None:
                            dims[0] = rets[sr].value
                        for j, r in inner_sizes[k]:
                            dims[j] = rets[r].value
                        n = 1
                        for d in dims:
                            n *= d
                        o = o.reshape(-1)[:n].reshape(dims)
                    elif sr is not None:
                        o = o[: rets[sr].value]
                    res.append(o)
                else:
                    v = rets[k].value
                    c = ret_conv[k]
                    res.append(v if c is None else c(v))
            if nresults == 1:
                return res[0]
            return tuple(res)

        if unsupported is None and not any(inner_sizes):
            return self._make_fast_entry(e, fn, shape_fn, convs, ret_ctypes, ret_conv, results,
                                         size_rets, dest_dtypes, dest_ranks, general)
        # The general path only: a function with the entry's parameters
        # (Python checks the arguments' count and names) calling it.
        names = e.arg_names
        src = (_def_line(e, names) + "\n"
               f"    return _Wgeneral(({''.join(n + ', ' for n in names)}), "
               f"{'out' if e.dests else 'None'})\n")
        g = {"_Wgeneral": general, "__name__": "weir"}
        exec(compile(src, f"<weir entry {e.name}>", "exec"), g)
        call = _finish(g[_def_name(e)], e, names)
        call._source = src
        return call

    def _make_fast_entry(self, e, fn, shape_fn, convs, ret_ctypes, ret_conv, results,
                         size_rets, dest_dtypes, dest_ranks, general):
        """A function for the common path of a call of ``e`` (no ``out=``, the
        arguments already of the right dtype and rank, or Python scalars),
        generated as straight-line code with everything it needs bound as
        constants; anything else (conversion, ``out=``, a retry with the rows
        the runtime asks for) goes to ``general``."""
        pnames = [f"x{i}" for i in range(len(e.params))]
        g = {
            "ND": _ndarray, "FB": _from_buffer, "AD": _addressof, "PTR": _ptr,
            "BYREF": _byref, "EMPTY": _empty, "fn": fn, "shape_fn": shape_fn,
            "general": general, "context": self._context, "lib": self,
            "NOMEM": WEIR_ERR_NOMEM, "BE": (TypeError, ValueError, BufferError),
        }
        names = e.arg_names
        gen_args = f"({''.join(n + ', ' for n in pnames)})"
        gen_out = f"general({gen_args}, out)"
        L = [_def_line(e, names)]
        if names != pnames:
            # (the body's own names: x0, x1, ...)
            L.append(f"    {', '.join(pnames)}, = {', '.join(names)},")
        head = len(L)  # (the lines naming the parameters)
        L.append("    ctx = context()")
        cargs = []
        for i, ((is_array, conv), p) in enumerate(zip(convs, e.params)):
            x = pnames[i]
            g[f"conv{i}"] = conv
            if is_array:
                g[f"DT{i}"] = ELEMS[p["elem"]][0]
                L += [f"    if type({x}) is ND and {x}.dtype is DT{i} and {x}.ndim == {p['rank']}:",
                      "        try:",
                      f"            p{i} = AD(FB({x}))",
                      "        except BE:",
                      f"            {x} = conv{i}({x}); p{i} = PTR({x})",
                      "    else:",
                      f"        {x} = conv{i}({x}); p{i} = PTR({x})"]
                cargs += [f"p{i}", f"*{x}.shape"]
            else:
                elem = p["elem"]
                if elem in ("f64", "f32"):
                    test = f"type({x}) is not float"
                elif elem == "bool":
                    test = f"type({x}) is not bool"
                else:
                    lo, hi = INT_RANGES[elem]
                    test = f"type({x}) is not int or not {lo} <= {x} <= {hi}"
                L.append(f"    if {test}: {x} = conv{i}({x})")
                cargs.append(x)
        cargs_s = ", ".join(cargs)
        nd = len(e.dests)
        if nd:
            offs, total = [], 0
            for r in dest_ranks:
                offs.append(total)
                total += r
            g["DIMS"] = ctypes.c_int64 * total
            L.append("    if out is None:")
            L.append("        d = DIMS()")
            drefs = ["d" if offs[k] == 0 else f"BYREF(d, {8 * offs[k]})" for k in range(nd)]
            L += [f"        if shape_fn(ctx{', ' if cargs else ''}{cargs_s}, {', '.join(drefs)}):",
                  "            raise lib._error(ctx)"]
            L.append("        try:")
            for k in range(nd):
                g[f"DDT{k}"] = dest_dtypes[k]
                dims = ", ".join(f"d[{offs[k] + j}]" for j in range(dest_ranks[k]))
                L.append(f"            o{k} = EMPTY(({dims},), DDT{k})")
            L += ["        except (MemoryError, ValueError):",
                  f"            return general({gen_args}, None)"]
            L += [f"        q{k} = PTR(o{k})" for k in range(nd)]
            # out=: arrays of the right dtype and rank that can be written in
            # place are used as they are; anything else goes to `general`,
            # which says what is wrong.
            adests = [k for kind, k in results if kind == "a"]
            L.append("    else:")
            if len(adests) == 1:
                L.append(f"        o{adests[0]} = out[0] if type(out) is tuple and len(out) == 1 else out")
            else:
                L.append(f"        if type(out) is not tuple or len(out) != {len(adests)}: return {gen_out}")
                L.append(f"        {', '.join(f'o{k}' for k in adests)}, = out")
            for k in adests:
                L += [f"        if type(o{k}) is not ND or o{k}.dtype is not DDT{k} or o{k}.ndim != {dest_ranks[k]}: return {gen_out}",
                      "        try:",
                      f"            q{k} = AD(FB(o{k}))",
                      "        except BE:",
                      f"            return {gen_out}"]
        for j, t in enumerate(ret_ctypes):
            g[f"RT{j}"] = t
            L.append(f"    r{j} = RT{j}()")
        args = ["ctx"]
        for k in range(nd):
            args += [f"q{k}", f"*o{k}.shape"]
        args += cargs
        args += [f"BYREF(r{j})" for j in range(len(ret_ctypes))]
        L.append(f"    if fn({', '.join(args)}):")
        L.append("        err = lib._error(ctx)")
        if any(sr is not None for sr in size_rets):
            L.append(f"        if err.code == NOMEM: return {gen_out}")
        L.append("        raise err")
        res = []
        for kind, k in results:
            if kind == "a":
                sr = size_rets[k]
                res.append(f"o{k}" if sr is None else f"o{k}[:r{sr}.value]")
            elif ret_conv[k] is None:
                res.append(f"r{k}.value")
            else:
                g[f"RC{k}"] = ret_conv[k]
                res.append(f"RC{k}(r{k}.value)")
        L.append(f"    return {res[0]}" if len(res) == 1 else f"    return ({', '.join(res)})")
        # The globals of the body start with `_W`, so that no parameter name
        # (none starts with `_`) hides one.
        body = _GLOBAL_NAME.sub(lambda m: "_W" + m.group(1) if m.group(1) in g else m.group(1),
                                "\n".join(L[head:]))
        src = "\n".join(L[:head]) + "\n" + body + "\n"
        g = {"_W" + k: v for k, v in g.items()}
        g["__name__"] = "weir"
        exec(compile(src, f"<weir entry {e.name}>", "exec"), g)
        call = _finish(g[_def_name(e)], e, names)
        call._source = src
        return call

    # -- the Python side ---------------------------------------------------

    def __getitem__(self, name):
        try:
            return self._funcs[name]
        except KeyError:
            raise KeyError(f"library `{self.name}` has no entry `{name}`") from None

    def __contains__(self, name):
        return name in self._funcs

    def __iter__(self):
        return iter(self._funcs)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._funcs))

    def __repr__(self):
        return f"<weir.Library {self.name} ({', '.join(self._funcs)}) from {self.directory}>"

    def __reduce__(self):
        return (_unpickle, self._origin)

    @property
    def version(self):
        """The runtime's version (``weir_version()``)."""
        return self._cdll.weir_version().decode()


def _manifest_name(directory):
    """The name of the one library whose manifest NAME.json is in ``directory``."""
    try:
        jsons = [f for f in os.listdir(directory) if f.endswith(".json")]
    except OSError as e:
        raise WeirBuildError(f"cannot read the library folder {directory}: {e}") from None
    if len(jsons) != 1:
        raise WeirBuildError(
            f"{directory}: expected one NAME.json manifest, found {sorted(jsons)}; pass name="
        )
    return jsons[0][: -len(".json")]


def _unpickle(kind, *args):
    from . import load, load_library

    if kind == "source":
        path, name, weir, cache_dir, flags = args
        return load(path, name=name, weir=weir, cache_dir=cache_dir, flags=flags)
    directory, name = args
    return load_library(directory, name=name)


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

_loaded = weakref.WeakValueDictionary()
_load_lock = threading.Lock()


def load(path, name=None, weir=None, cache_dir=None, flags=()):
    """Compile the Weir program ``path`` into a library (or find it in the
    cache) and load it.

    name       the library's name (default: the file name as a C identifier)
    weir       the ``weir`` compiler (default: ``$WEIR``, else the one installed
               with the package (the wheel), else ``weir`` on PATH)
    cache_dir  the cache (default: ``$WEIR_CACHE``, else ``$XDG_CACHE_HOME/weir``,
               else ``~/.cache/weir``); libraries go into its ``py/`` folder
    flags      more options of ``weir lib``, e.g. ``("--unsafe",)`` or
               ``("--variant", "DFB")``

    Loading the same thing twice in a process gives the same Library.
    """
    src = os.path.abspath(os.fspath(path))
    if isinstance(flags, str):
        raise TypeError("flags must be a sequence of strings, e.g. ('--unsafe',)")
    flags = tuple(flags)
    for f in flags:
        if not isinstance(f, str):
            raise TypeError(f"flags must be strings, got {f!r}")
        if f in ("-o", "--output", "--name") or f.startswith(("--output=", "--name=")):
            raise ValueError(f"flag {f} is set by weir.load itself")
    try:
        with open(src, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise WeirBuildError(f"cannot read the Weir source {src}: {e}") from None
    lib_name = name if name is not None else _build.library_name(src)
    compiler = _build.find_compiler(weir)
    version, mtime_ns = _build.compiler_version(compiler)
    key = _build.cache_key(text, src, compiler, version, mtime_ns, lib_name, flags)
    root = os.path.abspath(os.fspath(cache_dir)) if cache_dir is not None else _build.default_cache_root()
    folder = os.path.join(root, "py", f"{lib_name}-{key[:24]}")
    with _load_lock:
        lib = _loaded.get(folder)
        if lib is not None:
            return lib
        if not _build.is_complete(folder, lib_name):
            _build.build(compiler, src, lib_name, flags, folder)
        origin = ("source", src, name, None if weir is None else os.fspath(weir),
                  None if cache_dir is None else os.fspath(cache_dir), flags)
        lib = Library(folder, lib_name, _origin=origin)
        _loaded[folder] = lib
        return lib


def load_library(directory, name=None):
    """Load a library that ``weir lib FILE -o DIRECTORY [--name NAME]`` wrote
    (``NAME.json`` and ``libNAME.so``; ``name`` is needed only when the
    folder holds several manifests)."""
    directory = os.path.abspath(os.fspath(directory))
    if name is None:
        name = _manifest_name(directory)
    with _load_lock:
        key = ("dir", directory, name)
        lib = _loaded.get(key)
        if lib is None:
            lib = Library(directory, name)
            _loaded[key] = lib
        return lib
