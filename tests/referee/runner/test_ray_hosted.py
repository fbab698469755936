"""The hosted referee on a real single-node Ray, started once for the module:

- a bot at an address moved mid-league (``RayRunner.readdress``) is called at its new address by the
  worker from the next game on;
- ``rage referee serve --ray``: a league among bots at addresses, played on Ray workers, followed on
  the event stream (games and standings), each game stored once, a worker SIGKILLed mid-league
  costing only a retry, paused (its workers gone) and resumed;
- ``--ray`` refused in one line when it is malformed or nothing listens there.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import shlex
import signal
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import grpc
import pytest
from rage_referee.cli import app
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.server import create_server
from rage_referee.hosted.submissions import SandboxPolicy
from rage_referee.matches.match import match_specs
from rage_referee.play.deals import Deals
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import TimeControl
from rage_referee.runner.settings import RunnerSettings
from rage_referee.seats import BotProcess, BotSpec, free_port, stop_group
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.record import ruleset_of
from rage_sdk.replay import verify
from typer.testing import CliRunner

from tests.conftest import require, require_command
from tests.helpers.bots import read_dump
from tests.helpers.hosted import pack_as
from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, Referee, bot_folder
from tests.referee.hosted.test_hosted_submitted_league import wait_over
from tests.referee.test_referee_server import BOTS as SERVED_BOTS
from tests.referee.test_referee_server import (
    Follower,
    launch,
    referee_server,
    register,
    settled,
    statuses,
    stored_games,
    wait_serving,
)

require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")

from rage_referee.runner.ray import RayRunner  # noqa: E402

from tests.referee.runner.test_ray_runner import game_workers  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
TEST_BOTS = ROOT / "tests" / "bots"
PLAYERS = ("random-a", "greedy", "heuristic")


def no_workers_within(seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while game_workers():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


# --------------------------------------------------------------------------- RayRunner.readdress


def test_a_bot_moved_mid_league_is_called_at_its_new_address_by_the_worker(ray_address: str, tmp_path: Path) -> None:
    dump = tmp_path / "new.dump"
    before = BotProcess(f"{sys.executable} {ROOT / 'examples' / 'random_bot.py'}", tmp_path / "old.log")
    after = BotProcess(
        shlex.join([sys.executable, str(TEST_BOTS / "recorder.py"), "--dump", str(dump)]), tmp_path / "new.log"
    )
    bots = [
        BotSpec.of("greedy", "examples/greedy_bot.py:GreedyBot"),
        BotSpec.of("heuristic", "examples/heuristic_bot.py:HeuristicBot"),
    ]
    games = match_specs(
        ["greedy", "heuristic", "mover"], ruleset_of({"preset": "amigo"}), 8, Deals.public(3), TimeControl(5000)
    )
    finished: list[FinishedGame] = []
    moved_after = 3

    async def run() -> None:
        old_address, new_address = await before.start(), await after.start()
        mover = BotSpec.of("mover", old_address)
        ledger = FaultLedger(20)
        async with RayRunner([*bots, mover], ledger, workers=1, log_dir=tmp_path / "logs") as runner:

            def on_finished(game: FinishedGame) -> None:
                finished.append(game)
                if len(finished) == moved_after:  # one worker, one game at a time: none is in flight now
                    runner.readdress("mover", new_address)
                    before.stop()  # the old address serves no more
                    time.sleep(0.5)  # and the worker's stream to it has seen that

            await runner.run(games, on_finished)

    try:
        asyncio.run(run())
    finally:
        before.stop()
        after.stop()
    assert [game.index for game in finished] == list(range(8))
    for game in finished[moved_after:]:
        mover = game.figures.seats.index("mover")
        assert [fault for fault in game.figures.faults if fault.seat == mover] == [], (
            f"game {game.index} missed the move"
        )
    reached = {message.start.index for message in read_dump(dump) if message.HasField("start")}
    assert reached == set(range(moved_after, 8)), "every game after the move reached the new address, none before"


# --------------------------------------------------------------------------- rage referee serve --ray


@pytest.fixture(scope="module")
def served_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Three example bots serving for the module: name -> HOST:PORT."""
    logs = tmp_path_factory.mktemp("bots")
    processes, addresses = {}, {}
    try:
        for name in PLAYERS:
            port = free_port()
            argv = [part.replace("{port}", str(port)) for part in SERVED_BOTS[name]]
            processes[name] = launch(argv, logs / f"{name}.log")
            addresses[name] = f"127.0.0.1:{port}"
        for name, process in processes.items():
            wait_serving(addresses[name], process, logs / f"{name}.log")
        yield addresses
    finally:
        for process in processes.values():
            stop_group(process, 10.0)


RAY_LEAGUE = """
name = "on-ray"
players = 3
games = 48  # 8 duplicate sets: a worker is killed after 4 games, the league paused after 8, games left to resume
seed = 4
concurrency = 2
bots = ["random-a", "greedy", "heuristic"]

[ruleset]
preset = "amigo"
rounds = [4, 3]
"""


@pytest.mark.slow
def test_a_hosted_league_on_ray_streams_its_games_and_stores_each_once_through_a_killed_worker(
    ray_address: str, served_bots: dict[str, str], tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'contest.sqlite'}"
    with referee_server(tmp_path / "referee", database, "--ray", ray_address, "--ray-workers", "2") as referee:
        register(referee, served_bots, list(PLAYERS))
        total = referee.call("CreateLeague", pb.CreateLeagueRequest(definition=RAY_LEAGUE), referee.admin).games_total
        follower = Follower(referee, "on-ray")
        referee.call("StartLeague", pb.LeagueRequest(league="on-ray"), referee.admin)
        follower.wait_for_games(4)
        workers = game_workers()
        assert len(workers) == 2, "the league's two workers run on this module's Ray"
        played = len(follower.of("game_finished"))
        os.kill(workers[0].pid, signal.SIGKILL)
        follower.wait_for_games(played + 4)
        league = pb.LeagueRequest(league="on-ray")
        assert referee.call("PauseLeague", league, referee.admin).status == pb.LEAGUE_STATUS_PAUSED
        held = settled(referee, "on-ray")  # the games in flight finish; no new one starts
        assert no_workers_within(15), "a paused league's workers are gone"
        assert referee.call("ResumeLeague", league, referee.admin).status == pb.LEAGUE_STATUS_RUNNING
        follower.join(120)
        assert not follower.is_alive() and follower.error is None, follower.error
        assert played < held < total, "the league ended before a worker could be killed and the league paused"
        log = referee.log.read_text()
        assert f"leagues: games on the Ray cluster at {ray_address}, 2 workers a league" in " ".join(log.split())
    assert statuses(follower)[1:] == [
        pb.LEAGUE_STATUS_RUNNING,
        pb.LEAGUE_STATUS_PAUSED,
        pb.LEAGUE_STATUS_RUNNING,
        pb.LEAGUE_STATUS_FINISHED,
    ], log[-2000:]
    assert sorted(game.game for game in follower.of("game_finished")) == list(range(total)), "each game once"
    standings = follower.of("standings_changed")
    assert standings and sum(row.games for row in standings[-1].rows) == 3 * total
    stored = stored_games(database, "on-ray")
    assert sorted(stored) == list(range(total)), "every game stored, once"
    assert all(verify(json.dumps(record)).ok for record in stored.values())
    assert not re.search(r"league on-ray: game \d+ failed", log), "the killed worker's games were retried, none failed"


def test_serve_refuses_a_malformed_or_unreachable_ray_address_in_one_line(ray_address: str, tmp_path: Path) -> None:
    db = str(tmp_path / "contest.sqlite")
    bad = CliRunner().invoke(app, ["referee", "serve", "--db", db, "--ray", "head"])
    assert (bad.exit_code, bad.output.strip()) == (2, "--ray: 'head' is not auto, HOST:PORT or ray://HOST:PORT")
    lone = CliRunner().invoke(app, ["referee", "serve", "--db", db, "--ray-workers", "2"])
    assert (lone.exit_code, lone.output.strip()) == (2, "--ray-workers: only with --ray")
    nowhere = f"127.0.0.1:{free_port()}"
    unreachable = CliRunner().invoke(app, ["referee", "serve", "--db", db, "--port", "0", "--ray", nowhere])
    assert unreachable.exit_code == 1, unreachable.output
    last = unreachable.output.strip().splitlines()[-1]
    assert last == f"cannot serve: cannot reach the Ray cluster at {nowhere}: Connection refused"
    assert "Traceback" not in unreachable.output


# --------------------------------------------------------------------------- submitted bots on Ray

SUBMITTED_LEAGUE = """
name = "cup"
players = 2
games = 16
seed = 3
concurrency = 2
bots = ["rnd", "rnd2"]

[ruleset]
preset = "amigo"
rounds = [3, 2]
"""


SLOW_BOT = """# The random bot at 20 ms a decision.

import time

from rage_sdk import Play, SeatView
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.server import main


class SlowBot(RandomBot):
    def bid(self, view: SeatView) -> int:
        time.sleep(0.02)
        return super().bid(view)

    def play(self, view: SeatView) -> Play:
        time.sleep(0.02)
        return super().play(view)


main(SlowBot)
"""


def slow_bot_folder(folder: Path) -> Path:
    """The random bot at 20 ms a decision: its league lasts seconds, so the referee stops it halfway (at
    full speed the 16 games end in 0.2 s, between two of the test's looks at the league)."""
    bot = bot_folder(folder)
    (bot / "bot.py").write_text(SLOW_BOT)
    return bot


@asynccontextmanager
async def hosted_on_ray(folder: Path, ray_address: str) -> AsyncIterator[Referee]:
    """A hosted referee whose leagues play on the Ray at ``ray_address``, its submitted bots in the sandbox."""
    root = folder / "submissions"
    policy = SandboxPolicy.for_referee(no_sandbox=False)
    assert policy.sandbox is not None, policy.refusal
    runner = RunnerSettings.ray(ray_address, workers=2)
    database = f"sqlite:///{folder / 'contest.sqlite'}"
    contest = Contest.open(database, ADMIN, ENTRY, AllowList.parse(LOOPBACK), root, policy, runner)
    server, port = await create_server(contest, 0, "127.0.0.1")
    try:
        await contest.leagues.resume_running()
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield Referee(contest, referee_pb2_grpc.RefereeStub(channel), root, port)  # type: ignore[no-untyped-call]
    finally:
        await contest.leagues.close(30.0)
        contest.hub.shutdown()
        await server.stop(0)
        contest.close()


async def league_info(hosted: Referee) -> pb.LeagueInfo:
    (info,) = (await hosted.call("ListLeagues", pb.ListLeaguesRequest())).leagues
    return info


@pytest.mark.slow
def test_a_hosted_league_of_submitted_bots_plays_on_ray_workers_and_resumes_there_after_a_restart(
    ray_address: str, tmp_path: Path
) -> None:
    play_submitted_league_with_a_restart(ray_address, tmp_path)


def play_submitted_league_with_a_restart(ray_address: str, tmp_path: Path) -> None:
    """Two submitted bots' hosted league on the Ray at ``ray_address``; the referee stopped after 4 games and
    started again: the league finishes there, each game once, every bot at its pinned version in the sandbox."""
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    tmp_path.chmod(0o755)
    folder = slow_bot_folder(tmp_path / "bot")
    pins: dict[str, str] = {}

    async def first_run() -> None:
        async with hosted_on_ray(tmp_path, ray_address) as hosted:
            for name in ("rnd", "rnd2"):
                submitted = await hosted.submit(name, pack_as(folder, name))
                assert submitted.version.build == pb.BUILD_STATE_OK, submitted.version.build_log
                pins[name] = submitted.version.version
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=SUBMITTED_LEAGUE))
            started = await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            assert started.sandbox.startswith("sandbox: bubblewrap, no network")
            deadline = time.monotonic() + 120
            while (await league_info(hosted)).games_done < 4:  # then the referee stops, mid-league
                assert time.monotonic() < deadline, "no games were played on Ray"
                await asyncio.sleep(0.1)

    async def second_run() -> None:
        async with hosted_on_ray(tmp_path, ray_address) as hosted:
            info = await wait_over(hosted, "cup", timeout=240)
            assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
            assert dict(info.versions) == {name: version[7:23] for name, version in pins.items()}
            for game in range(info.games_total):
                reply = await hosted.call("GetRecord", pb.GetRecordRequest(league="cup", game=game))
                record = json.loads(reply.record)
                assert record["meta"]["game"] == game
                assert sorted(seat.get("submission") for seat in record["meta"]["bots"]) == sorted(pins.values())
            standings = await hosted.call("GetStandings", pb.LeagueRequest(league="cup"))
            assert all(row.faults == 0 for row in standings.rows)

    asyncio.run(first_run())
    asyncio.run(second_run())
    logs = list((tmp_path / "submissions" / ".logs" / "cup").rglob("worker-*/rnd.log"))
    assert logs, "the bots ran on the workers"
    assert all("serving on unix:/run/rage/bot.sock" in log.read_text() for log in logs), "in the sandbox"
    launches = {
        str(log.relative_to(tmp_path)): log.read_text().count("launches python bot.py (in the sandbox)") for log in logs
    }
    assert sum(launches.values()) >= 4, f"each of 2 workers launches the bot in each run: {launches}"
