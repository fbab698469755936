"""What one caller of the hosted referee may hold: the entry token registers a bounded share of the bots, a
build goes on holding its place when its caller goes away, and the scratch of uploads a killed referee was
receiving is not kept for good."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.hosted import addresses, registry
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.submissions.pack import pack
from rage_referee.submissions.store import outcome_file
from rage_sdk.pb import referee_pb2 as pb

from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, Referee, bot_folder, run


def test_the_entry_token_registers_its_entrants_share_of_bots_and_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "MAX_BOTS_PER_ENTRANT", 2)
    code = pack(bot_folder(tmp_path / "bot"))

    async def scenario(hosted: Referee) -> None:
        for port, name in enumerate(("one", "two"), 5):
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name=name, address=f"127.0.0.1:{port}"), ENTRY)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name="three", address="127.0.0.1:7"), ENTRY)
        assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert refused.value.details() == ("entrant 'entry' has 2 bots, the most one entrant may: ask the organizer")
        assert await hosted.refusal("three", code) == (grpc.StatusCode.RESOURCE_EXHAUSTED, refused.value.details())
        assert not hosted.stored()  # refused before the upload was received or built
        await hosted.call("RegisterBot", pb.RegisterBotRequest(name="house", address="127.0.0.1:8"), ADMIN)
        listed = await hosted.call("ListBots", pb.ListBotsRequest(), ENTRY)
        assert [bot.name for bot in listed.bots] == ["one", "two", "house"]

    run(tmp_path, scenario)


BUILD = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "log = Path(Path('log-path.txt').read_text())\n"  # a build names no path outside its folder
    "log.write_text(log.read_text() + f'start {sys.argv[1]}\\n' if log.exists() else f'start {sys.argv[1]}\\n')\n"
    "time.sleep(0.8)\n"
    "log.write_text(log.read_text() + f'end {sys.argv[1]}\\n')\n"
)


def test_a_build_whose_call_is_cancelled_still_holds_its_place(tmp_path: Path) -> None:
    log = tmp_path / "builds.log"

    def code(name: str) -> bytes:
        manifest = f'name = "{name}"\nruntime = "python"\nrun = "python bot.py"\n'
        manifest += f'build = "python build.py {name}"\n'
        folder = bot_folder(tmp_path / name, manifest)
        (folder / "build.py").write_text(BUILD)
        (folder / "log-path.txt").write_text(str(log))
        return pack(folder)

    first, second = code("first"), code("second")

    async def scenario(hosted: Referee) -> None:
        cancelled = asyncio.ensure_future(hosted.submit("first", first))
        while not log.exists():
            await asyncio.sleep(0.05)
        cancelled.cancel()  # the caller goes away as its build runs, and submits again at once
        await hosted.submit("second", second)

    run(tmp_path, scenario)
    assert log.read_text().split("\n") == ["start first", "end first", "start second", "end second", ""]


def test_the_scratch_a_killed_referee_left_is_removed_when_it_starts_again(tmp_path: Path) -> None:
    root = tmp_path / "submissions"
    left = [root / ".uploads" / "tmp1234" / "upload.tar.gz", root / "rnd" / ".incoming-5678" / "bot" / "bot.py"]
    kept = root / "rnd" / "rnd" / "0123456789abcdef" / "bot.py"
    for path in [*left, kept]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * 1000)
    outcome_file(kept.parent).write_text("{}")  # its build finished: a version, not scratch
    contest = Contest.open(f"sqlite:///{tmp_path / 'c.sqlite'}", ADMIN, ENTRY, AllowList.parse(LOOPBACK), root)
    contest.close()
    assert [path.exists() for path in left] == [False, False] and kept.exists()


def test_host_names_whose_dns_never_answers_hold_none_of_the_referees_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = threading.Event()
    resolve = socket.getaddrinfo

    def never(host: str, *args: Any, **kwargs: Any) -> Any:
        if host.endswith(".never.example"):
            answer.wait(30)  # the system resolver waits out its own timeouts
            raise socket.gaierror("no answer")
        return resolve(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", never)
    monkeypatch.setattr(addresses, "RESOLVE_TIMEOUT", 0.5)

    async def scenario(hosted: Referee) -> None:
        loop = asyncio.get_running_loop()
        names = [f"b{n}" for n in range(12)]
        registering = [
            hosted.call("RegisterBot", pb.RegisterBotRequest(name=name, address=f"{name}.never.example:5"), ENTRY)
            for name in names
        ]
        refused = await asyncio.gather(*registering, return_exceptions=True)
        assert all(isinstance(error, grpc.aio.AioRpcError) for error in refused)
        started = loop.time()
        await asyncio.wait_for(asyncio.to_thread(lambda: None), 5)  # the referee's work off its event loop
        assert loop.time() - started < 0.5
        answer.set()

    try:
        run(tmp_path, scenario)
    finally:
        answer.set()
