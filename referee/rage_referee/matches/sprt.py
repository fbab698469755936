"""Sequential tests on a stream of paired figures, and the Elo they imply.

The unit is a figure such as one duplicate set's score difference (fishtest pairs games the same
way and tests the pairs' pentanomial results).

:class:`AnytimeTest`, ``rage test``'s: after each figure, an interval for the mean that holds at any
stopping time, an asymptotic confidence sequence (Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas,
"Time-uniform central limit theory", 2021): after ``n`` figures of mean ``m`` and deviation ``s``,

    m -/+ s * sqrt( 2 (n rho^2 + 1) / (n^2 rho^2) * log( sqrt(n rho^2 + 1) / a ) )

with ``a`` alpha below and beta above, and ``rho`` making it narrowest near ``HORIZON`` figures. It
needs no normal model, only a finite variance: its coverage holds as the figures grow, whatever
their distribution, and at the lengths a test takes zero-inflated and skewed figures keep its error
rates (the simulations in the tests and ``rage bench sprt`` show it). H1 (NEW is stronger) is
accepted once the interval lies above 0, H0 (NEW is not stronger by the margin) once it lies below
the margin; when both at once (stronger, by less than the margin), H0. ``s`` is taken as at least
``SPREAD_FLOOR`` margins (or a floor given with the test): figures that have not spread yet (five
equal opening sets, or none ever) then narrow the interval at a known pace, so they decide after a
while rather than at once or never. No decision is taken before
``MIN_FIGURES`` figures.

A test exact for every distribution of bounded figures (testing by betting, e-values) is not used:
a set's difference is bounded only by what one seat can score less what another can lose, 505
points a game at 3 players under amigo (10 rounds of c tricks, 3 plus5 and 3 minus5 cards, a hit
of 10 against a miss of -5), and such a test gains at most ``mean / bound`` in log wealth a figure,
so it needs some ``log(1/alpha) * 505 / margin`` figures: about 500 sets at a 3-point margin, where
this test takes 25.

:class:`Sprt`, the test ``rage test`` used before (and the head-to-head baseline of ``rage bench
test``): a generalized SPRT under a normal model with unknown variance: after ``n`` figures ``x``,

    LLR = (n - 1)/2 * log( sum (x - mu0)^2 / sum (x - mu1)^2 )

the log-likelihood ratio of H1 (mean ``mu1``) against H0 (mean ``mu0``), each with the variance
that fits the data best, counted over ``n - 1`` degrees of freedom.
H1 is accepted when the LLR reaches ``log((1 - beta) / alpha)``, H0 when
it falls to ``log(beta / (1 - alpha))`` (Wald's bounds). On figures far from normal it does not keep
its error rates: five equal opening figures give an LLR of minus infinity, skewed ones with mean 0
pass H1's bound early.

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
SPREAD_FLOOR = 2.2
"""One figure's deviation is taken as at least this many margins: just under the 2.3 of a real pair's sets at
25 Elo (heuristic against its 10% sloppy self, 3 players), and enough to keep beta on sets 83% zeros."""
HORIZON = 20
"""The figures near which :class:`AnytimeTest`'s interval is narrowest (a test at its margin takes 20 to 40)."""
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


@dataclass(frozen=True)
class Reading:
    """Where an :class:`AnytimeTest` stands after ``n`` figures."""

    n: int
    mean: float
    low: float
    """The interval's lower end: below the mean with chance at most alpha, at any stopping time."""
    high: float
    """Its upper end, likewise with beta."""
    verdict: Verdict


@dataclass(frozen=True)
class AnytimeTest:
    """H1: the mean is above 0; H0: it is below ``margin``; error rates ``alpha`` (H1 when the mean is 0 or
    less) and ``beta`` (H0 when it is ``margin`` or more), each at any stopping time."""

    margin: float
    alpha: float = 0.05
    beta: float = 0.05
    least_deviation: float | None = None
    """The deviation a figure is taken to have at least; None: ``SPREAD_FLOOR`` margins."""

    def __post_init__(self) -> None:
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"alpha and beta must be between 0 and 0.5, not {self.alpha} and {self.beta}")
        if not 0 < self.margin < math.inf:
            raise ValueError(f"the margin must be above 0, not {self.margin}")

    @property
    def floor(self) -> float:
        return SPREAD_FLOOR * self.margin if self.least_deviation is None else self.least_deviation

    def radius(self, n: int, variance: float, chance: float) -> float:
        """How far the interval reaches from the mean of ``n`` figures of ``variance`` on the side of ``chance``."""
        if n == 0:
            return math.inf
        log_chance = -2 * math.log(chance)
        rho2 = (log_chance + math.log(log_chance + 1)) / HORIZON
        spread = max(variance, self.floor**2)
        return math.sqrt(spread * 2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / chance))

    def reading(self, n: int, mean: float, variance: float) -> Reading:
        """After ``n`` figures of ``mean`` and sample ``variance``."""
        low, high = mean - self.radius(n, variance, self.alpha), mean + self.radius(n, variance, self.beta)
        verdict = Verdict.UNDECIDED
        if n >= MIN_FIGURES and high < self.margin:
            verdict = Verdict.H0
        elif n >= MIN_FIGURES and low > 0:
            verdict = Verdict.H1
        return Reading(n, mean, low, high, verdict)

    def read(self, figures: Sequence[float]) -> Reading:
        """The reading after ``figures``; a stream is read as it comes with :meth:`running`."""
        run = self.running()
        for x in figures:
            run.add(x)
        return run.reading()

    def running(self) -> RunningAnytimeTest:
        return RunningAnytimeTest(self)

    def first_verdict(self, figures: Sequence[float]) -> tuple[Verdict, int]:
        """The verdict reached as the figures came in, and how many it took (all of them if undecided)."""
        run = self.running()
        for x in figures:
            run.add(x)
            verdict = run.reading().verdict
            if verdict is not Verdict.UNDECIDED:
                return verdict, run.n
        return Verdict.UNDECIDED, len(figures)


@dataclass
class RunningAnytimeTest:
    """An :class:`AnytimeTest` kept up to date as figures come: the running mean and sum of squared deviations
    (Welford's), so each reading costs the same however many figures came before."""

    test: AnytimeTest
    n: int = 0
    _mean: float = 0.0
    _squares: float = 0.0

    def add(self, x: float) -> None:
        """Count one more figure."""
        self.n += 1
        step = x - self._mean
        self._mean += step / self.n
        self._squares += step * (x - self._mean)

    def reading(self) -> Reading:
        variance = self._squares / (self.n - 1) if self.n > 1 else 0.0
        return self.test.reading(self.n, self._mean, variance)


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
