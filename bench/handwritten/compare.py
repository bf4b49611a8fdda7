#!/usr/bin/env python3
"""Compare a C baseline's binary result with a Weir text result.

  python3 compare.py KIND C_OUT.bin WEIR_OUT.txt [--tol 1e-9]

C_OUT.bin is what bench/handwritten/build/KIND wrote (--out); WEIR_OUT.txt is
what `weir run` printed (or an expected-output value file, e.g.
examples/data/adbench/*.out).  Shapes must agree; every float must satisfy
Weir's test criterion |a - b| <= tol * max(1, |a|, |b|) (NaN matches NaN).
Prints one line: `KIND: ok|FAIL elems=E max_abs=.. max_rel=.. exact=X/E`, where
max_rel is max |a - b| / max(|a|, |b|) over the non-zero pairs, and exits 1 on
failure."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkinput  # noqa: E402


def main():
    args = sys.argv[1:]
    tol = 1e-9
    if '--tol' in args:
        i = args.index('--tol')
        tol = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    kind, cpath, wpath = args
    res = mkinput.RESULTS[kind]
    with open(cpath, 'rb') as f:
        cvals = mkinput.unpack_values(kind, f.read())
    with open(wpath) as f:
        parsed = mkinput.parse_values(f.read())
    # a tuple result: `weir run` prints one tuple, expected-output files list
    # the components one after another
    if len(res) > 1 and len(parsed) == 1 and isinstance(parsed[0], tuple):
        parsed = list(parsed[0])
    if len(parsed) != len(res):
        sys.exit('%s: expected %d values from Weir, got %d' % (kind, len(res), len(parsed)))
    wvals = [mkinput.to_arr(v, fixed, ty) if fixed else v for v, (ty, fixed) in zip(parsed, res)]

    ok, n, exact, max_abs, max_rel = True, 0, 0, 0.0, 0.0
    for cv, wv in zip(cvals, wvals):
        if isinstance(cv, mkinput.Arr):
            if cv.shape != wv.shape:
                print('%s: FAIL shape %s (C) vs %s (Weir)' % (kind, cv.shape, wv.shape))
                sys.exit(1)
            pairs = zip(cv.flat, wv.flat)
        else:
            pairs = [(cv, wv)]
        for a, b in pairs:
            a, b = float(a), float(b)
            n += 1
            if math.isnan(a) or math.isnan(b):
                ok &= math.isnan(a) and math.isnan(b)
                exact += math.isnan(a) and math.isnan(b)
                continue
            if a == b:
                exact += 1
                continue
            d = abs(a - b)
            max_abs = max(max_abs, d)
            max_rel = max(max_rel, d / max(abs(a), abs(b)))
            if not d <= tol * max(1.0, abs(a), abs(b)):
                ok = False
    print('%s: %s elems=%d max_abs=%.3g max_rel=%.3g exact=%d/%d' %
          (kind, 'ok' if ok else 'FAIL', n, max_abs, max_rel, exact, n))
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
