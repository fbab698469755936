"""A recorded game decision by decision: who decided, what that seat could see, what it chose, how long it took.

:func:`decisions` replays a legal record in the engine and gives, before every bid and play, the
view :func:`rage_sdk.view.view_for` gives the seat to act: the view the referee sent it during the
game. Check the record first (:func:`rage_sdk.replay.verify_record`); the walk assumes it is legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .actions import Action, Bid
from .cards import card_id
from .record import GameRecord, milliseconds
from .replay import play_of
from .state import GameState
from .view import SeatView, view_for


@dataclass(frozen=True)
class Decision:
    """One bid or play of a recorded game, with the view its seat had when it chose."""

    number: int
    """1-based among the seat's own decisions in the record."""
    round_number: int
    trick: int
    """The trick's number in the round; 0 for a bid."""
    seat: int
    view: SeatView
    action: Action
    """What the record says the seat did."""
    ms: int | None
    """How long the seat took, when the record says."""

    @property
    def is_bid(self) -> bool:
        return self.trick == 0


def bid_times(meta: dict[str, Any] | None, index: int, players: int) -> list[int | None]:
    """The bids' milliseconds of the record's round ``index``, by seat (``None`` where the record has none)."""
    rounds = (meta or {}).get("bid_ms")
    times = rounds[index] if isinstance(rounds, list) and index < len(rounds) else None
    if not isinstance(times, list) or len(times) != players:
        return [None] * players
    return [milliseconds(ms) for ms in times]


def decisions(record: GameRecord) -> Iterator[Decision]:
    """Every bid and play of a legal record, in the order they were made.

    :raises rage_sdk.errors.IllegalActionError: at the first rule the record breaks.
    """
    players = len(record.players)
    state = GameState(record.ruleset, players, first_round=record.first_round, dealer=record.rounds[0].dealer)
    made = [0] * players
    for index, round_ in enumerate(record.rounds):
        state.deal([[card_id(c) for c in hand] for hand in round_.hands], [card_id(c) for c in round_.pile])
        times = bid_times(record.meta, index, players)
        steps: list[tuple[int, Action, int | None]] = []
        for offset in range(1, players + 1):
            seat = (state.dealer + offset) % players
            steps.append((seat, Bid.of(round_.bids[seat]), times[seat]))
        steps += [(play.seat, play_of(play, record), play.ms) for play in round_.plays]
        for seat, action, ms in steps:
            made[seat] += 1
            trick = 0 if isinstance(action, Bid) else state.trick_number
            yield Decision(made[seat], state.round_number, trick, seat, view_for(state, seat), action, ms)
            state.apply(action, seat)
