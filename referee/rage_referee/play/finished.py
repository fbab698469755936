"""A finished game: what one game came to, as a runner reports it and as the store keeps and returns it.

A refereed game's figures are the engine's, taken when it ends beside its record
(:func:`.record.finished_game`); :func:`figures_of` derives the same figures from a record alone (one
read from a file, or made by hand), and the store keeps them as the game hands them over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rage_sdk.record import ruleset_of
from rage_sdk.state import GameState, places_for

from ..faults import Fault


@dataclass(frozen=True, slots=True)
class Figures:
    """What a game came to, as its record says: the figures ratings, standings and reports read."""

    seats: tuple[str, ...]
    """Bot names by seat."""
    totals: tuple[int, ...]
    places: tuple[int, ...]
    hits: tuple[int, ...]
    """Rounds each seat bid exactly."""
    rounds: int
    faults: tuple[Fault, ...]
    """Every decision the referee took for a seat, in order (``forfeited`` entries are no charge)."""

    def bot_at(self, seat: int) -> str | None:
        """The bot at ``seat``; ``None`` for a seat the game has not (a fault's, in a damaged record)."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else None

    def faults_of(self, seat: int) -> int:
        """The faults the seat's bot was charged with (``forfeited`` entries are not charges)."""
        return sum(fault.seat == seat and fault.charged for fault in self.faults)

    @property
    def forfeited(self) -> set[int]:
        """The seats the referee played for, at least in part, after their bot was forfeited."""
        return {fault.seat for fault in self.faults if not fault.charged}


def figures_of(record: Mapping[str, Any]) -> Figures:
    """A finished game's figures, derived from its ``rage-record/1`` (the one place they are derived).

    Places are by total, then hits under the ``most_hits`` tie-break, as the engine places seats.

    :raises ValueError: the record is not one of a finished game (no ``result``, rounds unscored).
    """
    try:
        seats = tuple(map(str, record["players"]))
        result = record["result"]
        totals = tuple(int(total) for total in result["totals"])
        scored = [round_["tricks_won"] for round_ in result["rounds"]]
        bids = [round_["bids"] for round_ in record["rounds"]]
        faults = tuple(map(Fault.from_json, record.get("faults", [])))
        tiebreak = ruleset_of(record["ruleset"]).tiebreak
        if len(bids) != len(scored) or len(totals) != len(seats):
            raise ValueError(f"{len(bids)} rounds, {len(scored)} scored, {len(totals)} totals of {len(seats)} seats")
        hits = tuple(sum(bid[seat] == won[seat] for bid, won in zip(bids, scored)) for seat in range(len(seats)))
    except (KeyError, TypeError, IndexError) as error:
        raise ValueError(f"not the record of a finished game: {type(error).__name__} {error}") from None
    except ValueError as error:
        raise ValueError(f"not the record of a finished game: {error}") from None
    return Figures(seats, totals, places_for(totals, hits, tiebreak), hits, len(scored), faults)


def figures_played(seats: tuple[str, ...], state: GameState, faults: tuple[Fault, ...] = ()) -> Figures:
    """The figures of a game played to its end on the engine, with the ``faults`` the referee noted (none
    for a game played on the engine alone); the same as :func:`figures_of` its record."""
    totals, places, hits = state.outcome()
    return Figures(seats, totals, places, hits, len(state.results), faults)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """The result of one game; plain data, so it pickles (a Ray worker returns it to the driver)."""

    index: int
    set_id: int
    """The duplicate set the game belongs to (its own index when it belongs to none)."""
    seed: int
    figures: Figures
    """What the game came to: the engine's, as the game ended, or read from its record (:func:`figures_of`) or
    from the store's index of it."""
    record: dict[str, Any] = field(default_factory=dict)
    """The game's ``rage-record/1``, with its ``meta``, each play's ``ms`` and its faults; ``{}`` when not read."""
    decisions: int = 0
    """How many decisions the referee asked the bots for; only while the game is fresh (0 once stored)."""
    latencies_ms: tuple[float, ...] = ()
    """How long each decision took, as the referee saw it; only while the game is fresh (not stored)."""

    @classmethod
    def of_record(
        cls,
        index: int,
        set_id: int,
        seed: int,
        record: dict[str, Any],
        decisions: int = 0,
        latencies_ms: tuple[float, ...] = (),
    ) -> FinishedGame:
        """The game of ``record``, its figures read from it (:func:`figures_of`)."""
        return cls(index, set_id, seed, figures_of(record), record, decisions, latencies_ms)

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

    def add(self, figures: Figures, seat: int) -> None:
        self.games += 1
        self.score += figures.totals[seat]
        self.place += figures.places[seat]
        self.rounds += figures.rounds
        self.hits += figures.hits[seat]
        self.faults += figures.faults_of(seat)
        self.forfeited_games += seat in figures.forfeited

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
        for seat, name in enumerate(game.figures.seats):
            if name not in totals:
                totals[name] = BotTotals(name)
            totals[name].add(game.figures, seat)
    return totals
