"""What decides a game before it is played: who sits where, the deal seed, the ruleset and the clock."""

from __future__ import annotations

from dataclasses import dataclass

from rage_sdk.rules import Ruleset

from .meta import UNNAMED, Occasion


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
