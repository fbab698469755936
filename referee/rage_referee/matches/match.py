"""A match: N games among the same bots, seats rotating (or duplicate sets), games run concurrently, records kept."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rage_sdk.rules import Ruleset

from ..league.record_files import write_record_file
from ..league.schedule import duplicate_set
from ..league.seatings import seatings
from ..play.deals import Deals
from ..play.finished import BotTotals, FinishedGame, bot_totals
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec, Occasion, TimeControl
from ..runner import LocalRunner
from ..seats import BotSpec

DEFAULT_TIME = TimeControl()


@dataclass
class MatchResult:
    stats: dict[str, BotTotals]
    games: list[FinishedGame] = field(default_factory=list)
    forfeited: set[str] = field(default_factory=set)
    deals: Deals = field(default_factory=lambda: Deals.public(0))

    @property
    def decisions(self) -> int:
        return sum(game.decisions for game in self.games)

    @staticmethod
    def of(names: Sequence[str], games: Sequence[FinishedGame]) -> MatchResult:
        """The figures of ``games`` among the bots ``names`` (a match stopped part way, say)."""
        return MatchResult(bot_totals(games, names), list(games))


def match_specs(
    names: Sequence[str], ruleset: Ruleset, games: int, deals: Deals, time: TimeControl, name: str = ""
) -> list[GameSpec]:
    """Game ``g`` seats the bots rotated by ``g`` and deals as set ``g`` of ``deals``; ``name`` is the match's."""
    n = len(names)
    occasion = Occasion("match", name or " vs ".join(names), deal_commitment=deals.commitment)
    seats = [tuple(names[(seat + g) % n] for seat in range(n)) for g in range(games)]
    return [GameSpec(g, ruleset, seats[g], deals.seed_for(g), time, occasion) for g in range(games)]


def write_deal_key(directory: Path, deals: Deals) -> Path:
    """Reveal a finished match's deal key beside its records, as ``deal-key.json``."""
    assert deals.key is not None
    path = directory / "deal-key.json"
    path.write_text(json.dumps({"key": deals.key.hex(), "commitment": deals.commitment}, indent=1) + "\n")
    return path


def duplicate_specs(
    names: Sequence[str], ruleset: Ruleset, games: int, deals: Deals, time: TimeControl, name: str = ""
) -> list[GameSpec]:
    """Whole duplicate sets, at least ``games`` games: set ``k`` plays one deal in every seating of the bots.

    Game ``g`` belongs to set ``g // len(seatings(len(names)))``.
    """
    size = len(seatings(len(names)))
    match = name or " vs ".join(names)
    return [
        GameSpec(game.index, ruleset, game.seats, game.seed, time, Occasion("match", match, set_id, deals.commitment))
        for set_id in range(math.ceil(games / size))
        for game in duplicate_set(tuple(names), deals.seed_for(set_id), set_id, set_id * size)
    ]


def write_record(directory: Path, result: FinishedGame) -> Path:
    """Write a game's record as ``game-NNNNN.json``, atomically."""
    return write_record_file(directory, result.index, result.record)


class HeldRecords:
    """A match's record files, each duplicate set's written once the set is complete.

    A record shows its deal, and the other games of its set are dealt the same hands: a bot that
    read it before they are played (from the folder the referee's command line names) would know
    every hand of them. A game outside duplicate sets is its own set, written as it ends.
    """

    def __init__(self, directory: Path, schedule: Sequence[GameSpec]) -> None:
        self.directory = directory
        self.left = Counter(spec.set_id for spec in schedule)
        self.held: defaultdict[int, list[FinishedGame]] = defaultdict(list)

    def add(self, game: FinishedGame) -> None:
        set_id = game.set_id
        self.held[set_id].append(game)
        self.left[set_id] -= 1
        if not self.left[set_id]:
            self._write(set_id)

    def write_all(self) -> None:
        """Write the games held back: the match is over, the rest of their sets will not be played."""
        for set_id in list(self.held):
            self._write(set_id)

    def _write(self, set_id: int) -> None:
        for game in sorted(self.held.pop(set_id), key=lambda game: game.index):
            write_record(self.directory, game)


async def run_match(
    specs: Sequence[BotSpec],
    ruleset: Ruleset,
    games: int,
    deals: Deals | None = None,
    time: TimeControl = DEFAULT_TIME,
    concurrency: int = 1,
    records: Path | None = None,
    log_dir: Path = Path("logs"),
    on_game: Callable[[FinishedGame], None] | None = None,
    name: str = "",
    duplicate: bool = False,
) -> MatchResult:
    """Start every bot once, play ``games`` games (``concurrency`` at a time), stop the bots.

    Deals are secret (a fresh key) unless ``deals`` says otherwise; with ``records``, a secret key
    is revealed as ``deal-key.json`` beside them once every game has ended and the bots are stopped.
    ``name`` names the match in each record's ``meta`` (default: the bots' names). With
    ``duplicate`` the games are :func:`duplicate_specs`' whole sets.
    """
    ruleset.check_players(len(specs))
    deals = deals or Deals.secret()
    result = MatchResult(bot_totals((), [spec.name for spec in specs]), deals=deals)
    ledger = FaultLedger(time.max_faults)

    plan = duplicate_specs if duplicate else match_specs
    schedule = plan([spec.name for spec in specs], ruleset, games, deals, time, name)
    held = None if records is None else HeldRecords(records, schedule)

    def finished(game: FinishedGame) -> None:
        result.games.append(game)
        for seat, name in enumerate(game.figures.seats):
            result.stats[name].add(game.figures, seat)
        if on_game is not None:
            on_game(game)
        if held is not None:  # after the game is counted: a record that cannot be written stops the match
            held.add(game)

    try:
        async with LocalRunner(specs, ledger, concurrency, log_dir) as runner:
            await runner.run(schedule, finished)
    finally:
        if held is not None:  # the bots are stopped: no game of a set cut short is played any more
            held.write_all()
    result.games.sort(key=lambda game: game.index)
    result.forfeited = set(ledger.forfeited)
    if records is not None and deals.key is not None:
        write_deal_key(records, deals)
    return result
