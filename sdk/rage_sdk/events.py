"""What a bot is told as a game goes on: its start, the public events, and its end."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Play
from .cards import Card, Colour
from .rules import Ruleset


@dataclass(frozen=True)
class GameInfo:
    """A game about to start: the bot's seat, the table and the time control."""

    game: int
    seat: int
    players: tuple[str, ...]
    ruleset: Ruleset
    first_round: int
    decision_ms: int
    bank_ms: int
    index: int = 0
    """The referee's number for this game in its match or league (its record is ``game-NNNNN.json``)."""


@dataclass(frozen=True)
class RoundStarted:
    round_number: int
    cards: int
    dealer: int
    hand: tuple[Card, ...]
    turned: tuple[Card, ...]
    trump: Colour | None


@dataclass(frozen=True)
class BidMade:
    """A bid this seat may see (every bid under open bidding, else its own)."""

    seat: int
    bid: int


@dataclass(frozen=True)
class BidsShown:
    """Every bid of the round at once (hidden bidding, when the last bid is made)."""

    bids: tuple[int, ...]


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    play: Play
    turned: tuple[Card, ...]
    """Cards the play turned up from the pile (a change)."""
    trump: Colour | None
    """The trump after the play."""


@dataclass(frozen=True)
class TrickWon:
    winner: int
    turned: tuple[Card, ...]
    """Cards turned up after the trick (a notrump of scope ``trick``)."""
    trump: Colour | None
    """The trump for the next trick."""


@dataclass(frozen=True)
class RoundScored:
    round_number: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


Event = RoundStarted | BidMade | BidsShown | CardPlayed | TrickWon | RoundScored


@dataclass(frozen=True)
class FaultNote:
    """A fault the referee charged a seat with: its kind, where, and what happened."""

    kind: str
    round_number: int
    trick: int
    detail: str


@dataclass(frozen=True)
class GameOver:
    totals: tuple[int, ...]
    places: tuple[int, ...]
    faults: tuple[FaultNote, ...]
