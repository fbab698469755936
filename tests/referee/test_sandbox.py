"""Leagues under the sandbox: plain bots play, hostile ones are contained and leave nothing behind.

Every hostile bot here is bounded by the sandbox's limits (small ones, set below) and by the
league's decision times, so that nothing it tries reaches the shared machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tarfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from rage_referee import cgroups, sandbox
from rage_referee.cli import app
from rage_referee.limits import MAX_BOT_LOG_BYTES
from rage_referee.sandbox import UID_BASE
from rage_referee.seats import BotProcess
from typer.testing import CliRunner

from tests.conftest import require, require_command

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "bots" / "hostile.py"
RANDOM = ROOT / "examples" / "random_bot.py"
LIMITS = {"memory_mb": 384, "cpu_seconds": 20, "processes": 48, "file_size_mb": 8, "tmp_mb": 4}


def test_a_machine_without_the_sandbox_refuses_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "TOOLS", {"bwrap-not-installed": "bubblewrap"})
    result = CliRunner().invoke(app, ["league", "run", str(league_file(tmp_path, None))])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "cannot run the league's bots in a sandbox: the sandbox needs bwrap-not-installed: install it "
        "(apt-get install bubblewrap) (--no-sandbox runs them without one)"
    ]
    assert not (tmp_path / "logs").exists()


def test_no_sandbox_runs_the_league_without_one_and_says_so(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, None), "--no-sandbox")
    played(result)
    assert "--no-sandbox: the league's bots run WITHOUT a sandbox" in result.stderr
    assert "serving on port" in (tmp_path / "logs" / "random.log").read_text()


@pytest.fixture
def sandbox_tools() -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")


def sandbox_processes(referee: int) -> list[int]:
    """Processes running as a sandbox user of the referee process ``referee``: after a league, there must be none.

    Each referee process draws its users from a block of its own (by its process id), so leagues that other
    tests or test workers run at the same time are not counted.
    """
    block = UID_BASE + (referee % 100_000) * 1000
    found = []
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        uid = next((line.split()[1] for line in status.splitlines() if line.startswith("Uid:")), "0")
        if block <= int(uid) < block + 1000 and "State:\tZ" not in status:
            found.append(int(entry.name))
    return found


def league_file(folder: Path, hostile: str | None, **limits: int) -> Path:
    """A two-seat league: the hostile bot (if any) against the random bot, both sandboxed."""
    bots = {"random": f"python {RANDOM}"}
    if hostile is not None:
        bots["hostile"] = f"python {HOSTILE} {hostile}"
    else:
        bots["random-2"] = f"python {RANDOM}"
    lines = ['name = "sandboxed"', "players = 2", "games_per_table = 2", "seed = 1", "concurrency = 2"]
    lines += ['database = "league.sqlite"', "[ruleset]", 'preset = "amigo"']
    lines += ["[time]", "decision_ms = 300", "bank_ms = 300", "max_faults = 1000", "[sandbox]", "enabled = true"]
    lines += [f"{key} = {value}" for key, value in (LIMITS | limits).items()]
    lines += ["[bots]", *(f"{name} = {command!r}" for name, command in bots.items())]
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run_league(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``rage league run`` of the league file ``path``, its bots' logs in ``logs`` beside it."""
    logs = [] if "--logs" in options else ["--logs", str(path.parent / "logs")]
    command = [sys.executable, "-m", "rage_referee", "league", "run", str(path), *logs, *options]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) as league:
        try:
            stdout, stderr = league.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            league.kill()
            raise
    deadline = time.monotonic() + 10
    while sandbox_processes(league.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not sandbox_processes(league.pid), "a sandboxed bot left processes behind"
    return subprocess.CompletedProcess(command, league.returncode, stdout, stderr)


def played(result: subprocess.CompletedProcess[str]) -> None:
    """The league ran to its end: both games stored and rated."""
    assert result.returncode == 0, result.stderr[-2000:]
    assert "sandboxed: 2 games" in result.stdout


def faults(result: subprocess.CompletedProcess[str]) -> set[str]:
    """The kinds of fault the league recorded for the hostile bot."""
    return set(re.findall(r"game \d+: hostile (\w+) \(", result.stderr))


def hostile_log(folder: Path) -> list[str]:
    lines = (folder / "logs" / "hostile.log").read_text().splitlines()
    return [line for line in lines if ": blocked" in line or "ESCAPED" in line or "refused" in line]


@pytest.mark.usefixtures("sandbox_tools")
def test_plain_bots_play_a_league_in_the_sandbox(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, None))
    played(result)
    assert "sandbox: bubblewrap" in result.stdout
    assert "serving on unix:/run/rage/bot.sock" in (tmp_path / "logs" / "random.log").read_text()


@pytest.fixture
def listeners() -> Iterator[tuple[list[str], list[bytes]]]:
    """Two TCP ports on 127.0.0.1 (the referee's, another bot's) that note whatever reaches them."""
    received: list[bytes] = []
    servers = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]

    def accept(server: socket.socket) -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                received.append(conn.recv(100) or b"(connected)")

    for server in servers:
        threading.Thread(target=accept, args=(server,), daemon=True).start()
    yield [f"127.0.0.1:{server.getsockname()[1]}" for server in servers], received
    for server in servers:
        server.close()


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_tcp_connections_are_refused(tmp_path: Path, listeners: tuple[list[str], list[bytes]]) -> None:
    targets, received = listeners
    result = run_league(league_file(tmp_path, f"connect {' '.join(targets)} 1.1.1.1:53 10.0.0.1:50050"))
    played(result)
    log = hostile_log(tmp_path)
    assert len(log) == 4 and all("blocked" in line for line in log), log
    assert received == []


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_the_database_tokens_and_other_bots_are_out_of_sight(tmp_path: Path) -> None:
    (tmp_path / "tokens.txt").write_text("admin-token-secret")
    other = tmp_path / "logs" / "random.work"
    targets = [
        tmp_path / "league.sqlite",
        tmp_path / "tokens.txt",
        other,
        tmp_path,
        Path("/etc/shadow"),
        ROOT / "referee",
    ]
    result = run_league(league_file(tmp_path, "read " + " ".join(map(str, targets))))
    played(result)
    log = hostile_log(tmp_path)
    assert len(log) == len(targets) and all("blocked" in line for line in log), log


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_writes_outside_its_own_directory_fail(tmp_path: Path) -> None:
    escape = f"rage-escape-{uuid.uuid4().hex}"
    outside = [tmp_path / escape, HOSTILE.parent / escape, Path("/etc") / escape, Path("/usr") / escape]
    private = [Path("/tmp") / escape, Path("/bot") / escape]  # its own /tmp and work directory
    result = run_league(league_file(tmp_path, "write " + " ".join(map(str, outside + private))))
    played(result)
    log = (tmp_path / "logs" / "hostile.log").read_text().splitlines()
    for path in outside:
        assert f"write {path}: blocked" in "\n".join(log), log
    for path in private:
        assert f"write {path}: written" in log, log
    assert not any(path.exists() for path in [*outside, *private])
    assert not (tmp_path / "logs" / "hostile.work").exists()  # its work directory is held in memory


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_memory_past_the_limit_is_refused_and_the_crash_is_a_fault(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, "memory"))
    played(result)
    refused = [line for line in hostile_log(tmp_path) if line.startswith("memory: refused after")]
    assert refused and all(int(line.split()[3]) < LIMITS["memory_mb"] for line in refused), refused
    assert faults(result) >= {"crashed"}


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_fork_bomb_stops_at_the_process_limit(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, "fork"))
    played(result)
    refused = [line for line in hostile_log(tmp_path) if line.startswith("fork: refused after")]
    assert refused and all(int(line.split()[3]) < LIMITS["processes"] for line in refused), refused


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_huge_file_stops_at_the_file_size_limit(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, "hugefile", tmp_mb=4 * LIMITS["file_size_mb"]))
    played(result)
    refused = [line for line in hostile_log(tmp_path) if line.startswith("hugefile: refused after")]
    assert refused and all(int(line.split()[3]) <= LIMITS["file_size_mb"] for line in refused), refused
    assert all("File too large" in line for line in refused), refused


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_the_private_tmp_fills_up_at_its_size(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, "hugefile /tmp/huge"))
    played(result)
    refused = [line for line in hostile_log(tmp_path) if line.startswith("hugefile: refused after")]
    assert refused and all(int(line.split()[3]) <= LIMITS["tmp_mb"] for line in refused), refused


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_child_left_behind_is_killed_with_the_bot(tmp_path: Path) -> None:
    result = run_league(league_file(tmp_path, "orphan"))
    played(result)
    assert any("orphan" in line for line in (tmp_path / "logs" / "hostile.log").read_text().splitlines())


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if entry.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


@pytest.mark.usefixtures("sandbox_tools")
def test_a_bot_stopped_while_bubblewrap_sets_it_up_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bubblewrap's init in the bot's PID namespace ends with bubblewrap only once it is set up: a launch
    stopped before (a league refusing another bot as this one starts) must end it all the same."""
    box = sandbox.Sandbox.available(sandbox.SandboxSettings(enabled=True, **LIMITS))
    code = tmp_path / "bot"
    code.mkdir(mode=0o755)
    shutil.copy(RANDOM, code / "random_bot.py")
    gate = code / "gate"  # holds bubblewrap's init before it binds itself to bubblewrap, and the bot as root
    os.mkfifo(gate, 0o666)
    unheld = sandbox.Jail.argv

    def held(jail: sandbox.Jail, command: list[str], cpu_rlimit: bool = True) -> list[str]:
        argv = unheld(jail, command, cpu_rlimit)
        setup, bot_user = argv.index(jail.sandbox.tools["bwrap"]) + 1, argv.index(jail.sandbox.tools["setpriv"])
        hold = ["/bin/sh", "-c", f'read _ < {gate}; exec "$@"', "sh"]
        return [*argv[:setup], "--lock-file", str(gate), *argv[setup:bot_user], *hold, *argv[bot_user:]]

    monkeypatch.setattr(sandbox.Jail, "argv", held)
    bot = BotProcess(f"python {code / 'random_bot.py'}", tmp_path / "bot.log", sandbox=box)

    async def stopped_while_held() -> list[int]:
        start = asyncio.create_task(bot.start())
        deadline = time.monotonic() + 20
        while not (inner := children(bot.process.pid) if bot.process else []) or not children(inner[0]):
            assert time.monotonic() < deadline, "bubblewrap did not reach the gate"
            await asyncio.sleep(0.02)
        waiting = [*inner, *children(inner[0])]  # its init, and the bot to be
        start.cancel()  # as when another bot's start fails
        with contextlib.suppress(asyncio.CancelledError):
            await start
        return waiting

    launched = asyncio.run(stopped_while_held())
    try:
        deadline = time.monotonic() + 2
        while any(map(alive, launched)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(alive, launched)), "a bot stopped while bubblewrap set it up left processes behind"
    finally:
        for pid in filter(alive, launched):  # its init: the rest of its PID namespace ends with it
            os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_bench_protocol_measures_sandboxed_bots_beside_plain_ones() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rage_referee", "bench", "protocol", "--matches", "1", "--sandbox", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    (figure,) = json.loads(result.stdout)
    for side in ("grpc", "in_process", "unix", "sandboxed"):
        assert figure[side]["decisions"] > 0
    assert figure["sandboxed_median_decision_ms"] > 0 and figure["unix_median_decision_ms"] > 0


def league_beside_its_bot(folder: Path, database: str, hostile: str) -> Path:
    """A league whose file, logs and database share a folder with a bot's code."""
    folder.chmod(0o755)  # a bot runs as a user of its own: its code must be readable by all
    shutil.copy(HOSTILE, folder / "hostile.py")
    path = league_file(folder, hostile)
    text = path.read_text().replace(str(HOSTILE), str(folder / "hostile.py"))
    path.write_text(text.replace('database = "league.sqlite"', f'database = {database!r}\nrecords = "records"'))
    return path


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_the_logs_and_database_inside_a_bots_folder_are_covered(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    targets = [
        tmp_path / "data" / "league.sqlite",
        tmp_path / "data",
        tmp_path / "logs",
        tmp_path / "logs" / "random.log",
        tmp_path / "records",  # made when the first duplicate set is complete: covered before
    ]
    result = run_league(league_beside_its_bot(tmp_path, "data/league.sqlite", "read " + " ".join(map(str, targets))))
    played(result)
    log = hostile_log(tmp_path)
    assert len(log) == len(targets) and all("blocked" in line or "ESCAPED: []" in line for line in log), log


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_bot_in_the_databases_own_folder_is_refused(tmp_path: Path) -> None:
    result = run_league(league_beside_its_bot(tmp_path, "league.sqlite", "read /"))
    assert result.returncode == 1
    assert "holds a bot's code and the league's database or logs" in result.stderr
    assert "read /" not in (tmp_path / "logs" / "hostile.log").read_text()  # it never ran


def submission(folder: Path, build: str = "python -m compileall -q .") -> Path:
    """The random example bot as a submission folder with its manifest."""
    folder.mkdir(mode=0o755)
    shutil.copy(RANDOM, folder / "bot.py")
    manifest = f'name = "rnd"\nruntime = "python"\nrun = "python bot.py"\nbuild = {json.dumps(build)}\n'
    (folder / "rage-bot.toml").write_text(manifest)
    return folder


def submitted_league(league_dir: Path, **bots: str) -> Path:
    league_dir.chmod(0o755)
    lines = ['name = "submitted"', "players = 2", "games_per_table = 2", "seed = 1", 'database = "data/league.sqlite"']
    lines += ["[ruleset]", 'preset = "amigo"', "[sandbox]", "enabled = true", "[bots]"]
    lines += [f"{name} = {target!r}" for name, target in bots.items()]
    path = league_dir / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_submitted_bots_play_in_the_sandbox_and_the_league_keeps_their_versions(tmp_path: Path) -> None:
    bot = submission(tmp_path / "bot")
    with tarfile.open(tmp_path / "bot.tar.gz", "w:gz") as tar:
        tar.add(bot, "bot")
    path = submitted_league(tmp_path, folder="submission:bot", archive="submission:bot.tar.gz")
    result = run_league(path)
    assert result.returncode == 0, result.stderr[-2000:]
    versions = re.findall(r"(folder|archive): submitted rnd, version ([0-9a-f]{16})", result.stdout)
    assert len(versions) == 2 and versions[0][1] == versions[1][1]  # the same files: the same version
    assert "submitted: 2 games" in result.stdout
    assert "serving on unix:/run/rage/bot.sock" in (tmp_path / "logs" / "folder.log").read_text()
    shown = f"submitted bots' versions: archive {versions[0][1]}, folder {versions[0][1]}"
    assert shown in result.stdout
    ratings = subprocess.run(
        [sys.executable, "-m", "rage_referee", "ratings", "--league", str(path)], capture_output=True, text=True
    )
    assert ratings.returncode == 0 and shown in ratings.stdout, ratings.stderr
    (bot / "bot.py").write_text((bot / "bot.py").read_text() + "\n# a new version\n")
    done = run_league(path)  # with nothing left to play no bot is built: the stored versions stand
    assert done.returncode == 0 and "nothing left to play" in done.stdout and "version" not in done.stderr
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "league.sqlite")) as database, database:
        database.execute('DELETE FROM games WHERE "index" = 1')  # one game left: the bots are built to play it
    changed = run_league(path)
    pinned = '(versions: folder "sha256:'  # the league is pinned to its versions: the bot's is named
    assert changed.returncode == 2 and pinned in changed.stderr, changed.stderr
    assert "submitted rnd, version" in changed.stdout


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_build_has_no_network_and_its_failure_is_one_line(tmp_path: Path) -> None:
    fetch = "python -c \"import socket; socket.create_connection(('1.1.1.1', 443), timeout=2)\""
    submission(tmp_path / "bot", build=fetch)
    result = run_league(submitted_league(tmp_path, a="submission:bot", b=f"python {RANDOM}"))
    assert result.returncode == 1
    (line,) = [line for line in result.stderr.splitlines() if line.strip() and "made it for the database" not in line]
    assert line.startswith("bot a: the build of ") and "Network is unreachable" in line


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_rage_bot_build_reports_the_version_and_the_build_log(tmp_path: Path) -> None:
    submission(tmp_path / "bot", build="python -c \"print('[red]compiled'); open('out.txt', 'w').write('x')\"")
    command = [sys.executable, "-m", "rage_referee", "bot", "build", str(tmp_path / "bot")]
    result = subprocess.run([*command, "--versions", str(tmp_path / "v")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert re.search(r"rnd version [0-9a-f]{16}", result.stdout) and "[red]compiled" in result.stdout
    assert "build: built" in result.stdout
    (built,) = (tmp_path / "v" / "rnd").glob("*/out.txt")
    assert built.read_text() == "x"


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_flood_of_output_is_cut_at_the_log_cap_as_outside_the_sandbox_and_the_bot_plays_on(tmp_path: Path) -> None:
    """The bot writes to the referee's pipe, not to its log: neither its file size limit nor a log already past it
    (earlier runs' sections) ends it."""
    (tmp_path / "logs").mkdir()
    with (tmp_path / "logs" / "hostile.log").open("wb") as old:
        old.truncate((LIMITS["file_size_mb"] + 1) * 1024 * 1024)
    result = run_league(league_file(tmp_path, "flood 40"))
    played(result)
    assert not faults(result), result.stderr[-2000:]
    log = tmp_path / "logs" / "hostile.log"
    runs = log.read_bytes()[(LIMITS["file_size_mb"] + 1) * 1024 * 1024 :]
    assert len(runs) <= MAX_BOT_LOG_BYTES + 4096
    assert runs.splitlines()[-1].startswith(b"=== the referee cut ")


def league_of_games(folder: Path, hostile: str, games: int, decision_ms: int, **limits: int) -> Path:
    """:func:`league_file` with ``games`` games at its table, one at a time, ``decision_ms`` a decision."""
    path = league_file(folder, hostile, **limits)
    text = path.read_text().replace("games_per_table = 2", f"games_per_table = {games}")
    text = text.replace("decision_ms = 300", f"decision_ms = {decision_ms}")
    path.write_text(text.replace("concurrency = 2", "concurrency = 1"))
    return path


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_the_cpu_limit_is_per_game_not_over_the_bots_life(tmp_path: Path) -> None:
    """0.6 s of CPU time in each of 4 games, under a limit of 1 s: every game within it (over the process's
    life it was ended in the second game, and forfeited)."""
    result = run_league(league_of_games(tmp_path, "burn 600", 4, 5000, cpu_seconds=1))
    assert result.returncode == 0, result.stderr[-2000:]
    assert "sandboxed: 4 games" in result.stdout
    assert not faults(result), result.stderr[-2000:]
    assert (tmp_path / "logs" / "hostile.log").read_text().count("serving on") == 1


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_a_bot_past_its_cpu_limit_is_told_which_limit_ended_it(tmp_path: Path) -> None:
    """A bot spinning in its first decision, given 60 s for it: its CPU limit of 1 s ends it first."""
    result = run_league(league_of_games(tmp_path, "spin", 1, 60_000, cpu_seconds=1))
    assert result.returncode == 0, result.stderr[-2000:]
    crashed = [line for line in result.stderr.splitlines() if "hostile crashed" in line]
    assert crashed and "ended by its cpu limit of 1 s per game" in crashed[0], result.stderr[-2000:]
    assert "=== the referee ends the bot: it passed its cpu limit of 1 s per game" in hostile_log_text(tmp_path)


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_the_memory_limit_holds_for_the_bot_with_all_its_processes(tmp_path: Path) -> None:
    """8 processes of 96 MiB each, every one under the 384 MiB a process may address: together they hold no
    more than the bot's 384 MiB."""
    if not cgroups.available():
        pytest.skip("this machine gives the referee no cgroup: memory_mb bounds each process")
    path = league_file(tmp_path, "spread 8 96", processes=256)  # room for its 8 and gRPC's threads: memory is tested
    path.write_text(path.read_text().replace("concurrency = 2", 'concurrency = 2\nisolation = "league"'))  # one process
    result = run_league(path)  # plays both games, its children spreading memory while it lives
    played(result)
    alive = re.findall(r"^spread: (\d+) of 8 processes holding 96 MiB alive$", hostile_log_text(tmp_path), re.M)
    assert alive and int(alive[0]) * 96 <= LIMITS["memory_mb"], alive  # "no more than" the bot's limit
    assert "ended by its memory limit of 384 MiB per bot" in result.stderr or "crashed" not in result.stderr


def hostile_log_text(folder: Path) -> str:
    return (folder / "logs" / "hostile.log").read_text()


@pytest.mark.parametrize("cgroup", [True, False])
def test_the_sandbox_line_says_what_the_memory_limit_bounds(monkeypatch: pytest.MonkeyPatch, cgroup: bool) -> None:
    monkeypatch.setattr(cgroups, "available", lambda: cgroup)
    line = sandbox.Sandbox(sandbox.SandboxSettings(enabled=True, memory_mb=512, cpu_seconds=30), {}).describe()
    bound = "512 MiB memory per bot (a cgroup)" if cgroup else "512 MiB address space per process (no cgroup)"
    assert bound in line and "30 s CPU per game" in line


MEMO = """
import contextlib, ctypes, platform, sys
from pathlib import Path

keyctl, add_key = {"x86_64": (250, 248), "aarch64": (219, 217)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
persistent = libc.syscall(keyctl, 22, -1, -3)  # KEYCTL_GET_PERSISTENT, into the session keyring
places = {"user": -4, "user-session": -5, **({"persistent": persistent} if persistent > 0 else {})}
files = [Path("/bot/memo"), Path("/tmp/memo"), Path("/dev/shm/memo")]
if sys.argv[1] == "keep":
    for ring in places.values():
        libc.syscall(add_key, b"user", b"memo", b"hands", 5, ring)
    for file in files:
        with contextlib.suppress(OSError):  # /dev/shm is not the bot's to write
            file.write_text("hands")
else:
    found = [name for name, ring in places.items() if libc.syscall(keyctl, 10, ring, b"user", b"memo", 0) > 0]
    found += [str(file) for file in files if file.exists()]
    print("found:", ",".join(found))
"""


@pytest.mark.usefixtures("sandbox_tools")
def test_a_launch_finds_nothing_an_earlier_launch_of_the_same_user_kept(tmp_path: Path) -> None:
    """Users are reused (a block of 1,000 per referee): the kernel keeps a user's keyrings after its last
    process ends, so the end of a launch empties them; its files were in memory and went with it."""
    require(platform.machine() in ("x86_64", "aarch64"), "x86_64 or aarch64 (the keyctl call's number)", "")
    tmp_path.chmod(0o755)
    (tmp_path / "memo.py").write_text(MEMO)
    box = sandbox.Sandbox.available(sandbox.SandboxSettings(enabled=True))
    user = None
    outputs = []
    for step in ("keep", "find"):
        jail = box.jail(tmp_path / "work")
        if user is None:
            user = jail.uid
        else:  # the same user again, as after 1,000 launches
            with sandbox._users_lock:
                sandbox._in_use.discard(jail.uid)
                sandbox._in_use.add(user)
            jail.uid = user
        try:
            argv = jail.argv([sys.executable, str(tmp_path / "memo.py"), step])
            done = subprocess.run(argv, capture_output=True, text=True, env=jail.environment(), timeout=60, check=False)
        finally:
            jail.end()
        assert done.returncode == 0, done.stderr[-1000:]
        outputs.append(done.stdout.strip())
    assert outputs == ["", "found:"]
