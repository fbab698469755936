"""The report's replays walk a record with the SDK's walk: each step holds the state right after its decision."""

from __future__ import annotations

from rage_referee.report.replays import steps
from rage_sdk.actions import Bid
from rage_sdk.record import GameRecord
from rage_sdk.replay import replay
from rage_sdk.rules import Ruleset

from tests.sdk.test_record import game_record


def test_each_step_holds_the_state_after_its_decision_a_rounds_last_play_included() -> None:
    record = GameRecord.model_validate(game_record(Ruleset.of("fundex", rounds=[3, 2, 1]), 4, 3))
    walked, ends = 0, []
    for step in steps(record):  # the state is read before the walk moves on, as the replays read it
        walked += 1
        if isinstance(step.action, Bid):
            assert step.state.bids[step.seat] == step.action.tricks
        elif len(step.state.results) == step.round_number:  # the round's last play: scored, its tricks still there
            ends.append(len(step.state.tricks))
        totals = step.state.totals
    assert walked == sum(len(round_.bids) + len(round_.plays) for round_ in record.rounds)
    assert ends == [3, 2, 1]
    assert totals == replay(record).totals
