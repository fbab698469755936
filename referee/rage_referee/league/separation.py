"""When a league has shown its order: every adjacent pair of its standings separated.

The one rule ``rage league run --until-separated`` stops by (and a contest's final may): after each
complete duplicate set, the standings' order (the maximum-likelihood Elo) and every pair's confidence
sequence over the complete sets, Holm-corrected across the matrix (:mod:`.pairs`); the league has
shown its order when each bot is separated from the next one down. The sequences stay valid however
often they are read, so checking after every set does not make a false separation likelier.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations, pairwise

from ..faults import Forfeits
from ..play.finished import FinishedGame
from .pairs import PairRow, pair_rows, set_differences
from .ratings import rating_table
from .schedule import ScheduledGame


def adjacent_separated(rows: Sequence[PairRow], order: Sequence[str]) -> bool:
    """The rule: every bot of ``order`` (best first, two at least) separated from the next by its pair's
    corrected sequence in ``rows`` (a pair given either way round), in the order's direction: the one
    placed higher scores more (a pair separated the other way round says the order is wrong there)."""
    by_pair = {frozenset((row.a, row.b)): row for row in rows}
    return len(order) >= 2 and all(
        (row := by_pair.get(frozenset((better, worse)))) is not None and row.separates(better)
        for better, worse in pairwise(order)
    )


class SetWatch:
    """A league's complete duplicate sets as its games finish, each pair's set figures kept as sets complete,
    and whether its standings are separated (:func:`adjacent_separated`) over them."""

    def __init__(self, scheduled: Sequence[ScheduledGame], forfeits: Forfeits = Forfeits.UNRATED) -> None:
        self.forfeits = forfeits
        self.waiting: dict[int, set[int]] = defaultdict(set)
        for game in scheduled:
            self.waiting[game.set_id].add(game.index)
        self.playing: dict[int, list[FinishedGame]] = defaultdict(list)
        self.complete: list[FinishedGame] = []
        self.sets = 0
        self.figures: dict[tuple[str, str], list[float]] = {}

    def add_all(self, games: Iterable[FinishedGame]) -> None:
        for game in games:
            self.add(game)

    def add(self, game: FinishedGame) -> bool:
        """Count a finished game; True when it completed its set."""
        waiting = self.waiting[game.set_id]
        waiting.discard(game.index)
        self.playing[game.set_id].append(game)
        if waiting:
            return False
        members = self.playing.pop(game.set_id)
        self.complete += members
        self.sets += 1
        names = sorted({name for member in members for name in member.figures.seats})
        for a, b in combinations(names, 2):
            self.figures.setdefault((a, b), []).extend(set_differences(members, a, b))
        return True

    def order(self) -> list[str]:
        """The standings over the complete sets, best first (bots rated on none left out)."""
        rows = rating_table(self.complete, samples=0, with_skill=False, forfeits=self.forfeits)
        return [row.name for row in rows if not math.isnan(row.elo)]

    def pairs(self) -> tuple[list[str], list[PairRow]]:
        """The standings over the complete sets, best first, and every pair of them (the better-placed as
        ``a``), Holm-corrected across the matrix."""
        order = self.order()
        figures = {
            (a, b): self.figures.get((a, b)) or [-x for x in self.figures.get((b, a), [])]
            for a, b in combinations(order, 2)
        }
        return order, pair_rows(figures)

    def separated(self) -> bool:
        """Every adjacent pair of the standings separated, over the complete sets."""
        order, rows = self.pairs()
        return adjacent_separated(rows, order)
