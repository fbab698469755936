"""A Watch stream ends with its league (in process, on loopback; random bots served in process, so the
games are quick):

- a league that fails (its games fail in a row, or its run ends with a failed game unplayed): every
  watcher is told at once, the failed status with its reason last, and its stream ends, long before
  the idle timeout;
- a watcher of a league already failed or finished gets its state and its stream ends; of a paused
  league, it gets its state and stays (the league may resume);
- the standings a watcher is sent first are fitted once for every watcher of the same games.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.cli import app
from rage_referee.hosted import standings
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.hosted.server import create_server
from rage_referee.hosted.standings import point_table
from rage_referee.runner import isolation as games_runner
from rage_sdk.pb import referee_pb2 as pb
from typer.testing import CliRunner

from tests.helpers.hosted import random_bots, serving

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
BOTS = ("b0", "b1", "b2")
PROMPTLY = 15.0
"""Seconds a stream may take to end: far below the idle timeout, far above a loaded machine's delays."""
DEFINITION = (
    'name = "cup"\nplayers = 3\ngames = 6\nbots = ["b0", "b1", "b2"]\n'
    '[ruleset]\npreset = "amigo"\nrounds = [1]\n[time]\ndecision_ms = 200\n'
)


@asynccontextmanager
async def referee(folder: Path) -> AsyncIterator[Any]:
    contest = Contest.open(f"sqlite:///{folder / 'contest.sqlite'}", ADMIN, ENTRY, AllowList.parse(LOOPBACK))
    async with random_bots(len(BOTS)) as addresses:
        for name, address in zip(BOTS, addresses, strict=True):
            contest.registry.add_bot(name, address, "", token_hash(f"{name}-token-0123456789"))
        async with serving(contest) as stub:
            yield stub


async def call(stub: Any, method: str, request: Any) -> Any:
    return await getattr(stub, method)(request, metadata=[("authorization", f"Bearer {ADMIN}")], timeout=PROMPTLY)


def watch(stub: Any) -> Any:
    return stub.Watch(pb.WatchRequest(league="cup"), metadata=[("authorization", f"Bearer {ENTRY}")])


async def to_the_end(stream: Any) -> list[pb.LeagueEvent]:
    """Every event of ``stream`` until it ends, which it must do within :data:`PROMPTLY` seconds, cleanly."""

    async def read() -> list[pb.LeagueEvent]:
        received = []
        while (event := await stream.read()) is not grpc.aio.EOF:
            received.append(event)
        return received

    try:
        received = await asyncio.wait_for(read(), PROMPTLY)
    except TimeoutError:
        stream.cancel()
        raise AssertionError(f"the stream did not end within {PROMPTLY:g} s") from None
    assert await stream.code() is grpc.StatusCode.OK
    return received


async def until_status(stub: Any, status: int) -> pb.LeagueInfo:
    for _ in range(int(PROMPTLY / 0.05)):
        (info,) = (await call(stub, "ListLeagues", pb.ListLeaguesRequest())).leagues
        if info.status == status:
            return info
        await asyncio.sleep(0.05)
    raise AssertionError(f"league status {info.status}, not {status}")


def statuses(received: list[pb.LeagueEvent]) -> list[pb.StatusChanged]:
    return [event.status_changed for event in received if event.WhichOneof("kind") == "status_changed"]


def failing(games: Callable[[int], bool]) -> Callable[..., Any]:
    """``play_game`` failing the games for which ``games(number of games asked so far)`` holds."""
    real_play_game = games_runner.play_game
    asked = 0

    async def play_game(*args: Any, **kwargs: Any) -> Any:
        nonlocal asked
        asked += 1
        if games(asked):
            raise ConnectionResetError("the bot's connection was reset")
        return await real_play_game(*args, **kwargs)

    return play_game


@pytest.mark.parametrize(
    ("fails", "reason"),
    [(lambda asked: True, "3 games failed in a row"), (lambda asked: asked == 1, "game 0 failed")],
    ids=["in-a-row", "one-unplayed"],
)
def test_the_watchers_of_a_league_that_fails_are_told_and_their_streams_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: Callable[[int], bool], reason: str
) -> None:
    monkeypatch.setattr(games_runner, "play_game", failing(fails))

    async def scenario() -> None:
        async with referee(tmp_path) as stub:
            await call(stub, "CreateLeague", pb.CreateLeagueRequest(definition=DEFINITION))
            before = watch(stub)
            assert (await before.read()).status_changed.status == pb.LEAGUE_STATUS_CREATED
            await call(stub, "StartLeague", pb.LeagueRequest(league="cup"))
            last = statuses(await to_the_end(before))[-1]
            assert last.status == pb.LEAGUE_STATUS_FAILED
            assert last.reason.startswith(reason), last.reason
            # A watcher who comes after is told the same, and its stream ends too.
            after = statuses(await to_the_end(watch(stub)))
            assert [(s.status, s.reason) for s in after] == [(pb.LEAGUE_STATUS_FAILED, last.reason)]

    asyncio.run(scenario())


def test_a_watcher_of_a_finished_league_gets_it_and_ends_of_a_paused_one_stays(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with referee(tmp_path) as stub:
            await call(stub, "CreateLeague", pb.CreateLeagueRequest(definition=DEFINITION))
            await call(stub, "StartLeague", pb.LeagueRequest(league="cup"))
            await until_status(stub, pb.LEAGUE_STATUS_FINISHED)
            received = await to_the_end(watch(stub))
            assert [event.WhichOneof("kind") for event in received] == ["status_changed", "standings_changed"]
            assert received[0].status_changed.status == pb.LEAGUE_STATUS_FINISHED

            second = DEFINITION.replace('"cup"', '"cup2"')
            await call(stub, "CreateLeague", pb.CreateLeagueRequest(definition=second))
            await call(stub, "StartLeague", pb.LeagueRequest(league="cup2"))
            await call(stub, "PauseLeague", pb.LeagueRequest(league="cup2"))
            paused = stub.Watch(pb.WatchRequest(league="cup2"), metadata=[("authorization", f"Bearer {ENTRY}")])
            assert (await paused.read()).status_changed.status == pb.LEAGUE_STATUS_PAUSED
            resumed = await call(stub, "ResumeLeague", pb.LeagueRequest(league="cup2"))
            assert resumed.status == pb.LEAGUE_STATUS_RUNNING  # the stream stayed for the resumption
            last = statuses(await to_the_end(paused))[-1]
            assert last.status == pb.LEAGUE_STATUS_FINISHED

    asyncio.run(scenario())


def test_watchers_joining_a_league_share_one_fit_of_its_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each Watch begins with the league's standings; fitting them afresh for every stream let any token
    keep the referee's cores busy by watching a big league again and again."""
    fits: list[int] = []

    def counted(games: Any, *args: Any) -> Any:
        fits.append(len(games))
        return point_table(games, *args)

    monkeypatch.setattr(standings, "point_table", counted)

    async def scenario() -> None:
        async with referee(tmp_path) as stub:
            await call(stub, "CreateLeague", pb.CreateLeagueRequest(definition=DEFINITION))
            await call(stub, "StartLeague", pb.LeagueRequest(league="cup"))
            await until_status(stub, pb.LEAGUE_STATUS_FINISHED)
            fits.clear()
            for _ in range(5):
                received = await to_the_end(watch(stub))
                assert [event.standings_changed.games for event in received[1:]] == [6]
            assert fits == [6]

    asyncio.run(scenario())


def test_rage_referee_watch_of_a_failed_league_says_so_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_runner, "play_game", failing(lambda asked: True))

    async def scenario() -> None:
        contest = Contest.open(f"sqlite:///{tmp_path / 'contest.sqlite'}", ADMIN, ENTRY, AllowList.parse(LOOPBACK))
        for number, name in enumerate(BOTS):
            contest.registry.add_bot(name, f"127.0.0.1:{9 + number}", "", token_hash(f"{name}-token-0123456789"))
        server, port = await create_server(contest, 0, "127.0.0.1")
        try:
            await contest.leagues.start(
                contest.leagues.create(read_definition(DEFINITION, "", contest.leagues.targets()), DEFINITION).name
            )
            while contest.registry.league("cup").status is not LeagueStatus.FAILED:
                await asyncio.sleep(0.05)
            env = {"RAGE_REFEREE": f"127.0.0.1:{port}", "RAGE_TOKEN": ENTRY}
            result = await asyncio.to_thread(CliRunner().invoke, app, ["referee", "watch", "cup"], env=env)
        finally:
            await contest.leagues.close(1.0)
            contest.hub.shutdown()
            await server.stop(0)
            contest.close()
        assert result.exit_code == 1, result.output
        assert "cup: failed (3 games failed in a row" in result.output
        assert "league cup failed (the organizer may resume it)" in result.output

    asyncio.run(asyncio.wait_for(scenario(), PROMPTLY * 2))
