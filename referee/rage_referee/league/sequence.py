"""Confidence sequences for the mean of a pair's set figures: intervals that hold however often they are read.

Each duplicate set gives a pair one figure (the difference of their mean totals on the same deals); the
figures are taken as independent draws of a normal of unknown mean and spread (a set's figure is a mean
over its games, with the luck of the deal cancelled). Against a candidate mean ``m``, the scale-invariant
normal-mixture likelihood ratio (Lai 1976; Wang and Ramdas, "Anytime-valid t-tests and confidence
sequences for Gaussian means with unknown variance", 2023): the effect in units of the spread drawn from
a normal of precision :data:`MIXTURE`, the spread itself integrated out, is

    E_n(m) = sqrt(c / (n + c)) * (V / (V - S^2 / (n + c)))^(n / 2),   S, V the sum and sum of squares of x - m,

a nonnegative martingale under ``m`` whatever the spread, so by Ville's inequality it ever reaches
``1 / alpha`` with chance at most ``alpha``. The candidates it never excluded are a ``1 - alpha``
confidence sequence, valid after every set at once (closed form: the running intersection of the mean
plus or minus a half-width that shrinks like a t interval's, about 1.7 times as wide); one over the most
``E(0)`` has been is an anytime p-value. Stopping at the first read that excludes 0 keeps its rate.

Scores are whole points, so each figure is known only to its rounding: ``V`` counts a rounding's
variance, 1/12 a point squared, per set beside the figures' own, and figures all equal still give an
interval of some width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

MIXTURE = 1.0
"""The precision ``c`` of the normal the effect (in spreads) is drawn from: tightest near an effect of one spread."""
ROUNDING = 1 / 12
"""A figure's rounding variance, points squared per game: of whole points, uniform over one point at most."""


def _sums(figures: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """After each figure: the count, the mean, and the sum of squares about it (with the rounding's)."""
    values = np.asarray(figures, dtype=float)
    count = np.arange(1, len(values) + 1, dtype=float)
    mean = np.cumsum(values) / count
    squares = np.maximum(np.cumsum(values**2) - count * mean**2, 0.0) + ROUNDING * count
    return count, mean, squares


def p_values(figures: Sequence[float]) -> np.ndarray:
    """The anytime p-value of a mean of 0 after each figure: one over the most ``E_k(0)`` has been."""
    count, mean, squares = _sums(figures)
    total = count * mean
    around_zero = squares + count * mean**2  # V at m = 0
    share = total**2 / ((count + MIXTURE) * around_zero)
    log_e = 0.5 * np.log(MIXTURE / (count + MIXTURE)) - count / 2 * np.log1p(-share)
    p: np.ndarray = np.minimum(1.0, np.exp(-np.maximum.accumulate(log_e))) if len(count) else np.ones(0)
    return p


def half_widths(figures: Sequence[float], alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """After each figure: the mean, and the half-width of the set of candidates ``E`` does not exclude at
    level ``alpha`` then (infinite while it excludes none, as for the first few sets)."""
    count, mean, squares = _sums(figures)
    share = 1 - (alpha**2 * MIXTURE / (count + MIXTURE)) ** (1 / count)  # E >= 1/alpha once S^2/((n+c)V) passes it
    room = count - share * (count + MIXTURE)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(room > 0, np.sqrt(share * (count + MIXTURE) * squares / (count * room)), math.inf)
    return mean, half


def interval(figures: Sequence[float], alpha: float) -> tuple[float, float]:
    """The confidence sequence at level ``1 - alpha`` after every figure: the intersection of every read so
    far (the latest read alone should they not meet, which happens with a chance under ``alpha``)."""
    if not len(figures):
        return -math.inf, math.inf
    mean, half = half_widths(figures, alpha)
    low, high = float(np.max(mean - half)), float(np.min(mean + half))
    if low > high:
        return float(mean[-1] - half[-1]), float(mean[-1] + half[-1])
    return low, high
