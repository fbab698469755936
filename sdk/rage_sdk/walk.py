"""A game record walked decision by decision: each bid and play with the engine's state before it.

:func:`steps` is the one walk through a record: it starts from :meth:`GameRecord.start_state`,
deals each round as the record dealt it and yields every decision in the order it was made, the
live state still before it; it applies the decision when asked for the next. Replaying
(:mod:`rage_sdk.replay`), the decisions of a record (:mod:`rage_sdk.decisions`), a record put to a
bot again and the report's replays all walk this way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .actions import Action, Bid, Play
from .cards import CARDS, CHANGE, WILD, Colour, card_id
from .engine_events import Events
from .errors import IllegalActionError
from .record import GameRecord, RecordPlay, RecordRound, milliseconds
from .rules import ChangeMode
from .state import GameState


@dataclass(frozen=True)
class Step:
    """One bid or play of a recorded game, and the engine's state just before it."""

    round_index: int
    """Which of the record's ``rounds`` it is in (0 for the first)."""
    round_number: int
    dealer: int
    trick: int
    """The trick's number in the round; 0 for a bid."""
    seat: int
    action: Action
    """What the record says the seat did."""
    ms: int | None
    """How long the seat took, when the record says."""
    state: GameState
    """The live state, before ``action``: the walk moves it on, so copy it to keep it."""

    @property
    def is_bid(self) -> bool:
        return self.trick == 0


def play_of(play: RecordPlay, record: GameRecord) -> Play:
    """The engine's play for a record's play: declarations the ruleset does not use are ignored."""
    card = CARDS[card_id(play.card)]
    if card.id == WILD:
        value = play.value if record.ruleset.wild_declares_value else None
        return Play(card, colour=_colour(play.color), value=value)
    if card.id == CHANGE and record.ruleset.change_mode is ChangeMode.CHOOSE:
        return Play(card, trump=_colour(play.trump))
    return Play(card)


def _colour(letter: str | None) -> Colour | None:
    return None if letter is None else Colour.from_letter(letter)


def bid_times(meta: dict[str, Any] | None, index: int, players: int) -> list[int | None]:
    """The bids' milliseconds of the record's round ``index``, by seat (``None`` where the record has none)."""
    rounds = (meta or {}).get("bid_ms")
    times = rounds[index] if isinstance(rounds, list) and index < len(rounds) else None
    if not isinstance(times, list) or len(times) != players:
        return [None] * players
    return [milliseconds(ms) for ms in times]


def deal_round(state: GameState, round_: RecordRound) -> Events:
    """Deal ``state`` the hands and pile the record dealt in ``round_``; the deal's events."""
    return state.deal([[card_id(c) for c in hand] for hand in round_.hands], [card_id(c) for c in round_.pile])


def steps(
    record: GameRecord, state: GameState | None = None, on_round: Callable[[GameState], None] | None = None
) -> Iterator[Step]:
    """Every bid and play of a well-formed record in the order made, each with the state before it.

    ``state`` is the state walked (default :meth:`GameRecord.start_state`); after the walk it is the
    state after the record's last play. ``on_round(state)`` runs after each round's last play, while
    its tricks are still in the state.

    :raises rage_sdk.errors.IllegalActionError: at the first rule the record breaks.
    :raises TypeError: ``record`` is no :class:`GameRecord` (a record's text: :func:`rage_sdk.record.load_record` it).
    """
    if not isinstance(record, GameRecord):
        hint = ": steps(load_record(text))" if isinstance(record, str | bytes) else ""
        raise TypeError(f"steps takes a GameRecord, not a {type(record).__name__}{hint}")
    state = record.start_state() if state is None else state
    players = len(record.players)
    for index, round_ in enumerate(record.rounds):
        number = state.round_number
        if round_.dealer != state.dealer:
            raise IllegalActionError(
                f"the dealer is seat {round_.dealer}, but the deal moves clockwise to seat {state.dealer}",
                round_number=number,
                trick=None,
                seat=round_.dealer,
            )
        deal_round(state, round_)
        times = bid_times(record.meta, index, players)
        for offset in range(1, players + 1):
            seat = (round_.dealer + offset) % players
            bid = Bid.of(round_.bids[seat])
            yield Step(index, number, round_.dealer, 0, seat, bid, times[seat], state)
            state.apply(bid, seat)
        for play in round_.plays:
            action = play_of(play, record)
            yield Step(index, number, round_.dealer, state.trick_number, play.seat, action, play.ms, state)
            state.apply(action, play.seat)
        if on_round is not None:
            on_round(state)
