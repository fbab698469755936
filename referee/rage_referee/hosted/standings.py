"""Standings: the rating table of ``rage ratings`` with its memory audit and collusion tests (computed off the
event loop, cached per league), and cheap point estimates for the live events (one Bradley-Terry fit, no
bootstrap)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..faults import Forfeits
from ..league.audit import Audit, memory_audit
from ..league.collusion import CollusionRow, collusion_table
from ..league.pairs import PairRow, pair_table
from ..league.ratings import RatingRow, rating_table
from ..league.store import Store
from ..play.finished import FinishedGame


@dataclass(frozen=True)
class Table:
    games: int
    rows: list[RatingRow]
    intervals: bool
    """False for point estimates: ``low``, ``high``, ``los_next`` and ``skill`` mean nothing."""
    audits: dict[str, Audit] = field(default_factory=dict)
    """Each bot's memory audit, games in the order they ended; none with point estimates."""
    collusion: list[CollusionRow] = field(default_factory=list)
    """Every ordered pair's collusion test; none with point estimates."""
    pairs: list[PairRow] = field(default_factory=list)
    """Every pair of the rows, the better placed first, as ``rage ratings --pairs`` gives them (both kinds)."""


def pairs_of(games: Sequence[FinishedGame], rows: Sequence[RatingRow]) -> list[PairRow]:
    """The pairs of ``rows`` over ``games``: cheap beside the rating table, so the live standings have them too."""
    return pair_table(games, [row.name for row in rows])


def point_table(games: Sequence[FinishedGame], forfeits: Forfeits = Forfeits.UNRATED) -> Table:
    """Every bot of ``games``, best first, by the maximum-likelihood Elo alone."""
    rows = rating_table(games, samples=0, with_skill=False, forfeits=forfeits)
    return Table(len(games), rows, intervals=False, pairs=pairs_of(games, rows))


class StandingsCache:
    """Full rating tables, recomputed only when a league has new games, one computation at a time; and
    the point tables a Watch stream begins with, likewise."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._points: dict[int, Table] = {}
        self._point_locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def points(
        self, league_id: int, forfeits: Forfeits = Forfeits.UNRATED, games: Sequence[FinishedGame] | None = None
    ) -> Table:
        """:func:`point_table` of the league's games now (``games``, when read already), fitted once for every
        caller that asks meanwhile or before the league has more games: any token may watch a big league
        again and again, and each fit takes seconds of a core."""
        wanted = self.store.count(league_id) if games is None else len(games)
        async with self._point_locks[league_id]:
            cached = self._points.get(league_id)
            if cached is not None and cached.games >= wanted:
                return cached
            if games is None:
                games = await asyncio.to_thread(self.store.games, league_id, False)
            table = await asyncio.to_thread(point_table, list(games), forfeits)
            self._points[league_id] = table
            return table

    async def table(self, league_id: int, forfeits: Forfeits = Forfeits.UNRATED) -> Table:
        async with self._locks[league_id]:
            cached = self._tables.get(league_id)
            if cached is not None and cached.games == self.store.count(league_id):
                return cached
            games = await asyncio.to_thread(self.store.games, league_id, False)
            order = await asyncio.to_thread(self.store.play_order, league_id)
            table = await asyncio.to_thread(full_table, games, order, forfeits)
            self._tables[league_id] = table
            return table


def full_table(games: Sequence[FinishedGame], order: Sequence[int], forfeits: Forfeits = Forfeits.UNRATED) -> Table:
    """The rating table with intervals and its pairs, the memory audit (``order``: game indices as they ended)
    and collusion."""
    rows = rating_table(games, forfeits=forfeits)
    audits, collusion = memory_audit(games, order), collusion_table(games, [row.name for row in rows])
    return Table(len(games), rows, intervals=True, audits=audits, collusion=collusion, pairs=pairs_of(games, rows))
