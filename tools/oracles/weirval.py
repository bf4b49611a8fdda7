"""Shared helpers for the NumPy oracles of the Weir examples.

The oracle scripts in this folder compute the expected outputs of the test
blocks in examples/*.weir independently of Weir (with NumPy / plain Python),
and (re)write them:

  * values are printed in Weir's text value format (docs/language.md, section 7):
    f64 as Python's shortest round-trip repr (`1.0`, `1e-05`, `inf`, `-inf`,
    `nan`; never numpy reprs), i64 as plain integers, bool as true/false,
    tuples `(a, b)`, arrays `[...]`;
  * big inputs/outputs go to value files under examples/data/;
  * test blocks (section 8) inside the .weir files are replaced in place: every
    block is identified by its first line `-- entry: NAMES`.

Run a script with `--check` to verify that the files on disk are what the
script would write (nothing is written then; exit status 1 on a difference).
"""

import math
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
EXAMPLES = os.path.join(ROOT, 'examples')

# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def fmt_f64(x):
    x = float(x)
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    s = repr(x)
    # Python writes large exponents as `1e+20`; Weir's float syntax is `1e20`.
    return s.replace('e+', 'e')


class Record:
    """A record value `{name = value, ...}` (docs/language.md section 7), its
    fields written in the order given (Weir reads it as the tuple of its
    fields sorted by name, and prints results as that tuple)."""

    def __init__(self, **fields):
        self.fields = fields

    def as_tuple(self):
        """The tuple Weir stores (and prints) for this record."""
        return tuple(v.as_tuple() if isinstance(v, Record) else v
                     for _, v in sorted(self.fields.items()))


def fmt(v):
    """Format one value (Python scalar, tuple, Record, list or numpy array)."""
    if isinstance(v, Record):
        return '{' + ', '.join(f'{k} = {fmt(x)}' for k, x in v.fields.items()) + '}'
    if isinstance(v, (bool, np.bool_)):
        return 'true' if v else 'false'
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return fmt_f64(v)
    if isinstance(v, tuple):
        return '(' + ', '.join(fmt(x) for x in v) + ')'
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return fmt(v[()])
        if v.dtype.kind == 'f':
            conv = fmt_f64
        elif v.dtype.kind in 'iu':
            conv = lambda x: str(int(x))
        elif v.dtype.kind == 'b':
            conv = lambda x: 'true' if x else 'false'
        else:
            raise TypeError(f'unsupported dtype {v.dtype}')

        def rec(a):
            if a.ndim == 1:
                return '[' + ', '.join(conv(x) for x in a) + ']'
            return '[' + ', '.join(rec(r) for r in a) + ']'
        return rec(v)
    if isinstance(v, list):
        return '[' + ', '.join(fmt(x) for x in v) + ']'
    raise TypeError(f'cannot format {type(v)}')


def fmt_rows(v):
    """Like fmt, but an array of arrays (or of tuples or records) is written
    one row per line."""
    if isinstance(v, np.ndarray) and v.ndim >= 2:
        return '[' + ',\n '.join(fmt(r) for r in v) + ']'
    if isinstance(v, list) and v and isinstance(v[0], (list, np.ndarray, tuple, Record)):
        return '[' + ',\n '.join(fmt(r) for r in v) + ']'
    return fmt(v)


def value_file_text(values):
    return '\n'.join(fmt_rows(v) for v in values) + '\n'


# --------------------------------------------------------------------------
# Test blocks
# --------------------------------------------------------------------------

LINE = 100


def _braced(kind, values):
    texts = [fmt(v) for v in values]
    one = f'-- {kind} {{ ' + ' '.join(texts) + ' }'
    if len(one) <= LINE:
        return [one]
    lines = [f'-- {kind} {{']
    for v, t in zip(values, texts):
        rowwise = (isinstance(v, np.ndarray) and v.ndim >= 2) or \
            (isinstance(v, list) and len(v) > 0 and isinstance(v[0], (tuple, Record)))
        if len(t) + 5 <= LINE or not rowwise:
            lines.append('--   ' + t)
        else:
            rows = [fmt(r) for r in v]
            for i, r in enumerate(rows):
                pre = '--   [' if i == 0 else '--    '
                post = ',' if i + 1 < len(rows) else ']'
                lines.append(pre + r + post)
    lines.append('-- }')
    return lines


class Block:
    """One test block; `entries` are the entry points its cases apply to."""

    def __init__(self, *entries):
        self.key = '-- entry: ' + ' '.join(entries)
        self.lines = [self.key]

    def tolerance(self, r):
        self.lines.append(f'-- tolerance: {r}')
        return self

    def input(self, *values):
        self.lines += _braced('input', values)
        return self

    def input_file(self, path):
        self.lines.append(f'-- input @ {path}')
        return self

    def output(self, *values):
        self.lines += _braced('output', values)
        return self

    def output_file(self, path):
        self.lines.append(f'-- output @ {path}')
        return self

    def error(self, text):
        self.lines.append(f'-- error: {text}')
        return self

    def structure(self, counts):
        """A `structure { ... }` line (what the block's entries compile to,
        docs/language.md section 8), e.g. structure('inplace 2')."""
        self.lines.append(f'-- structure {{ {counts} }}')
        return self


# --------------------------------------------------------------------------
# Writing (or checking) files
# --------------------------------------------------------------------------


class Writer:
    def __init__(self, argv=None):
        argv = sys.argv[1:] if argv is None else argv
        self.check = '--check' in argv
        self.problems = []
        self.written = []

    def _put(self, path, text):
        rel = os.path.relpath(path, ROOT)
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        if old == text:
            return
        if self.check:
            self.problems.append(f'{rel}: differs from what the oracle computes')
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        self.written.append(rel)

    def data(self, relpath, values):
        """Write a value file examples/<relpath> holding `values` (a list)."""
        self._put(os.path.join(EXAMPLES, relpath), value_file_text(values))

    def blocks(self, weir_file, blocks):
        """Replace the test blocks of examples/<weir_file> by `blocks`."""
        path = os.path.join(EXAMPLES, weir_file)
        with open(path) as f:
            lines = f.read().split('\n')
        wanted = {b.key: b for b in blocks}
        if len(wanted) != len(blocks):
            raise SystemExit(f'{weir_file}: two generated blocks share an entry line')
        out, seen, i = [], set(), 0
        while i < len(lines):
            out.append(lines[i])
            if lines[i].strip() == '-- ==':
                j = i + 1
                while j < len(lines) and lines[j].lstrip().startswith('--') \
                        and lines[j].strip() != '-- ==':
                    j += 1
                key = lines[i + 1].strip() if i + 1 < j else None
                if key not in wanted:
                    self.problems.append(f'{weir_file}: test block {key!r} has no oracle')
                    out += lines[i + 1:j]
                else:
                    seen.add(key)
                    out += wanted[key].lines
                i = j
                continue
            i += 1
        for k in wanted:
            if k not in seen:
                self.problems.append(f'{weir_file}: no test block starting with {k!r}')
        self._put(path, '\n'.join(out))

    def finish(self):
        for w in self.written:
            print('wrote', w)
        for p in self.problems:
            print('PROBLEM:', p, file=sys.stderr)
        if self.problems:
            sys.exit(1)
        if self.check:
            print('ok: files match the oracle')
