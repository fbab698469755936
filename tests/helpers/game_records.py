"""Finished games for the tests: with real records (random legal play, seeded, a second or less), or figures alone."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rage_referee.faults import Fault
from rage_referee.play.finished import Figures, FinishedGame
from rage_sdk import CHANCE, GameState, Ruleset, view_for
from rage_sdk.record import record_json


def played_record(seats: Sequence[str], seed: int = 0, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The ``rage-record/1`` of a whole game among ``seats``, every action drawn at random from ``seed``."""
    rng = random.Random(seed)
    state = GameState(ruleset or Ruleset.of("amigo"), len(seats))
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_seeded(seed=rng.randrange(1 << 30))
        else:
            state.apply(rng.choice(view_for(state, state.current_player()).legal_actions))
    return record_json(state, list(seats))


def finished_game(
    index: int, seats: Sequence[str], set_id: int | None = None, seed: int = 0, faults: Sequence[Fault] = ()
) -> FinishedGame:
    """Game ``index`` among ``seats`` as a runner reports it, its figures read from its record."""
    record = played_record(seats, seed + index)
    record["faults"] = [fault.to_json() for fault in faults]
    return FinishedGame.of_record(index, index if set_id is None else set_id, seed, record)


def scored_game(
    index: int,
    seats: Sequence[str],
    places: Sequence[int] | None = None,
    *,
    totals: Sequence[int] | None = None,
    hits: Sequence[int] | None = None,
    rounds: int = 10,
    faults: Sequence[Fault] = (),
    set_id: int | None = None,
    seed: int | None = None,
) -> FinishedGame:
    """Game ``index`` among ``seats`` with the figures given and no record (what ratings and tables read).

    Totals are 0 and hits none unless given; places, unless given, are by total (tied seats share one).
    """
    totals = tuple(totals) if totals is not None else (0,) * len(seats)
    if places is None:
        places = [1 + sum(other > total for other in totals) for total in totals]
    hits = tuple(hits) if hits is not None else (0,) * len(seats)
    figures = Figures(tuple(seats), totals, tuple(places), hits, rounds, tuple(faults))
    return FinishedGame(index, index if set_id is None else set_id, index if seed is None else seed, figures)


def paired_sets(sets: int, lead: int, seed: int = 7) -> list[FinishedGame]:
    """Duplicate sets of two games between ``a`` and ``b`` on one deal, both seatings: ``a`` scores ``lead`` more,
    give or take 4 a set (drawn from ``seed``)."""
    rng = random.Random(seed)
    games = []
    for set_id in range(sets):
        gap = lead + rng.randint(-4, 4)
        for seats in (("a", "b"), ("b", "a")):
            totals = (20 + gap, 20) if seats[0] == "a" else (20, 20 + gap)
            games.append(scored_game(len(games), seats, totals=totals, set_id=set_id))
    return games
