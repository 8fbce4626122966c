# SPDX-License-Identifier: GPL-2.0
"""Median and p99 of a measure's samples (one sample per round)."""

import math


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2.0


def p99(xs):
    """Nearest-rank 99th percentile: with fewer than 100 samples, the
    largest."""
    s = sorted(xs)
    if not s:
        return None
    return s[max(0, math.ceil(0.99 * len(s)) - 1)]


def summarize(samples):
    """{key: [x...]} -> {key: {n, median, p99, min, max}}"""
    return {k: {"n": len(v), "median": median(v), "p99": p99(v),
                "min": min(v), "max": max(v)}
            for k, v in samples.items() if v}
