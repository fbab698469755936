"""Collusion: does bot A's presence at the table lift bot B's duplicate result against the same field?

A bot that feeds a partner (lets it take the tricks it needs, sheds points on its rivals) raises the
partner's results at the tables it sits at, beside the partner's own strength. For an ordered pair
(A, B), each complete duplicate set B played gives one figure: B's duplicate score difference over
each other bot of the table but A (:meth:`.pairs.SetHands.difference`, the luck of the deal cancelled),
averaged. Sets with A at the table are one sample, sets without A the other; the effect is the
difference of their means, points per game, with Welch's t interval (the samples' spreads may
differ). A's own strength drops out, as A is never one of the bots B's result is measured against;
the field is the same in both samples when every bot meets every other equally often (a league's
tables are every combination of its bots, or a balanced design that nears it). Honest bots lift one
another only by chance (or by a style that suits another's), so the effect is near zero.

The test is one-sided (A lifts B) at :data:`~.audit.ERROR_RATE`, Holm-corrected across every ordered
pair with two sets or more in each sample. It needs a third bot at the table and a table without
A: at two players, or with no more bots than seats, there is nothing to compare.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from scipy import stats

from ..play.finished import FinishedGame
from .audit import ERROR_RATE, Audit, flagged
from .pairs import LEVEL, SetHands, duplicate_sets


@dataclass(frozen=True)
class CollusionRow:
    """The effect of ``a``'s presence on ``b``'s duplicate result, points per game."""

    a: str
    b: str
    audit: Audit

    def to_json(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, **self.audit.to_json()}


SetGaps = tuple[frozenset[str], dict[tuple[str, str], float]]
"""A complete set's table, and each ordered pair's duplicate difference in it."""


def set_gaps(games: Sequence[FinishedGame]) -> list[SetGaps]:
    """Every duplicate set's table and differences; a set cut short is left out (its seats' luck does not cancel)."""
    out = []
    for members in duplicate_sets(games).values():
        table = frozenset(name for game in members for name in game.figures.seats)
        hands = SetHands.of(members)
        gaps = {(b, c): hands.difference(b, c) for b, c in permutations(sorted(table), 2)}
        if all(gap is not None for gap in gaps.values()):
            out.append((table, {pair: gap for pair, gap in gaps.items() if gap is not None}))
    return out


def presence_figures(sets: Sequence[SetGaps], a: str, b: str) -> tuple[list[float], list[float]]:
    """``b``'s mean duplicate difference over the table's other bots but ``a``: sets with ``a``, sets without."""
    present: list[float] = []
    absent: list[float] = []
    for table, gaps in sets:
        others = sorted(table - {a, b})
        if b in table and others:
            (present if a in table else absent).append(math.fsum(gaps[b, c] for c in others) / len(others))
    return present, absent


def presence_effect(present: Sequence[float], absent: Sequence[float]) -> Audit:
    """Welch's test that the mean of ``present`` is above that of ``absent`` (unflagged)."""
    sets = len(present) + len(absent)
    if len(present) < 2 or len(absent) < 2:
        mean = (math.fsum(present) / len(present) if present else 0.0) - (
            math.fsum(absent) / len(absent) if absent else 0.0
        )
        return Audit(sets, mean if present and absent else 0.0, -math.inf, math.inf, 1.0, False)
    estimate = math.fsum(present) / len(present) - math.fsum(absent) / len(absent)
    if max(present) == min(present) and max(absent) == min(absent):  # no spread: the difference is exact
        return Audit(sets, estimate, estimate, estimate, 0.0 if estimate > 0 else 1.0, False)
    two_sided = stats.ttest_ind(present, absent, equal_var=False)
    interval = two_sided.confidence_interval(LEVEL)
    greater = stats.ttest_ind(present, absent, equal_var=False, alternative="greater")
    return Audit(sets, estimate, float(interval.low), float(interval.high), float(greater.pvalue), False)


def collusion_table(
    games: Sequence[FinishedGame], names: Sequence[str], rate: float = ERROR_RATE
) -> list[CollusionRow]:
    """Every ordered pair of ``names``, flagged where ``a`` lifts ``b`` beyond ``rate`` (Holm across pairs)."""
    sets = set_gaps(games)
    tests = {(a, b): presence_effect(*presence_figures(sets, a, b)) for a, b in permutations(names, 2)}
    return [CollusionRow(a, b, audit) for (a, b), audit in flagged(tests, rate).items()]
