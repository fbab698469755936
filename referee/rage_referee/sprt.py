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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
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
        if len(figures) < 2 or self.mu1 == self.mu0:
            return 0.0
        off0 = math.fsum((x - self.mu0) ** 2 for x in figures)
        off1 = math.fsum((x - self.mu1) ** 2 for x in figures)
        return self._ratio(len(figures), off0, off1)

    def _ratio(self, n: int, off0: float, off1: float) -> float:
        """The LLR after ``n`` figures whose squared distances from ``mu0`` and ``mu1`` sum to ``off0`` and ``off1``."""
        if n < 2 or self.mu1 == self.mu0:
            return 0.0
        if off1 == 0 or off0 == 0:
            return math.copysign(math.inf, off0 - off1)
        return (n - 1) / 2 * math.log(off0 / off1)

    def verdict(self, figures: Sequence[float]) -> Verdict:
        """H1 or H0 once the LLR leaves its bounds (after at least ``MIN_FIGURES`` figures).

        This sums every figure again: a stream of figures is tested as it comes with :meth:`running`."""
        return self._decided(len(figures), lambda: self.llr(figures))

    def _decided(self, n: int, llr: Callable[[], float]) -> Verdict:
        if n < MIN_FIGURES:
            return Verdict.UNDECIDED
        ratio = llr()
        if ratio >= self.upper:
            return Verdict.H1
        if ratio <= self.lower:
            return Verdict.H0
        return Verdict.UNDECIDED

    def running(self) -> RunningSprt:
        """This test on figures that come one at a time, each verdict without summing the earlier ones again."""
        return RunningSprt(self)

    def first_verdict(self, figures: Sequence[float]) -> tuple[Verdict, int]:
        """The verdict reached as the figures came in, and how many it took (all of them if undecided)."""
        run = self.running()
        for x in figures:
            run.add(x)
            verdict = run.verdict()
            if verdict is not Verdict.UNDECIDED:
                return verdict, run.n
        return Verdict.UNDECIDED, len(figures)


@dataclass
class RunningSprt:
    """An :class:`Sprt` kept up to date as figures come: running sums of their squared distances from ``mu0``
    and ``mu1``, so each verdict costs the same however many figures came before.

    The sums are exact (fractions of the very terms :meth:`Sprt.llr` adds up); read as floats they are
    rounded once, as :func:`math.fsum` rounds, so the LLR and the verdict are :meth:`Sprt.llr`'s and
    :meth:`Sprt.verdict`'s on the same figures, to the last bit.
    """

    test: Sprt
    n: int = 0
    _off0: Fraction = field(default_factory=Fraction)
    _off1: Fraction = field(default_factory=Fraction)

    def add(self, x: float) -> None:
        """Count one more figure."""
        self.n += 1
        self._off0 += Fraction((x - self.test.mu0) ** 2)
        self._off1 += Fraction((x - self.test.mu1) ** 2)

    def llr(self) -> float:
        """:meth:`Sprt.llr` of the figures so far."""
        return self.test._ratio(self.n, float(self._off0), float(self._off1))

    def verdict(self) -> Verdict:
        """:meth:`Sprt.verdict` of the figures so far."""
        return self.test._decided(self.n, self.llr)


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
