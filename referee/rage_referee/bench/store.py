"""Figures of ``rage bench store``: a league's per-game figures read from the store's index, beside
deriving them from every game's record, as the store would without the index.

The league is synthetic (a few random games under rotating seats, each play timed as the referee
times it, its faults in its record), stored in a scratch SQLite file in one transaction.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ..faults import Fault, FaultKind
from ..league.store import Store, sqlite_url
from ..play.finished import FinishedGame, figures_of
from .report import synthetic_games


@dataclass(frozen=True)
class StoreFigures:
    games: int
    record_kb: float
    """A record's mean size as JSON."""
    database_mb: float
    index_seconds: float
    """Every game's figures from the index (``Store.games`` without records: ratings, standings, resume)."""
    records_seconds: float
    """The baseline: every game's record read and its figures derived from it (``figures_of``)."""

    def to_json(self) -> dict[str, float | int]:
        return self.__dict__.copy()


def measure(count: int, repeats: int = 3) -> StoreFigures:
    """The figures of a synthetic ``count``-game league: the best of ``repeats`` reads of the index, and
    one of the records (the slow way, some 20 times the index's time)."""
    games = list(league_games(count))
    size = sum(len(json.dumps(game.record)) for game in games[:100]) / min(count, 100) / 1000
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "bench.sqlite"
        store = Store(sqlite_url(path))
        try:
            league = store.league("bench", {"games": count})
            store.add_all(league, games)
            del games
            index = _best(repeats, lambda: store.games(league, records=False))
            records = _best(1, lambda: [figures_of(game.record) for game in store.games(league)])
        finally:
            store.close()
        return StoreFigures(count, size, path.stat().st_size / 1e6, index, records)


def league_games(count: int, distinct: int = 10, seed: int = 1) -> Iterator[FinishedGame]:
    """``count`` games of a few distinct ones under rotating seats, each play timed, one game in 50 with a fault."""
    rng = random.Random(seed)
    played = synthetic_games(distinct, distinct=distinct, seed=seed)
    for game in played:
        for round_ in game.record["rounds"]:
            for play in round_["plays"]:
                play["ms"] = rng.randrange(1, 400)
    names = sorted({name for game in played for name in game.figures.seats})
    fault = Fault(1, FaultKind.TIMEOUT, 2, 1, "no decision within 1000 ms", "bid 0", 7).to_json()
    for index in range(count):
        game = played[index % distinct]
        seats = rng.sample(names, len(game.figures.seats))
        record = {**game.record, "players": seats, "faults": [fault] if index % 50 == 7 else []}
        figures = replace(game.figures, seats=tuple(seats))
        yield replace(game, index=index, set_id=index // len(seats), seed=index, figures=figures, record=record)


def _best(repeats: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best
