"""What decides a game before it is played: who sits where, the deal seed, the ruleset and the clock."""

from __future__ import annotations

from dataclasses import dataclass

from rage_sdk.rules import Ruleset


@dataclass(frozen=True)
class Occasion:
    """What a game was played for: a league or a match, by name, and its duplicate set."""

    kind: str = "match"
    """``league`` or ``match``."""
    name: str = ""
    set_id: int | None = None
    """The duplicate set the game belongs to, when it belongs to one."""
    deal_commitment: str | None = None
    """The hash of the secret deal key the seeds come from; ``None`` for public deals."""


UNNAMED = Occasion()
"""A game played for no named league or match (``rage bot check``, benchmarks)."""


@dataclass(frozen=True)
class TimeControl:
    """A deadline per decision plus a bank per game for decisions that run over."""

    decision_ms: int = 1000
    bank_ms: int = 10_000
    max_faults: int = 20
    """Faults a bot may make in one match before it is forfeited (the fallback plays for it)."""


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides a game: which bot sits where, the deal seed and the ruleset."""

    game_id: int
    ruleset: Ruleset
    seats: tuple[str, ...]
    """Bot names by seat."""
    seed: int
    time: TimeControl = TimeControl()
    occasion: Occasion = UNNAMED

    @property
    def set_id(self) -> int:
        """The duplicate set the game belongs to; a game outside duplicate sets is a set of its own."""
        return self.game_id if self.occasion.set_id is None else self.occasion.set_id
