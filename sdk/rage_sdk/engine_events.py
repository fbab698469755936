"""What a move did, as the engine tells it: the events :meth:`GameState.apply` and the deal return.

Each event is a small tuple of numbers (card ids, play codes, colour codes with ``NO_TRUMP`` for
none), its first field ``to`` the seat that may see it, or ``EVERYONE``. Which seat that is, is
decided in :mod:`rage_sdk.visibility`; :mod:`rage_sdk.wire` encodes them for the seats, and a bot
receives them decoded as the typed events of :mod:`rage_sdk.events`.
"""

from __future__ import annotations

from typing import Final, NamedTuple

EVERYONE: Final = -1
"""``to`` of an event every seat sees."""


class RoundDealt(NamedTuple):
    """A round dealt, as one seat sees it: its own hand (sorted), the cards turned up and the trump."""

    to: int
    round_number: int
    cards: int
    dealer: int
    hand: tuple[int, ...]
    turned: tuple[int, ...]
    trump: int


class BidMade(NamedTuple):
    to: int
    seat: int
    bid: int


class BidsShown(NamedTuple):
    """Every bid of the round at once (hidden bidding, when the last bid is made)."""

    to: int
    bids: tuple[int, ...]


class CardPlayed(NamedTuple):
    to: int
    seat: int
    play: int
    """The play code: the card with its declaration."""
    turned: tuple[int, ...]
    """Cards the play turned up from the pile (a change)."""
    trump: int
    """The trump after the play."""


class TrickWon(NamedTuple):
    to: int
    winner: int
    turned: tuple[int, ...]
    """Cards turned up after the trick (a notrump of scope ``trick``)."""
    trump: int
    """The trump for the next trick."""


class RoundScored(NamedTuple):
    to: int
    round_number: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


EngineEvent = RoundDealt | BidMade | BidsShown | CardPlayed | TrickWon | RoundScored
Events = tuple[EngineEvent, ...]
NO_EVENTS: Final[Events] = ()
