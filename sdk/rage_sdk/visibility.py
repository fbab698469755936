"""Who may see what, per the Information section of ``rules.md``: the one place that decides it.

A seat sees its own hand; every card turned up from the pile; every card played with its
declaration; the current trump; tricks won; scores of finished rounds; cards left in each hand;
seats, dealer and ruleset; and the bids its ``bidding`` mode shows. Never another seat's hand,
never the pile. The engine tags each event it returns with the seat that may see it (here,
:func:`bid_events`); :func:`events_for` picks a seat's events and :func:`seen` its view, which
:func:`rage_sdk.view.view_for` gives a bot in-process and :mod:`rage_sdk.wire` encodes for a
decision request.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple

from .actions import NUM_PLAY_CODES
from .cards import NUM_COLOURS
from .engine_events import EVERYONE, BidMade, BidsShown, CardPlayed, Events, TrickWon
from .rules import Bidding

if TYPE_CHECKING:
    from .state import GameState

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


def events_for(events: Events, seat: int) -> Events:
    """The events of ``events`` that ``seat`` may see, in order."""
    return tuple([event for event in events if event.to == EVERYONE or event.to == seat])


class Seen(NamedTuple):
    """What one seat may see of a dealt round now, in numbers (named as the protocol's ``View``).

    Sequences may be the state's own lists: read them at once, or copy them.
    """

    seat: int
    round: int
    cards: int
    dealer: int
    trump: int
    hand: list[int]
    hand_sizes: list[int]
    turned: list[int]
    bids: list[int]
    """Bids by seat; -1 where not made yet or not shown to this seat."""
    trick: int
    """The trick being played (1-based), 0 while bidding."""
    lead: int
    trick_plays: list[int]
    trick_leader: int
    tricks_won: list[int]
    totals: list[int]


def seen(state: GameState, seat: int) -> Seen:
    """What ``seat`` may see of ``state`` now: never another seat's hand, never the pile."""
    trick, players = state.trick, state.players
    shown = bids_seen(state.ruleset.bidding, state.bids, seat, state.bids_made == players)
    return Seen(
        seat,
        state.round_number,
        state.cards,
        state.dealer,
        state.trump,
        state.hands[seat],
        [len(hand) for hand in state.hands],
        state.turned,
        [-1 if bid is None else bid for bid in shown],
        state.trick_number,
        state.lead,
        [play.code for _, play in trick],
        trick[0][0] if trick else state.to_move,
        state.tricks_won,
        state.totals,
    )
