"""``rage bench runner``: one league on :class:`LocalRunner` and on Ray with 1 and 2 workers, side by side.

Each side plays the same games among the same example bots (commands over gRPC) at the same
concurrency per process; only :meth:`GameRunner.run` is timed, so starting Ray and the bots is
reported apart. Ray's cost per game is measured twice: as the difference in time per game between
one Ray worker and the local loop, and directly, as the round trip of a finished game through an
actor.

With ``submitted`` the bots are submitted versions of the example bots, stored and built as a contest's
are, played in the sandbox (``deal`` isolation, as a league of untrusted bots is); the Ray workers take
the versions from the object store into a versions cache of the bench's own, empty at first, so the
first Ray side also measures shipping them to a new worker.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

from ..league.schedule import schedule
from ..play.finished import FinishedGame
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec
from ..runner.base import GameRunner
from ..runner.isolation import Isolation
from ..runner.local import LocalRunner
from ..runner.shipping import CACHE_ENV
from ..sandbox import Sandbox, SandboxSettings
from ..seats import SUBMISSION, BotKind, BotSpec
from ..submissions.build import build
from ..submissions.store import Submission, store_submission
from .engine import Rate

ROUND_TRIPS = 200


@dataclass(frozen=True)
class RunnerRate:
    """One side: ``workers`` Ray workers (0: the local loop), its games' rate and its start-up time."""

    workers: int
    rate: Rate
    start_s: float
    ship_s: float = 0.0
    """The longest a worker took to take the submitted bots' versions (none submitted: 0)."""

    @property
    def label(self) -> str:
        return "local" if not self.workers else f"ray, {self.workers} worker" + ("s" if self.workers > 1 else "")

    def to_json(self) -> dict[str, Any]:
        return {"workers": self.workers, "start_s": self.start_s, "ship_s": self.ship_s, **self.rate.to_json()}


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


@dataclass(frozen=True)
class League:
    """The bots a bench plays, and what a runner needs to launch them."""

    bots: list[BotSpec]
    sandbox: Sandbox | None = None
    submissions: dict[str, Submission] = field(default_factory=dict)
    isolation: Isolation = Isolation.LEAGUE

    def runner(self, workers: int, concurrency: int, logs: Path) -> GameRunner:
        """A runner of the league: the local loop (no ``workers``) or Ray's ``workers``."""
        ledger = FaultLedger(NEVER_FORFEIT)
        sandbox, submissions, isolation = self.sandbox, self.submissions, self.isolation
        if not workers:
            return LocalRunner(
                self.bots, ledger, concurrency, logs, sandbox=sandbox, submissions=submissions, isolation=isolation
            )
        from ..runner.ray import RayRunner

        return RayRunner(
            self.bots,
            ledger,
            workers=workers,
            concurrency=concurrency,
            log_dir=logs,
            sandbox=sandbox,
            submissions=submissions,
            isolation=isolation,
        )


def submitted_league(folder: Path) -> League:
    """The example bots of :func:`example_bots` as submitted versions stored and built under ``folder``, in the
    sandbox (:class:`~rage_referee.sandbox.SandboxError` when this machine cannot give it)."""
    sandbox = Sandbox.available(SandboxSettings(enabled=True))
    bots, submissions = [], {}
    for spec in example_bots():
        source = folder / "sources" / spec.name
        source.mkdir(parents=True)
        shutil.copy(shlex.split(spec.target)[-1], source / "bot.py")
        manifest = (
            f'name = "{spec.name}"\nruntime = "python"\nrun = "python bot.py"\nbuild = "python -m compileall -q ."\n'
        )
        (source / "rage-bot.toml").write_text(manifest)
        stored = store_submission(source, folder / "versions")
        built = build(stored, sandbox)
        if not built.ok:
            raise RuntimeError(f"{spec.name}: its build failed: {built.detail}")
        submissions[spec.name] = stored
        bots.append(BotSpec(spec.name, f"{SUBMISSION}{stored.folder}", BotKind.SUBMISSION))
    return League(bots, sandbox, submissions, Isolation.DEAL)


async def timed(runner: GameRunner, specs: Sequence[GameSpec]) -> tuple[Rate, float]:
    """The rate of ``runner.run(specs)`` and how long entering the runner took."""
    started = time.perf_counter()
    finished: list[FinishedGame] = []
    async with runner:
        entered = time.perf_counter()
        await runner.run(specs, finished.append)
        ended = time.perf_counter()
    return Rate(len(finished), sum(game.decisions for game in finished), ended - entered), entered - started


async def runner_figures(
    games: int, concurrency: int, workers: Sequence[int] = (1, 2), submitted: bool = False
) -> RunnerFigures:
    import ray

    from ..runner.ray import RayRunner

    with tempfile.TemporaryDirectory(prefix="rage-bench-runner-") as scratch:
        folder = Path(scratch)
        folder.chmod(0o755)  # the sandboxed bots, each a user of its own, read their versions under it
        league = submitted_league(folder) if submitted else League(example_bots())
        specs = league_specs([bot.name for bot in league.bots], games)
        logs = folder / "logs"
        rate, start = await timed(league.runner(0, concurrency, logs), specs)
        sides = [RunnerRate(0, rate, start)]
        started = time.perf_counter()
        cache = os.environ.get(CACHE_ENV)
        os.environ[CACHE_ENV] = str(folder / "cache")  # the workers' own, empty: they start with it
        try:
            ray.init(num_cpus=max(workers), include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        finally:
            os.environ.pop(CACHE_ENV)
            if cache is not None:
                os.environ[CACHE_ENV] = cache
        ray_start = time.perf_counter() - started
        try:
            for count in workers:
                runner = league.runner(count, concurrency, logs)
                rate, start = await timed(runner, specs)
                assert isinstance(runner, RayRunner)
                ship = max((worker.shipped_seconds for worker in runner.starts), default=0.0)
                sides.append(RunnerRate(count, rate, start, ship))
            round_trip = _round_trip_ms(await _one_game(league, specs[0], logs))
        finally:
            ray.shutdown()
    return RunnerFigures(sides, ray_start, round_trip)


async def _one_game(league: League, spec: GameSpec, logs: Path) -> FinishedGame:
    finished: list[FinishedGame] = []
    async with league.runner(0, 1, logs) as runner:
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
