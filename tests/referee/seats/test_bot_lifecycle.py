"""Bots the referee launches do not outlive it, even when it is killed outright."""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rage_referee.seats import BotHandle, BotProcess, BotSpec, HandshakeError, stop_group
from rage_sdk.server import PARENT_ENV

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots"


def launched_by(pid: int) -> list[int]:
    """Processes whose environment names ``pid`` as the referee that launched them."""
    marker = f"{PARENT_ENV}={pid}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@contextmanager
def match_of_two(tmp_path: Path, bot: str) -> Iterator[subprocess.Popen[bytes]]:
    """``rage match`` of two copies of ``bot``, a referee process of its own; it and the bots it launched
    are killed on the way out, whatever the test left running."""
    referee = subprocess.Popen(
        [sys.executable, "-m", "rage_referee", "match", "--games", "500", "--logs", str(tmp_path),
         "--bot", f"a={bot}", "--bot", f"b={bot}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    try:
        yield referee
    finally:
        for pid in launched_by(referee.pid):
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        if referee.poll() is None:
            referee.kill()
        referee.wait(10)


def assert_all_stop(bots: list[int]) -> None:
    """Every one of ``bots`` stops within 10 seconds."""
    deadline = time.monotonic() + 10
    while any(map(running, bots)) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [pid for pid in bots if running(pid)]
    assert not alive, f"bots still running after the referee died: {alive}"


def kill_and_see_its_bots_stop(referee: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``referee``, running its two bots: both stop."""
    bots = launched_by(referee.pid)
    assert len(bots) == 2, "the referee did not launch its two bots"
    referee.send_signal(signal.SIGKILL)
    referee.wait(10)
    assert_all_stop(bots)


def test_launched_bots_stop_when_the_referee_is_killed(tmp_path: Path) -> None:
    with match_of_two(tmp_path, f"python {ROOT / 'examples' / 'random_bot.py'}") as referee:
        deadline = time.monotonic() + 30
        while len(launched_by(referee.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        kill_and_see_its_bots_stop(referee)


@pytest.mark.parametrize("wrapped", [False, True], ids=["launched", "through-a-shell"])
def test_launched_bots_stop_when_the_killed_referee_is_not_reaped(tmp_path: Path, wrapped: bool) -> None:
    """A killed referee nobody reaps still passes ``kill(pid, 0)``; its bots must stop all the same."""
    bot = f"python {ROOT / 'examples' / 'random_bot.py'}"
    if wrapped:  # the bot's parent is the shell, which outlives the referee
        bot = f"sh -c '{sys.executable} {ROOT / 'examples' / 'random_bot.py'} --port {{port}}; true'"
    with match_of_two(tmp_path, bot) as referee:
        deadline = time.monotonic() + 30
        while len(bots := [pid for pid in launched_by(referee.pid) if is_python(pid)]) < 2:
            assert time.monotonic() < deadline, "the referee did not launch its two bots"
            time.sleep(0.1)
        os.kill(referee.pid, signal.SIGKILL)  # and not reaped: a zombie until the way out
        assert_all_stop(bots)
        assert not running(referee.pid)


def is_python(pid: int) -> bool:
    """The bot's own process, not a shell around it."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return argv[0] == sys.executable.encode()


def left_behind(pid_file: Path) -> int:
    """The child a test bot wrote to ``pid_file`` as it started, once it has."""
    deadline = time.monotonic() + 10
    while not (written := pid_file.read_text() if pid_file.exists() else "").endswith("\n"):
        assert time.monotonic() < deadline, "the bot wrote no child's pid"
        time.sleep(0.05)
    return int(written)


def assert_ended(pid: int) -> None:
    deadline = time.monotonic() + 5
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if running(pid):
        os.kill(pid, signal.SIGKILL)
        pytest.fail(f"the bot's child {pid} outlived it")


def test_a_bot_that_exits_leaves_no_child_behind(tmp_path: Path) -> None:
    """A bot that crashes (here: before serving) is gone with its children, not only its own process."""
    pid_file = tmp_path / "child.pid"
    process = BotProcess(f"sh -c '(exec sleep 300) & echo $! > {pid_file}; exit 3' --", tmp_path / "bot.log")
    with pytest.raises(HandshakeError, match="exited with code 3"):
        asyncio.run(process.start())
    assert_ended(left_behind(pid_file))


def test_a_child_that_ignores_sigterm_is_killed_with_its_bot(tmp_path: Path) -> None:
    """The bot exits on SIGTERM at once; the child it started, deaf to SIGTERM, is killed after the grace."""
    pid_file = tmp_path / "child.pid"
    bot = f"{sys.executable} -m rage_sdk.examples.random_bot --port {{port}}"
    command = f"sh -c \"(trap '' TERM; exec sleep 300) & echo $! > {pid_file}; exec {bot}\""
    process = BotProcess(command, tmp_path / "bot.log")
    asyncio.run(process.start())
    child = left_behind(pid_file)
    process.stop(grace=0.5)
    assert_ended(child)


SPINNER = """
import sys
from rage_sdk import Bot
from rage_sdk.server import main

class Spinner(Bot):
    def bid(self, view):
        print("spinning", file=sys.stderr, flush=True)
        while True:
            pass

    def play(self, view):
        return view.legal_plays[0]

if __name__ == "__main__":
    main(Spinner)
"""


def test_a_bot_busy_in_its_own_code_stops_when_the_referee_is_killed(tmp_path: Path) -> None:
    """The SDK's watch of the referee is not held up by a bid() that never returns (it ran on the bot's event loop)."""
    spinner = tmp_path / "spinner.py"
    spinner.write_text(SPINNER)
    with match_of_two(tmp_path, f"python {spinner}") as referee:
        deadline = time.monotonic() + 30
        while not any("spinning" in log.read_text() for log in tmp_path.glob("*.log")):
            assert time.monotonic() < deadline, "no bot was asked to bid"
            time.sleep(0.1)
        kill_and_see_its_bots_stop(referee)


PR_SET_CHILD_SUBREAPER = 36


def test_a_child_that_has_exited_holds_up_no_stop() -> None:
    """A bot's child that has exited, and that its new parent has not reaped yet (a zombie, as bubblewrap's init
    is once bubblewrap has gone), is not waited for as if it ran: the stop took the whole grace."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # the bot's orphans come here, reaped only at the end
    code = "import os, time; pid = os.fork(); pid or os._exit(0); print(pid, flush=True); time.sleep(300)"
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert process.stdout is not None
        child = int(process.stdout.readline())
        started = time.monotonic()
        stop_group(process, grace=5.0)
        took = time.monotonic() - started
        os.waitpid(child, 0)
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        process.kill()
        process.wait()
    assert took < 2.5, f"the stop waited {took:.1f} s for a child that had exited"


def test_a_child_that_left_the_bots_group_is_ended_with_the_bot(tmp_path: Path) -> None:
    """A daemon the bot started in a session of its own (setsid) is beyond its group's signals, not its mark."""
    pid_file = tmp_path / "child.pid"
    command = f"sh -c 'setsid sleep 300 & echo $! > {pid_file}; sleep 0.5; exit 3' --"
    process = BotProcess(command, tmp_path / "bot.log")
    with pytest.raises(HandshakeError, match="exited with code 3"):
        asyncio.run(process.start())
    assert_ended(left_behind(pid_file))


def test_a_bot_deaf_to_sigterm_holds_up_no_other_game_while_it_is_stopped(tmp_path: Path) -> None:
    """Its grace before SIGKILL was waited out on the referee's event loop: every other game stood still."""
    handle = BotHandle(BotSpec.of("deaf", f"python {ROOT / 'tests' / 'bots' / 'deaf.py'}"), tmp_path)

    async def run() -> tuple[int, float]:
        await handle.start()
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.05)
                ticks += 1

        ticking = asyncio.create_task(tick())
        started = time.monotonic()
        await handle.stop()
        took = time.monotonic() - started
        ticking.cancel()
        return ticks, took

    ticks, took = asyncio.run(run())
    assert took >= 1.5, "the deaf bot did not need its grace: the test shows nothing"
    assert ticks >= 20, f"the event loop ran {ticks} times in the {took:.1f} s the bot took to stop"


@pytest.mark.parametrize(("cgroup", "orphan"), [(True, True), (False, False), (False, True)])
def test_a_daemon_with_no_mark_and_deaf_to_sigterm_ends_with_its_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cgroup: bool, orphan: bool
) -> None:
    """Outside the sandbox too: a daemon in a session of its own, its environment cleared, SIGTERM ignored,
    ends with the match that launched its bot (it was left running, parent pid 1): in the bot's cgroup, and
    without one, as a process below the bot when it stops (the bot the subreaper of an orphan it made)."""
    from rage_referee import cgroups
    from rage_referee.cli import app
    from typer.testing import CliRunner

    if not cgroup:
        monkeypatch.setattr(cgroups.BotCgroup, "make", staticmethod(lambda memory_bytes=None: None))
    elif not cgroups.available():
        pytest.skip("this machine gives the referee no cgroup for a bot")
    pid_file = tmp_path / "daemon.pid"
    daemonizer = f"d=python {BOTS / 'daemonizer.py'} {pid_file}{' --orphan' if orphan else ''}"
    bots = ["--bot", daemonizer, "--bot", f"g={BOTS / 'blunder.py'}:BlunderBot"]
    result = CliRunner().invoke(app, ["match", *bots, "--games", "1", "--logs", str(tmp_path / "logs")])
    assert result.exit_code == 0, result.output
    assert_ended(left_behind(pid_file))


def test_two_launches_starting_at_once_are_never_given_one_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A port released may be drawn again while the launch given it is still starting (a league isolating
    its bots starts several at once): the second launch gets another."""
    from rage_referee.seats import process

    first, other = process.launch_port(), process.launch_port()
    process.release_port(first)
    process.release_port(other)
    drawn = iter([first, first, other])
    monkeypatch.setattr(process, "_drawn_port", lambda: next(drawn))
    bots = [BotProcess(f"python {ROOT / 'examples' / 'random_bot.py'}", tmp_path / f"{k}.log") for k in range(2)]

    async def start_both() -> list[str]:
        try:
            return list(await asyncio.gather(*(bot.start() for bot in bots)))
        finally:
            for bot in bots:
                bot.stop()

    assert sorted(asyncio.run(start_both())) == sorted([f"127.0.0.1:{first}", f"127.0.0.1:{other}"])
    monkeypatch.setattr(process, "_drawn_port", lambda: first)
    assert process.launch_port() == first, "a stopped launch's port is given out again"
    process.release_port(first)


def test_a_launch_is_given_a_port_no_outgoing_connection_can_take() -> None:
    """Every connection made on the machine takes a port of the kernel's local range: one took a launch's
    port in the second before the bot listened on it, on a busy machine."""
    from rage_referee.seats import process

    low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    ports = [process.launch_port() for _ in range(20)]
    for port in ports:
        process.release_port(port)
    assert not [port for port in ports if low <= port <= high]
