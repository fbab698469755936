"""What a move did, as the engine tells it: the events :meth:`GameState.apply` and the deal return.

Each event is a small tuple of numbers (card ids, play codes, colour codes with ``NO_TRUMP`` for
none), its first field ``to`` the seat that may see it, or ``EVERYONE``. For a bid, the one event
whose audience depends on the rules (``bidding``), that is decided here, once: :func:`bid_events`,
and :func:`bids_seen` for a view. :mod:`rage_sdk.visibility` picks a seat's events and its view,
:mod:`rage_sdk.wire` encodes them for the seats, and a bot receives them decoded as the typed
events of :mod:`rage_sdk.events`.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

from .actions import NUM_PLAY_CODES
from .cards import NUM_COLOURS
from .rules import Bidding

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


_OPEN: Final = Bidding.OPEN  # a member lookup on an Enum class is slow
_HIDDEN: Final = Bidding.HIDDEN


def bid_events(bidding: Bidding, seat: int, bid: int, bids: list[int | None], last: bool) -> Events:
    """The events of ``seat`` bidding ``bid`` (``last``: the round's last bid; ``bids`` by seat, taken).

    Open bidding shows each bid to everyone as it is made; hidden and secret bidding tell the
    bidder alone, and hidden shows every bid at once when the last is made (secret bids are
    public with the round's score).
    """
    if bidding is _OPEN:
        return (BidMade(EVERYONE, seat, bid),)
    made = BidMade(seat, seat, bid)
    if last and bidding is _HIDDEN:
        return made, BidsShown(EVERYONE, tuple(bids))  # type: ignore[arg-type]  # every seat has bid
    return (made,)


class Prebuilt(NamedTuple):
    """The commonest events of a table, built once so that the engine's hot path only looks them up."""

    played: tuple[tuple[tuple[Events, ...], ...], ...]
    """``played[trump][seat][code]``: a play that turned nothing up (``NO_TRUMP``, -1, is last)."""
    won: tuple[tuple[TrickWon, ...], ...]
    """``won[trump][winner]``: a trick won, nothing turned up after it."""
    bids: tuple[tuple[Events, ...], ...]
    """``bids[seat][bid]``: a bid that is not the round's last."""


@cache
def prebuilt(bidding: Bidding, players: int, max_bid: int) -> Prebuilt:
    """The :class:`Prebuilt` events of ``players`` seats under ``bidding`` (bids up to ``max_bid``)."""
    trumps, seats = (*range(NUM_COLOURS), -1), range(players)  # -1, no trump, indexes the last
    played = tuple(
        tuple(tuple((CardPlayed(EVERYONE, seat, card, (), trump),) for card in range(NUM_PLAY_CODES)) for seat in seats)
        for trump in trumps
    )
    won = tuple(tuple(TrickWon(EVERYONE, winner, (), trump) for winner in seats) for trump in trumps)
    bids = tuple(tuple(bid_events(bidding, seat, bid, [], False) for bid in range(max_bid + 1)) for seat in seats)
    return Prebuilt(played, won, bids)


def bids_seen(bidding: Bidding, bids: list[int | None], seat: int, bidding_over: bool) -> list[int | None]:
    """The bids ``seat`` may see, by seat (``None`` where it may not, or not made yet)."""
    if bidding is _OPEN or (bidding is _HIDDEN and bidding_over):
        return list(bids)
    return [bid if other == seat else None for other, bid in enumerate(bids)]
