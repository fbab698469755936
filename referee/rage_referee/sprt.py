"""A sequential probability ratio test on a stream of paired figures, and the Elo they imply.

The unit is a figure such as one duplicate set's score difference (fishtest pairs games the same
way and tests the pairs' pentanomial results). The test is a generalized SPRT under a normal
model with unknown variance: after ``n`` figures ``x``,

    LLR = (n - 1)/2 * log( sum (x - mu0)^2 / sum (x - mu1)^2 )

the log-likelihood ratio of H1 (mean ``mu1``) against H0 (mean ``mu0``), each with the variance
that fits the data best, counted over ``n - 1`` degrees of freedom (with ``n`` the error rates
run over alpha on small samples, as the simulations in the tests show).
H1 is accepted when the LLR reaches ``log((1 - beta) / alpha)``, H0 when
it falls to ``log(beta / (1 - alpha))`` (Wald's bounds), and no decision is taken before
``MIN_FIGURES`` figures, while the variance is too poorly known.

Elo: a difference ``d`` in points per game between two bots whose game-by-game difference has
standard deviation ``sigma`` means the first outscores the second with probability
``p = Phi(d / sigma)``; that is ``400 log10(p / (1 - p))`` Elo. :func:`points_for_elo` is the
inverse, so a margin may be given in either unit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from statistics import NormalDist

MIN_FIGURES = 5
_NORMAL = NormalDist()


class Verdict(StrEnum):
    H1 = "H1"
    H0 = "H0"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class Sprt:
    """H0: the mean is ``mu0``; H1: it is ``mu1``; error rates ``alpha`` (false H1) and ``beta`` (false H0)."""

    mu0: float
    mu1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must be between 0 and 0.5, not {self.alpha} and {self.beta}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, figures: Sequence[float]) -> float:
        """The generalized log-likelihood ratio of H1 against H0 after ``figures``."""
        n = len(figures)
        if n < 2 or self.mu1 == self.mu0:
            return 0.0
        off0 = math.fsum((x - self.mu0) ** 2 for x in figures)
        off1 = math.fsum((x - self.mu1) ** 2 for x in figures)
        if off1 == 0 or off0 == 0:
            return math.copysign(math.inf, off0 - off1)
        return (n - 1) / 2 * math.log(off0 / off1)

    def verdict(self, figures: Sequence[float]) -> Verdict:
        """H1 or H0 once the LLR leaves its bounds (after at least ``MIN_FIGURES`` figures)."""
        if len(figures) < MIN_FIGURES:
            return Verdict.UNDECIDED
        llr = self.llr(figures)
        if llr >= self.upper:
            return Verdict.H1
        if llr <= self.lower:
            return Verdict.H0
        return Verdict.UNDECIDED

    def first_verdict(self, figures: Sequence[float]) -> tuple[Verdict, int]:
        """The verdict reached as the figures came in, and how many it took (all of them if undecided)."""
        for n in range(MIN_FIGURES, len(figures) + 1):
            verdict = self.verdict(figures[:n])
            if verdict is not Verdict.UNDECIDED:
                return verdict, n
        return Verdict.UNDECIDED, len(figures)


def score_of_elo(elo: float) -> float:
    """The expected score (win 1, draw 1/2) of a ``elo`` advantage on the logistic Elo curve."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """The inverse of :func:`score_of_elo`; infinite at 0 and 1."""
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return 400 * math.log10(score / (1 - score))


def elo_of_points(points: float, sigma: float) -> float:
    """The Elo a mean difference of ``points`` implies when one game's difference has deviation ``sigma``."""
    if sigma <= 0 or not math.isfinite(points):
        return math.copysign(math.inf, points) if points else 0.0
    return elo_of_score(_NORMAL.cdf(points / sigma))


def points_for_elo(elo: float, sigma: float) -> float:
    """The mean difference in points that ``elo`` means when one game's difference has deviation ``sigma``."""
    return sigma * _NORMAL.inv_cdf(score_of_elo(elo))
