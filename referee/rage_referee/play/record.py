"""A refereed game's record and figures, built once when it ends (``spec/record.md``).

:func:`finished_game` is the one place a refereed game's ``rage-record/1`` is put together: the
engine's rounds and result (:func:`rage_sdk.record.record_json`), each play's ``ms``, the faults and
the ``meta`` (:func:`.meta.game_meta`). Its figures are the engine's own, with the faults: the store
and the record files take the game as it is handed to them, reading nothing back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rage_sdk.record import record_json
from rage_sdk.state import GameState

from ..faults import Fault
from .finished import FinishedGame, figures_played
from .meta import DecisionTimes
from .spec import GameSpec


def game_record(
    state: GameState, seats: Sequence[str], faults: Sequence[Fault], times: DecisionTimes, meta: dict[str, Any]
) -> dict[str, Any]:
    """The complete record of a finished game: its rounds and result, each play's ``ms``, ``faults``, ``meta``."""
    record = record_json(state, list(seats))
    for round_, plays in zip(record["rounds"], times.plays):
        for play, ms in zip(round_["plays"], plays):
            play["ms"] = ms
    return record | {"faults": [fault.to_json() for fault in faults], "meta": meta}


def finished_game(
    spec: GameSpec,
    state: GameState,
    faults: Sequence[Fault],
    times: DecisionTimes,
    meta: dict[str, Any],
    decisions: int = 0,
    latencies_ms: tuple[float, ...] = (),
) -> FinishedGame:
    """The game of ``spec`` as it ended: its record (:func:`game_record`) and its figures, each built once."""
    record = game_record(state, spec.seats, faults, times, meta)
    figures = figures_played(tuple(spec.seats), state, tuple(faults))
    return FinishedGame(spec.game_id, spec.set_id, spec.seed, figures, record, decisions, latencies_ms)
