"""The start of a game as a bot gets it: the fully resolved ruleset and the game's index; both forms parse."""

from __future__ import annotations

import json

import pytest
from rage_sdk import wire
from rage_sdk.events import GameInfo
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import OPTION_NAMES, PRESETS, Ruleset


def info(ruleset: Ruleset, index: int = 12) -> GameInfo:
    return GameInfo(12 * 16 + 2, 2, ("a", "b", "c"), ruleset, 1, 1000, 10_000, index=index)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_start_carries_every_option_resolved(preset: str) -> None:
    ruleset = Ruleset.of(preset, bidding="secret")
    sent = json.loads(wire.game_start_message(info(ruleset)).ruleset)
    assert set(sent) == {"preset", *OPTION_NAMES}
    assert sent == {**PRESETS[preset], "preset": preset, "bidding": "secret"}


def test_the_start_carries_the_game_index_as_in_the_record_name() -> None:
    start = wire.game_start_message(info(Ruleset.of("amigo"), index=12))
    assert start.index == 12
    assert wire.game_info_of(12 * 16 + 2, start).index == 12


@pytest.mark.parametrize("text", ['"fundex"', '{"preset": "amigo", "bidding": "secret"}'])
def test_the_sdk_still_reads_an_older_referees_ruleset(text: str) -> None:
    start = pb.GameStart(seat=0, players=["a", "b"], ruleset=text, decision_ms=1000)
    parsed = wire.game_info_of(5, start)
    assert parsed.ruleset == Ruleset.model_validate(json.loads(text))
    assert parsed.index == 0
