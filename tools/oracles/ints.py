#!/usr/bin/env python3
"""Oracle for the integer types, bitwise operators and conversions (issue 20):
writes tests/regress/int_types.weir, tests/regress/bit_ops.weir and
tests/regress/conversions.weir, programs and test blocks, the expected
values computed here with Python's integers (exact, reduced modulo 2^width)
and checked against NumPy's fixed-width arithmetic where NumPy has it.

The semantics (docs/language.md sections 2, 4 and 5):
  * + - * and unary - wrap (two's complement); / and % truncate toward zero,
    MIN / -1 wraps, MIN % -1 is 0, division by zero is an error; ** by
    squaring, wrapping, an error for a negative exponent;
  * & | ^ and ! on the bit pattern; << and >>> shift in zeros, >> is
    arithmetic on signed types and logical on unsigned ones; a count outside
    0..width-1 (a negative one too) shifts every bit out: << and >>> give 0,
    >> gives 0, or -1 for a negative value;
  * popc, clz, ctz count the bits of the width's pattern (clz 0 = ctz 0 =
    the width), an i32;
  * conversions: integer to integer modulo 2^width; float to integer
    truncating toward zero and saturating, NaN to 0 (Rust's `as`); integer to
    float rounded to nearest, ties to even (once: not through f64 for f32);
    bool to numbers 0/1; numbers to bool `!= 0`.

Usage: python3 tools/oracles/ints.py [--check]
"""

import math
import os
import struct

import numpy as np

from weirval import ROOT, Writer, fmt_f64

INTS = ['i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64']
NP = {'i8': np.int8, 'i16': np.int16, 'i32': np.int32, 'i64': np.int64,
      'u8': np.uint8, 'u16': np.uint16, 'u32': np.uint32, 'u64': np.uint64}


def bits(t):
    return int(t[1:])


def signed(t):
    return t[0] == 'i'


def lo(t):
    return -(1 << (bits(t) - 1)) if signed(t) else 0


def hi(t):
    return (1 << (bits(t) - 1)) - 1 if signed(t) else (1 << bits(t)) - 1


def wrap(v, t):
    w = bits(t)
    m = v & ((1 << w) - 1)
    if signed(t) and m >= 1 << (w - 1):
        m -= 1 << w
    return m


# ---------------------------------------------------------------- values


def lit(v, t):
    """A value of type t in the text format."""
    if t == 'bool':
        return 'true' if v else 'false'
    if t == 'f64':
        return fmt_f64(v)
    if t == 'f32':
        x = float(np.float32(v))
        return ('nan' if math.isnan(x) else fmt_f64(x)) + 'f32'
    if t == 'i64':
        return str(v)
    return f'{v}{t}'


def src_lit(v, t):
    """A literal in a program (parenthesised when negative: an argument)."""
    s = lit(v, t)
    return f'({s})' if s.startswith('-') else s


def tup(vals):
    return '(' + ', '.join(vals) + ')' if len(vals) > 1 else vals[0]


class Blocks:
    """The test blocks of a file, as text."""

    def __init__(self):
        self.out = []

    def block(self, entry):
        self.out += ['', '-- ==', f'-- entry: {entry}']

    def case(self, inputs, outputs=None, error=None):
        self.out.append('-- input { ' + ' '.join(inputs) + ' }')
        if error is not None:
            self.out.append(f'-- error: {error}')
        else:
            self.out.append('-- output { ' + ' '.join(outputs) + ' }')


# ---------------------------------------------------------------- arithmetic


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trem(a, b):
    return a - b * tdiv(a, b)


def ipow(a, b, t):
    return wrap(pow(a, b, 1 << bits(t)), t)


def np_check(t, a, b, got):
    """NumPy's wrapping arithmetic agrees (+ - *; / and % where NumPy's
    floor division is the truncating one: operands of one sign)."""
    with np.errstate(over='ignore', divide='ignore'):
        x, y = np.array([a], dtype=NP[t]), np.array([b], dtype=NP[t])
        assert int((x + y)[0]) == got['add'], (t, a, b)
        assert int((x - y)[0]) == got['sub'], (t, a, b)
        assert int((x * y)[0]) == got['mul'], (t, a, b)
        assert int((-x)[0] if signed(t) else (np.zeros(1, NP[t]) - x)[0]) == got['neg'], (t, a)
        if b != 0 and a >= 0 and b > 0:
            assert int((x // y)[0]) == got['div'] and int((x % y)[0]) == got['rem'], (t, a, b)


def samples(t):
    """Interesting operands of type t."""
    w = bits(t)
    s = {0, 1, 2, 7, hi(t), hi(t) - 1, lo(t), lo(t) + 1, 1 << (w - 2)}
    if signed(t):
        s |= {-1, -7}
    return sorted(v for v in s if lo(t) <= v <= hi(t))


def pairs(t):
    """Operand pairs: everything against 0, 1, -1 and 7, the extremes
    against each other and 2, and a few others."""
    s = samples(t)
    out = []
    for a in s:
        for b in s:
            if b in (0, 1, -1, 7) or (a in (lo(t), hi(t)) and b in (lo(t), hi(t), 2)) \
                    or (a, b) in ((2, hi(t) - 1), (-7, 2), (1 << (bits(t) - 2), 2)):
                out.append((a, b))
    return out


def int_types():
    src = ['-- The integer types (issue 20): wrapping arithmetic, truncating division',
           '-- (MIN / -1 wraps), powers, comparisons, min/max/abs, the reductions with',
           '-- their neutral elements, scan and reduce_by_index, on every integer type,',
           '-- on the interpreter and in C. Generated by tools/oracles/ints.py (expected',
           '-- values: Python integers reduced modulo 2^width, checked against NumPy).', '']
    b = Blocks()
    for t in INTS:
        src += [f'entry arith_{t} (a: {t}) (b: {t}) : ({t}, {t}, {t}, {t}) = (a + b, a - b, a * b, -a)',
                f'entry divs_{t} (a: {t}) (b: {t}) : ({t}, {t}) = (a / b, a % b)',
                f'entry pow_{t} (a: {t}) (b: {t}) : {t} = a ** b',
                f'entry cmp_{t} (a: {t}) (b: {t}) : (bool, bool, bool, bool, bool, bool) =',
                f'  (a == b, a != b, a < b, a <= b, a > b, a >= b)',
                f'entry minmax_{t} (a: {t}) (b: {t}) : ({t}, {t}, {t}) = (min a b, max a b, abs a)',
                f'entry reds_{t} (xs: []{t}) : ({t}, {t}, {t}, {t}, i64, i64) =',
                f'  (sum xs, product xs, maximum xs, minimum xs, argmax xs, argmin xs)',
                f'entry scans_{t} (xs: []{t}) : ([]{t}, {t}, {t}) =',
                f'  (scan (+) 0 xs, reduce (*) 1 xs, reduce max {src_lit(lo(t), t)} xs)',
                f'entry hist_{t} (is: []i64) (vs: []{t}) : ([3]{t}, [3]{t}, [3]{t}) =',
                f'  (reduce_by_index (replicate 3 0) (+) 0 is vs,',
                f'   reduce_by_index (replicate 3 {src_lit(hi(t), t)}) min {src_lit(hi(t), t)} is vs,',
                f'   reduce_by_index (replicate 3 {src_lit(lo(t), t)}) max {src_lit(lo(t), t)} is vs)',
                '']
        ar, dv, pw, cm, mm = ([] for _ in range(5))
        for a, c in pairs(t):
            r = {'add': wrap(a + c, t), 'sub': wrap(a - c, t), 'mul': wrap(a * c, t),
                 'neg': wrap(-a, t)}
            if c != 0:
                r['div'], r['rem'] = wrap(tdiv(a, c), t), wrap(trem(a, c), t)
            np_check(t, a, c, r)
            ins = [lit(a, t), lit(c, t)]
            ar.append((ins, [tup([lit(r[k], t) for k in ('add', 'sub', 'mul', 'neg')])]))
            if c == 0:
                dv.append((ins, None))
            else:
                dv.append((ins, [tup([lit(r['div'], t), lit(r['rem'], t)])]))
            cm.append((ins, [tup([lit(v, 'bool') for v in
                                  (a == c, a != c, a < c, a <= c, a > c, a >= c)])]))
            mm.append((ins, [tup([lit(min(a, c), t), lit(max(a, c), t), lit(wrap(abs(a), t), t)])]))
        for a in [0, 1, 3, -1, -2, lo(t), hi(t)]:
            for e in [0, 1, 5, bits(t) - 1, 63, -1, hi(t)]:
                if not (lo(t) <= a <= hi(t) and lo(t) <= e <= hi(t)):
                    continue
                ins = [lit(a, t), lit(e, t)]
                pw.append((ins, None if e < 0 else [lit(ipow(a, e, t), t)]))
        for name, cases, err in ((f'arith_{t}', ar, None), (f'divs_{t}', dv, 'division by zero'),
                                 (f'pow_{t}', pw, 'negative exponent'), (f'cmp_{t}', cm, None),
                                 (f'minmax_{t}', mm, None)):
            b.block(name)
            for ins, outs in cases:
                if outs is None:
                    b.case(ins, error=err)
                else:
                    b.case(ins, outs)
        # reductions
        b.block(f'reds_{t}')
        for xs in ([], [5], [3, 1, 4, 1, 5, 9, 2, 6], [hi(t), 1, lo(t), hi(t), lo(t)],
                   [hi(t), hi(t), 2], [lo(t)] * 3, [7] * 40):
            xs = [x for x in xs if lo(t) <= x <= hi(t)]
            s = wrap(sum(xs), t)
            p = wrap(math.prod(xs), t)
            mx, mn = (max(xs), min(xs)) if xs else (lo(t), hi(t))
            am = xs.index(mx) if xs else -1
            an = xs.index(mn) if xs else -1
            arr = '[' + ', '.join(lit(x, t) for x in xs) + ']'
            b.case([arr], [tup([lit(s, t), lit(p, t), lit(mx, t), lit(mn, t), str(am), str(an)])])
        b.block(f'scans_{t}')
        for xs in ([], [1, 2, 3], [hi(t), 1, 2, lo(t), hi(t)], [3] * 70):
            acc, sc = 0, []
            for x in xs:
                acc = wrap(acc + x, t)
                sc.append(acc)
            arr = '[' + ', '.join(lit(x, t) for x in xs) + ']'
            out = '[' + ', '.join(lit(x, t) for x in sc) + ']'
            b.case([arr], [tup([out, lit(wrap(math.prod(xs), t), t),
                                lit(max(xs) if xs else lo(t), t)])])
        b.block(f'hist_{t}')
        for is_, vs in (([], []), ([0, 1, 2, 1, 5, -1, 0], [hi(t), 2, 3, hi(t), 9, 9, 1]),
                        ([2, 2, 2], [lo(t), lo(t), 1])):
            add = [0, 0, 0]
            mn = [hi(t)] * 3
            mx = [lo(t)] * 3
            for i, v in zip(is_, vs):
                if 0 <= i < 3:
                    add[i] = wrap(add[i] + v, t)
                    mn[i] = min(mn[i], v)
                    mx[i] = max(mx[i], v)
            arr = lambda xs, tt: '[' + ', '.join(lit(x, tt) for x in xs) + ']'
            b.case([arr(is_, 'i64'), arr(vs, t)], [tup([arr(add, t), arr(mn, t), arr(mx, t)])])
    # orderings against a type's least or greatest value (decided without
    # C's comparison, which draws -Wtype-limits: fuzz program 2927 of seed 7)
    src += ['-- orderings against the least and greatest values, which always hold or fail',
            'entry limits (x: u8) (y: i8) (z: u64) (w: i32) : (bool, bool, bool, bool, bool, bool, bool, bool) =',
            '  (x < 0u8, x >= 0u8, 255u8 >= x, y <= 127i8, -128i8 > y, z > 18446744073709551615u64,',
            '   w < -2147483648i32, 0u64 <= z)', '']
    b.block('limits')
    for x, y, z, w in ((3, -5, 7, -3), (0, -128, 2**64 - 1, -2**31), (255, 127, 0, 2**31 - 1)):
        out = [x < 0, x >= 0, 255 >= x, y <= 127, -128 > y, z > 2**64 - 1, w < -2**31, 0 <= z]
        b.case([lit(x, 'u8'), lit(y, 'i8'), lit(z, 'u64'), lit(w, 'i32')],
               [tup([lit(v, 'bool') for v in out])])
    return '\n'.join(src + b.out) + '\n'


# ---------------------------------------------------------------- bit operations


def shl(a, c, t):
    return 0 if c < 0 or c >= bits(t) else wrap(a << c, t)


def shr(a, c, t):
    if c < 0 or c >= bits(t):
        return -1 if a < 0 else 0
    return a >> c  # Python's >> is arithmetic, on unsigned values logical


def ushr(a, c, t):
    if c < 0 or c >= bits(t):
        return 0
    return wrap((a & ((1 << bits(t)) - 1)) >> c, t)


def pattern(a, t):
    return a & ((1 << bits(t)) - 1)


def popc(a, t):
    return bin(pattern(a, t)).count('1')


def clz(a, t):
    return bits(t) - pattern(a, t).bit_length()


def ctz(a, t):
    p = pattern(a, t)
    return bits(t) if p == 0 else (p & -p).bit_length() - 1


def bit_ops():
    src = ['-- Bitwise operators, shifts and bit counts (issue 20) on every integer type,',
           '-- with shift counts outside 0..width-1, precedence (as Python\'s: comparisons <',
           '-- | < ^ < & < shifts < + -) and operator sections, on the interpreter and in C.',
           '-- Generated by tools/oracles/ints.py (expected values: Python integers).', '']
    b = Blocks()
    for t in INTS:
        src += [f'entry bits_{t} (a: {t}) (b: {t}) : ({t}, {t}, {t}, {t}, {t}, {t}, {t}) =',
                f'  (a & b, a | b, a ^ b, a << b, a >> b, a >>> b, !a)',
                f'entry counts_{t} (a: {t}) : (i32, i32, i32) = (popc a, clz a, ctz a)',
                f'entry folds_{t} (xs: []{t}) : ({t}, {t}, {t}) =',
                f'  (reduce (&) (!0) xs, reduce (|) 0 xs, reduce (^) 0 xs)',
                f'entry shifts_{t} (xs: []{t}) (ks: []{t}) : ([]{t}, []{t}, []{t}) =',
                f'  (map2 (<<) xs ks, map2 (>>) xs ks, map2 (>>>) xs ks)',
                '']
        w = bits(t)
        b.block(f'bits_{t}')
        vals = sorted({v for v in (0, -1, 0x5A, hi(t), lo(t), hi(t) - 0x11, 3 << (w - 3))
                       if lo(t) <= v <= hi(t)})
        counts = sorted({c for c in (0, 3, w - 1, w, w + 1, -1, hi(t), lo(t))
                         if lo(t) <= c <= hi(t)})
        for a in vals:
            for c in counts:
                r = [wrap(a & c, t), wrap(a | c, t), wrap(a ^ c, t), shl(a, c, t), shr(a, c, t),
                     ushr(a, c, t), wrap(~a, t)]
                with np.errstate(over='ignore'):
                    x, y = np.array([a], NP[t]), np.array([c], NP[t])
                    assert [int((x & y)[0]), int((x | y)[0]), int((x ^ y)[0]), int((~x)[0])] \
                        == [r[0], r[1], r[2], r[6]]
                    if 0 <= c < w:
                        assert int((x << y)[0]) == r[3] and int((x >> y)[0]) == r[4], (t, a, c)
                b.case([lit(a, t), lit(c, t)], [tup([lit(v, t) for v in r])])
        b.block(f'counts_{t}')
        for a in sorted({v for v in (0, 1, 2, -1, lo(t), hi(t), 0x50, 6, 1 << (w - 2)) if lo(t) <= v <= hi(t)}):
            b.case([lit(a, t)], [tup([lit(popc(a, t), 'i32'), lit(clz(a, t), 'i32'),
                                      lit(ctz(a, t), 'i32')])])
        b.block(f'folds_{t}')
        for xs in ([], [hi(t)], [0x3C, 0x0F, 0x7E], [lo(t), -1, 0x55], [1, 2, 4, 8, 16]):
            xs = [x for x in xs if lo(t) <= x <= hi(t)]
            a = wrap(-1, t)
            o = x_ = 0
            for x in xs:
                a, o, x_ = a & x, o | x, x_ ^ x
            arr = '[' + ', '.join(lit(x, t) for x in xs) + ']'
            b.case([arr], [tup([lit(wrap(a, t), t), lit(wrap(o, t), t), lit(wrap(x_, t), t)])])
        b.block(f'shifts_{t}')
        xs = [x for x in (1, -1, 0x70, hi(t), lo(t), 3) if lo(t) <= x <= hi(t)]
        ks = [k for k in (0, 1, w - 1, w, -1, 3) if lo(t) <= k <= hi(t)][:len(xs)]
        xs = xs[:len(ks)]
        arr = lambda v: '[' + ', '.join(lit(x, t) for x in v) + ']'
        b.case([arr(xs), arr(ks)], [tup([arr([shl(x, k, t) for x, k in zip(xs, ks)]),
                                         arr([shr(x, k, t) for x, k in zip(xs, ks)]),
                                         arr([ushr(x, k, t) for x, k in zip(xs, ks)])])])
    # precedence, evaluated by Python with the same table on small values
    exprs = ['a | b ^ c & a << 1 + b', 'a & b == c', 'a ^ b != c | a', 'a << b >> c',
             'a + b << c - 1', 'a * b & c + 1', 'a | b & c ^ a', 'a >> 1 | b << 2 ^ c',
             '(a | b) & c', 'a & b | b & c', 'a - b >> 1 & 7 | c']
    src += ['-- precedence: each as written, then fully parenthesised by Python\'s own table']
    for k, e in enumerate(exprs):
        cmp = any(op in e for op in ('==', '!='))
        rt = 'bool' if cmp else 'i32'
        src.append(f'entry prec{k} (a: i32) (b: i32) (c: i32) : {rt} = {e}')
    src += ['-- `!` stays logical on bools; literals take the type of the other operand',
            'entry logic (a: u32) (b: u32) : (bool, u32, u32, u8, u64) =',
            '  (!(a < b) && !false, a & 0xff, !a >>> 28, let m: u8 = 255 in m & 0x0f,',
            '   0xffffffffffffffffu64 >> 60)',
            '-- sections of every bitwise operator, as arguments',
            'entry sections (xs: []u16) (ys: []u16) : ([]u16, []u16, []u16, []u16, []u16, []u16) =',
            '  (map2 (&) xs ys, map2 (|) xs ys, map2 (^) xs ys, map2 (<<) xs ys, map2 (>>) xs ys,',
            '   map2 (>>>) xs ys)', '']
    for k, e in enumerate(exprs):
        b.block(f'prec{k}')
        for a, c, d in ((5, 3, 1), (12, 10, 6), (-7, 2, 3), (100, 7, 2)):
            v = eval(e, {'a': a, 'b': c, 'c': d})  # noqa: S307 (a fixed expression)
            out = lit(bool(v), 'bool') if isinstance(v, bool) else lit(wrap(v, 'i32'), 'i32')
            b.case([lit(a, 'i32'), lit(c, 'i32'), lit(d, 'i32')], [out])
    b.block('logic')
    for a, c in ((3, 5), (0xdeadbeef, 1), (7, 7)):
        out = [lit(not (a < c) and True, 'bool'), lit(a & 0xff, 'u32'),
               lit(((~a) & 0xffffffff) >> 28, 'u32'), lit(255 & 0x0f, 'u8'), lit(15, 'u64')]
        b.case([lit(a, 'u32'), lit(c, 'u32')], [tup(out)])
    b.block('sections')
    xs, ys = [0xF0F0, 1, 0x8001, 65535, 12], [0x0FF0, 15, 16, 3, 2]
    t = 'u16'
    arr = lambda v: '[' + ', '.join(lit(x, t) for x in v) + ']'
    b.case([arr(xs), arr(ys)], [tup([arr([x & y for x, y in zip(xs, ys)]),
                                     arr([x | y for x, y in zip(xs, ys)]),
                                     arr([x ^ y for x, y in zip(xs, ys)]),
                                     arr([shl(x, y, t) for x, y in zip(xs, ys)]),
                                     arr([shr(x, y, t) for x, y in zip(xs, ys)]),
                                     arr([ushr(x, y, t) for x, y in zip(xs, ys)])])])
    return '\n'.join(src + b.out) + '\n'


# ---------------------------------------------------------------- conversions

TARGETS = INTS + ['f32', 'f64', 'bool']


def f32_of(x):
    """x (an int, or a float) rounded once to binary32, ties to even."""
    if isinstance(x, float):
        return float(np.float32(x))
    if x == 0:
        return 0.0
    s = -1 if x < 0 else 1
    m = abs(x)
    e = m.bit_length() - 24
    if e <= 0:
        return float(x)
    q, r = divmod(m, 1 << e)
    half = 1 << (e - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return float(s * q * 2**e)


def float_to_int(x, t):
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return hi(t) if x > 0 else lo(t)
    return max(lo(t), min(hi(t), math.trunc(x)))


def convert(x, src, t):
    if t == 'bool':
        return x != 0
    if src == 'bool':
        x = int(x)
    if t == 'f64':
        return float(x)
    if t == 'f32':
        return f32_of(x)
    if isinstance(x, float):
        return float_to_int(x, t)
    return wrap(x, t)


def conversions():
    src = ['-- Conversions between every numeric type and bool (issue 20, docs/language.md',
           '-- §4.2): integers modulo 2^width, floats to integers truncated and saturated',
           '-- (NaN to 0), integers to floats rounded to nearest once, bools 0/1, `!= 0`.',
           '-- On the interpreter and in C. Generated by tools/oracles/ints.py.', '']
    b = Blocks()
    tys = '(' + ', '.join(TARGETS) + ')'
    body = '(' + ', '.join(f'{t} x' for t in TARGETS) + ')'
    for s in INTS + ['f32', 'f64', 'bool']:
        src.append(f'entry from_{s} (x: {s}) : {tys} =\n  {body}')
    src += ['-- rounding to f32 once (2^53 + 2^29 + 1 through f64 would round twice, to',
            '-- 2^53), seen exactly through integers, and f64 -> f32 seen as an f64',
            'entry round_i64 (x: i64) : (i64, i64) = (i64 (f32 x), i64 (f64 x))',
            'entry round_u64 (x: u64) : (u64, u64) = (u64 (f32 x), u64 (f64 x))',
            'entry round_f64 (x: f64) : f64 = f64 (f32 x)', '']
    b.block('round_i64')
    for x in (16777217, 16777219, -16777219, 2**53 + 2**29 + 1, -(2**53 + 2**29 + 1), 2**53 + 1,
              2**63 - 1, -2**63, 2**39 - 1, 2**24 + 3):
        b.case([lit(x, 'i64')], [tup([lit(float_to_int(f32_of(x), 'i64'), 'i64'),
                                      lit(float_to_int(float(x), 'i64'), 'i64')])])
    b.block('round_u64')
    for x in (2**64 - 1, 2**63 + 2**39 + 1, 2**53 + 1, 2**63 + 2**40 + 2**39, 2**32 + 1, 0):
        b.case([lit(x, 'u64')], [tup([lit(float_to_int(f32_of(x), 'u64'), 'u64'),
                                      lit(float_to_int(float(x), 'u64'), 'u64')])])
    b.block('round_f64')
    b.out.append('-- tolerance: 0')
    for x in (0.1, 1.0 / 3.0, 16777217.0, 3.4028235677973366e38, 3.4028236e38, 1e-45, 7e-46,
              -2.5e-40, 1e39, 0.0, float('nan')):
        b.case([lit(x, 'f64')], [lit(float(np.float32(x)), 'f64')])
    for s in INTS + ['f32', 'f64', 'bool']:
        b.block(f'from_{s}')
        if s in INTS:
            xs = sorted({v for v in (0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769,
                                     65535, 65536, 2**31 - 1, 2**31, -2**31 - 1, 2**32 - 1,
                                     16777217, 2**53 + 2**29 + 1, 2**63 - 1, -2**63, 2**64 - 1,
                                     0x7f7f_7f7f, hi(s), lo(s))
                         if lo(s) <= v <= hi(s)})
        elif s == 'bool':
            xs = [False, True]
        else:
            xs = [0.0, -0.0, 0.5, -0.5, -0.99, -1.0, 1.9999, 127.9, 128.0, -128.0, -128.9,
                  -129.5, 255.5, 256.0, 65535.9, 65536.0, 2147483647.5, 2147483648.0,
                  -2147483649.0, 4294967295.5, 4294967296.0, 1e10, -1e10,
                  9.223372036854775e18, 9.2233720368547758e18, -9.2233720368547758e18,
                  1.8446744073709552e19, 3.4e38, 1e300, -1e300,
                  float('inf'), float('-inf'), float('nan')]
            if s == 'f32':
                xs = [float(np.float32(x)) for x in xs]
        for x in xs:
            outs = []
            for t in TARGETS:
                v = convert(x, s, t)
                if t in INTS and isinstance(x, float) is False and s != 'bool':
                    # NumPy's astype wraps integers the same way
                    assert int(np.array([x], dtype=object).astype(np.int64 if x < 2**63 else np.uint64)
                               .astype(NP[t])[0]) == v
                outs.append(lit(v, t))
            b.case([lit(x, s)], [tup(outs)])
    return '\n'.join(src + b.out) + '\n'


def main():
    np.seterr(all='ignore')
    w = Writer()
    regress = os.path.join(ROOT, 'tests', 'regress')
    w._put(os.path.join(regress, 'int_types.weir'), int_types())
    w._put(os.path.join(regress, 'bit_ops.weir'), bit_ops())
    w._put(os.path.join(regress, 'conversions.weir'), conversions())
    # (struct: f32_of agrees with C's rounding of doubles that are exact)
    assert struct.unpack('<f', struct.pack('<f', f32_of(16777217)))[0] == 16777216.0
    w.finish()


if __name__ == '__main__':
    main()
