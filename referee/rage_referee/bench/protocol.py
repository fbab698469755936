"""``rage bench protocol``: decisions per second through the referee with bots as gRPC processes, beside in-process."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

from ..matches.match import match_specs
from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec, TimeControl
from ..runner import GameRunner, LocalRunner
from ..sandbox import Sandbox
from ..seats import BotSpec
from .engine import Rate


@dataclass(frozen=True)
class ProtocolRate:
    """Decisions through the referee at one concurrency, over gRPC and in-process."""

    concurrency: int
    grpc: Rate
    grpc_median_ms: float
    in_process: Rate
    unix: tuple[Rate, float] | None = None
    """Over a Unix socket, not sandboxed: the rate and median decision (ms)."""
    sandboxed: tuple[Rate, float] | None = None
    """In the sandbox (over a Unix socket): the rate and median decision (ms)."""

    def to_json(self) -> dict[str, object]:
        figures: dict[str, object] = {
            "concurrency": self.concurrency,
            "grpc": self.grpc.to_json(),
            "grpc_median_decision_ms": self.grpc_median_ms,
            "in_process": self.in_process.to_json(),
        }
        for name, measured in (("unix", self.unix), ("sandboxed", self.sandboxed)):
            if measured is not None:
                figures[name] = measured[0].to_json()
                figures[f"{name}_median_decision_ms"] = measured[1]
        return figures


async def timed_games(runner: GameRunner, specs: Iterable[GameSpec]) -> tuple[Rate, list[FinishedGame]]:
    """Play ``specs`` on a started runner: the rate, and the games."""
    finished: list[FinishedGame] = []
    start = time.perf_counter()
    await runner.run(specs, finished.append)
    elapsed = time.perf_counter() - start
    return Rate(len(finished), sum(game.decisions for game in finished), elapsed), finished


async def _rate(runner: GameRunner, ruleset: Ruleset, concurrency: int, games: int) -> tuple[Rate, float]:
    runner.concurrency = concurrency
    specs = match_specs(list(runner.bots), ruleset, games, Deals.public(0), TimeControl())
    rate, finished = await timed_games(runner, specs)
    latencies = sorted(ms for game in finished for ms in game.latencies_ms)
    return rate, latencies[len(latencies) // 2]


async def protocol_rates(
    concurrencies: list[int], players: int = 4, rounds: int = 2, sandbox: Sandbox | None = None
) -> list[ProtocolRate]:
    """Random bots, each its own gRPC process, at each concurrency; the same games in-process beside.

    ``rounds`` sets how many games each measurement plays: ``rounds * concurrency`` (at least 8).
    With ``sandbox``, the same bots also over a Unix socket, and in the sandbox (over its socket).
    """
    ruleset = Ruleset.of("amigo")
    random_bot = example_bot("random_bot")
    with tempfile.TemporaryDirectory() as logs:

        def bots(target: str, kind: str, in_sandbox: Sandbox | None = None) -> LocalRunner:
            specs = [BotSpec.of(f"random{k}", target) for k in range(players)]
            return LocalRunner(specs, FaultLedger(NEVER_FORFEIT), log_dir=Path(logs) / kind, sandbox=in_sandbox)

        sides = [bots(f"python {random_bot}", "tcp"), bots(f"{random_bot}:RandomBot", "local")]
        if sandbox is not None:
            sides += [
                bots(f"python {random_bot} --listen {{listen}}", "unix"),
                bots(f"python {random_bot}", "sandboxed", sandbox),
            ]
        async with contextlib.AsyncExitStack() as started:
            await asyncio.gather(*(started.enter_async_context(side) for side in sides))
            remote, local, *more_sides = sides
            figures = []
            for concurrency in concurrencies:
                games = max(8, rounds * concurrency)
                grpc_rate, median = await _rate(remote, ruleset, concurrency, games)
                local_rate, _ = await _rate(local, ruleset, concurrency, games)
                more = [await _rate(side, ruleset, concurrency, games) for side in more_sides]
                figures.append(ProtocolRate(concurrency, grpc_rate, median, local_rate, *more))
            return figures
