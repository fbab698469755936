"""Replaying a ``rage-record/1`` under the rules: is every bid and play legal, and who scored what.

:func:`verify` returns a :class:`Verdict`: the replayed outcome of a legal record,
or the first rule it breaks. Exit codes follow ``spec/record.md``: 0 legal,
1 a rule broken or a ``result`` that disagrees, 2 not a well-formed record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalActionError
from .record import GameRecord, MalformedRecordError, brief, load_record, short_json
from .state import GameState, RoundResult, places_for
from .walk import play_of, steps

__all__ = ["ILLEGAL", "LEGAL", "MALFORMED", "Verdict", "play_of", "replay", "verify", "verify_record"]

LEGAL, ILLEGAL, MALFORMED = 0, 1, 2


@dataclass(frozen=True)
class Verdict:
    """What replaying a record found: ``exit_code`` 0, 1 or 2, and either an outcome or a message."""

    exit_code: int
    message: str = ""
    record: GameRecord | None = None
    rounds: list[RoundResult] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    error: IllegalActionError | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == LEGAL

    def to_json(self) -> dict[str, Any]:
        """The checker's report: the outcome of a legal record, or the problem."""
        if not self.ok:
            out: dict[str, Any] = {"valid": False, "exit": self.exit_code, "error": self.message}
            if self.error is not None:
                out.update(round=self.error.round_number, trick=self.error.trick, seat=self.error.seat)
            return out
        assert self.record is not None
        return {
            "valid": True,
            "format": self.record.format,
            "ruleset": self.record.ruleset.to_json(),
            "players": self.record.players,
            "first_round": self.record.first_round,
            "rounds": [round_json(result) for result in self.rounds],
            "totals": self.totals,
            "places": self.places,
        }


def round_json(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.round_number,
        "cards": result.cards,
        "dealer": result.dealer,
        "trump": None if result.trump is None else result.trump.letter,
        "bids": list(result.bids),
        "trick_winners": list(result.trick_winners),
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
    }


def replay(record: GameRecord, on_round: Callable[[GameState], None] | None = None) -> GameState:
    """Replay every round of a well-formed record; :class:`IllegalActionError` at the first rule broken.

    ``on_round(state)`` runs after each round's last play, while its tricks are still in ``state``.
    """
    state = record.start_state()
    for _ in steps(record, state, on_round):
        pass
    return state


def _disagreement(
    result: dict[str, Any], rounds: list[RoundResult], totals: list[int], places: list[int]
) -> str | None:
    """The first key of a record's ``result`` that differs from the replay, as a message."""
    if "rounds" in result:  # present with null disagrees, as every compared key does
        claimed_rounds = result["rounds"]
        if not isinstance(claimed_rounds, list) or len(claimed_rounds) != len(rounds):
            claimed = (
                f"{len(claimed_rounds)} rounds" if isinstance(claimed_rounds, list) else short_json(claimed_rounds)
            )
            return f"result disagrees: rounds: record says {claimed}, replay has {len(rounds)} rounds"
        for claimed, replayed in zip(claimed_rounds, rounds):
            if not isinstance(claimed, dict):
                return f"result disagrees: round {replayed.round_number}: {short_json(claimed)} is not an object"
            actual = round_json(replayed)
            for key in ("trump", "bids", "trick_winners", "tricks_won", "points"):
                if key in claimed and claimed[key] != actual[key]:
                    return (
                        f"result disagrees: round {replayed.round_number} {key}: "
                        f"record says {short_json(claimed[key])}, replay gives {actual[key]}"
                    )
    for key, replayed_values in (("totals", totals), ("places", places)):
        if key in result and result[key] != replayed_values:
            return f"result disagrees: {key}: record says {short_json(result[key])}, replay gives {replayed_values}"
    return None


def verify_record(record: GameRecord) -> Verdict:
    """Replay a well-formed record and compare its ``result``, if any."""
    try:
        state = replay(record)
    except IllegalActionError as error:
        return Verdict(ILLEGAL, brief(str(error)), record=record, error=error)
    rounds = state.results
    totals = [sum(result.points[seat] for result in rounds) for seat in range(state.players)]
    hits = [sum(result.bids[seat] == result.tricks_won[seat] for result in rounds) for seat in range(state.players)]
    places = list(places_for(totals, hits, record.ruleset.tiebreak))
    if record.result is not None:
        problem = _disagreement(record.result, rounds, totals, places)
        if problem:
            return Verdict(ILLEGAL, brief(problem), record=record, rounds=rounds, totals=totals, places=places)
    return Verdict(LEGAL, record=record, rounds=rounds, totals=totals, places=places)


def verify(text: str | bytes) -> Verdict:
    """Read and replay a record from JSON text: never raises for bad input."""
    try:
        record = load_record(text)
    except MalformedRecordError as error:
        return Verdict(MALFORMED, brief(str(error)))
    return verify_record(record)
