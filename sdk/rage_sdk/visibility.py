"""Who may see what, per the Information section of ``rules.md``: a seat's events and its view.

A seat sees its own hand; every card turned up from the pile; every card played with its
declaration; the current trump; tricks won; scores of finished rounds; cards left in each hand;
seats, dealer and ruleset; and the bids its ``bidding`` mode shows. Never another seat's hand,
never the pile. The engine tags each event it returns with the seat that may see it (by the rules of
:mod:`rage_sdk.engine_events`, whose :func:`~rage_sdk.engine_events.bids_seen` decides the bids a
view shows too); :func:`events_for` picks a seat's events and :func:`seen` its view, which
:func:`rage_sdk.view.view_for` gives a bot in-process and :mod:`rage_sdk.wire` encodes for a
decision request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .engine_events import EVERYONE, Events, bids_seen

if TYPE_CHECKING:
    from .state import GameState


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
