"""Standings: the rating table of ``rage ratings`` (computed off the event loop, cached per league), and
cheap point estimates for the live events (one Bradley-Terry fit, no bootstrap)."""

from __future__ import annotations

import asyncio
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..league.ratings import RatingRow, fit_elo, rating_table
from ..league.store import StoredGame
from .registry import Registry


@dataclass(frozen=True)
class Table:
    games: int
    rows: list[RatingRow]
    intervals: bool
    """False for point estimates: ``low``, ``high``, ``los_next`` and ``skill`` mean nothing."""


def point_table(games: Sequence[StoredGame]) -> Table:
    """Every bot of ``games``, best first, by the maximum-likelihood Elo alone."""
    names = sorted({name for game in games for name in game.seats})
    elo = fit_elo(games, names) if names else np.zeros(0)
    played: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    for game in games:
        for seat, name in enumerate(game.seats):
            row = played[name]
            row[0] += 1
            row[1] += game.totals[seat]
            row[2] += game.places[seat]
            row[3] += game.hits[seat]
            row[4] += game.rounds
            row[5] += game.faults_of(seat)
    rows = []
    for k in sorted(range(len(names)), key=lambda k: -elo[k]):
        count, score, place, hits, rounds, faults = played[names[k]]
        rating = float(elo[k])
        rows.append(
            RatingRow(
                names[k],
                rating,
                rating,
                rating,
                None,
                int(count),
                score / count,
                place / count,
                hits / rounds if rounds else 0.0,
                int(faults),
                math.nan,
            )
        )
    return Table(len(games), rows, intervals=False)


class StandingsCache:
    """Full rating tables, recomputed only when a league has new games, one computation at a time."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def table(self, league_id: int) -> Table:
        async with self._locks[league_id]:
            cached = self._tables.get(league_id)
            if cached is not None and cached.games == self.registry.games_done(league_id):
                return cached
            games = self.registry.results(league_id)
            rows = await asyncio.to_thread(rating_table, games)
            table = Table(len(games), rows, intervals=True)
            self._tables[league_id] = table
            return table
