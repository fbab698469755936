"""Errors the engine raises, typed by cause, and the base of every error the ``rage`` command shows a person."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from pydantic import ValidationError


class RageError(Exception):
    """A failure fit to show as one line: ``str(error)`` is that line, ``exit_code`` what ``rage`` exits with.

    Every error a ``rage`` command can meet derives from it (a test walks the classes), so the command line
    turns them into one line in one place (``rage_referee.cli.errors``) instead of catching each kind.
    """

    exit_code: ClassVar[int] = 2
    """2 for what the user gave (a file, an option, a setting), 1 for what failed while running."""


class IllegalActionError(RageError, ValueError):
    """An action the rules do not allow here; the message names the rule it breaks.

    ``str(error)`` reads ``round 2, trick 7: seat 1 played y12 while holding g9 of
    lead colour green (must follow the lead colour)``; the parts are attributes.
    """

    exit_code = 1

    def __init__(self, detail: str, *, round_number: int, trick: int | None, seat: int) -> None:
        self.detail = detail
        self.round_number = round_number
        self.trick = trick
        self.seat = seat
        where = f"round {round_number}" + ("" if trick is None else f", trick {trick}")
        super().__init__(f"{where}: {detail}")


class InvalidActionError(IllegalActionError):
    """An action of the wrong kind for the moment: a bid while playing, a play while bidding."""


class InvalidDealError(RageError, ValueError):
    """Hands and pile that are not a deal of this ruleset for this round."""


def first_problem(error: ValidationError) -> str:
    """The first problem pydantic found, in one line naming its field: ``rounds[0]: Input should be ...``."""
    problem = error.errors(include_url=False)[0]
    where = ""
    for part in problem["loc"]:
        if isinstance(part, int):
            where += f"[{part}]"
        elif not part.startswith("function-") and "[" not in part:
            where += f".{part}" if where else part
    message = "missing field" if problem["type"] == "missing" else problem["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message
