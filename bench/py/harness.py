"""Shared machinery of the Python peers (bench/py/): the binary input/output
format, the choice of back end, and the `njit` decorator used by the kernel
modules.

The back end must be chosen (`select`) before a kernel module is imported:
with Numba selected, `njit` compiles the decorated functions with
numba.njit(cache=True); otherwise it returns them unchanged, so that a NumPy or
JAX process never imports Numba.  JAX is imported only when selected, after
its configuration (CPU platform, 64-bit floats, persistent compilation cache).
"""

import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.normpath(os.path.join(HERE, '..', 'build'))

IMPLS = ('numpy', 'jax', 'numba')
KERNELS = ('add3', 'cross', 'ba_project', 'ba_objective', 'gmm_objective', 'ht',
           'gemm', 'mm2', 'mm3', 'jacobi1d', 'jacobi2d', 'seidel2d', 'scan', 'histogram',
           'filter', 'partition', 'padstencil', 'transposecat', 'rotstencil', 'nw', 'lu',
           'trisolv')

_enabled = set()


class InputError(Exception):
    """Bad input file: a clear message, exit status 2."""


def select(*impls):
    """Enable the back ends `impls` (before importing any kernel module)."""
    for impl in impls:
        if impl not in IMPLS:
            raise ValueError('unknown implementation %r' % impl)
        if impl == 'numba':
            os.environ.setdefault('NUMBA_CACHE_DIR', os.path.join(BUILD, 'numba-cache'))
            import numba  # noqa: F401
        elif impl == 'jax':
            _setup_jax()
        _enabled.add(impl)


def _setup_jax():
    os.environ['JAX_PLATFORMS'] = 'cpu'
    import jax
    # before anything else touches JAX: without it every array is float32
    jax.config.update('jax_enable_x64', True)
    jax.config.update('jax_platforms', 'cpu')
    if not os.environ.get('JAX_COMPILATION_CACHE_DIR'):
        jax.config.update('jax_compilation_cache_dir', os.path.join(BUILD, 'jax-cache'))
    # cache every compiled kernel, however quick its compilation was
    jax.config.update('jax_persistent_cache_min_compile_time_secs', 0.0)


def njit(fn):
    """numba.njit(cache=True) when Numba is selected, else the plain function."""
    if 'numba' in _enabled:
        import numba
        return numba.njit(cache=True)(fn)
    return fn


# ---------------------------------------------------------------------------
# Binary format: native little-endian; f64/i64 8 bytes; an array of rank r is
# r int64 dims, then its elements row-major.  A tuple: components in order.

_DTYPES = {'f64': np.dtype('<f8'), 'i64': np.dtype('<i8')}


def read_inputs(data, params):
    """Decode `data` (bytes) as the parameters `params`, a list of
    (name, type, rank).  Arrays come back as fresh, aligned, writable NumPy
    arrays (as a user's arrays would be; read-only arrays would send Numba's
    dispatcher down a slower typing path -- selftest.py checks instead that no
    implementation writes into its inputs); scalars as Python float / int."""
    off = 0
    out = []

    def take(nbytes, what):
        nonlocal off
        if off + nbytes > len(data):
            raise InputError('input ended while reading %s' % what)
        chunk = data[off:off + nbytes]
        off += nbytes
        return chunk

    for name, ty, rank in params:
        dt = _DTYPES[ty]
        if rank == 0:
            (v,) = struct.unpack('<d' if ty == 'f64' else '<q', take(8, name))
            out.append(v)
            continue
        dims = struct.unpack('<%dq' % rank, take(8 * rank, name + ' (dims)'))
        count = 1
        for d in dims:
            if d < 0:
                raise InputError('%s: negative dimension %d' % (name, d))
            count *= d
        if 8 * count > len(data) - off:
            raise InputError('input ended while reading %s' % name)
        arr = np.empty(dims, dtype=np.float64 if ty == 'f64' else np.int64)
        arr.reshape(-1)[:] = np.frombuffer(take(8 * count, name), dtype=dt)
        out.append(arr)
    if off != len(data):
        raise InputError('trailing bytes after the inputs')
    return out


def encode_result(result, sig):
    """Encode a kernel result (one value, or a tuple for several components)
    according to `sig`, a list of (type, rank)."""
    comps = list(result) if len(sig) > 1 else [result]
    if len(comps) != len(sig):
        raise RuntimeError('expected %d result components, got %d' % (len(sig), len(comps)))
    parts = []
    for value, (ty, rank) in zip(comps, sig):
        arr = np.asarray(value)
        want = _DTYPES[ty]
        if arr.dtype != want:
            # e.g. JAX without x64 silently computing in float32
            raise RuntimeError('result has dtype %s, expected %s' % (arr.dtype, want))
        if arr.ndim != rank:
            raise RuntimeError('result has rank %d, expected %d' % (arr.ndim, rank))
        parts.append(struct.pack('<%dq' % rank, *arr.shape))
        parts.append(np.ascontiguousarray(arr, dtype=want).tobytes())
    return b''.join(parts)


def decode_result(data, sig):
    """Inverse of encode_result (for tests): a list of arrays / scalars."""
    vals = read_inputs(data, [('result %d' % i, ty, rank) for i, (ty, rank) in enumerate(sig)])
    return vals


def expect_dim(what, got, want):
    if got != want:
        raise InputError('size mismatch: %s has size %d, expected %d' % (what, got, want))


def load_kernel(name):
    if name not in KERNELS:
        raise ValueError('unknown kernel %r (one of %s)' % (name, ', '.join(KERNELS)))
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import importlib
    return importlib.import_module('kernels.' + name)


# ---------------------------------------------------------------------------
# Per-implementation setup: returns (callable, args) so that one timed call is
# `fn(*args)` (JAX: blocked until ready by the caller).

def prepare(mod, impl, args):
    hook = getattr(mod, 'prepare_' + impl, None)
    if hook is not None:
        return hook(args)
    if impl == 'numpy':
        return mod.numpy_impl, list(args)
    if impl == 'numba':
        return mod.numba_impl, list(args)
    if impl == 'jax':
        import jax
        import jax.numpy as jnp
        # every input, scalars included, becomes a device array once
        dev = [jnp.asarray(a, dtype=jnp.float64 if ty == 'f64' else jnp.int64)
               for (_, ty, _rank), a in zip(mod.PARAMS, args)]
        return jax.jit(mod.jax_impl), dev
    raise ValueError(impl)


def block(res):
    """Wait for a JAX result (all leaves of a tuple)."""
    import jax
    return jax.block_until_ready(res)
