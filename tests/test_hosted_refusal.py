"""A hosted run refused by the store (a game another run stored) is logged in one line, not a traceback."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest
from rage_referee.hosted.leagues import LeagueManager, LeagueRun
from rage_referee.league.store import GameStoredAlready


class RefusedRun:
    name = "cup"

    async def play(self) -> bool:
        raise GameStoredAlready("league 'cup': game 4 is stored already in sqlite:///x; another run of the league")


def test_a_refused_hosted_run_is_one_line_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    none = cast(Any, None)
    manager = LeagueManager(none, none, none, none)
    with caplog.at_level(logging.ERROR, logger="rage_referee.hosted.leagues"):
        asyncio.run(manager._run(cast(LeagueRun, RefusedRun())))
    (record,) = caplog.records
    assert record.exc_info is None, "no traceback"
    message = record.getMessage()
    assert "\n" not in message and "league cup: the run stopped: league 'cup': game 4 is stored already" in message
