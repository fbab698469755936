"""A hosted league started with every game stored already finishes at once, saying so: no runner is made
and no bot called (a run made one and called every bot first, logging each unreachable one as 'cannot be
reached yet', and would launch a submitted one in the sandbox, for no game)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.runner.settings import RunnerSettings

from tests.helpers.game_records import finished_game

LEAGUE = """
name = "done"
players = 3
games = 6
seed = 4
[ruleset]
preset = "amigo"
rounds = [2, 1]
[bots]
a = ""
b = ""
c = ""
"""


def test_a_hosted_league_with_every_game_stored_starts_no_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_runner(*_: object, **__: object) -> None:
        raise AssertionError("no runner is made for no game")

    monkeypatch.setattr(RunnerSettings, "make", no_runner)
    caplog.set_level(logging.INFO)

    async def run() -> tuple[LeagueStatus, str, float]:
        contest = Contest.open(
            f"sqlite:///{tmp_path / 'referee.sqlite'}", "a" * 20, "e" * 20, AllowList.parse(LOOPBACK)
        )
        try:
            for port, name in enumerate("abc", 9):  # nothing answers there
                contest.registry.add_bot(name, f"127.0.0.1:{port}", "", token_hash(name * 20))
            registered = {bot.name: bot.address for bot in contest.registry.bots()}
            entry = contest.leagues.create(read_definition(LEAGUE, "done", registered), LEAGUE)
            for index in range(6):
                contest.store.add(entry.league_id, finished_game(index, ("a", "b", "c"), set_id=index // 3))
            started = time.monotonic()
            await contest.leagues.start("done")
            while contest.leagues.playing("done") and time.monotonic() < started + 30:
                await asyncio.sleep(0.01)
            entry = contest.registry.league("done")
            return entry.status, entry.reason, time.monotonic() - started
        finally:
            await contest.leagues.close(1.0)
            contest.close()

    status, reason, took = asyncio.run(run())
    assert status is LeagueStatus.FINISHED, (status, reason)
    assert took < 5
    messages = [record.getMessage() for record in caplog.records]
    assert "league done: all 6 games are stored already: nothing left to play" in messages
    assert not any("cannot be reached" in message for message in messages)
