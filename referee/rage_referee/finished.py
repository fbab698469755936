"""A finished game: what one game came to, as a runner reports it and as the store keeps and returns it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .faults import Fault


@dataclass(frozen=True)
class FinishedGame:
    """The result of one game; plain data, so it pickles (a Ray worker returns it to the driver)."""

    index: int
    set_id: int
    """The duplicate set the game belongs to (its own index when it belongs to none)."""
    seed: int
    seats: tuple[str, ...]
    """Bot names by seat."""
    totals: tuple[int, ...]
    places: tuple[int, ...]
    hits: tuple[int, ...]
    """Rounds each seat bid exactly."""
    rounds: int
    faults: tuple[Fault, ...]
    """Every decision the referee took for a seat, in order (``forfeited`` entries are no charge)."""
    decisions: int
    record: dict[str, Any]
    """The game's ``rage-record/1``, with its ``meta``, each play's ``ms`` and its faults; ``{}`` when not read."""
    latencies_ms: tuple[float, ...] = ()
    """How long each decision took, as the referee saw it; only while the game is fresh (not stored)."""

    def faults_of(self, seat: int) -> int:
        """The faults the seat's bot was charged with (``forfeited`` entries are not charges)."""
        return sum(fault.seat == seat and fault.charged for fault in self.faults)

    @property
    def forfeited(self) -> set[int]:
        """The seats the referee played for, at least in part, after their bot was forfeited."""
        return {fault.seat for fault in self.faults if not fault.charged}

    @property
    def slowest_ms(self) -> float:
        return max(self.latencies_ms, default=0.0)

    def without_record(self) -> FinishedGame:
        """The same game without its record (what ratings and events need, a fraction of the memory)."""
        return replace(self, record={}, latencies_ms=())


@dataclass
class BotTotals:
    """One bot's sums over some games: the one place per-bot figures are added up."""

    name: str
    games: int = 0
    score: int = 0
    place: int = 0
    rounds: int = 0
    hits: int = 0
    faults: int = 0
    forfeited_games: int = 0
    """Games in which the referee played for the bot, at least in part, after it was forfeited."""

    def add(self, game: FinishedGame, seat: int) -> None:
        self.games += 1
        self.score += game.totals[seat]
        self.place += game.places[seat]
        self.rounds += game.rounds
        self.hits += game.hits[seat]
        self.faults += game.faults_of(seat)
        self.forfeited_games += seat in game.forfeited

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


def bot_totals(games: Iterable[FinishedGame], names: Iterable[str] = ()) -> dict[str, BotTotals]:
    """Each bot's sums over ``games``, by name (``names`` first, each even with no game)."""
    totals = {name: BotTotals(name) for name in names}
    for game in games:
        for seat, name in enumerate(game.seats):
            if name not in totals:
                totals[name] = BotTotals(name)
            totals[name].add(game, seat)
    return totals
