"""The fault ledger of a match or league: faults charged per bot, and who is forfeited (with why).

Every game of a match or league charges its faults to one :class:`FaultLedger`; a bot charged
``max_faults`` (or, with ``max_timeouts``, that many timeouts in a row) is forfeited: the referee
decides for it without asking from then on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..faults import FaultKind
from ..text import plural
from .finished import FinishedGame

NEVER_FORFEIT = 10**9
"""A ``max_faults`` no bot reaches: for checks, benchmarks and records put to a bot again, where no bot is forfeited."""


@dataclass
class FaultLedger:
    """Faults charged per bot over a match or league, and who is forfeited (with why)."""

    max_faults: int
    counts: dict[str, int] = field(default_factory=dict)
    forfeited: dict[str, str] = field(default_factory=dict)
    max_timeouts: int | None = None
    """Timeouts in a row after which a bot is not asked again, whatever ``max_faults`` says (none: no such limit)."""
    timeouts: dict[str, int] = field(default_factory=dict)
    """Each bot's timeouts since its last answer."""

    def charge(self, name: str, kind: FaultKind) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1
        if kind is not FaultKind.TIMEOUT:
            self.answered(name)
        elif self.max_timeouts is not None:
            self.timeouts[name] = self.timeouts.get(name, 0) + 1
            if self.timeouts[name] >= self.max_timeouts:
                self.forfeit(name, f"not asked again after {plural(self.timeouts[name], 'timeout')} in a row")
        if self.counts[name] >= self.max_faults:
            self.forfeit(name, f"forfeited after {plural(self.counts[name], 'fault')}")

    def answered(self, name: str) -> None:
        """``name`` answered a request in time: its timeouts in a row start again from none."""
        if self.timeouts:
            self.timeouts.pop(name, None)

    def forfeit(self, name: str, why: str) -> None:
        """From now on the referee decides for ``name`` without asking it (the first reason stays)."""
        self.forfeited.setdefault(name, why)

    def add_stored(self, game: FinishedGame) -> None:
        """Count a stored game's charged faults (a resumed league goes on from what is stored)."""
        for fault in game.figures.faults:
            if fault.charged and (name := game.figures.bot_at(fault.seat)) is not None:
                self.charge(name, fault.kind)
