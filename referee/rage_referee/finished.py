"""A finished game: what one game came to, whichever runner played it and wherever it is read back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .faults import Fault
from .game_spec import GameSpec


@dataclass
class FinishedGame:
    """The result of one game; plain data, so it pickles (a Ray worker returns it to the driver)."""

    spec: GameSpec
    record: dict[str, Any]
    """The game's ``rage-record/1``, with its ``meta``, each play's ``ms`` and its faults under ``"faults"``."""
    totals: tuple[int, ...]
    places: tuple[int, ...]
    hits: tuple[int, ...]
    """Rounds each seat bid exactly."""
    rounds: int
    faults: list[Fault]
    decisions: int
    latencies_ms: list[float] = field(default_factory=list)
    """How long each decision took, as the referee saw it (request sent to answer read, or to the deadline)."""

    @property
    def slowest_ms(self) -> float:
        return max(self.latencies_ms, default=0.0)
