"""A match: N games among the same bots, seats rotating, games run concurrently, every record kept."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rage_sdk.rules import Ruleset

from .bots import BotHandle, BotSpec, start_all
from .game import FaultLedger, GameResult, GameSpec, TimeControl, play_game

DEFAULT_TIME = TimeControl()


@dataclass
class BotStats:
    """One bot's figures over a match."""

    name: str
    games: int = 0
    score: int = 0
    place: int = 0
    rounds: int = 0
    hits: int = 0
    faults: int = 0

    def add(self, result: GameResult, seat: int) -> None:
        self.games += 1
        self.score += result.totals[seat]
        self.place += result.places[seat]
        self.rounds += result.rounds
        self.hits += result.hits[seat]
        self.faults += sum(fault.seat == seat for fault in result.faults)

    @property
    def mean_score(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def mean_place(self) -> float:
        return self.place / self.games if self.games else 0.0

    @property
    def bid_accuracy(self) -> float:
        """The share of rounds bid exactly."""
        return self.hits / self.rounds if self.rounds else 0.0


@dataclass
class MatchResult:
    stats: dict[str, BotStats]
    games: list[GameResult] = field(default_factory=list)
    forfeited: set[str] = field(default_factory=set)

    @property
    def decisions(self) -> int:
        return sum(game.decisions for game in self.games)

    @staticmethod
    def of(names: Sequence[str], games: Sequence[GameResult]) -> MatchResult:
        """The figures of ``games`` among the bots ``names`` (a match stopped part way, say)."""
        result = MatchResult({name: BotStats(name) for name in names}, list(games))
        for game in games:
            for seat, name in enumerate(game.spec.seats):
                result.stats[name].add(game, seat)
        return result


def match_specs(names: Sequence[str], ruleset: Ruleset, games: int, seed: int, time: TimeControl) -> list[GameSpec]:
    """Game ``g`` seats the bots rotated by ``g`` and deals from seed ``seed + g``."""
    n = len(names)
    return [
        GameSpec(g, ruleset, tuple(names[(seat + g) % n] for seat in range(n)), seed + g, time) for g in range(games)
    ]


def write_record(directory: Path, result: GameResult) -> Path:
    """Write a game's record as ``game-NNNNN.json``, atomically."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"game-{result.spec.game_id:05d}.json"
    scratch = path.with_suffix(".json.tmp")
    scratch.write_text(json.dumps(result.record, indent=1))
    os.replace(scratch, path)
    return path


async def play_games(
    specs: Sequence[GameSpec],
    handles: Mapping[str, BotHandle],
    ledger: FaultLedger,
    concurrency: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play games among started bots, ``concurrency`` at a time; results in spec order."""
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(spec: GameSpec) -> GameResult:
        async with gate:
            game = await play_game(spec, handles, ledger)
        if on_game is not None:
            on_game(game)
        return game

    return list(await asyncio.gather(*(one(spec) for spec in specs)))


async def run_match(
    specs: Sequence[BotSpec],
    ruleset: Ruleset,
    games: int,
    seed: int = 0,
    time: TimeControl = DEFAULT_TIME,
    concurrency: int = 1,
    records: Path | None = None,
    log_dir: Path = Path("logs"),
    on_game: Callable[[GameResult], None] | None = None,
) -> MatchResult:
    """Start every bot once, play ``games`` games (``concurrency`` at a time), stop the bots."""
    ruleset.check_players(len(specs))
    handles = {spec.name: BotHandle(spec, log_dir) for spec in specs}
    result = MatchResult({spec.name: BotStats(spec.name) for spec in specs})
    ledger = FaultLedger(time.max_faults)

    def finished(game: GameResult) -> None:
        if records is not None:
            write_record(records, game)
        for seat, name in enumerate(game.spec.seats):
            result.stats[name].add(game, seat)
        if on_game is not None:
            on_game(game)

    try:
        await start_all(handles.values())
        schedule = match_specs([spec.name for spec in specs], ruleset, games, seed, time)
        result.games = await play_games(schedule, handles, ledger, concurrency, finished)
    finally:
        await asyncio.gather(*(handle.stop() for handle in handles.values()), return_exceptions=True)
    result.forfeited = set(ledger.forfeited)
    return result
