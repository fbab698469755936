"""A hosted ladder playing submitted bots in process (no sandbox), its pages served, on a loop of its own thread:
for tests that look at the ladder's pages in a browser while it runs."""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rage_referee.hosted.submissions import SandboxPolicy
from rage_referee.report.live import bound_port, start_http
from rage_sdk.pb import referee_pb2 as pb

from tests.helpers.league import TEST_BOTS
from tests.referee.hosted import test_hosted_ladder as hosted_ladder
from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, Referee, bot_folder, referee

T = TypeVar("T")

CONTEST = hosted_ladder.CONTEST.replace("concurrency = 2", "concurrency = 1")
"""The hosted ladder tests' contest, one set at a time."""
DIARIST = 'name = "diarist"\nruntime = "python"\nrun = "python bot.py"\n'
"""A bot that writes ``diarist <b>: game N at seat S`` to its stderr as each game starts."""
CRASHING = 'name = "crash"\nruntime = "python"\nrun = "python -c \'raise SystemExit(3)\'"\n'
"""A bot that exits at every start."""


@dataclass
class LiveLadder:
    base: str
    hosted: Referee
    loop: asyncio.AbstractEventLoop
    tokens: dict[str, str] = field(default_factory=dict)
    """Each submitted bot's own token, by name."""

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        """``work`` on the referee's loop, waited for here."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def call(self, method: str, request: Any, token: str = ADMIN) -> Any:
        return self.run(self.hosted.call(method, request, token))

    def standings(self) -> pb.Standings:
        reply: pb.Standings = self.call("GetStandings", pb.LeagueRequest(league="ladder"), ENTRY)
        return reply

    def until(self, check: Callable[[pb.Standings], bool], what: str, timeout: float = 180.0) -> pb.Standings:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self.standings()
            if check(reply):
                return reply
            time.sleep(0.3)
        raise AssertionError(f"{what}: never; the ladder is {reply}")

    def resume(self) -> None:
        """Resume the ladder when it is paused."""
        info = self.call("ListLeagues", pb.ListLeaguesRequest()).leagues[0]
        if info.status == pb.LEAGUE_STATUS_PAUSED:
            self.call("ResumeLeague", pb.LeagueRequest(league="ladder"))

    def pause(self) -> None:
        """Pause the ladder and wait for its sets in progress to end."""
        info = self.call("ListLeagues", pb.ListLeaguesRequest()).leagues[0]
        if info.status == pb.LEAGUE_STATUS_RUNNING:
            self.call("PauseLeague", pb.LeagueRequest(league="ladder"))
        deadline = time.monotonic() + 60
        while self.hosted.contest.leagues.playing("ladder"):
            assert time.monotonic() < deadline, "the paused ladder's sets never ended"
            time.sleep(0.1)


def diarist_folder(folder: Path) -> Path:
    folder.mkdir(mode=0o755, parents=True)
    shutil.copy(TEST_BOTS / "diarist.py", folder / "bot.py")
    (folder / "rage-bot.toml").write_text(DIARIST)
    return folder


@contextmanager
def live_ladder(
    folder: Path, owners: dict[str, str], diarists: set[str], crashing: frozenset[str] = frozenset()
) -> Iterator[LiveLadder]:
    """The ladder "ladder" created with the bots of ``owners`` submitted (each with its owner; those in
    ``diarists`` the diarist, those in ``crashing`` one that exits at every start, the others the random
    example bot), not started; its pages served."""
    loop = asyncio.new_event_loop()
    ready: list[LiveLadder] = []
    failed: list[BaseException] = []
    stop = asyncio.Event()

    async def main() -> None:
        async with referee(folder, SandboxPolicy(None)) as hosted:
            server, stopped = await start_http(hosted.contest, 0, "127.0.0.1")
            try:
                live = LiveLadder(f"http://127.0.0.1:{bound_port(server)}", hosted, loop)
                await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
                for name, owner in owners.items():
                    if name in crashing:
                        source = bot_folder(folder / name, CRASHING)
                    else:
                        source = diarist_folder(folder / name) if name in diarists else bot_folder(folder / name)
                    live.tokens[name] = (await hosted_ladder.submit(hosted, name, source, owner)).token
                ready.append(live)
                await stop.wait()
            finally:
                server.should_exit = True
                hosted.contest.hub.shutdown()
                await asyncio.wait_for(stopped, 10)

    def thread_main() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(main())
        except BaseException as error:  # told to the test below
            failed.append(error)

    thread = threading.Thread(target=thread_main, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not ready:
        if failed:
            raise failed[0]
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the ladder and its pages did not start")
        time.sleep(0.05)
    try:
        yield ready[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(60)
        loop.close()
