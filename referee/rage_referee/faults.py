"""Faults: what a bot did wrong, and what the referee did about it.

A game's record lists them under ``"faults"``, in order, one object per decision the referee took
for a seat: ``seat``, ``kind``, ``round``, ``trick`` (0 for a bid), ``detail`` and ``fallback`` (the
action played). Every kind but ``forfeited`` is a fault charged to the bot. Once a bot is forfeited
(too many faults in the match or league, excluded by the organizer, or unable to start) the
referee no longer asks it: each of its later decisions is a ``forfeited`` entry saying why, so a
record shows exactly which moves the bot did not make itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from .text import name_text, plural


class FaultKind(StrEnum):
    TIMEOUT = "timeout"
    """No decision within the decision time plus what was left of the bank."""
    CRASHED = "crashed"
    """The bot's process or connection went away (or could not be reached); when a limit of the sandbox
    ended it, the detail names the limit (``ended by its cpu limit of 600 s per game (...)``)."""
    MALFORMED = "malformed"
    """A reply that is no action at all: a number that stands for no bid or play."""
    ILLEGAL = "illegal"
    """A well-formed action the rules do not allow at that moment."""
    BOT_ERROR = "bot_error"
    """The bot said its own code failed."""
    FORFEITED = "forfeited"
    """Not a charge: the bot is forfeited, and the referee decided without asking it."""


class Forfeits(StrEnum):
    """How the ratings count a game for a seat the referee played for after its bot was forfeited."""

    UNRATED = "unrated"
    """Not at all: a bot is rated on the games it played itself, so one that forfeits keeps the rating of its
    games so far (for local testing; a local league's default)."""
    LOSS = "loss"
    """As a loss to every seat that played itself (a contest's default: quitting gains nothing)."""


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

    @property
    def charged(self) -> bool:
        """Whether the bot is charged with it (every kind but ``forfeited``)."""
        return self.kind is not FaultKind.FORFEITED

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "kind": self.kind.value}

    @staticmethod
    def from_json(data: object) -> Fault:
        """A record's ``faults`` entry read back.

        :raises ValueError: it is not shaped like one (a known kind, whole numbers, texts).
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a fault is an object, not {type(data).__name__}")
        try:
            kind = FaultKind(data["kind"])
            seat, round_, trick = (data[key] for key in ("seat", "round", "trick"))
            detail, fallback = data["detail"], data["fallback"]
        except KeyError as missing:
            raise ValueError(f"a fault without {missing}") from None
        decision = data.get("decision", 0)
        if not all(type(n) is int for n in (seat, round_, trick, decision)):
            raise ValueError("a fault's seat, round, trick and decision are whole numbers")
        if not (isinstance(detail, str) and isinstance(fallback, str)):
            raise ValueError("a fault's detail and fallback are texts")
        return Fault(seat, kind, round_, trick, detail, fallback, decision)


def fault_lines(
    game: int, seats: Sequence[str], faults: Iterable[Fault], forfeits_told: set[str] | None = None
) -> list[str]:
    """What to print of a game's faults: each charged one, and one line per forfeited seat.

    A seat's fault like its previous one (the same kind and detail: a bot that cannot be brought back, say)
    is counted on one line after it rather than printed again. With ``forfeits_told`` (the bots whose
    forfeit was printed already, added to here), a bot's forfeit is printed once, in its first game, not
    again in each game the referee plays for it after."""
    lines: list[str] = []
    runs: list[list[Fault]] = []
    latest: dict[int, list[Fault]] = {}
    forfeited: dict[int, list[Fault]] = {}
    for fault in faults:
        if not fault.charged:
            forfeited.setdefault(fault.seat, []).append(fault)
            continue
        run = latest.get(fault.seat)
        if run is not None and (run[-1].kind, run[-1].detail) == (fault.kind, fault.detail):
            run.append(fault)
        else:
            latest[fault.seat] = [fault]
            runs.append(latest[fault.seat])
    for first, *alike in runs:
        told = f"game {game}: {name_text(seats[first.seat])} {first.kind.value}"
        lines.append(f"{told} ({_where(first)}): {first.detail}")
        if alike:
            times = "once" if len(alike) == 1 else f"{len(alike)} times"
            lines.append(f"{told} {times} more, alike, the last at {_where(alike[-1])}")
    for seat, entries in forfeited.items():
        if forfeits_told is not None and seats[seat] in forfeits_told:
            continue
        first = entries[0]
        later = "" if forfeits_told is None else ", and plays for it in its games to come"
        lines.append(
            f"game {game}: {name_text(seats[seat])} forfeited ({first.detail}): the referee played its "
            f"{plural(len(entries), 'decision')} from round {first.round} on{later}"
        )
        if forfeits_told is not None:
            forfeits_told.add(seats[seat])
    return lines


def _where(fault: Fault) -> str:
    """Where a fault was: ``round 4, trick 2, decision 66`` (``bidding`` for a bid)."""
    return (
        f"round {fault.round}, "
        + (f"trick {fault.trick}" if fault.trick else "bidding")
        + f", decision {fault.decision}"
    )
