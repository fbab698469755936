"""What one sandboxed launch may take from the host, run in the jail directly (no league around it)."""

from __future__ import annotations

import asyncio
import errno
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from rage_referee import sandbox
from rage_referee.cli import app
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.submissions import SandboxPolicy
from rage_referee.sandbox import OPEN_FILES, TOOLS, Jail, Sandbox, SandboxError, SandboxSettings
from typer.testing import CliRunner

from tests.conftest import require, require_command

SETTINGS = SandboxSettings(enabled=True, memory_mb=384, cpu_seconds=20, processes=48, file_size_mb=1, tmp_mb=4)


@pytest.fixture
def box() -> Sandbox:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    return Sandbox.available(SETTINGS)


def in_jail(box: Sandbox, work: Path, code: str) -> str:
    """What ``python -c code`` prints, run in one sandboxed launch working in ``work``."""
    jail = box.jail(work)
    try:
        argv = jail.argv([sys.executable, "-c", code])
        result = subprocess.run(argv, env=jail.environment(), capture_output=True, text=True, timeout=60, check=False)
    finally:
        jail.end()
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_a_bot_opens_a_bounded_number_of_files(box: Sandbox, tmp_path: Path) -> None:
    opened = in_jail(
        box,
        tmp_path / "work",
        "import os, resource\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))\n"
        "fds = []\n"
        "try:\n"
        "    while len(fds) < 100_000:\n"
        "        fds.append(os.open('/dev/null', os.O_RDONLY))\n"
        "except OSError:\n"
        "    pass\n"
        "print(len(fds))",
    )
    assert int(opened) < OPEN_FILES


def test_a_user_still_running_is_never_given_to_another_launch(box: Sandbox, tmp_path: Path) -> None:
    running = box.jail(tmp_path / "running")
    try:
        for _ in range(999):  # as many launches made and ended since
            next(sandbox._uids)
        later = box.jail(tmp_path / "later")
        later.end()
    finally:
        running.end()
    assert later.uid != running.uid  # else its end would kill the running bot, and it could signal it


def test_a_bot_fills_its_work_folder_only_up_to_its_size(box: Sandbox, tmp_path: Path) -> None:
    written = in_jail(
        box,
        tmp_path / "work",
        "import os\n"
        "total = 0\n"
        "try:\n"
        "    for n in range(64):\n"
        "        with open(f'/bot/part-{n}', 'wb') as part:\n"
        "            part.write(b'x' * (1024 * 1024 - 1))\n"
        "        total += 1\n"
        "except OSError:\n"
        "    pass\n"
        "print(total)",
    )
    assert int(written) <= SETTINGS.tmp_mb  # many files each under file_size_mb took the host's disk
    assert not any((tmp_path / "work").glob("part-*"))


def test_a_bot_writes_next_to_nothing_beside_its_socket(box: Sandbox, tmp_path: Path) -> None:
    written = in_jail(
        box,
        tmp_path / "work",
        "total = 0\n"
        "try:\n"
        "    for n in range(64):\n"
        "        with open(f'/run/rage/part-{n}', 'wb') as part:\n"
        "            part.write(b'x' * (1024 * 1024 - 1))\n"
        "        total += 1\n"
        "except OSError:\n"
        "    pass\n"
        "print(total)",
    )
    assert int(written) == 0  # the socket's folder is on the host's /tmp: files there filled its disk


def test_a_bot_whose_program_lies_in_the_hosts_tmp_itself_is_refused(tmp_path: Path) -> None:
    program = Path("/tmp") / f"rage-bot-{os.getpid()}-{tmp_path.name}.py"
    program.write_text("")
    jail = Jail(Sandbox(SETTINGS, dict.fromkeys(TOOLS, "/bin/true")), 0, tmp_path / "socket", None)  # a bot's
    try:
        with pytest.raises(SandboxError, match=r"^/tmp holds a bot's program and is shared with every user"):
            jail.argv([sys.executable, str(program)])  # it showed the bot every file in the host's /tmp
    finally:
        program.unlink()


@pytest.mark.parametrize("setting", ["tmp_mb", "file_size_mb", "cpu_seconds"])
def test_a_sandbox_limit_out_of_range_is_refused_naming_it(tmp_path: Path, setting: str) -> None:
    random_bot = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
    file = tmp_path / "league.toml"
    lines = ['name = "limits"', "players = 2", "seed = 1", 'database = "league.sqlite"', '[ruleset]\npreset = "amigo"']
    lines += ["[sandbox]", "enabled = true", f"{setting} = 9223372036854775807"]
    lines += ["[bots]", f'a = "python {random_bot}"', f'b = "python {random_bot}"']
    file.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["league", "run", str(file)])
    assert result.exit_code == 2, result.output  # it was the machine's refusal of the sandbox, or ran on
    assert f"sandbox.{setting}: Input should be less than or equal to" in " ".join(result.output.split())


def test_a_bot_holds_no_capability_and_may_gain_none(box: Sandbox, tmp_path: Path) -> None:
    status = in_jail(box, tmp_path / "work", "print(open('/proc/self/status').read())")
    held = dict(line.split(":\t") for line in status.splitlines() if line.startswith("Cap"))
    assert held == dict.fromkeys(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), "0000000000000000")


KILLED = (
    "import json, os, signal, sys\n"
    "from pathlib import Path\n"
    "from rage_referee.sandbox import Sandbox, SandboxSettings\n"
    "jail = Sandbox(SandboxSettings(enabled=True), json.loads(sys.argv[2])).jail(Path(sys.argv[1]))\n"
    "print(jail.socket_dir, flush=True)\n"
    "os.kill(os.getpid(), signal.SIGKILL)\n"
)


def test_the_socket_folder_of_a_killed_referee_is_removed_when_the_next_starts(box: Sandbox, tmp_path: Path) -> None:
    argv = [sys.executable, "-c", KILLED, str(tmp_path / "work"), json.dumps(box.tools)]
    killed = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    left = Path(killed.stdout.strip())
    live = box.jail(tmp_path / "live")
    try:
        assert killed.returncode == -9 and left.is_mount(), killed.stderr[-2000:]
        Sandbox.available(SETTINGS)
        assert not left.exists()
        assert live.socket_dir.is_mount()  # a running referee's launch keeps its own
    finally:
        live.end()
        if left.is_mount():
            subprocess.run(["umount", "--lazy", str(left)], check=False)
            left.rmdir()


READ = (
    "import sys\n"
    "for path in sys.argv[1:]:\n"
    "    try:\n"
    "        print(open(path, 'rb').read(15))\n"
    "    except OSError as error:\n"
    "        print(type(error).__name__)\n"
)


def test_what_a_hosted_referee_keeps_is_covered_where_the_sandbox_shows_the_system(
    box: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = tmp_path / "opt"  # as if the contest were kept under /opt, which every bot is shown
    shown_system = sandbox._system_paths()
    monkeypatch.setattr(sandbox, "_system_paths", lambda: [*shown_system, system])
    (system / "contest").mkdir(parents=True)
    (system / "tool.txt").write_text("a system file")
    system.chmod(0o755)
    (system / "contest").chmod(0o755)
    code = system / "contest" / "submissions" / "bot" / "v1"
    code.mkdir(parents=True)
    for folder in (code, *code.parents[:3]):
        folder.chmod(0o755)
    (code / "bot.py").write_text(READ)
    contest = Contest.open(
        f"sqlite:///{system / 'contest' / 'contest.sqlite'}",
        "admin-token-0123456789",
        "entry-token-0123456789",
        AllowList.parse(LOOPBACK),
        system / "contest" / "submissions",
        SandboxPolicy(box),
    )
    try:
        launched = contest.submissions.policy.for_league(SETTINGS)
        assert launched is not None
        jail = launched.jail(tmp_path / "work", code_dir=code)
        try:
            files = [system / "tool.txt", system / "contest" / "contest.sqlite", code / "bot.py"]
            argv = jail.argv([sys.executable, str(code / "bot.py"), *map(str, files)])
            result = subprocess.run(argv, env=jail.environment(), capture_output=True, text=True, timeout=60)
        finally:
            jail.end()
    finally:
        contest.close()
    assert result.returncode == 0, result.stderr[-2000:]
    system_file, database, own_code = result.stdout.splitlines()
    assert (system_file, own_code) == ("b'a system file'", repr(READ[:15].encode()))
    assert database == "FileNotFoundError"  # the database, deal keys and all, is covered


def test_the_referee_follows_no_link_a_bot_leaves_for_its_socket(box: Sandbox, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.sock"  # any socket of the host's: another bot's, a system service's
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(elsewhere))
        listening.listen()
        jail = box.jail(tmp_path / "work")
        try:
            argv = jail.argv([sys.executable, "-c", f"import os; os.symlink({str(elsewhere)!r}, '/run/rage/bot.sock')"])
            linked = subprocess.run(argv, env=jail.environment(), capture_output=True, text=True, timeout=60)
            assert linked.returncode == 0, linked.stderr[-2000:]
            with socket.socket(socket.AF_UNIX) as referee, pytest.raises(OSError) as refused:
                referee.connect(jail.address.removeprefix("unix:"))
        finally:
            jail.end()
    assert refused.value.errno == errno.ELOOP


def test_a_bot_sees_a_host_name_of_its_own(box: Sandbox, tmp_path: Path) -> None:
    assert in_jail(box, tmp_path / "work", "import socket; print(socket.gethostname())") == "rage-bot"
    assert socket.gethostname() != "rage-bot"


def test_a_launch_the_sandbox_refuses_takes_no_user_and_leaves_no_socket_folder(box: Sandbox, tmp_path: Path) -> None:
    """The jail was made (a user taken, a socket folder mounted) before its command was refused, and kept."""
    from rage_referee.seats.process import BotProcess

    program = Path("/tmp") / f"rage-bot-{os.getpid()}-{tmp_path.name}.py"  # a program the sandbox refuses
    program.write_text("")
    bot = BotProcess(f"python {program}", tmp_path / "logs" / "refused.log", sandbox=box)
    users = set(sandbox._in_use)
    try:
        with pytest.raises(SandboxError, match="shared with every user"):
            asyncio.run(bot.start())
    finally:
        program.unlink()
    assert sandbox._in_use == users
    assert bot._jail is None and bot._log is None
