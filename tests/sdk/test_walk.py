"""One walk through a record: ``GameRecord.start_state`` and ``steps`` give each decision with the state before it."""

from __future__ import annotations

import pytest
from rage_sdk.actions import Bid
from rage_sdk.decisions import decisions
from rage_sdk.errors import IllegalActionError
from rage_sdk.record import GameRecord
from rage_sdk.replay import replay, verify_record
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState, Phase
from rage_sdk.walk import steps

from tests.sdk.test_record import game_record


def record_of(preset: str = "fundex", players: int = 4, seed: int = 5, **where: int) -> GameRecord:
    return GameRecord.model_validate(game_record(Ruleset.of(preset, rounds=[3, 2]), players, seed, **where))


def test_the_start_state_is_the_records_table_before_its_first_deal() -> None:
    record = record_of(first_round=2, dealer=3)
    state = record.start_state()
    assert (state.round_number, state.dealer, state.players, state.phase) == (2, 3, 4, Phase.DEAL)


def test_a_first_dealer_off_the_table_breaks_a_rule() -> None:
    data = game_record(Ruleset.of("fundex", rounds=[3, 2]), 3, 1)
    data["rounds"][0]["dealer"] = 7
    with pytest.raises(IllegalActionError, match=r"the seats are 0\.\.2"):
        GameRecord.model_validate(data).start_state()


def test_each_step_has_the_state_before_its_decision() -> None:
    record = record_of()
    walked = 0
    for step in steps(record):
        assert step.state.current_player() == step.seat
        assert step.state.is_legal(step.action)
        assert step.state.phase is (Phase.BID if isinstance(step.action, Bid) else Phase.PLAY)
        assert step.is_bid == isinstance(step.action, Bid)
        assert step.round_number == step.state.round_number
        walked += 1
    assert walked == sum(len(round_.bids) + len(round_.plays) for round_ in record.rounds)


def test_the_walked_state_ends_as_the_replay_does() -> None:
    record = record_of(players=5, seed=9)
    state = record.start_state()
    ends: list[int] = []
    for _ in steps(record, state, on_round=lambda done: ends.append(len(done.tricks))):
        pass
    assert state.is_terminal() and state.totals == replay(record).totals == verify_record(record).totals
    assert ends == [3, 2]  # each round's tricks, still there when it ends


def test_decisions_are_the_walks_steps_with_the_seats_view() -> None:
    record = record_of()
    walked = [(step.seat, step.action, step.trick) for step in steps(record)]
    assert [(d.seat, d.action, d.trick) for d in decisions(record)] == walked


def test_a_walk_leaves_a_state_it_is_given_and_not_another() -> None:
    record = record_of()
    mine = record.start_state()
    list(steps(record, mine))
    assert mine.is_terminal()
    assert not GameState(record.ruleset, len(record.players)).is_terminal()


def test_a_records_text_handed_to_steps_is_refused_saying_to_load_it() -> None:
    """``steps(Path("game.json").read_text())`` was ``AttributeError: 'str' object has no attribute 'start_state'``."""
    text = record_of().dumps()
    with pytest.raises(TypeError) as info:
        next(steps(text))  # type: ignore[arg-type]
    assert str(info.value) == "steps takes a GameRecord, not a str: steps(load_record(text))"
