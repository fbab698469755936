"""Build figures of the league report on a synthetic league of any size (``rage bench report``).

The league is made of a few distinct random games replayed under rotating bot names, so a
10,000-game league is stored in seconds; the figures are the report's build time and page weight,
beside the rating table alone (what ``rage ratings`` computes) on the same games.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from rage_sdk import CHANCE, GameState, Ruleset, view_for
from rage_sdk.record import record_json

from ..faults import Fault, FaultKind
from ..league.ratings import rating_table
from ..play.finished import FinishedGame, figures_played
from ..report.site import Built, build_site


def synthetic_games(
    count: int, bots: int = 8, players: int = 3, distinct: int = 40, seed: int = 1
) -> list[FinishedGame]:
    """``count`` stored games of amigo among ``bots`` names, random legal play, one fault in 50."""
    rng = random.Random(seed)
    names = [f"bot-{k}" for k in range(bots)]
    played = []
    for _ in range(distinct):
        state = GameState(Ruleset.of("amigo"), players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.deal_seeded(seed=rng.randrange(1 << 30))
            else:
                state.apply(rng.choice(view_for(state, state.current_player()).legal_actions))
        played.append(state)
    games = []
    for index in range(count):
        state = played[index % distinct]
        seats = tuple(rng.sample(names, players))
        faults: tuple[Fault, ...] = ()
        if index % 50 == 7:
            faults = (Fault(1, FaultKind.TIMEOUT, 2, 1, "no decision", "?"),)
        record = record_json(state, list(seats))
        games.append(
            FinishedGame(index, index // players, index, replace(figures_played(seats, state), faults=faults), record)
        )
    return games


@dataclass(frozen=True)
class ReportFigures:
    games: int
    ratings_seconds: float
    """The baseline: the rating table alone."""
    built: Built


def measure(count: int, replays: int | None, out: Path | None = None) -> ReportFigures:
    """Build the report of a synthetic ``count``-game league (in ``out``, or a scratch folder)."""
    games = synthetic_games(count)
    started = time.perf_counter()
    rows = rating_table(games)
    ratings_seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as scratch:
        built = build_site("bench", games, rows, out or Path(scratch), replays)
    return ReportFigures(count, ratings_seconds, built)
