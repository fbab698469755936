"""The duplicate score difference of every pair of bots: the evidence that two bots differ.

For bots A and B, each duplicate set in which they held the same hands equally often (A sat in
each seat as often as B did) gives one paired figure: A's mean total over the set's games minus
B's. Luck of the deal cancels out within the set, so these figures vary far less than the totals
do. The pair's difference is their mean over sets, in points per game, with a 95% Student t
interval and the likelihood of superiority (LOS: the chance, on a flat prior, that A's true
difference over B is above zero). A set that was cut short, or a game of a league without
duplicate deals, seats A and B in different seats and does not count.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from scipy import stats

from ..finished import FinishedGame

LEVEL = 0.95


@dataclass(frozen=True)
class Summary:
    """A sample's mean with a 95% t interval and the chance that the true mean is above zero."""

    n: int
    mean: float
    low: float
    high: float
    los: float

    @staticmethod
    def of(values: Sequence[float]) -> Summary:
        """Of ``values``; with fewer than two the interval is infinite and LOS one half."""
        n = len(values)
        mean = math.fsum(values) / n if n else 0.0
        if n < 2:
            return Summary(n, mean, -math.inf, math.inf, 0.5)
        error = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1) / n)
        if error == 0:
            return Summary(n, mean, mean, mean, 0.5 if mean == 0 else float(mean > 0))
        half = float(stats.t.ppf(0.5 + LEVEL / 2, n - 1)) * error
        return Summary(n, mean, mean - half, mean + half, float(stats.t.cdf(mean / error, n - 1)))


@dataclass(frozen=True)
class PairRow:
    """Bot ``a`` against bot ``b``: the mean of ``sets`` paired set figures, points per game."""

    a: str
    b: str
    sets: int
    difference: float
    low: float
    high: float
    """The 95% interval."""
    los: float
    """Likelihood that ``a`` is the stronger."""

    def to_json(self) -> dict[str, object]:
        """The fields, an interval too wide to know (under two sets) as nulls."""
        return {
            key: None if isinstance(value, float) and math.isinf(value) else value for key, value in vars(self).items()
        }


def duplicate_sets(games: Sequence[FinishedGame]) -> dict[int, list[FinishedGame]]:
    """The games of each duplicate set, by set id in order."""
    sets: dict[int, list[FinishedGame]] = defaultdict(list)
    for game in games:
        sets[game.set_id].append(game)
    return dict(sorted(sets.items()))


def set_difference(members: Sequence[FinishedGame], a: str, b: str) -> float | None:
    """``a``'s mean total minus ``b``'s over one set's games; ``None`` unless they held the same hands equally often."""
    seats_a = Counter(game.figures.seats.index(a) for game in members if a in game.figures.seats)
    seats_b = Counter(game.figures.seats.index(b) for game in members if b in game.figures.seats)
    if not seats_a or seats_a != seats_b:
        return None
    total_a = sum(game.figures.totals[game.figures.seats.index(a)] for game in members if a in game.figures.seats)
    total_b = sum(game.figures.totals[game.figures.seats.index(b)] for game in members if b in game.figures.seats)
    return (total_a - total_b) / seats_a.total()


def set_differences(games: Sequence[FinishedGame], a: str, b: str) -> list[float]:
    """One figure per duplicate set in which ``a`` and ``b`` held the same hands equally often."""
    figures = (set_difference(members, a, b) for members in duplicate_sets(games).values())
    return [figure for figure in figures if figure is not None]


def pair_row(games: Sequence[FinishedGame], a: str, b: str) -> PairRow:
    summary = Summary.of(set_differences(games, a, b))
    return PairRow(a, b, summary.n, summary.mean, summary.low, summary.high, summary.los)


def pair_table(games: Sequence[FinishedGame], names: Sequence[str]) -> list[PairRow]:
    """Every pair of ``names``, the earlier one as ``a`` (give them best first)."""
    return [pair_row(games, a, b) for a, b in combinations(names, 2)]
