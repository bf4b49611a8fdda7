#!/usr/bin/env python3
"""Oracle for examples/nbody.weir: the direct-sum gravitational n-body
simulation (G = 1, softening eps, a body does not pull itself) and its energy.

The expected values are computed with plain Python floats in the order of
operations the example states (its header comment): r = pos_j - pos_i,
d2 = ((r.x r.x + r.y r.y) + r.z r.z) + eps eps, inv = 1 / sqrt d2,
s = m_j ((inv inv) inv), a_ij = (s r.x, s r.y, s r.z); a_i is the sum over
j = 0, 1, ... from 0.0 (the term j = i is 0.0); then vel' = vel + dt a_i and
pos' = pos + dt vel'. The energy is sum_i (0.5 m_i) |v_i|^2 minus the sum over
i of the sums over j (the terms j <= i being 0.0) of m_i m_j / sqrt(d2).
Every result is also checked against an independent NumPy version (pairwise
summation, so a different order) within the test blocks' tolerance.

Writes examples/data/nbody_64.{in,out}, nbody_arrays_64.{in,out},
nbody_energy_64.{in,out} (64 bodies from a fixed seed) and rewrites the test
blocks of examples/nbody.weir.
Usage: python3 tools/oracles/nbody.py [--check]
"""

import math

import numpy as np

from weirval import Block, Record, Writer

# relative tolerance of the test blocks: compiled code may sum a `reduce` or a
# `sum` in another order (docs/language.md section 11)
TOL = 1e-12


# --------------------------------------------------------------------------
# Plain Python, in the example's order of operations. A body is
# (mass, (px, py, pz), (vx, vy, vz)): the tuple Weir stores for the record
# {pos, vel, mass} (fields sorted by name).
# --------------------------------------------------------------------------


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def accel(eps, bi, bj):
    r = tuple(pj - pi for pj, pi in zip(bj[1], bi[1]))
    d2 = dot(r, r) + eps * eps
    inv = 1.0 / math.sqrt(d2)
    inv3 = inv * inv * inv
    s = bj[0] * inv3
    return (s * r[0], s * r[1], s * r[2])


def advance(dt, eps, bodies):
    out = []
    for i, bi in enumerate(bodies):
        a = (0.0, 0.0, 0.0)
        for j, bj in enumerate(bodies):
            t = (0.0, 0.0, 0.0) if j == i else accel(eps, bi, bj)
            a = (a[0] + t[0], a[1] + t[1], a[2] + t[2])
        vel = tuple(v + dt * ak for v, ak in zip(bi[2], a))
        pos = tuple(p + dt * v for p, v in zip(bi[1], vel))
        out.append((bi[0], pos, vel))
    return out


def simulate(k, dt, eps, bodies):
    for _ in range(k):
        bodies = advance(dt, eps, bodies)
    return bodies


def energy(eps, bodies):
    ke = 0.0
    for m, _, v in bodies:
        ke = ke + 0.5 * m * dot(v, v)
    pe = 0.0
    for i, (mi, pi, _) in enumerate(bodies):
        row = 0.0
        for j, (mj, pj, _) in enumerate(bodies):
            if j <= i:
                t = 0.0
            else:
                r = tuple(a - b for a, b in zip(pj, pi))
                t = mi * mj / math.sqrt(dot(r, r) + eps * eps)
            row = row + t
        pe = pe + row
    return ke - pe


# --------------------------------------------------------------------------
# NumPy, vectorised over the pairs (another summation order): a check of the
# above within TOL.
# --------------------------------------------------------------------------


def np_simulate(k, dt, eps, m, p, v):
    n = len(m)
    off = ~np.eye(n, dtype=bool)
    for _ in range(k):
        r = p[None, :, :] - p[:, None, :]               # r[i, j] = p[j] - p[i]
        d2 = np.einsum('ijk,ijk->ij', r, r) + eps * eps
        with np.errstate(divide='ignore'):
            s = np.where(off, m[None, :] / d2 ** 1.5, 0.0)
        a = np.sum(s[:, :, None] * r, axis=1)
        v = v + dt * a
        p = p + dt * v
    return p, v


def np_energy(eps, m, p, v):
    ke = np.sum(0.5 * m * np.sum(v * v, axis=1))
    iu = np.triu_indices(len(m), 1)
    r = p[iu[1]] - p[iu[0]]
    pe = np.sum(m[iu[0]] * m[iu[1]] / np.sqrt(np.sum(r * r, axis=1) + eps * eps))
    return ke - pe


def arrays(bodies):
    m = np.array([b[0] for b in bodies], dtype=np.float64)
    p = np.array([b[1] for b in bodies], dtype=np.float64).reshape(len(bodies), 3)
    v = np.array([b[2] for b in bodies], dtype=np.float64).reshape(len(bodies), 3)
    return m, p, v


def close(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return np.all(np.abs(a - b) <= TOL * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b))))


def checked_simulate(k, dt, eps, bodies):
    out = simulate(k, dt, eps, bodies)
    m, p, v = arrays(bodies)
    p2, v2 = np_simulate(k, dt, eps, m, p, v)
    _, p1, v1 = arrays(out)
    assert close(p1, p2) and close(v1, v2), 'NumPy n-body disagrees'
    return out


def checked_energy(eps, bodies):
    e = energy(eps, bodies)
    assert close(e, np_energy(eps, *arrays(bodies))), 'NumPy energy disagrees'
    return e


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------


def rec(b):
    """The input form of a body: a record."""
    m, p, v = b
    return Record(pos=Record(x=p[0], y=p[1], z=p[2]), vel=Record(x=v[0], y=v[1], z=v[2]),
                  mass=m)


def soa(bodies):
    """The seven arrays of `nbody_arrays`: xs ys zs vxs vys vzs masses."""
    m, p, v = arrays(bodies)
    return [p[:, 0], p[:, 1], p[:, 2], v[:, 0], v[:, 1], v[:, 2], m]


def body(m, p, v):
    return (float(m), tuple(float(x) for x in p), tuple(float(x) for x in v))


def main():
    w = Writer()

    # 64 bodies in the cube [-1, 1]^3, total mass about 1, slow; 6 digits
    rng = np.random.default_rng(20251127)
    n = 64
    pos = np.round(rng.uniform(-1.0, 1.0, (n, 3)), 6)
    vel = np.round(rng.uniform(-0.1, 0.1, (n, 3)), 6)
    mass = np.round(rng.uniform(0.5, 1.5, n) / n, 6)
    big = [body(mass[i], pos[i], vel[i]) for i in range(n)]
    k, dt, eps = 20, 0.01, 0.05
    big_out = checked_simulate(k, dt, eps, big)
    w.data('data/nbody_64.in', [k, dt, eps, [rec(b) for b in big]])
    w.data('data/nbody_64.out', [big_out])
    w.data('data/nbody_arrays_64.in', [k, dt, eps] + soa(big))
    w.data('data/nbody_arrays_64.out', soa(big_out)[:6])
    w.data('data/nbody_energy_64.in', [eps, [rec(b) for b in big]])
    w.data('data/nbody_energy_64.out', [checked_energy(eps, big)])

    # two bodies at rest, 1 apart on the x axis, masses 1 and 2, no softening:
    # by hand, a = (2, -1) then vel = (1, -0.5), pos = (0.5, 0.75); then
    # r = 0.25, a = (32, -16), vel = (17, -8.5), pos = (9, -3.5)
    two = [(1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (2.0, (1.0, 0.0, 0.0), (0.0, 0.0, 0.0))]
    # two bodies 3 apart on the y axis with eps = 4: d2 = 25, inv3 = 1/125
    soft = [(1.0, (0.0, 0.0, 0.0), (0.5, 0.0, 0.0)), (2.0, (0.0, 3.0, 0.0), (0.0, 0.0, -0.5))]
    # a lone body moves in a straight line (no NaN from itself with eps = 0)
    lone = [(3.0, (1.0, -2.0, 0.5), (0.25, 0.5, -1.0))]
    rest = [(3.0, (1.0, -2.0, 0.5), (0.0, 0.0, 0.0))]
    three = [(1.0, (0.0, 0.0, 0.0), (0.0, 0.1, 0.0)),
             (0.5, (1.0, 0.0, 0.0), (0.0, -0.2, 0.0)),
             (0.25, (0.0, 1.0, 1.0), (0.3, 0.0, 0.0))]
    cases = [(2, 0.5, 0.0, two), (1, 1.0, 4.0, soft), (3, 0.25, 0.0, lone),
             (5, 0.1, 0.0, rest), (0, 0.1, 0.01, three), (4, 0.05, 0.01, three),
             (3, 0.1, 0.0, [])]

    hand = simulate(2, 0.5, 0.0, two)
    assert hand == [(1.0, (9.0, 0.0, 0.0), (17.0, 0.0, 0.0)),
                    (2.0, (-3.5, 0.0, 0.0), (-8.5, 0.0, 0.0))], hand
    assert simulate(5, 0.1, 0.0, rest) == rest
    assert simulate(0, 0.1, 0.01, three) == three

    blk = Block('nbody').tolerance(TOL)
    for kk, d, e, bs in cases:
        blk.input(kk, d, e, [rec(b) for b in bs]).output(checked_simulate(kk, d, e, bs))
    blk.input_file('data/nbody_64.in').output_file('data/nbody_64.out')

    # by hand: two bodies 1 apart, masses 1 and 2, the second moving at 1:
    # kinetic 0.5 * 2 * 1 = 1, potential -2, total -1
    moving = [(1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (2.0, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))]
    assert energy(0.0, moving) == -1.0
    eblk = Block('energy').tolerance(TOL)
    for e, bs in ((0.0, moving), (4.0, soft), (0.0, lone), (0.01, three),
                  (0.01, simulate(4, 0.05, 0.01, three)), (0.0, [])):
        eblk.input(e, [rec(b) for b in bs]).output(checked_energy(e, bs))
    eblk.input_file('data/nbody_energy_64.in').output_file('data/nbody_energy_64.out')

    ablk = Block('nbody_arrays').tolerance(TOL)
    for kk, d, e, bs in ((2, 0.5, 0.0, two), (4, 0.05, 0.01, three), (3, 0.1, 0.0, [])):
        ablk.input(kk, d, e, *soa(bs)).output(*soa(checked_simulate(kk, d, e, bs))[:6])
    ablk.input_file('data/nbody_arrays_64.in').output_file('data/nbody_arrays_64.out')
    x = np.array([0.0, 1.0])
    ablk.input(1, 0.1, 0.0, x, x, x, x, x, x, np.array([1.0])).error('size mismatch')

    w.blocks('nbody.weir', [blk, eblk, ablk])
    w.finish()


if __name__ == '__main__':
    main()
