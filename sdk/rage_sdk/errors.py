"""Errors the engine raises, typed by cause."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules do not allow here; the message names the rule it breaks.

    ``str(error)`` reads ``round 2, trick 7: seat 1 played y12 while holding g9 of
    lead colour green (must follow the lead colour)``; the parts are attributes.
    """

    def __init__(self, detail: str, *, round_number: int, trick: int | None, seat: int) -> None:
        self.detail = detail
        self.round_number = round_number
        self.trick = trick
        self.seat = seat
        where = f"round {round_number}" + ("" if trick is None else f", trick {trick}")
        super().__init__(f"{where}: {detail}")


class InvalidActionError(IllegalActionError):
    """An action of the wrong kind for the moment: a bid while playing, a play while bidding."""


class InvalidDealError(ValueError):
    """Hands and pile that are not a deal of this ruleset for this round."""
