"""A hosted run refused by the store (a game another run stored) is logged in one line, not a traceback,
and the league goes to ``failed`` with that reason."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any, cast

import pytest
from rage_referee.hosted.leagues import LeagueManager, LeagueRun
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.league.store import GameStoredAlready


class RefusedRun:
    name = "cup"
    failure: str | None = None

    async def play(self) -> bool:
        raise GameStoredAlready("league 'cup': game 4 is stored already in sqlite:///x; another run of the league")


class Registry:
    """What the manager asks of the registry when a run ends, and the status it is told."""

    def __init__(self) -> None:
        self.statuses: list[tuple[LeagueStatus, str | None]] = []

    def league(self, name: str) -> Any:
        return SimpleNamespace(status=LeagueStatus.RUNNING)

    def set_status(self, name: str, status: LeagueStatus, reason: str | None = None) -> Any:
        self.statuses.append((status, reason))
        return SimpleNamespace(name=name, status=status, league_id=1, games_total=6, reason=reason or "")


class Store:
    """What the manager asks of the store when it announces a status."""

    def count(self, league_id: int) -> int:
        return 0


def test_a_refused_hosted_run_is_one_line_in_the_log(caplog: pytest.LogCaptureFixture) -> None:
    registry = Registry()
    hub = SimpleNamespace(publish=lambda event: None, close=lambda name: None)
    manager = LeagueManager(cast(Any, registry), cast(Any, Store()), cast(Any, hub), cast(Any, None))
    with caplog.at_level(logging.ERROR, logger="rage_referee.hosted.leagues"):
        asyncio.run(manager._run(cast(LeagueRun, RefusedRun())))
    assert all(record.exc_info is None for record in caplog.records), "no traceback"
    messages = [record.getMessage() for record in caplog.records]
    assert all("\n" not in message for message in messages)
    assert "league cup: the run stopped: league 'cup': game 4 is stored already" in messages[0]
    ((status, reason),) = registry.statuses
    assert status is LeagueStatus.FAILED and reason is not None and "game 4 is stored already" in reason
