#!/usr/bin/env python3
"""Input generator for the hand-written C baselines (bench/handwritten/).

Writes the inputs of one benchmark entry, either in the programs' binary format
(default) or in Weir's text value syntax (--text), from a seed and sizes:

  python3 mkinput.py add3 --n 100 --seed 1 -o add3_100.bin
  python3 mkinput.py cross --seed 1 -o cross.bin
  python3 mkinput.py ht --seed 1 -o ht.bin
  python3 mkinput.py ba_project --seed 1 -o ba_project.bin
  python3 mkinput.py ba_objective --cams 3 --pts 5 --obs 10 --seed 1 -o ba.bin
  python3 mkinput.py gmm_objective --n 100 --d 3 --k 5 --seed 1 -o gmm.bin
  python3 mkinput.py --text gmm_objective --n 100 --d 3 --k 5 --seed 1 -o gmm.txt
  python3 mkinput.py gmm_objective --from-text ../../examples/data/adbench/gmm_d2_K5.in -o g.bin
  python3 mkinput.py scan --n 10000000 --seed 1 -o scan.bin          (uniform in [-1, 1))
  python3 mkinput.py histogram --n 10000000 --bins 1000 --seed 1 -o h.bin
      (k = --bins, then n indices uniform in -p..k+p-1 with p = max(1, k // 200):
       about 1% of them fall outside 0..k and are ignored by the kernel)
  python3 mkinput.py filter --n 10000000 --seed 1 -o filter.bin      (standard normal:
      about half of the values are positive and kept, in random order)
  python3 mkinput.py partition --n 10000000 --seed 1 -o partition.bin   (standard
      normal: about 31%, 38% and 31% of the values fall below -0.5, in
      [-0.5, 0.5) and above, in random order)
  python3 mkinput.py padstencil --n 10000000 --seed 1 -o ps.bin    (uniform in [-1, 1))
  python3 mkinput.py rotstencil --n 10000000 --seed 1 -o rs.bin    (the same values)
  python3 mkinput.py transposecat --n 2000 --m 2000 --k 100 --seed 1 -o tc.bin
      (a: n x m, b: k x n, uniform in [-1, 1), a's elements first)
  python3 mkinput.py nw --n 2048 --penalty 10 --seed 1 -o nw.bin
      (Rodinia nw's size n: penalty, then refs, an (n+1) x (n+1) i64 matrix
       uniform in -4..11, BLOSUM62's range, row by row)

ADBench instances (../../../shared/data/adbench/, format in its FileFormat.md),
built exactly as `weir adbench gmm|ba FILE` builds them (a BA file stores one
camera, point, weight and feature; observation i uses camera i mod n and point
i mod m, and every copy is the same):

  python3 mkinput.py gmm_objective --adbench .../adbench/gmm/1k/gmm_d10_K25.txt -o g.bin
  python3 mkinput.py ba_objective --adbench .../adbench/ba/ba1_n49_m7776_p31843.txt -o ba1.bin

PolyBench/C 4.2.1 kernels (deterministic inputs, PolyBench's init_array
formulas as in the *_polybench entries of examples/{mm,2mm,3mm,jacobi1d,
jacobi2d,seidel2d,lu,forward_subst}.weir; --seed is ignored):

  python3 mkinput.py gemm --size LARGE -o gemm_large.bin     (alpha beta C A B)
  python3 mkinput.py mm2 --size MEDIUM -o 2mm.bin            (alpha beta A B C D)
  python3 mkinput.py mm3 --size SMALL -o 3mm.bin             (A B C D)
  python3 mkinput.py jacobi1d --size MINI -o j1.bin          (TSTEPS A B)
  python3 mkinput.py jacobi2d -o j2.bin                      (TSTEPS A B; MEDIUM)
  python3 mkinput.py seidel2d --dims 10,50 -o s.bin          (TSTEPS A)
  python3 mkinput.py lu --dims 1024 -o lu.bin                (A)
  python3 mkinput.py trisolv --size LARGE -o t.bin           (L b)

PolyBench/C 4.2.1 linear algebra (examples/polybench/*.weir, PolyBench's
init_array formulas; the kind is pb_ and PolyBench's name):

  python3 mkinput.py pb_atax --size LARGE -o atax.bin        (A x)
  python3 mkinput.py pb_bicg --size LARGE -o bicg.bin        (A p r)
  python3 mkinput.py pb_gemver -o gemver.bin                 (alpha beta A u1 v1 u2 v2 w x y z)
  python3 mkinput.py pb_gesummv -o gesummv.bin               (alpha beta A B x)
  python3 mkinput.py pb_mvt -o mvt.bin                       (x1 x2 y_1 y_2 A)
  python3 mkinput.py pb_symm -o symm.bin                     (alpha beta C A B)
  python3 mkinput.py pb_syr2k -o syr2k.bin                   (alpha beta C A B)
  python3 mkinput.py pb_syrk -o syrk.bin                     (alpha beta C A)
  python3 mkinput.py pb_trmm -o trmm.bin                     (alpha A B)
  python3 mkinput.py pb_doitgen -o doitgen.bin               (A C4)
  python3 mkinput.py pb_cholesky -o cholesky.bin             (A)

PolyBench/C 4.2.1 data mining, solvers, medley and stencils
(examples/polybench/*.weir, PolyBench's init_array formulas; deriche in
double precision):

  python3 mkinput.py pb_covariance -o cov.bin                (float_n data)
  python3 mkinput.py pb_correlation -o corr.bin              (float_n data)
  python3 mkinput.py pb_fdtd2d -o fdtd.bin                   (TMAX ex ey hz _fict_)
  python3 mkinput.py pb_heat3d -o heat.bin                   (TSTEPS A B)
  python3 mkinput.py pb_adi -o adi.bin                       (TSTEPS u)
  python3 mkinput.py pb_floyd_warshall -o fw.bin             (path, i64)
  python3 mkinput.py pb_durbin -o durbin.bin                 (r)
  python3 mkinput.py pb_gramschmidt -o gs.bin                (A)
  python3 mkinput.py pb_ludcmp -o ludcmp.bin                 (A b)
  python3 mkinput.py pb_nussinov -o nussinov.bin             (seq table, i64)
  python3 mkinput.py pb_deriche -o deriche.bin               (alpha imgIn)

Sizes (--size, default MEDIUM; --dims overrides them, in this order):
  gemm     NI,NJ,NK        MINI 20,25,30  SMALL 60,70,80  MEDIUM 200,220,240
                           LARGE 1000,1100,1200  EXTRALARGE 2000,2300,2600
  mm2      NI,NJ,NK,NL     16,18,22,24 / 40,50,70,80 / 180,190,210,220 /
                           800,900,1100,1200 / 1600,1800,2200,2400
  mm3      NI,NJ,NK,NL,NM  16,18,20,22,24 / 40,50,60,70,80 / 180,190,200,210,220 /
                           800,900,1000,1100,1200 / 1600,1800,2000,2200,2400
  jacobi1d TSTEPS,N        20,30 / 40,120 / 100,400 / 500,2000 / 1000,4000
  jacobi2d TSTEPS,N        20,30 / 40,90 / 100,250 / 500,1300 / 1000,2800
  seidel2d TSTEPS,N        20,40 / 40,120 / 100,400 / 500,2000 / 1000,4000
  lu       N               40 / 120 / 400 / 2000 / 4000
  trisolv  N               40 / 120 / 400 / 2000 / 4000
  pb_atax, pb_bicg            M,N   38,42 / 116,124 / 390,410 / 1900,2100 / 1800,2200
  pb_gemver, pb_mvt, pb_cholesky  N  40 / 120 / 400 / 2000 / 4000
  pb_gesummv                  N     30 / 90 / 250 / 1300 / 2800
  pb_symm, pb_syr2k, pb_syrk, pb_trmm  M,N  20,30 / 60,80 / 200,240 / 1000,1200 /
                                     2000,2600
  pb_doitgen                  NQ,NR,NP  8,10,12 / 20,25,30 / 40,50,60 /
                                     140,150,160 / 220,250,270
  pb_covariance, pb_correlation  M,N  28,32 / 80,100 / 240,260 / 1200,1400 /
                                     2600,3000
  pb_fdtd2d                   TMAX,NX,NY  20,20,30 / 40,60,80 / 100,200,240 /
                                     500,1000,1200 / 1000,2000,2600
  pb_heat3d                   TSTEPS,N  20,10 / 40,20 / 100,40 / 500,120 / 1000,200
  pb_adi                      TSTEPS,N  20,20 / 40,60 / 100,200 / 500,1000 / 1000,2000
  pb_floyd_warshall           N     60 / 180 / 500 / 2800 / 5600
  pb_durbin, pb_ludcmp        N     40 / 120 / 400 / 2000 / 4000
  pb_gramschmidt              M,N   20,30 / 60,80 / 200,240 / 1000,1200 / 2000,2600
  pb_nussinov                 N     60 / 180 / 500 / 2500 / 5500
  pb_deriche                  W,H   64,64 / 192,128 / 720,480 / 4096,2160 / 7680,4320

The same KIND, sizes and seed give the same values in both formats (text
floats use the shortest repr that reads back to the same double).  Without -o
the output goes to stdout.  --from-text converts a Weir value file (the
arguments of the entry, in order) to the binary format.  Large arrays are
built with NumPy when it can be imported, else with the array module (same
values either way).

Binary format (native little-endian, values one after another in parameter
order; size parameters are not passed): f64/i64 8 bytes, f32/i32 4 bytes,
bool 1 byte; an array of rank r is r int64 dims, then its elements row-major.
"""

import argparse
import array
import math
import random
import struct
import sys

try:
    import numpy as np
except ImportError:  # pure-Python fallback (array module)
    np = None

# Entry parameters: (name, element type, fixed dims; None = a size parameter).
SIGNATURES = {
    'add3': [('a', 'f64', (None,)), ('b', 'f64', (None,)), ('c', 'f64', (None,))],
    'cross': [('a', 'f64', (3,)), ('b', 'f64', (3,))],
    'ba_project': [('cam', 'f64', (11,)), ('x', 'f64', (3,))],
    'ba_objective': [('cams', 'f64', (None, 11)), ('xs', 'f64', (None, 3)), ('w', 'f64', (None,)),
                     ('obs', 'i64', (None, 2)), ('feats', 'f64', (None, 2))],
    'gmm_objective': [('alphas', 'f64', (None,)), ('means', 'f64', (None, None)),
                      ('icf', 'f64', (None, None)), ('x', 'f64', (None, None)),
                      ('gamma', 'f64', ()), ('m', 'i64', ())],
    'ht': [('aa', 'f64', (3,))],
    'gemm': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('c', 'f64', (None, None)),
             ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'mm2': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('a', 'f64', (None, None)),
            ('b', 'f64', (None, None)), ('c', 'f64', (None, None)), ('d', 'f64', (None, None))],
    'mm3': [('a', 'f64', (None, None)), ('b', 'f64', (None, None)),
            ('c', 'f64', (None, None)), ('d', 'f64', (None, None))],
    'jacobi1d': [('tsteps', 'i64', ()), ('a', 'f64', (None,)), ('b', 'f64', (None,))],
    'jacobi2d': [('tsteps', 'i64', ()), ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'seidel2d': [('tsteps', 'i64', ()), ('a', 'f64', (None, None))],
    'scan': [('a', 'f64', (None,))],
    'histogram': [('k', 'i64', ()), ('is', 'i64', (None,))],
    'filter': [('a', 'f64', (None,))],
    'partition': [('a', 'f64', (None,))],
    'padstencil': [('a', 'f64', (None,))],
    'rotstencil': [('a', 'f64', (None,))],
    'transposecat': [('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'nw': [('penalty', 'i64', ()), ('refs', 'i64', (None, None))],
    'lu': [('a', 'f64', (None, None))],
    'trisolv': [('l', 'f64', (None, None)), ('b', 'f64', (None,))],
    # PolyBench/C 4.2.1 linear algebra (examples/polybench/)
    'pb_atax': [('a', 'f64', (None, None)), ('x', 'f64', (None,))],
    'pb_bicg': [('a', 'f64', (None, None)), ('p', 'f64', (None,)), ('r', 'f64', (None,))],
    'pb_gemver': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('a', 'f64', (None, None))]
    + [(v, 'f64', (None,)) for v in ('u1', 'v1', 'u2', 'v2', 'w', 'x', 'y', 'z')],
    'pb_gesummv': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('a', 'f64', (None, None)),
                   ('b', 'f64', (None, None)), ('x', 'f64', (None,))],
    'pb_mvt': [('x1', 'f64', (None,)), ('x2', 'f64', (None,)), ('y1', 'f64', (None,)),
               ('y2', 'f64', (None,)), ('a', 'f64', (None, None))],
    'pb_symm': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('c', 'f64', (None, None)),
                ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'pb_syr2k': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('c', 'f64', (None, None)),
                 ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'pb_syrk': [('alpha', 'f64', ()), ('beta', 'f64', ()), ('c', 'f64', (None, None)),
                ('a', 'f64', (None, None))],
    'pb_trmm': [('alpha', 'f64', ()), ('a', 'f64', (None, None)), ('b', 'f64', (None, None))],
    'pb_doitgen': [('a', 'f64', (None, None, None)), ('c4', 'f64', (None, None))],
    'pb_cholesky': [('a', 'f64', (None, None))],
    # PolyBench/C 4.2.1 data mining, solvers, medley and stencils (examples/polybench/)
    'pb_covariance': [('float_n', 'f64', ()), ('data', 'f64', (None, None))],
    'pb_correlation': [('float_n', 'f64', ()), ('data', 'f64', (None, None))],
    'pb_fdtd2d': [('tmax', 'i64', ()), ('ex', 'f64', (None, None)), ('ey', 'f64', (None, None)),
                  ('hz', 'f64', (None, None)), ('fict', 'f64', (None,))],
    'pb_heat3d': [('tsteps', 'i64', ()), ('a', 'f64', (None, None, None)),
                  ('b', 'f64', (None, None, None))],
    'pb_adi': [('tsteps', 'i64', ()), ('u', 'f64', (None, None))],
    'pb_floyd_warshall': [('path', 'i64', (None, None))],
    'pb_durbin': [('r', 'f64', (None,))],
    'pb_gramschmidt': [('a', 'f64', (None, None))],
    'pb_ludcmp': [('a', 'f64', (None, None)), ('b', 'f64', (None,))],
    'pb_nussinov': [('seq', 'i64', (None,)), ('table', 'i64', (None, None))],
    'pb_deriche': [('alpha', 'f64', ()), ('img_in', 'f64', (None, None))],
}

# Result types, in the same form (a list: tuple components in order).
RESULTS = {
    'add3': [('f64', (None,))],
    'cross': [('f64', (3,))],
    'ba_project': [('f64', (2,))],
    'ba_objective': [('f64', (None, 2)), ('f64', (None,))],
    'gmm_objective': [('f64', ())],
    'ht': [('f64', (3, 3))],
    'gemm': [('f64', (None, None))],
    'mm2': [('f64', (None, None))],
    'mm3': [('f64', (None, None))],
    'jacobi1d': [('f64', (None,))],
    'jacobi2d': [('f64', (None, None))],
    'seidel2d': [('f64', (None, None))],
    'scan': [('f64', (None,))],
    'histogram': [('i64', (None,))],
    'filter': [('f64', (None,))],
    'partition': [('f64', (None,)), ('f64', (None,)), ('f64', (None,))],
    'padstencil': [('f64', (None,))],
    'rotstencil': [('f64', (None,))],
    'transposecat': [('f64', (None, None))],
    'nw': [('i64', (None, None))],
    'lu': [('f64', (None, None))],
    'trisolv': [('f64', (None,))],
    # PolyBench/C 4.2.1 linear algebra (examples/polybench/)
    'pb_atax': [('f64', (None,))],
    'pb_bicg': [('f64', (None,)), ('f64', (None,))],
    'pb_gemver': [('f64', (None, None)), ('f64', (None,)), ('f64', (None,))],
    'pb_gesummv': [('f64', (None,))],
    'pb_mvt': [('f64', (None,)), ('f64', (None,))],
    'pb_symm': [('f64', (None, None))],
    'pb_syr2k': [('f64', (None, None))],
    'pb_syrk': [('f64', (None, None))],
    'pb_trmm': [('f64', (None, None))],
    'pb_doitgen': [('f64', (None, None, None))],
    'pb_cholesky': [('f64', (None, None))],
    # PolyBench/C 4.2.1 data mining, solvers, medley and stencils (examples/polybench/)
    'pb_covariance': [('f64', (None, None))],
    'pb_correlation': [('f64', (None, None))],
    'pb_fdtd2d': [('f64', (None, None)), ('f64', (None, None)), ('f64', (None, None))],
    'pb_heat3d': [('f64', (None, None, None))],
    'pb_adi': [('f64', (None, None))],
    'pb_floyd_warshall': [('i64', (None, None))],
    'pb_durbin': [('f64', (None,))],
    'pb_gramschmidt': [('f64', (None, None)), ('f64', (None, None))],
    'pb_ludcmp': [('f64', (None,))],
    'pb_nussinov': [('i64', (None, None))],
    'pb_deriche': [('f64', (None, None))],
}

# Weir program and entry point of each benchmark (relative to the repository root).
ENTRIES = {
    'add3': ('examples/add3.weir', 'add3'),
    'cross': ('examples/cross.weir', 'cross'),
    'ba_project': ('examples/ba.weir', 'ba_project'),
    'ba_objective': ('examples/ba.weir', 'ba_objective'),
    'gmm_objective': ('examples/gmm.weir', 'gmm_objective'),
    'ht': ('examples/ht.weir', 'angle_axis_to_rotation_matrix'),
    'gemm': ('examples/mm.weir', 'gemm'),
    'mm2': ('examples/2mm.weir', 'mm2'),
    'mm3': ('examples/3mm.weir', 'mm3'),
    'jacobi1d': ('examples/jacobi1d.weir', 'jacobi_1d'),
    'jacobi2d': ('examples/jacobi2d.weir', 'jacobi_2d'),
    'seidel2d': ('examples/seidel2d.weir', 'seidel_2d'),
    'scan': ('examples/scan.weir', 'prefix_sum'),
    'histogram': ('examples/histogram.weir', 'histogram'),
    'filter': ('examples/filter.weir', 'positives'),
    'partition': ('examples/partition.weir', 'partition3'),
    'padstencil': ('examples/pad_stencil.weir', 'pad_stencil'),
    'rotstencil': ('examples/periodic_stencil.weir', 'periodic_stencil'),
    'transposecat': ('examples/transpose_cat.weir', 'transpose_cat'),
    'nw': ('examples/nw.weir', 'nw'),
    'lu': ('examples/lu.weir', 'lu'),
    'trisolv': ('examples/forward_subst.weir', 'forward_subst'),
    # PolyBench/C 4.2.1 linear algebra (examples/polybench/)
    'pb_atax': ('examples/polybench/atax.weir', 'atax'),
    'pb_bicg': ('examples/polybench/bicg.weir', 'bicg'),
    'pb_gemver': ('examples/polybench/gemver.weir', 'gemver'),
    'pb_gesummv': ('examples/polybench/gesummv.weir', 'gesummv'),
    'pb_mvt': ('examples/polybench/mvt.weir', 'mvt'),
    'pb_symm': ('examples/polybench/symm.weir', 'symm'),
    'pb_syr2k': ('examples/polybench/syr2k.weir', 'syr2k'),
    'pb_syrk': ('examples/polybench/syrk.weir', 'syrk'),
    'pb_trmm': ('examples/polybench/trmm.weir', 'trmm'),
    'pb_doitgen': ('examples/polybench/doitgen.weir', 'doitgen'),
    'pb_cholesky': ('examples/polybench/cholesky.weir', 'cholesky'),
    # PolyBench/C 4.2.1 data mining, solvers, medley and stencils (examples/polybench/)
    'pb_covariance': ('examples/polybench/covariance.weir', 'covariance'),
    'pb_correlation': ('examples/polybench/correlation.weir', 'correlation'),
    'pb_fdtd2d': ('examples/polybench/fdtd2d.weir', 'fdtd_2d'),
    'pb_heat3d': ('examples/polybench/heat3d.weir', 'heat_3d'),
    'pb_adi': ('examples/polybench/adi.weir', 'adi'),
    'pb_floyd_warshall': ('examples/polybench/floyd_warshall.weir', 'floyd_warshall'),
    'pb_durbin': ('examples/polybench/durbin.weir', 'durbin'),
    'pb_gramschmidt': ('examples/polybench/gramschmidt.weir', 'gramschmidt'),
    'pb_ludcmp': ('examples/polybench/ludcmp.weir', 'ludcmp'),
    'pb_nussinov': ('examples/polybench/nussinov.weir', 'nussinov'),
    'pb_deriche': ('examples/polybench/deriche.weir', 'deriche'),
}

# (shared rows of POLYBENCH_SIZES below)
_PB_ATAX_SIZES = {'MINI': (38, 42), 'SMALL': (116, 124), 'MEDIUM': (390, 410),
                  'LARGE': (1900, 2100), 'EXTRALARGE': (1800, 2200)}
_PB_N_SIZES = {'MINI': (40,), 'SMALL': (120,), 'MEDIUM': (400,), 'LARGE': (2000,),
               'EXTRALARGE': (4000,)}
_PB_MN_SIZES = {'MINI': (20, 30), 'SMALL': (60, 80), 'MEDIUM': (200, 240),
                'LARGE': (1000, 1200), 'EXTRALARGE': (2000, 2600)}
_PB_COV_SIZES = {'MINI': (28, 32), 'SMALL': (80, 100), 'MEDIUM': (240, 260),
                 'LARGE': (1200, 1400), 'EXTRALARGE': (2600, 3000)}

# PolyBench/C 4.2.1 dataset sizes, in the order of --dims.
POLYBENCH_SIZES = {
    'gemm': ('NI,NJ,NK', {'MINI': (20, 25, 30), 'SMALL': (60, 70, 80), 'MEDIUM': (200, 220, 240),
                          'LARGE': (1000, 1100, 1200), 'EXTRALARGE': (2000, 2300, 2600)}),
    'mm2': ('NI,NJ,NK,NL', {'MINI': (16, 18, 22, 24), 'SMALL': (40, 50, 70, 80),
                            'MEDIUM': (180, 190, 210, 220), 'LARGE': (800, 900, 1100, 1200),
                            'EXTRALARGE': (1600, 1800, 2200, 2400)}),
    'mm3': ('NI,NJ,NK,NL,NM', {'MINI': (16, 18, 20, 22, 24), 'SMALL': (40, 50, 60, 70, 80),
                               'MEDIUM': (180, 190, 200, 210, 220),
                               'LARGE': (800, 900, 1000, 1100, 1200),
                               'EXTRALARGE': (1600, 1800, 2000, 2200, 2400)}),
    'jacobi1d': ('TSTEPS,N', {'MINI': (20, 30), 'SMALL': (40, 120), 'MEDIUM': (100, 400),
                              'LARGE': (500, 2000), 'EXTRALARGE': (1000, 4000)}),
    'jacobi2d': ('TSTEPS,N', {'MINI': (20, 30), 'SMALL': (40, 90), 'MEDIUM': (100, 250),
                              'LARGE': (500, 1300), 'EXTRALARGE': (1000, 2800)}),
    'seidel2d': ('TSTEPS,N', {'MINI': (20, 40), 'SMALL': (40, 120), 'MEDIUM': (100, 400),
                              'LARGE': (500, 2000), 'EXTRALARGE': (1000, 4000)}),
    'lu': ('N', {'MINI': (40,), 'SMALL': (120,), 'MEDIUM': (400,), 'LARGE': (2000,),
                 'EXTRALARGE': (4000,)}),
    'trisolv': ('N', {'MINI': (40,), 'SMALL': (120,), 'MEDIUM': (400,), 'LARGE': (2000,),
                      'EXTRALARGE': (4000,)}),
    # PolyBench/C 4.2.1 linear algebra (examples/polybench/)
    'pb_atax': ('M,N', _PB_ATAX_SIZES),
    'pb_bicg': ('M,N', _PB_ATAX_SIZES),
    'pb_gemver': ('N', _PB_N_SIZES),
    'pb_gesummv': ('N', {'MINI': (30,), 'SMALL': (90,), 'MEDIUM': (250,), 'LARGE': (1300,),
                         'EXTRALARGE': (2800,)}),
    'pb_mvt': ('N', _PB_N_SIZES),
    'pb_symm': ('M,N', _PB_MN_SIZES),
    'pb_syr2k': ('M,N', _PB_MN_SIZES),
    'pb_syrk': ('M,N', _PB_MN_SIZES),
    'pb_trmm': ('M,N', _PB_MN_SIZES),
    'pb_doitgen': ('NQ,NR,NP', {'MINI': (8, 10, 12), 'SMALL': (20, 25, 30),
                                'MEDIUM': (40, 50, 60), 'LARGE': (140, 150, 160),
                                'EXTRALARGE': (220, 250, 270)}),
    'pb_cholesky': ('N', _PB_N_SIZES),
    # PolyBench/C 4.2.1 data mining, solvers, medley and stencils (examples/polybench/)
    'pb_covariance': ('M,N', _PB_COV_SIZES),
    'pb_correlation': ('M,N', _PB_COV_SIZES),
    'pb_fdtd2d': ('TMAX,NX,NY', {'MINI': (20, 20, 30), 'SMALL': (40, 60, 80),
                                 'MEDIUM': (100, 200, 240), 'LARGE': (500, 1000, 1200),
                                 'EXTRALARGE': (1000, 2000, 2600)}),
    'pb_heat3d': ('TSTEPS,N', {'MINI': (20, 10), 'SMALL': (40, 20), 'MEDIUM': (100, 40),
                               'LARGE': (500, 120), 'EXTRALARGE': (1000, 200)}),
    'pb_adi': ('TSTEPS,N', {'MINI': (20, 20), 'SMALL': (40, 60), 'MEDIUM': (100, 200),
                            'LARGE': (500, 1000), 'EXTRALARGE': (1000, 2000)}),
    'pb_floyd_warshall': ('N', {'MINI': (60,), 'SMALL': (180,), 'MEDIUM': (500,),
                                'LARGE': (2800,), 'EXTRALARGE': (5600,)}),
    'pb_durbin': ('N', _PB_N_SIZES),
    'pb_gramschmidt': ('M,N', _PB_MN_SIZES),
    'pb_ludcmp': ('N', _PB_N_SIZES),
    'pb_nussinov': ('N', {'MINI': (60,), 'SMALL': (180,), 'MEDIUM': (500,), 'LARGE': (2500,),
                          'EXTRALARGE': (5500,)}),
    'pb_deriche': ('W,H', {'MINI': (64, 64), 'SMALL': (192, 128), 'MEDIUM': (720, 480),
                           'LARGE': (4096, 2160), 'EXTRALARGE': (7680, 4320)}),
}


class Arr:
    """An array value: shape (tuple of ints) and flat row-major elements (a
    list, an array.array or a 1-D NumPy array)."""

    def __init__(self, shape, flat):
        self.shape = tuple(shape)
        self.flat = flat if isinstance(flat, (list, array.array)) or _is_ndarray(flat) else list(flat)
        assert math.prod(self.shape) == len(self.flat), (self.shape, len(self.flat))


def _is_ndarray(x):
    return np is not None and isinstance(x, np.ndarray)


# ---------------------------------------------------------------------------
# Generators


def _u(rng, lo, hi):
    return rng.uniform(lo, hi)


def rodrigues(rot, x):
    """The Weir/ADBench rodriguesRotatePoint (used to place points in front of cameras)."""
    sq = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2]
    if sq == 0.0:
        return list(x)
    t = math.sqrt(sq)
    c, s = math.cos(t), math.sin(t)
    w = [r / t for r in rot]
    wx = [w[1] * x[2] - w[2] * x[1], w[2] * x[0] - w[0] * x[2], w[0] * x[1] - w[1] * x[0]]
    tmp = (w[0] * x[0] + w[1] * x[1] + w[2] * x[2]) * (1.0 - c)
    return [x[i] * c + wx[i] * s + w[i] * tmp for i in range(3)]


def make_camera(rng):
    """11 parameters: small rotation, centre, focal length, principal point, distortion."""
    rot = [_u(rng, -0.2, 0.2) for _ in range(3)]
    centre = [_u(rng, -2.0, 2.0), _u(rng, -2.0, 2.0), _u(rng, -12.0, -8.0)]
    f = _u(rng, 300.0, 1000.0)
    x0 = [_u(rng, -10.0, 10.0), _u(rng, -10.0, 10.0)]
    k = [_u(rng, -0.05, 0.05), _u(rng, -0.005, 0.005)]
    return rot + centre + [f] + x0 + k


def gen_add3(rng, a):
    return [Arr((a.n,), [_u(rng, -10.0, 10.0) for _ in range(a.n)]) for _ in range(3)]


def gen_cross(rng, a):
    return [Arr((3,), [_u(rng, -10.0, 10.0) for _ in range(3)]) for _ in range(2)]


def gen_ht(rng, a):
    return [Arr((3,), [_u(rng, -2.0, 2.0) for _ in range(3)])]


def gen_ba_project(rng, a):
    cam = make_camera(rng)
    # a point in front of the camera: Xcam with z in [2, 10] inside the field of view,
    # then X = C + R^T Xcam (R^T is the rotation by -r).
    z = _u(rng, 2.0, 10.0)
    xcam = [_u(rng, -0.5, 0.5) * z, _u(rng, -0.5, 0.5) * z, z]
    back = rodrigues([-r for r in cam[0:3]], xcam)
    x = [cam[3 + i] + back[i] for i in range(3)]
    return [Arr((11,), cam), Arr((3,), x)]


def gen_ba_objective(rng, a):
    n, m, p = a.cams, a.pts, a.obs
    if p > 0 and (n < 1 or m < 1):
        sys.exit('mkinput: --obs > 0 needs --cams >= 1 and --pts >= 1')
    cams = []
    for _ in range(n):
        cams += make_camera(rng)
    # cameras sit around z = -10 looking along +z with small rotations; points in
    # the box [-1, 1]^3 are in front of every camera (z_cam roughly 6..14).
    xs = [_u(rng, -1.0, 1.0) for _ in range(3 * m)]
    w = [_u(rng, 0.5, 1.5) for _ in range(p)]
    obs = []
    for i in range(p):
        if a.obs_pattern == 'cyclic':  # ADBench's replication: (i mod n, i mod m)
            obs += [i % n, i % m]
        else:
            obs += [rng.randrange(n), rng.randrange(m)]
    feats = [_u(rng, -200.0, 200.0) for _ in range(2 * p)]
    return [Arr((n, 11), cams), Arr((m, 3), xs), Arr((p,), w), Arr((p, 2), obs), Arr((p, 2), feats)]


def gen_gmm_objective(rng, a):
    n, d, k = a.n, a.d, a.k
    q = d + d * (d - 1) // 2
    alphas = [rng.gauss(0.0, 1.0) for _ in range(k)]
    means = [_u(rng, -1.0, 1.0) for _ in range(k * d)]
    icf = []
    for _ in range(k):
        icf += [rng.gauss(0.0, 0.3) for _ in range(d)]  # log of the diagonal
        icf += [rng.gauss(0.0, 0.3) for _ in range(q - d)]  # strictly lower part
    x = [rng.gauss(0.0, 1.0) for _ in range(n * d)]
    return [Arr((k,), alphas), Arr((k, d), means), Arr((k, q), icf), Arr((n, d), x),
            float(a.gamma), int(a.m)]


def gen_scan(rng, a):
    # one rng.random() per element, straight into an array: 10^7 values take
    # a few seconds and no list of Python floats (same values with or without
    # NumPy)
    r = rng.random
    return [Arr((a.n,), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n))))]


def gen_histogram(rng, a):
    k = a.bins
    pad = max(1, k // 200)
    span = k + 2 * pad
    r = rng.random
    return [k, Arr((a.n,), array.array('q', (int(r() * span) - pad for _ in range(a.n))))]


def gen_filter(rng, a):
    # standard normal values, one rng.gauss() each: about half of them are
    # positive, and which ones is random (a branch on the sign mispredicts
    # half the time); straight into an array as for scan
    g = rng.gauss
    return [Arr((a.n,), array.array('d', (g(0.0, 1.0) for _ in range(a.n))))]


def gen_partition(rng, a):
    # standard normal values, one rng.gauss() each, as for filter: about 31%
    # below -0.5, 38% in [-0.5, 0.5) and 31% above, which part each value
    # goes to random (a branch on it mispredicts often)
    g = rng.gauss
    return [Arr((a.n,), array.array('d', (g(0.0, 1.0) for _ in range(a.n))))]


def gen_padstencil(rng, a):
    # uniform in [-1, 1), one rng.random() each, straight into an array as
    # for scan
    r = rng.random
    return [Arr((a.n,), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n))))]


def gen_rotstencil(rng, a):
    # the same values as padstencil's (uniform in [-1, 1))
    return gen_padstencil(rng, a)


def gen_transposecat(rng, a):
    # a: n x m, then b: k x n, uniform in [-1, 1) as for scan
    if a.m < 0:
        sys.exit('mkinput: --m must be >= 0')
    r = rng.random
    return [Arr((a.n, a.m), array.array('d', (2.0 * r() - 1.0 for _ in range(a.n * a.m)))),
            Arr((a.k, a.n), array.array('d', (2.0 * r() - 1.0 for _ in range(a.k * a.n))))]


def gen_nw(rng, a):
    # Rodinia nw at size n: the score matrices are (n+1) x (n+1); refs (the
    # BLOSUM62 score of each pair of letters in Rodinia) uniform in -4..11,
    # BLOSUM62's range, one rng.random() each, row by row
    if a.penalty < 0:
        sys.exit('mkinput: --penalty must be >= 0')
    m = a.n + 1
    r = rng.random
    return [a.penalty, Arr((m, m), array.array('q', (int(r() * 16) - 4 for _ in range(m * m))))]


# ---------------------------------------------------------------------------
# PolyBench/C 4.2.1 inputs: element (r, c) of a rows x cols matrix is
# (r * (c + cofs) + add) % mod / div, computed exactly in integers and then
# divided in double precision (Python's int / int and NumPy's float64 division
# of exactly representable integers both round the exact quotient once, as the
# C code and the Weir entries do).


def _poly_matrix(rows, cols, cofs, add, mod, div):
    """[rows][cols] with ((r * (c + cofs) + add) % mod) / div (mod None: no %)."""
    if np is not None:
        r = np.arange(rows, dtype=np.int64)[:, None]
        c = np.arange(cols, dtype=np.int64)[None, :]
        v = r * (c + cofs) + add
        if mod is not None:
            v = v % mod
        return Arr((rows, cols), (v.astype(np.float64) / float(div)).reshape(-1))
    flat = array.array('d')
    for r in range(rows):
        if mod is None:
            flat.extend([(r * (c + cofs) + add) / div for c in range(cols)])
        else:
            flat.extend([((r * (c + cofs) + add) % mod) / div for c in range(cols)])
    return Arr((rows, cols), flat)


def _poly_vector(n, add, div):
    """[n] with (i + add) / div."""
    if np is not None:
        return Arr((n,), (np.arange(n, dtype=np.int64) + add).astype(np.float64) / float(div))
    return Arr((n,), array.array('d', [(i + add) / div for i in range(n)]))


def gen_gemm(rng, a):
    ni, nj, nk = a.dims
    return [1.5, 1.2,
            _poly_matrix(ni, nj, 0, 1, ni, ni),   # C[i][j] = ((i*j+1) % ni) / ni
            _poly_matrix(ni, nk, 1, 0, nk, nk),   # A[i][k] = (i*(k+1) % nk) / nk
            _poly_matrix(nk, nj, 2, 0, nj, nj)]   # B[k][j] = (k*(j+2) % nj) / nj


def gen_mm2(rng, a):
    ni, nj, nk, nl = a.dims
    return [1.5, 1.2,
            _poly_matrix(ni, nk, 0, 1, ni, ni),   # A = ((i*j+1) % ni) / ni
            _poly_matrix(nk, nj, 1, 0, nj, nj),   # B = (i*(j+1) % nj) / nj
            _poly_matrix(nj, nl, 3, 1, nl, nl),   # C = ((i*(j+3)+1) % nl) / nl
            _poly_matrix(ni, nl, 2, 0, nk, nk)]   # D = (i*(j+2) % nk) / nk


def gen_mm3(rng, a):
    ni, nj, nk, nl, nm = a.dims
    return [_poly_matrix(ni, nk, 0, 1, ni, 5 * ni),   # A = ((i*j+1) % ni) / (5*ni)
            _poly_matrix(nk, nj, 1, 2, nj, 5 * nj),   # B = ((i*(j+1)+2) % nj) / (5*nj)
            _poly_matrix(nj, nm, 3, 0, nl, 5 * nl),   # C = (i*(j+3) % nl) / (5*nl)
            _poly_matrix(nm, nl, 2, 2, nk, 5 * nk)]   # D = ((i*(j+2)+2) % nk) / (5*nk)


def gen_jacobi1d(rng, a):
    tsteps, n = a.dims
    return [tsteps, _poly_vector(n, 2, n), _poly_vector(n, 3, n)]   # (i+2)/n, (i+3)/n


def gen_jacobi2d(rng, a):
    tsteps, n = a.dims
    return [tsteps,
            _poly_matrix(n, n, 2, 2, None, n),    # A = (i*(j+2)+2) / n
            _poly_matrix(n, n, 3, 3, None, n)]    # B = (i*(j+3)+3) / n


def gen_seidel2d(rng, a):
    tsteps, n = a.dims
    return [tsteps, _poly_matrix(n, n, 2, 2, None, n)]   # A = (i*(j+2)+2) / n


def gen_lu(rng, a):
    # A lower triangular, A[i][j] = (-j % n) / n + 1 below the diagonal (C's
    # truncating %: -j for j < n), 1 on it; then B = A * A^T with PolyBench's
    # sums B[r][s] = sum over t = 0 .. n-1 in order of A[r][t] * A[s][t].
    # Every A[i][j] on or below the diagonal is positive, so the products
    # with t > min(r, s) are +0.0 and leave the sum as it is: the sums run
    # over t <= min(r, s) only, as one rank-one update of the trailing block
    # per t (the same bits as PolyBench's loop, as lu_polybench computes).
    (n,) = a.dims
    col = [1.0 - j / n for j in range(n)]       # A[i][j], j < i; A[i][i] = 1
    if np is not None:
        low = np.tril(np.broadcast_to(np.array(col), (n, n)), -1) + np.eye(n)
        b = np.zeros((n, n))
        for t in range(n):
            v = low[t:, t]
            b[t:, t:] += np.outer(v, v)
        return [Arr((n, n), b.reshape(-1))]
    low = [[col[j] if j < i else (1.0 if j == i else 0.0) for j in range(n)] for i in range(n)]
    flat = array.array('d', [0.0]) * (n * n)
    for t in range(n):
        for r in range(t, n):
            for s in range(t, n):
                flat[r * n + s] += low[r][t] * low[s][t]
    return [Arr((n, n), flat)]


def gen_trisolv(rng, a):
    # L[i][j] = (i + n - j + 1) * 2 / n for j <= i (0 above the diagonal, which
    # PolyBench leaves uninitialised and the kernel never reads), b[i] = i
    (n,) = a.dims
    flat = array.array('d', [0.0]) * (n * n)
    for i in range(n):
        flat[i * n:i * n + i + 1] = array.array('d', [float(i + n - j + 1) * 2.0 / n
                                                      for j in range(i + 1)])
    return [Arr((n, n), flat), Arr((n,), array.array('d', [float(i) for i in range(n)]))]


# ---------------------------------------------------------------------------
# PolyBench/C 4.2.1 linear algebra (examples/polybench/*.weir): each
# generator is PolyBench's init_array, integer expressions (never a % of a
# negative operand, so C's and Python's % agree) divided in double precision.


def _pb_grid(rows, cols, fn, div):
    """[rows][cols] with fn(i, j) / div (fn an exact integer expression)."""
    if np is not None:
        i = np.arange(rows, dtype=np.int64)[:, None]
        j = np.arange(cols, dtype=np.int64)[None, :]
        v = np.broadcast_to(fn(i, j), (rows, cols)).astype(np.float64)
        return Arr((rows, cols), (v / float(div)).reshape(-1))
    return Arr((rows, cols), array.array('d', [fn(i, j) / div
                                               for i in range(rows) for j in range(cols)]))


def _pb_vec(n, fn):
    """[n] with fn(i), fn a float expression of the integer i."""
    if np is not None:
        return Arr((n,), fn(np.arange(n, dtype=np.int64)).astype(np.float64))
    return Arr((n,), array.array('d', [float(fn(i)) for i in range(n)]))


def gen_pb_atax(rng, a):
    m, n = a.dims
    return [_pb_grid(m, n, lambda i, j: (i + j) % n, 5 * m),   # A = ((i+j) % n) / (5*m)
            _pb_vec(n, lambda i: 1.0 + i / float(n))]          # x = 1 + i / n


def gen_pb_bicg(rng, a):
    m, n = a.dims
    return [_pb_grid(n, m, lambda i, j: i * (j + 1) % n, n),   # A[n][m] = (i*(j+1) % n) / n
            _pb_vec(m, lambda i: (i % m) / float(m)),          # p = (i % m) / m
            _pb_vec(n, lambda i: (i % n) / float(n))]          # r = (i % n) / n


def gen_pb_gemver(rng, a):
    (n,) = a.dims
    fn = float(n)
    frac = lambda d: _pb_vec(n, lambda i: ((i + 1) / fn) / d)  # noqa: E731
    zero = _pb_vec(n, lambda i: 0.0 * i)
    return [1.5, 1.2, _pb_grid(n, n, lambda i, j: i * j % n, n),   # A = (i*j % n) / n
            _pb_vec(n, lambda i: 1.0 * i),                         # u1 = i
            frac(4.0), frac(2.0), frac(6.0),                       # v1, u2, v2
            zero, zero,                                            # w, x = 0
            frac(8.0), frac(9.0)]                                  # y, z


def gen_pb_gesummv(rng, a):
    (n,) = a.dims
    return [1.5, 1.2,
            _pb_grid(n, n, lambda i, j: (i * j + 1) % n, n),   # A = ((i*j+1) % n) / n
            _pb_grid(n, n, lambda i, j: (i * j + 2) % n, n),   # B = ((i*j+2) % n) / n
            _pb_vec(n, lambda i: (i % n) / float(n))]          # x = (i % n) / n


def gen_pb_mvt(rng, a):
    (n,) = a.dims
    return [_pb_vec(n, lambda i: (i % n) / float(n)),          # x1
            _pb_vec(n, lambda i: ((i + 1) % n) / float(n)),    # x2
            _pb_vec(n, lambda i: ((i + 3) % n) / float(n)),    # y_1
            _pb_vec(n, lambda i: ((i + 4) % n) / float(n)),    # y_2
            _pb_grid(n, n, lambda i, j: i * j % n, n)]         # A = (i*j % n) / n


def gen_pb_symm(rng, a):
    m, n = a.dims
    # A's upper triangle is -999 (PolyBench: "regions of arrays that should
    # not be used"); (i+j) % 100 / m on and below the diagonal
    if np is not None:
        i = np.arange(m, dtype=np.int64)[:, None]
        j = np.arange(m, dtype=np.int64)[None, :]
        am = Arr((m, m), np.where(j <= i, ((i + j) % 100).astype(np.float64) / float(m),
                                  -999.0).reshape(-1))
    else:
        am = Arr((m, m), array.array('d', [((i + j) % 100) / m if j <= i else -999.0
                                           for i in range(m) for j in range(m)]))
    return [1.5, 1.2,
            _pb_grid(m, n, lambda i, j: (i + j) % 100, m),       # C = ((i+j) % 100) / m
            am,
            _pb_grid(m, n, lambda i, j: (n + i - j) % 100, m)]   # B = ((n+i-j) % 100) / m


def gen_pb_syr2k(rng, a):
    m, n = a.dims
    return [1.5, 1.2,
            _pb_grid(n, n, lambda i, j: (i * j + 3) % n, m),   # C[n][n] = ((i*j+3) % n) / m
            _pb_grid(n, m, lambda i, j: (i * j + 1) % n, n),   # A[n][m] = ((i*j+1) % n) / n
            _pb_grid(n, m, lambda i, j: (i * j + 2) % m, m)]   # B[n][m] = ((i*j+2) % m) / m


def gen_pb_syrk(rng, a):
    m, n = a.dims
    return [1.5, 1.2,
            _pb_grid(n, n, lambda i, j: (i * j + 2) % m, m),   # C[n][n] = ((i*j+2) % m) / m
            _pb_grid(n, m, lambda i, j: (i * j + 1) % n, n)]   # A[n][m] = ((i*j+1) % n) / n


def gen_pb_trmm(rng, a):
    m, n = a.dims
    # A[i][j] = ((i+j) % m) / m below the diagonal, 1 on it; PolyBench leaves
    # the part above uninitialised (the kernel never reads it): 0 here
    if np is not None:
        i = np.arange(m, dtype=np.int64)[:, None]
        j = np.arange(m, dtype=np.int64)[None, :]
        am = np.where(j < i, ((i + j) % m).astype(np.float64) / float(m),
                      np.where(j == i, 1.0, 0.0))
        am = Arr((m, m), am.reshape(-1))
    else:
        am = Arr((m, m), array.array('d', [((i + j) % m) / m if j < i else (1.0 if j == i else 0.0)
                                           for i in range(m) for j in range(m)]))
    return [1.5, am,
            _pb_grid(m, n, lambda i, j: (n + (i - j)) % n, n)]   # B = ((n+(i-j)) % n) / n


def gen_pb_doitgen(rng, a):
    nq, nr, np_ = a.dims
    # A[r][q][p] = ((r*q + p) % np) / np, C4[i][j] = (i*j % np) / np
    if np is not None:
        r = np.arange(nr, dtype=np.int64)[:, None, None]
        q = np.arange(nq, dtype=np.int64)[None, :, None]
        p = np.arange(np_, dtype=np.int64)[None, None, :]
        av = ((r * q + p) % np_).astype(np.float64) / float(np_)
        arr3 = Arr((nr, nq, np_), av.reshape(-1))
    else:
        arr3 = Arr((nr, nq, np_), array.array('d', [((r * q + p) % np_) / np_ for r in range(nr)
                                                    for q in range(nq) for p in range(np_)]))
    return [arr3, _pb_grid(np_, np_, lambda i, j: i * j % np_, np_)]


def gen_pb_cholesky(rng, a):
    # PolyBench's cholesky init_array is lu's (a positive definite A A^T)
    return gen_lu(rng, a)


# ---------------------------------------------------------------------------
# PolyBench/C 4.2.1 data mining, solvers, medley and stencils
# (examples/polybench/*.weir): PolyBench's init_array, integer expressions
# divided in double precision.


def _pb_arr(shape, fn, py):
    """An array of the given shape: fn(*index grids) with NumPy, else py(*indices)
    element by element (both give the same doubles or ints)."""
    if np is not None:
        grids = np.indices(shape, dtype=np.int64)
        v = np.broadcast_to(fn(*grids), shape)
        return Arr(shape, np.ascontiguousarray(v).reshape(-1))
    import itertools
    code = 'q' if isinstance(py(*[0] * len(shape)), int) else 'd'
    return Arr(shape, array.array(code, [py(*ix) for ix in itertools.product(*map(range, shape))]))


def gen_pb_covariance(rng, a):
    m, n = a.dims
    # float_n = N; data[i][j] = ((double) i * j) / M
    return [float(n), _pb_grid(n, m, lambda i, j: i * j, m)]


def gen_pb_correlation(rng, a):
    m, n = a.dims
    # float_n = N; data[i][j] = (double)(i * j) / M + i
    return [float(n), _pb_arr((n, m), lambda i, j: (i * j).astype(np.float64) / float(m) + i,
                              lambda i, j: (i * j) / m + i)]


def gen_pb_fdtd2d(rng, a):
    tmax, nx, ny = a.dims
    return [tmax,
            _pb_grid(nx, ny, lambda i, j: i * (j + 1), nx),   # ex = ((double) i*(j+1)) / NX
            _pb_grid(nx, ny, lambda i, j: i * (j + 2), ny),   # ey = ((double) i*(j+2)) / NY
            _pb_grid(nx, ny, lambda i, j: i * (j + 3), nx),   # hz = ((double) i*(j+3)) / NX
            _pb_vec(tmax, lambda t: 1.0 * t)]                 # _fict_[t] = t


def gen_pb_heat3d(rng, a):
    tsteps, n = a.dims
    # A[i][j][k] = B[i][j][k] = (double)(i + j + (N-k)) * 10 / N
    mk = lambda: _pb_arr((n, n, n), lambda i, j, k: ((i + j + (n - k)) * 10).astype(np.float64) / float(n),  # noqa: E731
                         lambda i, j, k: ((i + j + (n - k)) * 10) / n)
    return [tsteps, mk(), mk()]


def gen_pb_adi(rng, a):
    tsteps, n = a.dims
    return [tsteps, _pb_grid(n, n, lambda i, j: i + n - j, n)]   # u = (double)(i + N - j) / N


def gen_pb_floyd_warshall(rng, a):
    (n,) = a.dims
    # path[i][j] = i*j % 7 + 1, and 999 where (i+j) % 13, % 7 or % 11 is 0
    def fn(i, j):
        s = i + j
        return np.where((s % 13 == 0) | (s % 7 == 0) | (s % 11 == 0), 999, i * j % 7 + 1)

    def py(i, j):
        s = i + j
        return 999 if (s % 13 == 0 or s % 7 == 0 or s % 11 == 0) else i * j % 7 + 1
    return [_pb_arr((n, n), fn, py)]


def gen_pb_durbin(rng, a):
    (n,) = a.dims
    return [_pb_vec(n, lambda i: 1.0 * (n + 1 - i))]   # r = N + 1 - i


def gen_pb_gramschmidt(rng, a):
    m, n = a.dims
    # A[i][j] = (((double) ((i*j) % M) / M) * 100) + 10
    return [_pb_arr((m, n), lambda i, j: ((i * j) % m).astype(np.float64) / float(m) * 100.0 + 10.0,
                    lambda i, j: ((i * j) % m) / m * 100.0 + 10.0)]


def gen_pb_ludcmp(rng, a):
    # A: lu's positive definite A A^T (PolyBench's ludcmp init_array builds it
    # the same way); b[i] = (i + 1) / fn / 2.0 + 4 with fn = N
    (n,) = a.dims
    fn = float(n)
    return gen_lu(rng, a) + [_pb_vec(n, lambda i: (i + 1) / fn / 2.0 + 4.0)]


def gen_pb_nussinov(rng, a):
    (n,) = a.dims
    # seq[i] = (i + 1) % 4 (PolyBench's char bases), table all 0
    return [_pb_arr((n,), lambda i: (i + 1) % 4, lambda i: (i + 1) % 4),
            _pb_arr((n, n), lambda i, j: 0 * i * j, lambda i, j: 0)]


def gen_pb_deriche(rng, a):
    w, h = a.dims
    # alpha = 0.25; imgIn[i][j] = (double)((313*i + 991*j) % 65536) / 65535.0f
    return [0.25, _pb_grid(w, h, lambda i, j: (313 * i + 991 * j) % 65536, 65535.0)]

# ---------------------------------------------------------------------------
# ADBench text files (the same instance as `weir adbench gmm|ba FILE`,
# crates/driver/src/adbench.rs)


class _Tokens:
    def __init__(self, path, what):
        with open(path) as f:
            self.tok = f.read().split()
        self.pos, self.what, self.path = 0, what, path

    def floats(self, cnt):
        if self.pos + cnt > len(self.tok):
            sys.exit('mkinput: %s file %s ends early (after %d numbers)' %
                     (self.what, self.path, len(self.tok)))
        try:
            out = [float(t) for t in self.tok[self.pos:self.pos + cnt]]
        except ValueError as e:
            sys.exit('mkinput: %s file %s: %s' % (self.what, self.path, e))
        self.pos += cnt
        return out

    def end(self):
        if self.pos != len(self.tok):
            sys.exit('mkinput: %s file %s: %d numbers left over after the instance (not a %s file?)' %
                     (self.what, self.path, len(self.tok) - self.pos, self.what))

    def count(self):
        v = self.floats(1)[0]
        if not (v >= 0 and v == int(v) and v <= 1e12):
            sys.exit('mkinput: %s file %s: number %d should be a count, found %r' %
                     (self.what, self.path, self.pos, v))
        return int(v)


def adbench_gmm(path):
    t = _Tokens(path, 'GMM')
    d, k, n = t.count(), t.count(), t.count()
    q = d + d * (d - 1) // 2 if d > 0 else 0
    alphas = t.floats(k)
    means = t.floats(k * d)
    icf = t.floats(k * q)
    x = t.floats(n * d)
    gamma = t.floats(1)[0]
    m = int(t.floats(1)[0])
    t.end()
    return [Arr((k,), alphas), Arr((k, d), means), Arr((k, q), icf), Arr((n, d), x), gamma, m]


def adbench_ba(path):
    t = _Tokens(path, 'BA')
    n, m, p = t.count(), t.count(), t.count()
    if n == 0 or m == 0:
        sys.exit('mkinput: BA file %s: the number of cameras and points must be positive' % path)
    cam = t.floats(11)
    x = t.floats(3)
    w = t.floats(1)[0]
    feat = t.floats(2)
    t.end()
    if np is not None:
        idx = np.arange(p, dtype=np.int64)
        obs = np.empty((p, 2), dtype=np.int64)
        obs[:, 0] = idx % n
        obs[:, 1] = idx % m
        return [Arr((n, 11), np.tile(np.array(cam), n)), Arr((m, 3), np.tile(np.array(x), m)),
                Arr((p,), np.full(p, w)), Arr((p, 2), obs.reshape(-1)),
                Arr((p, 2), np.tile(np.array(feat), p))]
    obs = array.array('q', [0]) * (2 * p)
    obs[0::2] = array.array('q', [i % n for i in range(p)])
    obs[1::2] = array.array('q', [i % m for i in range(p)])
    return [Arr((n, 11), array.array('d', cam) * n), Arr((m, 3), array.array('d', x) * m),
            Arr((p,), array.array('d', [w]) * p), Arr((p, 2), obs),
            Arr((p, 2), array.array('d', feat) * p)]


GENERATORS = {
    'add3': gen_add3, 'cross': gen_cross, 'ht': gen_ht, 'ba_project': gen_ba_project,
    'ba_objective': gen_ba_objective, 'gmm_objective': gen_gmm_objective,
    'gemm': gen_gemm, 'mm2': gen_mm2, 'mm3': gen_mm3,
    'jacobi1d': gen_jacobi1d, 'jacobi2d': gen_jacobi2d, 'seidel2d': gen_seidel2d,
    'scan': gen_scan, 'histogram': gen_histogram, 'filter': gen_filter,
    'partition': gen_partition, 'padstencil': gen_padstencil,
    'rotstencil': gen_rotstencil,
    'transposecat': gen_transposecat,
    'nw': gen_nw, 'lu': gen_lu, 'trisolv': gen_trisolv,
    'pb_atax': gen_pb_atax, 'pb_bicg': gen_pb_bicg, 'pb_gemver': gen_pb_gemver,
    'pb_gesummv': gen_pb_gesummv, 'pb_mvt': gen_pb_mvt, 'pb_symm': gen_pb_symm,
    'pb_syr2k': gen_pb_syr2k, 'pb_syrk': gen_pb_syrk, 'pb_trmm': gen_pb_trmm,
    'pb_doitgen': gen_pb_doitgen, 'pb_cholesky': gen_pb_cholesky,
    'pb_covariance': gen_pb_covariance, 'pb_correlation': gen_pb_correlation,
    'pb_fdtd2d': gen_pb_fdtd2d, 'pb_heat3d': gen_pb_heat3d, 'pb_adi': gen_pb_adi,
    'pb_floyd_warshall': gen_pb_floyd_warshall, 'pb_durbin': gen_pb_durbin,
    'pb_gramschmidt': gen_pb_gramschmidt, 'pb_ludcmp': gen_pb_ludcmp,
    'pb_nussinov': gen_pb_nussinov, 'pb_deriche': gen_pb_deriche,
}

ADBENCH_READERS = {'gmm_objective': adbench_gmm, 'ba_objective': adbench_ba}

# ---------------------------------------------------------------------------
# Weir text values


def fmt_f64(x):
    x = float(x)
    if math.isnan(x):
        return 'nan'
    if math.isinf(x):
        return 'inf' if x > 0 else '-inf'
    return repr(x).replace('e+', 'e')


def fmt_scalar(ty, x):
    return fmt_f64(x) if ty == 'f64' else str(int(x))


def fmt_value(ty, v):
    if not isinstance(v, Arr):
        return fmt_scalar(ty, v)

    def rec(shape, flat, off):
        if not shape:
            return fmt_scalar(ty, flat[off])
        step = math.prod(shape[1:])
        return '[' + ', '.join(rec(shape[1:], flat, off + i * step) for i in range(shape[0])) + ']'

    return rec(v.shape, v.flat, 0)


def parse_values(text):
    """Parse Weir text values (numbers, inf/nan, true/false, arrays, tuples) into
    nested Python lists (arrays), tuples and floats/ints."""
    toks = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ',':
            if ch == ',':
                toks.append(',')
            i += 1
        elif text.startswith('--', i):  # comment
            while i < n and text[i] != '\n':
                i += 1
        elif ch in '[]()':
            toks.append(ch)
            i += 1
        else:
            j = i
            while j < n and not (text[j].isspace() or text[j] in ',[]()'):
                j += 1
            toks.append(text[i:j])
            i = j
    pos = 0

    def atom(t):
        if t in ('true', 'false'):
            return t == 'true'
        neg = t.startswith('-')
        body = (t[1:] if neg else t).replace('_', '')
        if body in ('inf', 'nan'):
            x = float(body)
            return -x if neg else x
        if body.lower().startswith('0x'):
            x = int(body.lower().removesuffix('i64').removesuffix('i32'), 16)
            return -x if neg else x
        is_float = False
        for suf in ('f64', 'f32', 'i64', 'i32'):
            if body.endswith(suf):
                body = body[:-3]
                is_float = suf[0] == 'f'
                break
        x = float(body) if (is_float or any(c in body for c in '.eE')) else int(body)
        return -x if neg else x

    def value():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t in '[(':
            close = ']' if t == '[' else ')'
            items = []
            while toks[pos] != close:
                items.append(value())
                if toks[pos] == ',':
                    pos += 1
            pos += 1
            return items if t == '[' else tuple(items)
        return atom(t)

    out = []
    while pos < len(toks):
        out.append(value())
    return out


def to_arr(v, fixed, ty):
    """A nested list as an Arr with the parameter's rank; the inner dims of an
    empty array come from the signature's constants (else 0)."""
    rank = len(fixed)
    shape, cur = [], v
    for r in range(rank):
        if not isinstance(cur, list):
            sys.exit('mkinput: value has a lower rank than the parameter')
        shape.append(len(cur))
        if not cur:
            shape += [f if f is not None else 0 for f in fixed[r + 1:]]
            break
        cur = cur[0]
    flat = []

    def rec(x, depth):
        if depth == rank:
            flat.append(float(x) if ty == 'f64' else int(x))
            return
        if len(x) != shape[depth]:
            sys.exit('mkinput: irregular array')
        for y in x:
            rec(y, depth + 1)

    rec(v, 0)
    return Arr(shape, flat)


# ---------------------------------------------------------------------------
# Binary


def _flat_bytes(ty, flat):
    """The elements as packed little-endian bytes (bulk conversion)."""
    code = 'd' if ty == 'f64' else 'q'
    if _is_ndarray(flat):
        return np.ascontiguousarray(flat, dtype='<f8' if ty == 'f64' else '<i8').tobytes()
    if not (isinstance(flat, array.array) and flat.typecode == code):
        flat = array.array(code, [float(x) if ty == 'f64' else int(x) for x in flat])
    if sys.byteorder != 'little':
        flat = array.array(code, flat)
        flat.byteswap()
    return flat.tobytes()


def pack_value(ty, fixed, v):
    code = '<d' if ty == 'f64' else '<q'
    if not fixed:
        return struct.pack(code, float(v) if ty == 'f64' else int(v))
    assert isinstance(v, Arr) and len(v.shape) == len(fixed)
    return struct.pack('<%dq' % len(v.shape), *v.shape) + _flat_bytes(ty, v.flat)


def unpack_values(kind, data, sig=None):
    """Decode a binary stream of values of the given types (default: the kind's
    results); arrays come back as Arr, scalars as float/int."""
    sig = sig if sig is not None else RESULTS[kind]
    off, vals = 0, []
    for ty, fixed in sig:
        code = 'd' if ty == 'f64' else 'q'
        if not fixed:
            vals.append(struct.unpack_from('<' + code, data, off)[0])
            off += 8
            continue
        rank = len(fixed)
        shape = struct.unpack_from('<%dq' % rank, data, off)
        off += 8 * rank
        cnt = math.prod(shape)
        if off + 8 * cnt > len(data):
            raise ValueError('the binary data ends inside an array of shape %s' % (shape,))
        flat = array.array(code, data[off:off + 8 * cnt])
        if sys.byteorder != 'little':
            flat.byteswap()
        off += 8 * cnt
        vals.append(Arr(shape, flat))
    if off != len(data):
        raise ValueError('%d trailing bytes in the binary data' % (len(data) - off))
    return vals


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('kind', choices=sorted(SIGNATURES))
    ap.add_argument('--text', action='store_true', help="write Weir's text value syntax")
    ap.add_argument('--from-text', metavar='FILE', help='convert a Weir value file instead of generating')
    ap.add_argument('--adbench', metavar='FILE',
                    help='gmm_objective, ba_objective: convert an ADBench instance (text file)')
    ap.add_argument('--size', choices=['MINI', 'SMALL', 'MEDIUM', 'LARGE', 'EXTRALARGE'],
                    default='MEDIUM', help='PolyBench kernels: dataset size (default MEDIUM)')
    ap.add_argument('--dims', metavar='N,N,..',
                    help='PolyBench kernels: explicit sizes instead of --size (order above)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--n', type=int, default=100,
                    help='add3, scan, histogram, filter, partition, padstencil, rotstencil: length; '
                    'gmm: number of points; transposecat: rows of a, columns of b; '
                    'nw: Rodinia size (the matrices are n+1 square)')
    ap.add_argument('--bins', type=int, default=1000, help='histogram: number of bins k')
    ap.add_argument('--penalty', type=int, default=10, help='nw: gap penalty')
    ap.add_argument('--d', type=int, default=3, help='gmm: dimension')
    ap.add_argument('--k', type=int, default=5,
                    help='gmm: number of components; transposecat: rows of b')
    ap.add_argument('--gamma', type=float, default=1.0, help='gmm: Wishart gamma')
    ap.add_argument('--m', type=int, default=0,
                    help='gmm: Wishart m; transposecat: columns of a')
    ap.add_argument('--cams', type=int, default=3, help='ba_objective: cameras')
    ap.add_argument('--pts', type=int, default=5, help='ba_objective: points')
    ap.add_argument('--obs', type=int, default=10, help='ba_objective: observations')
    ap.add_argument('--obs-pattern', choices=['cyclic', 'random'], default='cyclic',
                    help='ba_objective: (i mod cams, i mod pts) as ADBench, or random pairs')
    ap.add_argument('-o', '--output', help='output file (default: stdout)')
    a = ap.parse_args()

    sig = SIGNATURES[a.kind]
    if a.from_text and a.adbench:
        sys.exit('mkinput: --from-text and --adbench exclude each other')
    if a.kind in POLYBENCH_SIZES:
        names, table = POLYBENCH_SIZES[a.kind]
        if a.dims:
            try:
                a.dims = tuple(int(x) for x in a.dims.split(','))
            except ValueError:
                sys.exit('mkinput: --dims needs comma-separated integers (%s)' % names)
            # the sizes are moduli and divisors of the init formulas: positive;
            # TSTEPS may be 0
            lows = [0 if nm == 'TSTEPS' else 1 for nm in names.split(',')]
            if len(a.dims) != len(lows) or any(x < lo for x, lo in zip(a.dims, lows)):
                sys.exit('mkinput: %s --dims needs %s (sizes >= 1, TSTEPS >= 0)' % (a.kind, names))
        else:
            a.dims = table[a.size]
    elif a.dims:
        sys.exit('mkinput: --dims is for the PolyBench kernels only')
    if a.adbench:
        if a.kind not in ADBENCH_READERS:
            sys.exit('mkinput: --adbench is for %s only' % ' and '.join(sorted(ADBENCH_READERS)))
        vals = ADBENCH_READERS[a.kind](a.adbench)
    elif a.from_text:
        with open(a.from_text) as f:
            raw = parse_values(f.read())
        if len(raw) != len(sig):
            sys.exit('mkinput: %s has %d values, %s takes %d' % (a.from_text, len(raw), a.kind, len(sig)))
        vals = [to_arr(v, fixed, ty) if fixed else v for v, (_, ty, fixed) in zip(raw, sig)]
    else:
        for opt in ('n', 'd', 'k', 'bins', 'cams', 'pts', 'obs'):
            if getattr(a, opt) < 0:
                sys.exit('mkinput: --%s must be >= 0' % opt)
        vals = GENERATORS[a.kind](random.Random(a.seed), a)

    if a.text:
        data = ('\n'.join(fmt_value(ty, v) for v, (_, ty, _f) in zip(vals, sig)) + '\n').encode()
    else:
        data = b''.join(pack_value(ty, fixed, v) for v, (_, ty, fixed) in zip(vals, sig))
    if a.output and a.output != '-':
        with open(a.output, 'wb') as f:
            f.write(data)
    else:
        sys.stdout.buffer.write(data)


if __name__ == '__main__':
    main()
