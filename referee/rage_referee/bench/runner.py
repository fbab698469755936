"""``rage bench runner``: one league on :class:`LocalRunner` and on Ray with 1 and 2 workers, side by side.

Each side plays the same games among the same example bots (commands over gRPC) at the same
concurrency per process; only :meth:`GameRunner.run` is timed, so starting Ray and the bots is
reported apart. Ray's cost per game is measured twice: as the difference in time per game between
one Ray worker and the local loop, and directly, as the round trip of a finished game through an
actor.
"""

from __future__ import annotations

import logging
import shlex
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

from ..league.schedule import schedule
from ..play.finished import FinishedGame
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec
from ..runner.base import GameRunner
from ..runner.local import LocalRunner
from ..seats import BotSpec
from .engine import Rate

ROUND_TRIPS = 200


@dataclass(frozen=True)
class RunnerRate:
    """One side: ``workers`` Ray workers (0: the local loop), its games' rate and its start-up time."""

    workers: int
    rate: Rate
    start_s: float

    @property
    def label(self) -> str:
        return "local" if not self.workers else f"ray, {self.workers} worker" + ("s" if self.workers > 1 else "")

    def to_json(self) -> dict[str, Any]:
        return {"workers": self.workers, "start_s": self.start_s, **self.rate.to_json()}


@dataclass(frozen=True)
class RunnerFigures:
    sides: list[RunnerRate]
    ray_start_s: float
    """Starting a single-node Ray on this machine."""
    round_trip_ms: float
    """A finished game sent to a Ray actor and back, mean over :data:`ROUND_TRIPS` calls one after another."""

    @property
    def overhead_ms(self) -> float:
        """Time per game on one Ray worker less time per game on the local loop, at the same concurrency."""
        local, ray_1 = self.sides[0].rate, self.sides[1].rate
        return 1000 * (ray_1.seconds / ray_1.games - local.seconds / local.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": [side.to_json() for side in self.sides],
            "ray_start_s": self.ray_start_s,
            "overhead_ms_per_game": self.overhead_ms,
            "round_trip_ms": self.round_trip_ms,
        }


def league_specs(names: Sequence[str], games: int) -> list[GameSpec]:
    ruleset = Ruleset.of("amigo")
    return [GameSpec(g.index, ruleset, g.seats, g.seed) for g in schedule(list(names), 4, games=games, seed=0)]


def example_bots() -> list[BotSpec]:
    """Two heuristic and two random example bots, each its own process."""
    files = {name: f"{name[:-2]}_bot" for name in ("heuristic-1", "heuristic-2", "random-1", "random-2")}
    return [BotSpec.of(name, f"python {shlex.quote(str(example_bot(file)))}") for name, file in files.items()]


async def timed(runner: GameRunner, specs: Sequence[GameSpec]) -> tuple[Rate, float]:
    """The rate of ``runner.run(specs)`` and how long entering the runner took."""
    started = time.perf_counter()
    finished: list[FinishedGame] = []
    async with runner:
        entered = time.perf_counter()
        await runner.run(specs, finished.append)
        ended = time.perf_counter()
    return Rate(len(finished), sum(game.decisions for game in finished), ended - entered), entered - started


async def runner_figures(games: int, concurrency: int, workers: Sequence[int] = (1, 2)) -> RunnerFigures:
    import ray

    from ..runner.ray import RayRunner

    bots = example_bots()
    specs = league_specs([bot.name for bot in bots], games)
    with tempfile.TemporaryDirectory() as logs:
        rate, start = await timed(LocalRunner(bots, FaultLedger(NEVER_FORFEIT), concurrency, Path(logs)), specs)
        sides = [RunnerRate(0, rate, start)]
        started = time.perf_counter()
        ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        ray_start = time.perf_counter() - started
        try:
            for count in workers:
                runner = RayRunner(
                    bots, FaultLedger(NEVER_FORFEIT), workers=count, concurrency=concurrency, log_dir=Path(logs)
                )
                rate, start = await timed(runner, specs)
                sides.append(RunnerRate(count, rate, start))
            round_trip = _round_trip_ms(await _one_game(bots, specs[0], Path(logs)))
        finally:
            ray.shutdown()
    return RunnerFigures(sides, ray_start, round_trip)


async def _one_game(bots: Sequence[BotSpec], spec: GameSpec, logs: Path) -> FinishedGame:
    finished: list[FinishedGame] = []
    async with LocalRunner(bots, FaultLedger(NEVER_FORFEIT), 1, logs) as runner:
        await runner.run([spec], finished.append)
    return finished[0]


class _Echo:
    """An actor that hands back what it is given."""

    def back(self, game: FinishedGame) -> FinishedGame:
        return game


def _round_trip_ms(game: FinishedGame) -> float:
    import ray

    echo: Any = ray.remote(_Echo).options(num_cpus=0).remote()
    ray.get(echo.back.remote(game))  # the actor is up
    started = time.perf_counter()
    for _ in range(ROUND_TRIPS):
        ray.get(echo.back.remote(game))
    elapsed = time.perf_counter() - started
    ray.kill(echo)
    return 1000 * elapsed / ROUND_TRIPS
