"""The duplicate score difference of every pair of bots: the evidence that two bots differ.

For bots A and B, each duplicate set in which they held the same hands equally often (A sat in
each seat as often as B did) gives one paired figure: A's mean total over the set's games minus
B's. Luck of the deal cancels out within the set, so these figures vary far less than the totals
do. The pair's difference is their mean over sets, in points per game, with a 95% confidence
sequence (:mod:`.sequence`: an interval that holds however often it is read, after every set if
need be), and the likelihood of
superiority (LOS: the chance, on a flat prior, that A's true difference over B is above zero,
capped by what so few sets can show). Across the matrix the pairs are corrected by Holm's
procedure: a pair is *separated* when Holm's step-down over every pair's anytime p-value rejects
a difference of 0, and its corrected interval is the sequence at the level of that step, so it
excludes 0 exactly when the pair is separated. A set that was cut short, or a game of a league
without duplicate deals, seats A and B in different seats and does not count.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from scipy import stats

from ..play.finished import FinishedGame
from . import sequence
from .superiority import los, shown

LEVEL = 0.95
ALPHA = 1 - LEVEL
CORRECTION = "Holm"
"""The multiple-comparison correction across the pairs of a matrix (family-wise error at ``ALPHA``)."""


@dataclass(frozen=True)
class Summary:
    """A sample's mean with a 95% t interval (for a fixed number of sets, read once) and its LOS."""

    n: int
    mean: float
    low: float
    high: float
    los: float

    @staticmethod
    def of(values: Sequence[float]) -> Summary:
        """Of ``values``; with fewer than two, or all equal, the interval is infinite (no spread to scale it)."""
        n = len(values)
        mean = math.fsum(values) / n if n else 0.0
        if n < 2:
            return Summary(n, mean, -math.inf, math.inf, 0.5)
        error = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1) / n)
        if error == 0:
            return Summary(n, mean, -math.inf, math.inf, los(mean, error, n))
        half = float(stats.t.ppf(0.5 + LEVEL / 2, n - 1)) * error
        return Summary(n, mean, mean - half, mean + half, los(mean, error, n))


@dataclass(frozen=True)
class PairRow:
    """Bot ``a`` against bot ``b``: the mean of ``sets`` paired set figures, points per game."""

    a: str
    b: str
    sets: int
    difference: float
    low: float
    high: float
    """The 95% confidence sequence of this pair alone (valid however often it is read)."""
    los: float
    """Likelihood that ``a`` is the stronger."""
    p: float
    """The anytime p-value of no difference, this pair alone."""
    low_corrected: float
    high_corrected: float
    """The sequence at the level Holm's step gives this pair: it excludes 0 exactly when ``separated``."""
    p_corrected: float
    """The p-value adjusted by Holm's procedure over every pair of the matrix."""

    @property
    def separated(self) -> bool:
        """Holm's procedure over the matrix finds a difference, at ``ALPHA``."""
        return self.p_corrected <= ALPHA

    def separates(self, better: str) -> bool:
        """Separated, with ``better`` (``a`` or ``b``) the one scoring more: an order that puts it first holds."""
        return self.separated and (self.difference > 0 if better == self.a else self.difference < 0)

    def flipped(self) -> PairRow:
        """The same pair as ``b`` against ``a``."""
        return PairRow(
            self.b,
            self.a,
            self.sets,
            -self.difference,
            -self.high,
            -self.low,
            1 - self.los,
            self.p,
            -self.high_corrected,
            -self.low_corrected,
            self.p_corrected,
        )

    def to_json(self) -> dict[str, object]:
        """The fields, and whether the pair is separated; an interval of no set as nulls."""
        fields = {
            key: None if isinstance(value, float) and math.isinf(value) else value for key, value in vars(self).items()
        }
        return fields | {"los": self.los_shown, "separated": self.separated}

    @property
    def los_shown(self) -> float | None:
        """The LOS as tables, pages and files give it (:func:`~.superiority.shown`): none from one set."""
        return shown(self.los, self.sets)


def duplicate_sets(games: Sequence[FinishedGame]) -> dict[int, list[FinishedGame]]:
    """The games of each duplicate set, by set id in order."""
    sets: dict[int, list[FinishedGame]] = defaultdict(list)
    for game in games:
        sets[game.set_id].append(game)
    return dict(sorted(sets.items()))


@dataclass(frozen=True)
class SetHands:
    """Who held which hands of one duplicate set (each bot's seats, counted), and each bot's total over it."""

    seats: dict[str, Counter[int]]
    totals: dict[str, int]

    @staticmethod
    def of(members: Sequence[FinishedGame]) -> SetHands:
        seats: dict[str, Counter[int]] = defaultdict(Counter)
        totals: dict[str, int] = defaultdict(int)
        for game in members:
            for seat, (name, total) in enumerate(zip(game.figures.seats, game.figures.totals)):
                seats[name][seat] += 1
                totals[name] += total
        return SetHands(dict(seats), dict(totals))

    def difference(self, a: str, b: str) -> float | None:
        """``a``'s mean total minus ``b``'s; ``None`` unless both played the set holding the same hands equally."""
        held = self.seats.get(a)
        if not held or held != self.seats.get(b):
            return None
        return (self.totals[a] - self.totals[b]) / held.total()


def set_differences(games: Sequence[FinishedGame], a: str, b: str) -> list[float]:
    """One figure per duplicate set in which ``a`` and ``b`` held the same hands equally often."""
    return pair_figures(games, [a, b])[a, b]


def pair_figures(games: Sequence[FinishedGame], names: Sequence[str]) -> dict[tuple[str, str], list[float]]:
    """:func:`set_differences` of every pair of ``names`` (the earlier one first), in one pass over the games."""
    figures: dict[tuple[str, str], list[float]] = {pair: [] for pair in combinations(names, 2)}
    for members in duplicate_sets(games).values():
        hands = SetHands.of(members)
        for (a, b), values in figures.items():
            difference = hands.difference(a, b)
            if difference is not None:
                values.append(difference)
    return figures


def holm(p: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down over ``p``: the adjusted p-values, and the level each one's step tests it at (a
    rejected one's own step, every other the first step not rejected), so that ``p <= level`` exactly when
    the adjusted p-value is at most :data:`ALPHA`."""
    count = len(p)
    order = np.argsort(p, kind="stable")
    steps = count - np.arange(count)
    adjusted = np.empty(count)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(np.asarray(p, dtype=float)[order] * steps))
    rejected = int(np.sum(adjusted[order] <= ALPHA))
    levels = np.empty(count)
    levels[order] = ALPHA / np.where(np.arange(count) < rejected, steps, count - rejected)
    return adjusted, levels


def pair_rows(figures: dict[tuple[str, str], list[float]]) -> list[PairRow]:
    """The rows of the pairs whose set figures are ``figures``, in their order, corrected across them all."""
    raw = [float(sequence.p_values(values)[-1]) if values else 1.0 for values in figures.values()]
    adjusted, levels = holm(raw)
    rows = []
    for k, ((a, b), values) in enumerate(figures.items()):
        summary = Summary.of(values)
        low, high = sequence.interval(values, ALPHA)
        corrected = sequence.interval(values, float(levels[k]))
        rows.append(
            PairRow(a, b, summary.n, summary.mean, low, high, summary.los, raw[k], *corrected, float(adjusted[k]))
        )
    return rows


def pair_table(games: Sequence[FinishedGame], names: Sequence[str]) -> list[PairRow]:
    """Every pair of ``names``, the earlier one as ``a`` (give them best first)."""
    return pair_rows(pair_figures(games, names))


def pair_row(games: Sequence[FinishedGame], a: str, b: str) -> PairRow:
    """One pair alone (no other pair to correct for)."""
    return pair_table(games, [a, b])[0]
