"""A hosted league of duplicate deals with bots at addresses says at creation, to its creator and in the
referee's log, that those bots can recognise repeated deals and only the memory audit guards it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from rage_sdk.pb import referee_pb2 as pb

from tests.referee.hosted.test_hosted_input import Hosted, definition, run


def test_a_duplicate_league_of_bots_at_addresses_says_they_can_remember(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario(referee: Hosted) -> None:
        with caplog.at_level(logging.INFO, logger="rage_referee"):
            duplicate = await referee.create(definition("cup"))
            fresh = await referee.create(definition("open", duplicate="false"))
        assert duplicate.memory_notice == (
            "duplicate deals with bots at addresses (b0, b1, b2): they can recognise a deal repeated within "
            "its set, and only the memory audit (rage ratings, the report's standings) guards against it"
        )
        assert fresh.memory_notice == ""
        logged = [record.getMessage() for record in caplog.records if "memory audit" in record.getMessage()]
        assert logged == [f"league cup: {duplicate.memory_notice}"]
        listed = (await referee.call("ListLeagues", pb.ListLeaguesRequest())).leagues
        assert [league.name for league in listed] == ["cup", "open"]

    run(tmp_path, scenario)
