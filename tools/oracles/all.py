#!/usr/bin/env python3
"""Run every oracle (adbench_expected first: gmm.py and ba.py reference its files).
Usage: python3 tools/oracles/all.py [--check]"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLES = ['adbench_expected.py', 'linalg.py', 'add3.py', 'cross.py', 'ba.py', 'gmm.py',
           'ht.py', 'polybench.py', 'scan.py', 'histogram.py', 'filter.py', 'partition.py',
           'inplace.py', 'polybench_more.py', 'tile.py', 'batch.py', 'nbody.py',
           'sobol.py', 'mandelbrot.py']

failed = []
for o in ORACLES:
    print(f'== {o}')
    r = subprocess.run([sys.executable, os.path.join(HERE, o)] + sys.argv[1:], cwd=HERE)
    if r.returncode != 0:
        failed.append(o)
if failed:
    print('FAILED:', ' '.join(failed), file=sys.stderr)
    sys.exit(1)
