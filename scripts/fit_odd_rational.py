#!/usr/bin/python3
"""Fits the rational functions tgc computes erf and tanh with.

    scripts/fit_odd_rational.py erf 3.92 5 5
    scripts/fit_odd_rational.py tanh 9.02 4 4

f(x) ~ x P(x^2) / Q(x^2) on [0, LIMIT] (f odd, and 1.0f to the last bit
beyond LIMIT), P of degree M and Q of degree N in x^2 with Q(0) = 1, fitted
to the relative error: a linearized least-squares fit (x P - f Q weighted by
1 / (f Q) of the previous round) followed by Lawson reweighting, which moves
weight to where the error peaks and so approaches the minimax fit. Prints
the largest relative error on the fitting points and the coefficients, the
constant term first, as TensorBuilderMath.cpp holds them. The test that the
result is good in float is test/lit/Codegen/erf-tanh-run.mlir.
"""
import math
import sys

import numpy as np


def fit(f, limit, m, n, rounds=30, lawson=300, points=4000):
    k = np.arange(points)
    # Chebyshev points, dense at both ends, and an even grid.
    x = limit * (1 - np.cos(np.pi * (k + 0.5) / points)) / 2
    x = np.sort(np.concatenate([x, np.linspace(1e-4, limit, points)]))
    fx = np.array([f(v) for v in x])
    t = x * x
    q_at = np.ones_like(x)
    weight = np.ones_like(x)
    best = None
    for step in range(rounds + lawson):
        # Unknowns p0..pm, q1..qn: x P(t) - f Q(t) = 0, q0 = 1.
        a = np.hstack([x[:, None] * t[:, None] ** np.arange(m + 1),
                       -fx[:, None] * t[:, None] ** np.arange(1, n + 1)])
        scale = weight / np.abs(fx * q_at)
        sol, *_ = np.linalg.lstsq(a * scale[:, None], fx * scale, rcond=None)
        p = sol[:m + 1]
        q = np.concatenate([[1.0], sol[m + 1:]])
        q_at = np.polyval(q[::-1], t)
        err = (x * np.polyval(p[::-1], t) / q_at - fx) / fx
        worst = np.max(np.abs(err))
        if best is None or worst < best[0]:
            best = (worst, p, q)
        if step >= rounds:
            weight = weight * np.sqrt(np.abs(err))
            weight /= weight.max()
    return best


def main():
    name, limit, m, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    f = {'erf': math.erf, 'tanh': math.tanh}[name]
    worst, p, q = fit(f, limit, m, n)
    print('// largest relative error %.3g (%.2f float ulps)' % (worst, worst / 2**-24))
    for label, c in (('p', p), ('q', q)):
        print('static constexpr double %s[] = {%s};' % (label, ', '.join(repr(float(v)) for v in c)))


if __name__ == '__main__':
    main()
