"""Faults: what a bot did wrong, and what the referee did about it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class FaultKind(StrEnum):
    TIMEOUT = "timeout"
    """No decision within the decision time plus what was left of the bank."""
    CRASHED = "crashed"
    """The bot's process or connection went away (or could not be reached)."""
    MALFORMED = "malformed"
    """A reply that is no action at all: a number that stands for no bid or play."""
    ILLEGAL = "illegal"
    """A well-formed action the rules do not allow at that moment."""
    BOT_ERROR = "bot_error"
    """The bot said its own code failed."""


@dataclass(frozen=True)
class Fault:
    """One fault of one seat: the referee played the fallback action in its place."""

    seat: int
    kind: FaultKind
    round: int
    trick: int
    """0 for a bid."""
    detail: str
    fallback: str
    """The action the referee played instead."""
    decision: int = 0
    """The game's decision number: the request's ``seq``, which the bot's log names too."""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "kind": self.kind.value}
