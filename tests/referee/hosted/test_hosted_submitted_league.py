"""A submitted bot, end to end: an entrant submits a Python bot's folder, the referee builds it in the
sandbox, and it plays a hosted league under the sandbox against a bot at an address. A resubmission
while the league runs is a new version; the running league keeps the one it was pinned to, and its
standings, info and records name it. A league of submitted bots on a referee without the sandbox
is refused in one line.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from rage_referee.hosted.submissions import SandboxPolicy
from rage_referee.seats import free_port, stop_group
from rage_referee.submissions.pack import pack
from rage_sdk.pb import referee_pb2 as pb

from tests.conftest import require, require_command
from tests.helpers.hosted import pack_as
from tests.referee.hosted.test_hosted_submissions import ENTRY, EXAMPLES, Referee, bot_folder, referee

pytestmark = pytest.mark.slow

LEAGUE = """
name = "cup"
players = 2
games = 8
seed = 3
concurrency = 2
bots = ["rnd", "random"]

[ruleset]
preset = "amigo"
rounds = [2]

[time]
decision_ms = 2000
"""


def wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, "the bot at an address ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the bot at an address did not listen")


async def wait_over(hosted: Referee, league: str, timeout: float = 120.0) -> pb.LeagueInfo:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = next(i for i in (await hosted.call("ListLeagues", pb.ListLeaguesRequest())).leagues if i.name == league)
        if info.status in (pb.LEAGUE_STATUS_FINISHED, pb.LEAGUE_STATUS_FAILED, pb.LEAGUE_STATUS_CANCELLED):
            return info
        await asyncio.sleep(0.2)
    raise AssertionError(f"league {league} did not finish")


def test_a_submitted_bot_plays_a_hosted_league_in_the_sandbox_pinned_to_its_version(tmp_path: Path) -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    import os

    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    tmp_path.chmod(0o755)
    folder = bot_folder(tmp_path / "bot")
    port = free_port()
    address_bot = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "random_bot.py"), "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    policy = SandboxPolicy.for_referee(no_sandbox=False)
    assert policy.sandbox is not None, policy.refusal

    async def main() -> None:
        async with referee(tmp_path, policy) as hosted:
            first = await hosted.submit("rnd", pack(folder))
            assert first.version.build == pb.BUILD_STATE_OK, first.version.build_log
            pinned = first.version.version
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name="random", address=f"127.0.0.1:{port}"), ENTRY)
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=LEAGUE))
            started = await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            assert started.sandbox.startswith("sandbox: bubblewrap, no network")
            assert dict(started.versions) == {"rnd": pinned.removeprefix("sha256:")[:16]}
            (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version two\n")
            second = await hosted.submit("rnd", pack(folder), token=first.token)
            assert second.version.version != pinned and second.version.current
            info = await wait_over(hosted, "cup")
            assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
            assert dict(info.versions) == {"rnd": pinned.removeprefix("sha256:")[:16]}
            standings = await hosted.call("GetStandings", pb.LeagueRequest(league="cup"))
            assert {row.bot: row.version for row in standings.rows} == {
                "rnd": pinned.removeprefix("sha256:")[:16],
                "random": "",
            }
            assert all(row.faults == 0 for row in standings.rows)
            for game in range(info.games_total):
                record = json.loads(
                    (await hosted.call("GetRecord", pb.GetRecordRequest(league="cup", game=game))).record
                )
                seats = record["meta"]["bots"]
                submitted = [seat.get("submission") for seat, name in zip(seats, record["players"]) if name == "rnd"]
                assert submitted == [pinned], seats
            logs = list((hosted.root / ".logs" / "cup").glob("*.log"))
            assert logs and "serving on unix:/run/rage/bot.sock" in logs[0].read_text()
            processes = list((hosted.root / ".logs" / "cup").rglob("rnd.log"))
            assert len(processes) == 2  # isolated by deal: a process for each game of a set, reused across sets
            # A league starting now plays the newest version.
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=LEAGUE.replace('"cup"', '"cup2"')))
            later = await hosted.call("StartLeague", pb.LeagueRequest(league="cup2"))
            assert dict(later.versions) == {"rnd": second.version.version.removeprefix("sha256:")[:16]}
            await hosted.call("CancelLeague", pb.LeagueRequest(league="cup2"))

    try:
        wait_listening(port, address_bot)
        asyncio.run(main())
    finally:
        stop_group(address_bot, 2.0)


def test_a_league_of_submitted_bots_is_refused_without_the_sandbox(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    refusal = "the sandbox needs bwrap: install it (apt-get install bubblewrap)"

    async def main() -> None:
        async with referee(tmp_path, SandboxPolicy(None)) as hosted:  # --no-sandbox: stored and built
            await hosted.submit("rnd", pack(folder))
            await hosted.submit("rnd2", pack_as(folder, "rnd2"))
        async with referee(tmp_path, SandboxPolicy(None, refusal)) as hosted:  # the same referee, no sandbox now
            definition = LEAGUE.replace('"random"', '"rnd2"')
            created = await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=definition))
            assert created.sandbox.startswith("no sandbox (the sandbox needs bwrap")
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
            assert (info.value.details() or "").startswith("the referee runs submitted bots only in the sandbox")
            listed = (await hosted.call("ListLeagues", pb.ListLeaguesRequest())).leagues
            assert listed[0].status == pb.LEAGUE_STATUS_CREATED

    asyncio.run(main())


def test_a_league_says_when_its_submitted_bots_run_without_the_sandbox(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")

    async def main() -> None:
        async with referee(tmp_path, SandboxPolicy(None)) as hosted:
            await hosted.submit("rnd", pack(folder))
            await hosted.submit("rnd2", pack_as(folder, "rnd2"))
            definition = LEAGUE.replace('"random"', '"rnd2"')
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=definition))
            started = await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            assert (
                started.sandbox
                == "no sandbox: the referee was started with --no-sandbox; submitted bots run with its rights"
            )
            info = await wait_over(hosted, "cup")
            assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason

    asyncio.run(main())


def test_a_submitted_bot_that_cannot_start_is_forfeited_and_the_league_finishes(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    (folder / "bot.py").write_text("import sys\nprint('\\x1b[31mno luck')\nsys.exit(4)\n")

    async def main() -> None:
        async with referee(tmp_path, SandboxPolicy(None)) as hosted:
            await hosted.submit("rnd", pack(folder))
            await hosted.submit("rnd2", pack_as(bot_folder(tmp_path / "good"), "rnd2"))
            definition = LEAGUE.replace('"random"', '"rnd2"')
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=definition))
            await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            info = await wait_over(hosted, "cup")
            assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
            standings = await hosted.call("GetStandings", pb.LeagueRequest(league="cup"))
            rows = {row.bot: row for row in standings.rows}
            assert rows["rnd"].forfeited == info.games_total and rows["rnd2"].forfeited == 0
            record = json.loads((await hosted.call("GetRecord", pb.GetRecordRequest(league="cup", game=0))).record)
            detail = next(fault["detail"] for fault in record["faults"] if fault["kind"] == "forfeited")
            assert "could not start" in detail and "exited with code 4" in detail and "\x1b" not in detail

    asyncio.run(main())


def test_a_referee_started_again_resumes_the_league_at_its_pinned_versions(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    definition = (
        LEAGUE.replace('"random"', '"rnd2"')
        .replace("games = 8", "games = 24")
        .replace("concurrency = 2", "concurrency = 1")
    )

    async def main() -> None:
        async with referee(tmp_path, SandboxPolicy(None)) as hosted:
            first = await hosted.submit("rnd", pack(folder))
            await hosted.submit("rnd2", pack_as(bot_folder(tmp_path / "other"), "rnd2"))
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=definition))
            await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
            while not hosted.contest.store.count(hosted.contest.registry.league("cup").league_id):
                await asyncio.sleep(0.1)
        # The referee stopped with the league running; a new version arrives before it starts again.
        async with referee(tmp_path, SandboxPolicy(None)) as hosted:
            (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version two\n")
            second = await hosted.submit("rnd", pack(folder), token=first.token)
            assert second.version.current and second.version.version != first.version.version
            await hosted.contest.leagues.resume_running()
            info = await wait_over(hosted, "cup")
            assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
            for game in range(info.games_total):
                record = json.loads(
                    (await hosted.call("GetRecord", pb.GetRecordRequest(league="cup", game=game))).record
                )
                rnd = [seat for seat, name in zip(record["meta"]["bots"], record["players"]) if name == "rnd"]
                assert [seat["submission"] for seat in rnd] == [first.version.version]

    asyncio.run(main())
