#!/usr/bin/env python3
"""Oracle for examples/mandelbrot.weir: escape-time Mandelbrot images packed
as ARGB u32 pixels.

The escape counts are computed with NumPy, vectorised over the image, in the
example's order of operations (zr' = zr*zr - zi*zi + cr, zi' = 2*zr*zi + ci,
c = (x0 + x*dx, y0 + y*dy)), and checked against a plain Python loop for the
small images; the colours and the packing with Python integers and masks.

Writes examples/data/mandelbrot_*.{in,out} and rewrites the test blocks of
examples/mandelbrot.weir.
Usage: python3 tools/oracles/mandelbrot.py [--check]
"""

import numpy as np

from weirval import Block, Writer


def counts(w, h, limit, x0, y0, x1, y1):
    dx = np.float64(x1 - x0) / np.float64(w) if w else np.inf
    dy = np.float64(y1 - y0) / np.float64(h) if h else np.inf
    cr = x0 + np.arange(w, dtype=np.float64) * dx
    ci = y0 + np.arange(h, dtype=np.float64) * dy
    CR, CI = np.meshgrid(cr, ci)
    zr = np.zeros((h, w))
    zi = np.zeros((h, w))
    k = np.zeros((h, w), dtype=np.int64)
    active = np.ones((h, w), dtype=bool)
    for _ in range(limit):
        active &= zr * zr + zi * zi <= 4.0
        nzr = zr * zr - zi * zi + CR
        nzi = 2.0 * zr * zi + CI
        zr = np.where(active, nzr, zr)
        zi = np.where(active, nzi, zi)
        k += active
    return k


def counts_loop(w, h, limit, x0, y0, x1, y1):
    dx = np.float64(x1 - x0) / np.float64(w) if w else np.inf
    dy = np.float64(y1 - y0) / np.float64(h) if h else np.inf
    out = np.zeros((h, w), dtype=np.int64)
    for y in range(h):
        for x in range(w):
            cr, ci = x0 + x * dx, y0 + y * dy
            zr = zi = 0.0
            k = 0
            while k < limit and zr * zr + zi * zi <= 4.0:
                zr, zi, k = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci, k + 1
            out[y, x] = k
    return out


def argb(r, g, b):
    return 0xff000000 | (r & 0xff) << 16 | (g & 0xff) << 8 | (b & 0xff)


def colour(limit, k):
    if k >= limit:
        return argb(0, 0, 0)
    return argb(k * 8, k * 4, 255 - k)


def image(*args):
    limit = args[2]
    k = counts(*args)
    return np.array([[colour(limit, int(v)) for v in row] for row in k], dtype=np.uint32)


def main():
    w = Writer()
    views = [(8, 6, 30, -2.0, -1.0, 1.0, 1.0), (5, 5, 50, -0.75, 0.0, -0.7, 0.05),
             (3, 1, 1, -2.0, -1.0, 1.0, 1.0), (0, 2, 10, -2.0, -1.0, 1.0, 1.0)]
    m = Block('mandelbrot')
    for v in views:
        assert np.array_equal(counts(*v), counts_loop(*v))
        m.input(*v).output(image(*v))
    big = (64, 48, 100, -2.25, -1.25, 0.75, 1.25)
    assert np.array_equal(counts(*big), counts_loop(*big))
    img = image(*big)
    w.data('data/mandelbrot_64x48.in', list(big))
    w.data('data/mandelbrot_64x48.out', [img])
    m.input_file('data/mandelbrot_64x48.in').output_file('data/mandelbrot_64x48.out')

    c = Block('channels')
    px = img.reshape(-1)[:12]
    for p in (px, np.zeros(0, dtype=np.uint32), np.array([0xff000000, 0x12345678], dtype=np.uint32)):
        p = np.asarray(p, dtype=np.uint32)
        c.input(p).output(*((p >> s & 0xff).astype(np.uint8) for s in (24, 16, 8, 0)))

    hb = Block('escape_histogram')
    for im in (image(*views[0]), img):
        inside = im == 0xff000000
        ks = (255 - (im & 0xff)).astype(np.int64)[~inside]
        hb.input(im).output(np.bincount(ks, minlength=256).astype(np.int64))
    w.blocks('mandelbrot.weir', [m, c, hb])
    w.finish()


if __name__ == '__main__':
    main()
