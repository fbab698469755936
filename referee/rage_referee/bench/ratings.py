"""Figures of ``rage bench ratings``: the rating table of a synthetic league, beside fitting it as before.

The baseline is the way each bootstrap resample used to be fitted: its games drawn one by one, their
pairwise results listed and fitted by ``choix.ilsr_pairwise``; it is timed on a few resamples and
scaled to the table's number, so it stays short on a big league.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass

import choix

from ..league.ratings import BOOTSTRAP_SAMPLES, REGULARISATION, bootstrap, comparisons, rating_table
from ..play.finished import FinishedGame
from .report import synthetic_games


@dataclass(frozen=True)
class RatingsFigures:
    games: int
    table_seconds: float
    """The whole rating table, as ``rage ratings`` computes it."""
    bootstrap_seconds: float
    """Its bootstrap alone (every resample fitted at once)."""
    baseline_seconds: float
    """The same bootstrap fitted resample by resample from pair lists (estimated from a few)."""
    baseline_fits: int
    """How many resamples the baseline's estimate was timed on."""

    def to_json(self) -> dict[str, float | int]:
        return self.__dict__.copy()


def pairwise_fits(games: list[FinishedGame], names: list[str], fits: int, seed: int = 0) -> float:
    """Seconds to fit ``fits`` resamples of ``games`` as the bootstrap did before, one by one from pair lists."""
    index = {name: k for k, name in enumerate(names)}
    groups: dict[int, list[FinishedGame]] = defaultdict(list)
    for game in games:
        groups[game.set_id].append(game)
    sets = list(groups.values())
    rng = random.Random(seed)
    started = time.perf_counter()
    for _ in range(fits):
        drawn = [game for _ in sets for game in sets[rng.randrange(len(sets))]]
        choix.ilsr_pairwise(len(names), comparisons(drawn, index), alpha=REGULARISATION)
    return time.perf_counter() - started


def measure(count: int, baseline_fits: int = 5) -> RatingsFigures:
    """The figures on a synthetic ``count``-game league (8 bots, 3 a table)."""
    games = synthetic_games(count, distinct=10)
    names = sorted({name for game in games for name in game.figures.seats})
    started = time.perf_counter()
    rating_table(games)
    table = time.perf_counter() - started
    started = time.perf_counter()
    bootstrap(games, names)
    fitted = time.perf_counter() - started
    baseline = pairwise_fits(games, names, baseline_fits) * BOOTSTRAP_SAMPLES / baseline_fits
    return RatingsFigures(count, table, fitted, baseline, baseline_fits)
