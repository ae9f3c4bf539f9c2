#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""Bjontegaard delta rate: the mean difference of two rate-distortion
curves' log rates over their common quality range. Used by
tools/rd/rd_curves.py (WIH1 and peers against JPEG) and
bench/bench_motion_rd.sh (the motion search with and without its rate
term). Run alone, it checks itself against closed forms."""
import math

import numpy as np


def _pchip(x, y, t):
    """Monotone piecewise-cubic Hermite interpolation (Fritsch and Carlson)
    of the points (x, y), x increasing, at t (within [x0, xn])."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    h, d = np.diff(x), np.diff(y) / np.diff(x)
    m = np.zeros_like(y)
    m[0], m[-1] = d[0], d[-1]
    for k in range(1, len(x) - 1):
        if d[k - 1] * d[k] > 0:
            w1, w2 = 2 * h[k] + h[k - 1], h[k] + 2 * h[k - 1]
            m[k] = (w1 + w2) / (w1 / d[k - 1] + w2 / d[k])
    k = np.clip(np.searchsorted(x, t, side="right") - 1, 0, len(x) - 2)
    s = (t - x[k]) / h[k]
    return ((2 * s**3 - 3 * s**2 + 1) * y[k] + (s**3 - 2 * s**2 + s) * h[k] * m[k] +
            (-2 * s**3 + 3 * s**2) * y[k + 1] + (s**3 - s**2) * h[k] * m[k + 1])


def bd_rate(ref, test):
    """Bjontegaard delta rate of test against ref, lists of (bpp, psnr): the
    mean difference of log rate over the common PSNR range, in percent, and
    how log rate was fitted against PSNR: the classic cubic polynomial when
    both curves have 4 points or more, else monotone piecewise-cubic
    interpolation (the variant for few points, as in AV1's and VVC's common
    test conditions). None when a curve has fewer than 2 points or the
    ranges do not overlap."""
    if len(ref) < 2 or len(test) < 2:
        return None, None
    ref, test = sorted(ref, key=lambda p: p[1]), sorted(test, key=lambda p: p[1])
    lo = max(ref[0][1], test[0][1])
    hi = min(ref[-1][1], test[-1][1])
    if lo >= hi:
        return None, None
    if len(ref) >= 4 and len(test) >= 4:
        def area(pts):
            c = np.polyint(np.polyfit([p[1] for p in pts], np.log([p[0] for p in pts]), 3))
            return np.polyval(c, hi) - np.polyval(c, lo)
        method = "cubic fit"
    else:
        t = np.linspace(lo, hi, 2001)
        def area(pts):
            v = _pchip([p[1] for p in pts], np.log([p[0] for p in pts]), t)
            return float(np.sum((v[1:] + v[:-1]) / 2 * np.diff(t)))
        method = "piecewise cubic"
    return (math.exp((area(test) - area(ref)) / (hi - lo)) - 1) * 100, method


def _selfcheck():
    # A curve at 0.8x the rate of another at every quality is -20 %, both by
    # the cubic fit (>= 4 points) and the piecewise cubic (fewer).
    for n in (3, 6):
        ref = [(b, 20 + 6 * math.log2(b)) for b in np.linspace(0.2, 2.0, n)]
        test = [(0.8 * b, p) for b, p in ref]
        v, method = bd_rate(ref, test)
        assert abs(v + 20) < 1e-6, (n, v)
        assert method == ("cubic fit" if n >= 4 else "piecewise cubic"), method
    assert bd_rate([(1, 30)], [(1, 30), (2, 33)]) == (None, None)
    assert bd_rate([(1, 30), (2, 31)], [(1, 40), (2, 41)]) == (None, None)
    print("3 passed, 0 failed")


if __name__ == "__main__":
    _selfcheck()
