"""The hosted referee refuses what it cannot run, called directly (in process, on loopback):

- a deeply nested definition: INVALID_ARGUMENT and one log line, no traceback;
- settings out of range (a seed of 2**63 - 1 or 2**70, an hour-long decision times a billion):
  INVALID_ARGUMENT naming the key, at creation;
- a league whose games keep failing: status failed with the reason, in the listing and the event
  stream; resuming tries again;
- a league whose run ends with a failed game unplayed: status failed naming the game, its watchers
  told and their streams ended; resuming plays it;
- a 100,000-game league: the schedule is built off the event loop, so other calls do not wait;
- Watch streams: capped per token, with room kept for the admin; an idle stream on a league that
  does not run ends.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.hosted import events, leagues
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.runner import isolation as games_runner
from rage_referee.runner.settings import LOCAL, RunnerSettings
from rage_sdk.pb import referee_pb2 as pb

from tests.conftest import require
from tests.helpers.hosted import ipv6_loopback, random_bots, serving

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
BOTS = ("b0", "b1", "b2", "b3")
DEADLINE = 20.0


def definition(name: str = "cup", bots: tuple[str, ...] = BOTS[:3], **settings: Any) -> str:
    """A small league among ``bots`` (one table of 3: a duplicate set of 6 is a round); ``settings`` as TOML
    lines (``time`` goes in its table)."""
    time_table = {"decision_ms": 200} | settings.pop("time", {})
    settings = {"players": 3, "games": 6} | settings
    lines = [f'name = "{name}"', f"bots = {list(bots)!r}".replace("'", '"')]
    lines += [f"{key} = {value}" for key, value in settings.items()]
    lines += ["[ruleset]", 'preset = "amigo"', "rounds = [1]", "[time]"]
    lines += [f"{key} = {value}" for key, value in time_table.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Hosted:
    contest: Contest
    stub: Any

    @staticmethod
    def as_(token: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {token}")]

    async def call(self, method: str, request: Any, token: str = ADMIN) -> Any:
        return await getattr(self.stub, method)(request, metadata=self.as_(token), timeout=DEADLINE)

    async def refusal(self, method: str, request: Any, token: str = ADMIN) -> tuple[grpc.StatusCode, str]:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await self.call(method, request, token)
        return info.value.code(), info.value.details() or ""

    async def create(self, text: str) -> pb.LeagueInfo:
        return await self.call("CreateLeague", pb.CreateLeagueRequest(definition=text))


@asynccontextmanager
async def hosted(folder: Path, runner: RunnerSettings = LOCAL, host: str = "127.0.0.1") -> AsyncIterator[Hosted]:
    """A referee serving on a free port of ``host``, :data:`BOTS` registered at random bots served in process."""
    url = f"sqlite:///{folder / 'contest.sqlite'}"
    contest = Contest.open(url, ADMIN, ENTRY, AllowList.parse(LOOPBACK), runner=runner)
    async with random_bots(len(BOTS)) as addresses:
        for name, address in zip(BOTS, addresses, strict=True):
            contest.registry.add_bot(name, address, "", token_hash(f"{name}-token-0123456789"))
        async with serving(contest, host) as stub:
            yield Hosted(contest, stub)


def run(tmp_path: Path, scenario: Callable[[Hosted], Awaitable[None]], runner: RunnerSettings = LOCAL) -> None:
    async def main() -> None:
        async with hosted(tmp_path, runner) as referee:
            await asyncio.wait_for(scenario(referee), DEADLINE * 3)

    asyncio.run(main())


def test_a_referee_serves_on_an_ipv6_host_written_without_brackets(tmp_path: Path) -> None:
    # rage referee serve --host ::1: gRPC took "::1:PORT" for no address ("the port is in use, or ...")
    require(ipv6_loopback(), "IPv6 on the loopback (::1)", "enable IPv6 (sysctl net.ipv6.conf.lo.disable_ipv6=0)")

    async def main() -> None:
        async with hosted(tmp_path, host="::1") as referee:
            assert not (await referee.call("ListLeagues", pb.ListLeaguesRequest())).leagues

    asyncio.run(main())


# --------------------------------------------------------------------------- definitions refused at creation


@pytest.mark.parametrize("nesting", ["x = " + "[" * 1200 + "]" * 1200, "x = " + "{a = " * 1200 + "}" * 1200])
def test_a_deeply_nested_definition_is_refused_in_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, nesting: str
) -> None:
    async def scenario(referee: Hosted) -> None:
        with caplog.at_level(logging.INFO, logger="rage_referee"):
            code, details = await referee.refusal("CreateLeague", pb.CreateLeagueRequest(definition=nesting))
        assert code is grpc.StatusCode.INVALID_ARGUMENT
        assert details == "definition: not valid TOML: nested too deeply"
        records = [record for record in caplog.records if record.name.startswith("rage_referee")]
        assert len(records) == 1, [record.getMessage() for record in records]
        assert records[0].exc_info is None
        assert "\n" not in records[0].getMessage()
        assert not (await referee.call("ListLeagues", pb.ListLeaguesRequest())).leagues

    run(tmp_path, scenario)


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"seed": 2**63 - 1}, "definition.seed"),
        ({"seed": 2**70}, "definition.seed"),
        ({"seed": -1}, "definition.seed"),
        ({"time": {"decision_ms": 2**63 - 1}}, "definition.time.decision_ms"),
        ({"time": {"bank_ms": 2**63}}, "definition.time.bank_ms"),
        ({"time": {"max_faults": 2**64}}, "definition.time.max_faults"),
        ({"concurrency": 2**40}, "definition.concurrency"),
        ({"games": 2**63}, "definition.games"),
    ],
)
def test_settings_out_of_range_are_refused_at_creation(tmp_path: Path, settings: dict[str, Any], field: str) -> None:
    async def scenario(referee: Hosted) -> None:
        code, details = await referee.refusal("CreateLeague", pb.CreateLeagueRequest(definition=definition(**settings)))
        assert code is grpc.StatusCode.INVALID_ARGUMENT
        assert details.startswith(f"{field}: "), details
        assert not (await referee.call("ListLeagues", pb.ListLeaguesRequest())).leagues

    run(tmp_path, scenario)


def test_a_runner_table_is_refused_at_creation(tmp_path: Path) -> None:
    """Where hosted games are played is the referee's choice (``serve --ray``), not a league's."""

    async def scenario(referee: Hosted) -> None:
        text = definition() + '[runner]\nkind = "ray"\naddress = "auto"\n'
        code, details = await referee.refusal("CreateLeague", pb.CreateLeagueRequest(definition=text))
        assert code is grpc.StatusCode.INVALID_ARGUMENT
        assert details == "definition.runner: where the games are played is the referee's (serve --ray)"

    run(tmp_path, scenario)


def test_the_largest_seed_in_range_plays(tmp_path: Path) -> None:
    from rage_referee.limits import MAX_SEED

    async def scenario(referee: Hosted) -> None:
        await referee.create(definition(seed=MAX_SEED))
        await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
        await until(referee, lambda info: info.status == pb.LEAGUE_STATUS_FINISHED)

    run(tmp_path, scenario)


# --------------------------------------------------------------------------- games that keep failing


async def until(referee: Hosted, done: Callable[[pb.LeagueInfo], bool], league: str = "cup") -> pb.LeagueInfo:
    deadline = time.monotonic() + DEADLINE * 2
    while True:
        (info,) = [item for item in (await referee.call("ListLeagues", pb.ListLeaguesRequest())).leagues]
        if done(info) or time.monotonic() > deadline:
            assert done(info), info
            return info
        await asyncio.sleep(0.05)


def test_a_league_whose_games_keep_failing_fails_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_play_game = games_runner.play_game
    broken = True

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if broken:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return await real_play_game(*args, **kwargs)

    monkeypatch.setattr(games_runner, "play_game", failing)

    async def scenario(referee: Hosted) -> None:
        nonlocal broken
        await referee.create(definition())
        watch = referee.stub.Watch(pb.WatchRequest(league="cup"), metadata=referee.as_(ENTRY), timeout=DEADLINE)
        first = await watch.read()
        assert first.status_changed.status == pb.LEAGUE_STATUS_CREATED
        await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
        info = await until(referee, lambda info: info.status == pb.LEAGUE_STATUS_FAILED)
        assert info.games_done == 0
        assert "games failed in a row" in info.reason
        assert "OverflowError: Python int too large to convert to SQLite INTEGER" in info.reason
        statuses = []
        while not statuses or statuses[-1].status != pb.LEAGUE_STATUS_FAILED:
            event = await watch.read()
            if event.WhichOneof("kind") == "status_changed":
                statuses.append(event.status_changed)
        assert [s.status for s in statuses] == [pb.LEAGUE_STATUS_RUNNING, pb.LEAGUE_STATUS_FAILED]
        assert statuses[-1].reason == info.reason
        # A failed league is not resumed when the referee starts again...
        await referee.contest.leagues.resume_running()
        assert (await until(referee, lambda info: True)).status == pb.LEAGUE_STATUS_FAILED
        # ... but the organizer may resume it once the cause is gone; the reason goes with the state.
        broken = False
        resumed = await referee.call("ResumeLeague", pb.LeagueRequest(league="cup"))
        assert (resumed.status, resumed.reason) == (pb.LEAGUE_STATUS_RUNNING, "")
        info = await until(referee, lambda info: info.status == pb.LEAGUE_STATUS_FINISHED)
        assert (info.games_done, info.reason) == (6, "")
        watch.cancel()

    run(tmp_path, scenario)


def test_a_league_left_with_a_failed_game_fails_naming_it_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One game fails, the rest finish: the league fails naming the game (it was left running, with no
    run behind it and its watchers waiting for good); resuming plays the game left."""
    real_play_game = games_runner.play_game
    failed: list[int] = []

    async def failing_once(spec: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(spec.game_id)
            raise ConnectionResetError("the bot's connection was reset")
        return await real_play_game(spec, *args, **kwargs)

    monkeypatch.setattr(games_runner, "play_game", failing_once)
    monkeypatch.setattr(events, "IDLE_SECONDS", 0.2)

    async def scenario(referee: Hosted) -> None:
        await referee.create(definition())
        watch = referee.stub.Watch(pb.WatchRequest(league="cup"), metadata=referee.as_(ENTRY), timeout=DEADLINE)
        await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
        info = await until(referee, lambda info: info.status == pb.LEAGUE_STATUS_FAILED)
        assert info.games_done == 5
        assert info.reason.startswith(f"game {failed[0]} failed: ConnectionResetError: the bot's connection was reset")
        assert "\n" not in info.reason
        statuses = [event.status_changed async for event in watch if event.WhichOneof("kind") == "status_changed"]
        assert [s.status for s in statuses][-1] == pb.LEAGUE_STATUS_FAILED  # and the stream ended
        assert statuses[-1].reason == info.reason
        resumed = await referee.call("ResumeLeague", pb.LeagueRequest(league="cup"))
        assert resumed.status == pb.LEAGUE_STATUS_RUNNING
        info = await until(referee, lambda info: info.status == pb.LEAGUE_STATUS_FINISHED)
        assert (info.games_done, info.reason) == (6, "")

    run(tmp_path, scenario)


# --------------------------------------------------------------------------- a big schedule


def test_a_big_schedule_does_not_stall_other_calls(tmp_path: Path) -> None:
    # 4,166 rounds of 24 (a duplicate set of 6 at each of 4 tables): the most a hosted league of 4 bots holds
    text = definition(name="big", bots=BOTS, games=99_984)

    async def scenario(referee: Hosted) -> None:
        gaps: list[float] = []
        creating = True

        async def ticker() -> None:
            last = time.perf_counter()
            while creating:
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now

        ticks = asyncio.create_task(ticker())
        started = time.perf_counter()
        info = await referee.create(text)
        took = time.perf_counter() - started
        creating = False
        await ticks
        assert info.games_total == 99_984
        # Relative, not absolute: before, the loop stood still for the whole call. A loaded machine can
        # hold the process off its core for half of a short call, so the bound is the call's bulk.
        assert max(gaps) < took * 0.8, f"the event loop stalled {max(gaps):.3f} s of a {took:.3f} s CreateLeague"

    run(tmp_path, scenario)


# --------------------------------------------------------------------------- Watch streams


def test_watch_streams_are_capped_per_token_with_room_for_the_admin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "MAX_WATCHERS", 8)
    monkeypatch.setattr(events, "MAX_WATCHERS_PER_ENTRANT", 3)
    monkeypatch.setattr(events, "ADMIN_RESERVED", 2)

    async def scenario(referee: Hosted) -> None:
        await referee.create(definition())
        streams = []

        async def watch(token: str) -> grpc.StatusCode:
            stream = referee.stub.Watch(pb.WatchRequest(league="cup"), metadata=referee.as_(token), timeout=DEADLINE)
            streams.append(stream)
            try:
                await stream.read()
            except grpc.aio.AioRpcError as error:
                return error.code()
            return grpc.StatusCode.OK

        assert [await watch(ENTRY) for _ in range(4)] == [grpc.StatusCode.OK] * 3 + [grpc.StatusCode.RESOURCE_EXHAUSTED]
        bot_token = "b0-token-0123456789"
        assert [await watch(bot_token) for _ in range(3)] == [grpc.StatusCode.OK] * 3
        # 6 streams open: the rest (8 - 2 kept for the admin) is used up for everyone else ...
        assert await watch("b1-token-0123456789") is grpc.StatusCode.RESOURCE_EXHAUSTED
        # ... and the admin still watches.
        assert [await watch(ADMIN) for _ in range(2)] == [grpc.StatusCode.OK] * 2
        for stream in streams:
            stream.cancel()

    run(tmp_path, scenario)


def test_an_idle_stream_on_a_league_that_never_starts_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "IDLE_SECONDS", 0.3)

    async def scenario(referee: Hosted) -> None:
        await referee.create(definition())
        stream = referee.stub.Watch(pb.WatchRequest(league="cup"), metadata=referee.as_(ENTRY), timeout=DEADLINE)
        received = [event async for event in stream]
        assert [event.status_changed.status for event in received] == [pb.LEAGUE_STATUS_CREATED] * 2
        assert await stream.code() is grpc.StatusCode.OK

    run(tmp_path, scenario)


def test_bench_create_league_prints_the_stall_beside_its_baseline() -> None:
    from rage_referee.cli import app
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["bench", "create-league", "--games", "300", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["games"] == 300
    for key in ("create_league", "baseline"):
        assert set(figures[key]) == {"seconds", "longest_stall_s"}
        assert 0 <= figures[key]["longest_stall_s"] <= figures[key]["seconds"] + 1


def test_bench_create_league_plays_its_default_and_refuses_past_the_limit_in_one_line() -> None:
    """Its league plays whole rounds of 840 games (a set of 12 at each of 70 tables): 100,000, its default
    before, is 100,800 games, which the hosted referee refused with a traceback."""
    import inspect

    from rage_referee.bench.stall import league_games
    from rage_referee.cli import app
    from rage_referee.cli.bench import create_league_command
    from rage_referee.limits import MAX_HOSTED_GAMES as MAX_GAMES
    from typer.testing import CliRunner

    default = inspect.signature(create_league_command).parameters["games"].default
    assert league_games(default) == default <= MAX_GAMES
    result = CliRunner().invoke(app, ["bench", "create-league", "--games", "99961"])
    assert result.exit_code == 2, result.output
    assert (
        result.output.strip()
        == "--games: 99,961 in whole rounds is 100,800 games; a hosted league holds at most 100,000"
    )


def test_live_standings_are_fitted_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # One fit over 10,000 games takes about a second: on the loop, every call would wait for it.
    fitted_on: list[bool] = []
    real_point_table = leagues.point_table

    def recording(games: Any, *args: Any) -> Any:
        fitted_on.append(threading.current_thread() is threading.main_thread())
        return real_point_table(games, *args)

    monkeypatch.setattr(leagues, "point_table", recording)

    async def scenario(referee: Hosted) -> None:
        await referee.create(definition())
        watch = referee.stub.Watch(pb.WatchRequest(league="cup"), metadata=referee.as_(ENTRY), timeout=DEADLINE)
        await watch.read()
        await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
        standings = []
        while (event := await watch.read()) is not grpc.aio.EOF:
            if event.WhichOneof("kind") == "standings_changed":
                standings.append(event.standings_changed)
        assert standings and standings[-1].games == 6  # the last game's standings always come

    run(tmp_path, scenario)
    assert fitted_on and not any(fitted_on)


@pytest.mark.parametrize(
    ("setting", "key", "games"),
    [("games = 99_999", "games", "100,008"), ("games_per_table = 25_000", "games_per_table", "100,008")],
)
def test_a_hosted_league_past_its_games_is_refused_by_the_count_it_would_play(
    setting: str, key: str, games: str
) -> None:
    """Counted as the schedule plays them, in whole rounds of a duplicate set of 6 at each of 4 tables (4 bots,
    3 seats): the estimate before, ``games`` or ``games_per_table`` times the tables, let these two through."""
    from rage_referee.hosted.definition import read_definition
    from rage_referee.hosted.errors import InvalidArgument

    text = f'players = 3\n{setting}\n[ruleset]\npreset = "amigo"\n'
    registered = {name: f"127.0.0.1:{port}" for port, name in enumerate(("a", "b", "c", "d"), 1)}
    with pytest.raises(InvalidArgument) as refused:
        read_definition(text, "cup", registered)
    assert str(refused.value) == f"definition.{key}: at most 100,000 games in a league, not {games}"
    read_definition(text.replace(setting, "games = 99_984"), "cup", registered)  # 4,166 rounds of 24
