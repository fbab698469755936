"""Bots that are down:

- a bot at an address that does not answer is called again after growing waits, each failed call one
  fault (its 20 faults were charged within milliseconds, with no wait), and is no restart;
- a hosted league none of whose bots can be reached is marked failed, saying why, not finished as
  the referee's moves alone (it "finished" in 2 s, all forfeits).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.play.game import FaultLedger, play_game
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.seats import BotHandle, BotKind, BotSpec, backoff, start_all
from rage_sdk.rules import Ruleset

from tests.helpers.league import RANDOM

LEAGUE = """
name = "ghosts"
players = 3
games = 6
seed = 4
[ruleset]
preset = "amigo"
rounds = [2, 1]
[time]
max_faults = 3
[bots]
a = ""
b = ""
c = ""
"""


@contextmanager
def unanswered(count: int) -> Iterator[list[str]]:
    """``count`` loopback addresses bound and never listening: every call there is refused."""
    with ExitStack() as stack:
        held = [stack.enter_context(socket.socket()) for _ in range(count)]
        for sock in held:
            sock.bind(("127.0.0.1", 0))
        yield [f"127.0.0.1:{sock.getsockname()[1]}" for sock in held]


@pytest.fixture
def nowhere() -> Iterator[str]:
    """A loopback address bound and never listening."""
    with unanswered(1) as addresses:
        yield addresses[0]


def test_a_bot_that_is_down_is_called_again_after_growing_waits(
    nowhere: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backoff, "FIRST_WAIT", 0.2)
    monkeypatch.setattr(backoff, "LONGEST_WAIT", 0.4)
    specs = [BotSpec("ghost", nowhere, BotKind.ADDRESS), *(BotSpec(f"r{k}", RANDOM, BotKind.MODULE) for k in (1, 2))]
    spec = GameSpec(0, Ruleset.of("amigo"), ("ghost", "r1", "r2"), 7, TimeControl(max_faults=4))

    async def play() -> tuple[float, FaultLedger, BotHandle]:
        handles = {s.name: BotHandle(s, tmp_path) for s in specs}
        unstarted = await start_all(handles.values(), keep_going=True)  # as a hosted league starts its bots
        assert list(unstarted) == ["ghost"] and "Hello failed" in unstarted["ghost"]
        ledger = FaultLedger(4)
        started = time.monotonic()
        try:
            await play_game(spec, handles, ledger)
        finally:
            for handle in handles.values():
                await handle.stop()
        return time.monotonic() - started, ledger, handles["ghost"]

    took, ledger, ghost = asyncio.run(play())
    assert ledger.counts["ghost"] == 4 and "ghost" in ledger.forfeited
    assert took >= 0.2 + 0.4 + 0.4 - 0.05  # calls 2, 3 and 4 each waited, the waits doubling up to the longest
    assert ghost.restarts == 0  # a call not answered is no restart: it never ran out of them
    assert ghost.backoff.failures == 4


def test_a_league_of_bots_that_are_down_fails_saying_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(backoff, "FIRST_WAIT", 0.01)
    monkeypatch.setattr(backoff, "LONGEST_WAIT", 0.02)
    caplog.set_level(logging.INFO)

    async def run() -> tuple[LeagueStatus, str, int]:
        url = f"sqlite:///{tmp_path / 'referee.sqlite'}"
        contest = Contest.open(url, "a" * 20, "e" * 20, AllowList.parse(LOOPBACK))
        try:
            for name, address in zip("abc", addresses, strict=True):  # a league holds one bot an address
                contest.registry.add_bot(name, address, "", token_hash(name * 20))
            registered = {bot.name: bot.address for bot in contest.registry.bots()}
            contest.leagues.create(read_definition(LEAGUE, "ghosts", registered), LEAGUE)
            await contest.leagues.start("ghosts")
            deadline = time.monotonic() + 30
            while contest.leagues.playing("ghosts") and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            entry = contest.registry.league("ghosts")
            return entry.status, entry.reason, contest.store.count(entry.league_id)
        finally:
            await contest.leagues.close(1.0)
            contest.close()

    with unanswered(3) as addresses:
        status, reason, stored = asyncio.run(run())
    assert status is LeagueStatus.FAILED, (status, reason, stored)
    assert reason.startswith("no bot could be reached: no move of the ")
    assert all(f"{name}: " in reason for name in "abc") and "Hello failed" in reason
    assert stored < 6  # it stopped once every bot was forfeited: the rest waits for a resumption
    assert any("league ghosts: failed: no bot could be reached" in r.getMessage() for r in caplog.records)
