"""A record's ``meta`` (``spec/record.md``): who, when and how a game was played, and how long each decision took.

:func:`game_meta` is the one place that says what ``meta`` holds. The checker never reads it, and
a record without it (an older one) is as good a record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..text import bot_text

if TYPE_CHECKING:
    from ..seats import BotIdentity
    from .spec import GameSpec

MAX_BOT_TEXT = 100
"""Characters kept of a name or version a bot announced."""


@dataclass
class DecisionTimes:
    """Milliseconds each decision of a game took, as the referee saw them: bids by seat, plays in order."""

    players: int
    bids: list[list[int | None]] = field(default_factory=list)
    """Per round, by seat."""
    plays: list[list[int]] = field(default_factory=list)
    """Per round, in play order."""

    def new_round(self) -> None:
        self.bids.append([None] * self.players)
        self.plays.append([])

    def bid(self, seat: int, ms: float) -> None:
        self.bids[-1][seat] = round(ms)

    def play(self, ms: float) -> None:
        self.plays[-1].append(round(ms))


def utc_now() -> str:
    """The time now in ISO 8601, UTC, to the second: ``2026-12-01T09:30:00Z``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def game_meta(
    spec: GameSpec,
    identities: list[BotIdentity | None],
    times: DecisionTimes,
    date: str,
    submissions: list[str | None] | None = None,
) -> dict[str, Any]:
    """The ``meta`` of a game's record, for example::

        {"league": "demo", "game": 12, "set": 3, "deal_commitment": "9f86d0...",
         "bots": [{"name": "greedy", "version": "1"}, ...],          # as each seat's bot announced itself
                                                                      # (and "submission": "sha256:..." for
                                                                      # a submitted bot: the version played)
         "time": {"decision_ms": 1000, "bank_ms": 10000, "max_faults": 20},
         "date": "2026-12-01T09:30:00Z",                               # when the game started, UTC
         "bid_ms": [[12, 3, 40], ...]}                                # per round, by seat

    ``league`` is ``match`` for a match; ``set`` is left out when the game belongs to no duplicate set,
    and ``deal_commitment`` when its deals are public.
    """
    occasion, time = spec.occasion, spec.time
    meta: dict[str, Any] = {}
    if occasion.name:
        meta[occasion.kind] = occasion.name
    meta["game"] = spec.game_id
    if occasion.set_id is not None:
        meta["set"] = occasion.set_id
    if occasion.deal_commitment is not None:
        meta["deal_commitment"] = occasion.deal_commitment
    meta["bots"] = [
        {"name": None, "version": None}
        if identity is None
        else {"name": bot_text(identity.name, MAX_BOT_TEXT), "version": bot_text(identity.version, MAX_BOT_TEXT)}
        for identity in identities
    ]
    for seat, version in enumerate(submissions or []):
        if version is not None:
            meta["bots"][seat]["submission"] = version
    meta["time"] = {"decision_ms": time.decision_ms, "bank_ms": time.bank_ms, "max_faults": time.max_faults}
    meta["date"] = date
    meta["bid_ms"] = times.bids
    return meta


def game_part(record: dict[str, Any]) -> dict[str, Any]:
    """The record without what differs between two runs of the same game: ``meta``, ``faults`` and play times."""
    out = {key: value for key, value in record.items() if key not in ("meta", "faults")}
    out["rounds"] = [
        {**round_, "plays": [{k: v for k, v in play.items() if k != "ms"} for play in round_["plays"]]}
        for round_ in record["rounds"]
    ]
    return out
