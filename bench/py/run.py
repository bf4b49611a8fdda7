#!/usr/bin/env python3
"""Python peers of the Weir benchmark suite: one process runs one kernel with
one implementation (NumPy, JAX or Numba) under the suite's protocol.

  run.py IMPL KERNEL [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]

IMPL is numpy, jax or numba; KERNEL one of add3 cross ba_project ba_objective
gmm_objective ht gemm mm2 mm3 jacobi1d jacobi2d seidel2d scan histogram
filter partition padstencil transposecat rotstencil nw lu trisolv.  The inputs are read from FILE
(default stdin) in the suite's binary format, W untimed warm-up calls come
before the N timed ones (the JIT peers compile during the first warm-up call,
or in an extra untimed call during set-up when W is 0), and the result of the
last call goes to FILE (default stdout).  With --stats one line goes to
stderr:

  stats: runs=N total_ns=T ns_per_run=X peak_rss_kb=K sys_allocs=-1 peak_bytes=-1

T is time.perf_counter_ns around the loop of N calls only; allocation
counts are not measurable from Python (-1).  Thread counts are left to the
environment (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, NUMBA_NUM_THREADS, taskset).
"""

import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402


def fail(msg):
    sys.stderr.write('run.py: %s\n' % msg)
    sys.exit(2)


def parse_args(argv):
    usage = ('usage: run.py {%s} KERNEL [--runs N] [--warmup W] [--in FILE] [--out FILE] [--stats]'
             % '|'.join(harness.IMPLS))
    pos = []
    opts = {'runs': 1, 'warmup': 0, 'in': None, 'out': None, 'stats': False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--runs', '--warmup'):
            if i + 1 >= len(argv):
                fail(usage)
            try:
                v = int(argv[i + 1], 10)
            except ValueError:
                v = -1
            if (a == '--runs' and v < 1) or v < 0:
                fail('%s needs a %s integer' % (a, 'positive' if a == '--runs' else 'non-negative'))
            opts[a[2:]] = v
            i += 2
        elif a in ('--in', '--out'):
            if i + 1 >= len(argv):
                fail(usage)
            opts[a[2:]] = argv[i + 1]
            i += 2
        elif a == '--stats':
            opts['stats'] = True
            i += 1
        elif a.startswith('-') and a != '-':
            fail(usage)
        else:
            pos.append(a)
            i += 1
    if len(pos) != 2:
        fail(usage)
    impl, kernel = pos
    if impl not in harness.IMPLS:
        fail('unknown implementation %r (one of %s)' % (impl, ', '.join(harness.IMPLS)))
    if kernel not in harness.KERNELS:
        fail('unknown kernel %r (one of %s)' % (kernel, ', '.join(harness.KERNELS)))
    return impl, kernel, opts


def peak_rss_kb():
    """VmHWM of /proc/self/status: the peak RSS of this process image. Linux
    carries getrusage's ru_maxrss across execve, so a process started by a
    large parent would report the parent's peak; that is only the fallback."""
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(argv):
    impl, kernel, opts = parse_args(argv)

    # --- set-up: back end, inputs, conversions, compilation (not timed)
    harness.select(impl)
    mod = harness.load_kernel(kernel)
    try:
        if opts['in'] in (None, '-'):
            data = sys.stdin.buffer.read()
        else:
            with open(opts['in'], 'rb') as f:
                data = f.read()
    except OSError as e:
        fail('cannot open %s: %s' % (opts['in'], e.strerror))
    try:
        args = harness.read_inputs(data, mod.PARAMS)
        del data
        mod.check(*args)
    except harness.InputError as e:
        fail(str(e))
    fn, cargs = harness.prepare(mod, impl, args)

    runs, warmup = opts['runs'], opts['warmup']
    jit = impl in ('jax', 'numba')
    res = None
    if impl == 'jax':
        if len(mod.RESULT) == 1:
            def block(r):
                return r.block_until_ready()
        else:
            block = harness.block            # every leaf of the tuple
        if warmup == 0:
            res = block(fn(*cargs))          # trace + compile (or load from the cache)
        for _ in range(warmup):
            res = block(fn(*cargs))
        t0 = time.perf_counter_ns()
        for _ in range(runs):
            res = block(fn(*cargs))
        t1 = time.perf_counter_ns()
    else:
        if jit and warmup == 0:
            res = fn(*cargs)                 # Numba: compile (or load from the cache)
        for _ in range(warmup):
            res = fn(*cargs)
        t0 = time.perf_counter_ns()
        for _ in range(runs):
            res = fn(*cargs)
        t1 = time.perf_counter_ns()

    # --- output
    try:
        payload = harness.encode_result(res, mod.RESULT)
    except RuntimeError as e:
        fail(str(e))
    try:
        if opts['out'] in (None, '-'):
            sys.stdout.buffer.write(payload)
            sys.stdout.buffer.flush()
        else:
            with open(opts['out'], 'wb') as f:
                f.write(payload)
    except OSError as e:
        fail('write error: %s' % e.strerror)
    if opts['stats']:
        total = t1 - t0
        rss = peak_rss_kb()
        sys.stderr.write('stats: runs=%d total_ns=%d ns_per_run=%.1f peak_rss_kb=%d '
                         'sys_allocs=-1 peak_bytes=-1\n' % (runs, total, total / runs, rss))
        sys.stderr.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
