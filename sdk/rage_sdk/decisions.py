"""A recorded game decision by decision: who decided, what that seat could see, what it chose, how long it took.

:func:`decisions` walks a legal record (:func:`rage_sdk.walk.steps`) and gives, before every bid and play, the
view :func:`rage_sdk.view.view_for` gives the seat to act: the view the referee sent it during the
game. Check the record first (:func:`rage_sdk.replay.verify_record`); the walk assumes it is legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .actions import Action
from .record import GameRecord
from .view import SeatView, view_for
from .walk import bid_times, steps

__all__ = ["Decision", "bid_times", "decisions"]


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


def decisions(record: GameRecord) -> Iterator[Decision]:
    """Every bid and play of a legal record, in the order they were made.

    :raises rage_sdk.errors.IllegalActionError: at the first rule the record breaks.
    """
    made = [0] * len(record.players)
    for step in steps(record):
        made[step.seat] += 1
        view = view_for(step.state, step.seat)
        yield Decision(made[step.seat], step.round_number, step.trick, step.seat, view, step.action, step.ms)
