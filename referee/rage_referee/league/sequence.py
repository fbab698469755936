"""Confidence sequences for the mean of bounded figures: intervals that hold however often they are read.

A figure of each duplicate set (a pair's score difference, points per game) lies within ``±bound``; scaled
to [0, 1], a bettor stakes against each candidate mean ``m`` with a predictable fraction and its wealth
grows only when ``m`` is wrong (the hedged betting confidence sequence of Waudby-Smith and Ramdas,
"Estimating means of bounded random variables by betting", JRSS B 2024, with their predictable plug-in
stakes). Under the true mean the wealth is a nonnegative martingale, so by Ville's inequality it ever
reaches ``1 / alpha`` with chance at most ``alpha``: the candidates whose wealth never did are a
``1 - alpha`` confidence sequence, valid after every set at once, and ``1 / (the most the wealth
against 0 has been)`` is an anytime p-value. Stopping at the first read that excludes 0 keeps its rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

TUNED_ALPHA = 0.05
"""The level the stakes are tuned for; every level reads the same wealth, so intervals of any level nest."""
TRUNCATION = 0.75
"""The largest stake as a share of what a bet against ``m`` may lose (``c`` of the paper: 1/2 to 3/4)."""
GRID = 2001
"""Candidate means across ``±bound``, an odd number so that 0 is one of them."""
CHUNK = 512
"""Sets taken at a time, so that a long league needs no sets x candidates table at once."""


def candidates(bound: float) -> np.ndarray:
    """The candidate means, ``GRID`` of them evenly across ``[-bound, bound]``."""
    return np.linspace(-bound, bound, GRID)


def log_wealth(figures: Sequence[float], bound: float, means: np.ndarray) -> np.ndarray:
    """The most the hedged bettor's log wealth against each of ``means`` has been, after each figure in turn:
    ``figures x means``; the running maximum, so a row is what every read up to that figure has shown."""
    scaled = (np.clip(np.asarray(figures, dtype=float), -bound, bound) + bound) / (2 * bound)
    targets = (np.asarray(means, dtype=float) + bound) / (2 * bound)
    count = np.arange(1, len(scaled) + 1)
    mean = (0.5 + np.cumsum(scaled)) / (count + 1)
    variance = (0.25 + np.cumsum((scaled - mean) ** 2)) / (count + 1)
    before = np.concatenate(([0.25], variance[:-1]))  # what was known before each figure
    stake = np.sqrt(2 * math.log(2 / TUNED_ALPHA) / (before * count * np.log1p(count)))
    with np.errstate(divide="ignore"):
        most_up, most_down = TRUNCATION / targets, TRUNCATION / (1 - targets)
    out = np.empty((len(scaled), len(targets)))
    up = down = np.zeros(len(targets))
    best = np.full(len(targets), -np.inf)
    for start in range(0, len(scaled), CHUNK):
        piece = slice(start, start + CHUNK)
        gain = scaled[piece, np.newaxis] - targets
        up = up + np.cumsum(np.log1p(np.minimum(stake[piece, np.newaxis], most_up) * gain), axis=0)
        down = down + np.cumsum(np.log1p(-np.minimum(stake[piece, np.newaxis], most_down) * gain), axis=0)
        hedged = np.maximum(up, down) + math.log(0.5)
        out[piece] = np.maximum.accumulate(np.maximum(hedged, best), axis=0)
        best, up, down = out[piece][-1], up[-1], down[-1]
    return out


def p_values(figures: Sequence[float], bound: float) -> np.ndarray:
    """The anytime p-value of a mean of 0 after each figure: 1 over the most the wealth against 0 has been."""
    if not len(figures):
        return np.ones(0)
    p: np.ndarray = np.minimum(1.0, np.exp(-log_wealth(figures, bound, np.zeros(1))[:, 0]))
    return p


def interval(wealth: np.ndarray, means: np.ndarray, alpha: float) -> tuple[float, float]:
    """The confidence sequence at level ``1 - alpha`` read from a row of :func:`log_wealth`: the candidates not
    excluded, widened by one step of the grid on each side (the interval holds any mean between candidates)."""
    kept = np.flatnonzero(wealth < math.log(1 / alpha))
    if not len(kept):  # every candidate excluded, as can happen only with a chance of alpha: the nearest one
        kept = np.array([int(np.argmin(wealth))])
    low, high = max(kept[0] - 1, 0), min(kept[-1] + 1, len(means) - 1)
    return float(means[low]), float(means[high])
