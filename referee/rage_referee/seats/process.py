"""A bot command the referee runs: launched in its own process group on a free port or Unix socket.

The command is run with ``--port N`` appended, or, when it contains ``{port}``, with N there
instead (proto/README.md, Launching); or with ``{listen}`` replaced by a Unix socket
(``unix:PATH``). A sandboxed bot always listens on a Unix socket: ``--listen unix:PATH`` is
appended when its command has no ``{listen}``. A leading ``python`` or ``python3`` runs the
referee's own interpreter, which has the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import json
import math
import os
import random
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from rage_sdk.grpc_engine import environment_for_child
from rage_sdk.server import PARENT_ENV

from ..cgroups import BotCgroup
from ..sandbox import LISTEN, Jail, MiB, Sandbox, absolute_files
from ..text import bot_text
from .errors import HandshakeError
from .log_drain import LogDrain
from .log_tail import tail_lines
from .remote import health_said, wait_healthy
from .spec import BotSpecError
from .strays import LAUNCH_ENV, descendants, end_left, end_marked, new_mark, processes, stat_fields

START_TIMEOUT = 20.0
SUBREAPER = "import ctypes, os, sys; ctypes.CDLL(None).prctl(36, 1, 0, 0, 0); os.execvp(sys.argv[1], sys.argv[1:])"
"""Run before a bot launched outside the sandbox where no cgroup holds it: the bot becomes the subreaper of
what it starts (``PR_SET_CHILD_SUBREAPER``, kept across ``exec``), so a daemon whose parent exits stays below
the bot instead of going to ``init``, and is ended with it (:func:`~.strays.descendants`)."""
CPU_WATCH = 0.1
"""Seconds between two readings of a sandboxed bot's CPU time, in its cgroup."""
NOT_FOUND = 127
"""The exit code of a command whose program was not found (a shell's, ``env``'s, an ``exec`` wrapper's)."""
SPANS_SUFFIX = ".games"
"""The suffix of a bot log's index of games (``NAME.games`` beside ``NAME.log``): :func:`spans_path`."""


@dataclass(frozen=True)
class GameSpan:
    """Where in a bot's log one game's part lies: what reached the log from its start to its end, in bytes."""

    game: int
    start: int
    end: int
    at: float
    """When the game ended (seconds since the epoch): of two spans of one game (played again), the later counts."""

    def overlaps(self, other: GameSpan) -> bool:
        return self.start < other.end and other.start < self.end


def spans_path(log_path: Path) -> Path:
    """The index of games of the log at ``log_path``: one JSON line per game the process played, written by the
    referee (never by the bot, which writes to a pipe), so a bot cannot forge where a game's part lies."""
    return log_path.with_suffix(SPANS_SUFFIX)


def read_spans(path: Path) -> Iterator[GameSpan]:
    """The spans an index of games holds (:func:`spans_path`); none when there is none, a damaged line skipped."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return
    for line in lines:
        try:
            fields = json.loads(line)
            yield GameSpan(int(fields["game"]), int(fields["start"]), int(fields["end"]), float(fields["at"]))
        except (ValueError, KeyError, TypeError):
            continue


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


_launch_ports: set[int] = set()
_launch_ports_lock = threading.Lock()
PORT_TRIES = 1000


def launch_port() -> int:
    """A port for a launch: free on every address, outside the kernel's range for outgoing connections, and
    held by no other launch of this referee.

    A bot binds its port a second or so after the referee chose it. A port the kernel hands out
    (``bind`` to port 0) is one of that range, which every ``connect`` on the machine draws from: on
    a busy machine one took a launch's port meanwhile, and the bot could not listen; and a port just
    released could be handed to a second launch starting at the same time.
    """
    with _launch_ports_lock:
        for _ in range(PORT_TRIES):
            port = _drawn_port()
            if port not in _launch_ports and _free_everywhere(port):
                _launch_ports.add(port)
                return port
    raise HandshakeError(f"no free port for a bot in {PORT_TRIES} tries")


def _drawn_port() -> int:
    """A port outside the kernel's range for outgoing connections, at random."""
    return random.choice(_listening_ports())


@functools.cache
def _listening_ports() -> list[int]:
    """The unprivileged ports the kernel never gives an outgoing connection (the ports it gives, where it
    does not say which)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        return [free_port()]
    return [*range(1024, low), *range(high + 1, 65536)] or [free_port()]


def _free_everywhere(port: int) -> bool:
    """Whether ``port`` can be bound on every address, as a bot listening on ``[::]`` binds it."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            probe.bind(("::", port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return False
        try:  # no IPv6 here
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                probe.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def release_port(port: int) -> None:
    """The launch given ``port`` (:func:`launch_port`) is over: the port may be handed out again."""
    with _launch_ports_lock:
        _launch_ports.discard(port)


def stop_group(process: subprocess.Popen[bytes], grace: float) -> None:
    """End a process started in its own group, and every process left in that group: SIGTERM, then
    SIGKILL to whatever remains after ``grace`` seconds.

    The group is ended even when its leader has exited already (a crashed bot), or exits at once
    on SIGTERM: the children it left behind are ended too.
    """
    group = process.pid
    if not _signal_group(group, signal.SIGTERM):
        process.poll()
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        process.poll()  # reaps the leader, which would count as a member until then
        if not _group_running(group):
            process.wait()  # the leader has exited too: reaped, its exit code kept
            return
        time.sleep(0.02)
    _signal_group(group, signal.SIGKILL)
    process.wait()


def _signal_group(group: int, signum: int) -> bool:
    """Send ``signum`` to the process group ``group``; whether any process was in it."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member that changed its rights: only the leader is waited for
    return True


def _group_running(group: int) -> bool:
    """Whether a process of the group ``group`` has not exited yet: one that has (a zombie its new parent
    has not reaped, such as bubblewrap's init once bubblewrap is gone) holds nothing, and is not waited for."""
    if not _signal_group(group, 0):
        return False
    if not Path("/proc").is_dir():
        return True
    return any(_runs_in(pid, group) for pid in processes())


def _runs_in(pid: int, group: int) -> bool:
    """Whether the process ``pid`` is in the group ``group`` and has not exited."""
    try:
        state, _parent, member_of = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:3]
    except (OSError, IndexError, ValueError):
        return False
    return member_of == str(group) and state not in ("Z", "X")


def _cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system), or 0 when it is gone."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if len(fields) > 12 else 0.0


def missing_program(argv: list[str], environment: Mapping[str, str], cwd: Path | None) -> str | None:
    """Why the program of ``argv`` cannot be run, when it is a path that does not exist (from ``cwd``) or a
    name on no folder of ``environment``'s ``PATH``; None when it is there."""
    program = argv[0] if argv else ""
    if not program:
        return None
    if os.sep in program:
        return None if (Path(cwd or ".") / program).exists() else f"its program {program} does not exist"
    if shutil.which(program, path=os.pathsep.join(os.get_exec_path(dict(environment)))) is None:
        return f"its program {program} was not found on PATH"
    return None


def exit_text(code: int) -> str:
    """``code 3``; ``code 127 (command not found)``."""
    return f"code {code}" + (" (command not found)" if code == NOT_FOUND else "")


def launch_header(command: str) -> str:
    """The line the referee writes to a bot's log before each launch: a new section per run (and relaunch)."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"\n=== {when}: the referee (pid {os.getpid()}) launches {command}\n"


def ending(code: int) -> str:
    """How a process with exit status ``code`` ended, as a fault says it: ``exited with code 3``, or ``was ended
    by signal 9 (SIGKILL)`` (a negative status: the signal's number)."""
    if code >= 0:
        return f"exited with code {code}"
    try:
        name = f" ({signal.Signals(-code).name})"
    except ValueError:
        name = ""
    return f"was ended by signal {-code}{name}"


@dataclass
class BotProcess:
    """A bot command the referee runs: its own process group, stdout and stderr drained into a log file
    (at most :data:`~rage_referee.limits.MAX_BOT_LOG_BYTES` a run, :class:`~.log_drain.LogDrain`)."""

    command: str
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    port: int = 0
    sandbox: Sandbox | None = None
    """Run in this sandbox (a work directory of its own, in memory); none: with the referee's rights."""
    code_dir: Path | None = None
    """A submitted bot's own folder: where it starts, and what its relative paths mean."""
    log_name: str | None = None
    """How messages name its log; none: by its path (a submitted bot's callers are entrants: not the
    referee's paths)."""
    folder: Path | None = None
    """Where the command's relative paths are read from (a league file's folder): it starts there, or in the
    sandbox its files are named from there; none: the current folder."""
    _log: IO[bytes] | None = field(default=None, repr=False)
    _drain: LogDrain | None = field(default=None, repr=False)
    _launched_at: int = field(default=0, repr=False)
    """Where in the log the latest launch's section starts (after its header)."""
    first_launched_at: int | None = field(default=None, init=False)
    """Where in the log the first launch's section starts (after its header): what this run of the
    referee had it write, relaunches included, comes after it; ``None`` before the first launch."""
    _jail: Jail | None = field(default=None, repr=False)
    _socket_dir: Path | None = field(default=None, repr=False)
    _mark: str | None = field(default=None, repr=False)
    """The latest launch's mark (:mod:`.strays`), outside the sandbox."""
    _cgroup: BotCgroup | None = field(default=None, repr=False)
    """The latest launch's cgroup (:mod:`~rage_referee.cgroups`), where the machine gives one."""
    _watch: asyncio.Task[None] | None = field(default=None, repr=False)
    _games: int = field(default=0, repr=False)
    """Games it is playing now."""
    _allowance: float = field(default=math.inf, repr=False)
    """The CPU time its cgroup may reach before the bot is ended (:meth:`game_started`)."""
    _ended_by: str | None = field(default=None, repr=False)
    """The limit that ended the bot, until a fault has said so (:meth:`why_lost`)."""
    _memory_kills: int = field(default=0, repr=False)
    _exit_awaited: bool = field(default=False, repr=False)
    """Whether a lost connection of this launch has waited for the process to exit (once is enough: a
    process that stays up after losing its stream stays up, and each later decision would wait again)."""
    _starts: dict[int, int] = field(default_factory=dict, repr=False)
    """Where in the log each game it is playing now began, by game index."""

    def argv(self, port: int = 0, listen: str | None = None) -> list[str]:
        """The command line for ``port`` (or the Unix socket ``listen``); a leading ``python``/``python3``
        is the referee's own Python."""
        if listen is not None and "{port}" in self.command:
            raise BotSpecError(f"{self.command!r}: this bot listens on a Unix socket: use {{listen}}, not {{port}}")
        if "{listen}" in self.command:
            argv = shlex.split(self.command.replace("{listen}", listen or ""))
        elif listen is not None:
            argv = [*shlex.split(self.command), "--listen", listen]
        elif "{port}" in self.command:
            argv = shlex.split(self.command.replace("{port}", str(port)))
        else:
            argv = [*shlex.split(self.command), "--port", str(port)]
        if argv and argv[0] in ("python", "python3"):
            argv[0] = sys.executable
        return argv

    def _launch(self) -> tuple[list[str], dict[str, str], str]:
        """The command line, environment and address of a fresh launch."""
        if self.sandbox is not None:
            command = absolute_files(self.argv(listen=LISTEN), self.code_dir or self.folder)
            self._jail = self.sandbox.jail(self.log_path.with_suffix(".work"), code_dir=self.code_dir)
            argv = self._jail.argv(command, cpu_rlimit=self._cgroup is None)  # a cgroup's CPU time is watched whole
            return argv, self._jail.environment(), self._jail.address
        self._mark = new_mark()
        environment = {
            **environment_for_child(),
            PARENT_ENV: str(os.getpid()),  # SDK bots stop if the referee dies
            LAUNCH_ENV: self._mark,  # what it leaves running outside its group is ended with it
        }
        if "{listen}" in self.command:
            self._socket_dir = Path(tempfile.mkdtemp(prefix="rage-bot-"))
            address = f"unix:{self._socket_dir}/bot.sock"
            return self.argv(listen=address), environment, address
        self.port = launch_port()
        return self.argv(self.port), environment, f"127.0.0.1:{self.port}"

    async def start(self) -> str:
        """Launch on a free port (or socket) and wait until its health service says SERVING; return its address."""
        await self.stopped()
        try:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log = self.log_path.open("ab", buffering=0)
        except OSError as error:
            reason = "not a folder" if isinstance(error, FileExistsError | NotADirectoryError) else error.strerror
            raise HandshakeError(f"cannot write the bot's log {self._shown_log}: {reason or error}") from None
        memory = None if self.sandbox is None else self.sandbox.settings.memory_mb * MiB
        self._cgroup, self._ended_by, self._memory_kills = BotCgroup.make(memory), None, 0
        self._exit_awaited = False
        try:
            argv, environment, address = self._launch()
        except BaseException:  # a launch the sandbox refuses leaves no user, mount or log taken
            self.stop()
            raise
        if self._jail is not None:
            shown = f"{self.command} (in the sandbox)"
        else:  # an entrant's bot by its own command, not the referee's interpreter and paths
            shown = self.command if self._entrants_read else shlex.join(argv)
        if self.folder is not None and self.code_dir is None:
            shown += f" in {self.folder}"
        self._log.write(launch_header(shown).encode())  # a section of its own, empty if it cannot run
        self._launched_at = self._log.tell()
        if self.first_launched_at is None:
            self.first_launched_at = self._launched_at
        missing = None if self._jail is not None else missing_program(argv, environment, self.code_dir or self.folder)
        if missing is not None:
            self.stop()
            raise HandshakeError(f"cannot run {shown}: {missing}")
        if self._cgroup is not None:
            argv = [*self._cgroup.entry(), *argv]
        elif self._jail is None and sys.platform == "linux":
            argv = [sys.executable, "-c", SUBREAPER, *argv]
        drain = self._drain = LogDrain(self._log)
        drain.start()
        try:
            process = self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=drain.writer,
                stderr=drain.writer,
                start_new_session=True,
                env=environment,
                cwd=(self.code_dir or self.folder) if self._jail is None else None,
            )
        except OSError as error:
            self.stop()
            raise HandshakeError(f"cannot run {shown}: {error.strerror or error}") from None
        finally:
            drain.close_writer()
        deadline = asyncio.get_running_loop().time() + START_TIMEOUT
        try:
            while asyncio.get_running_loop().time() < deadline:
                if process.poll() is not None:
                    raise HandshakeError(
                        f"{shown} exited with {exit_text(process.returncode)} before serving; see {self._shown_log}"
                        + await self.last_words_shown()
                    )
                try:
                    if await wait_healthy(address, timeout=1.0):
                        self._budget()
                        if self._cgroup is not None and self.sandbox is not None:
                            self._watch = asyncio.get_running_loop().create_task(self._watch_cpu(self._cgroup))
                        return address
                except HandshakeError as error:
                    raise HandshakeError(f"{shown}: {error}; see {self._shown_log}") from None
            said = await health_said(address)
            raise HandshakeError(f"{shown} did not serve within {START_TIMEOUT:.0f} s ({said}); see {self._shown_log}")
        except BaseException:  # a failed or cancelled start leaves no process behind
            self.stop()
            raise

    @property
    def _shown_log(self) -> str:
        return self.log_name or str(self.log_path)

    @property
    def _entrants_read(self) -> bool:
        """Whether entrants read this bot's faults (in the records and the pages): a submitted or sandboxed bot's,
        whose log only its owner and the organizer may read."""
        return self.log_name is not None or self.sandbox is not None

    async def last_words_shown(self) -> str:
        """``: LAST WORDS`` of a bot that has exited, for its fault; nothing when entrants read its faults."""
        if self._entrants_read:
            return ""
        return f": {await self.last_words() or 'it wrote nothing'}"

    def game_started(self, game: int | None = None) -> None:
        """A game it plays begins: in the sandbox, it may use ``cpu_seconds`` of CPU time for each game it
        is playing from now on, all its processes together (in its cgroup; else each process, by an rlimit
        the referee raises where it may). The log's size now is where game ``game``'s part of it starts."""
        self._games += 1
        self._budget()
        if game is not None:
            self._caught_up()
            self._starts[game] = self._log_size()

    def game_ended(self, game: int | None = None) -> None:
        """A game it played has ended: game ``game``'s span of the log is added to its index of games
        (:func:`spans_path`). Games it plays at once have spans that overlap: each holds what the bot wrote
        for all of them meanwhile."""
        self._games = max(0, self._games - 1)
        start = self._starts.pop(game, None) if game is not None else None
        if game is None or start is None:
            return
        self._caught_up()
        span = {"game": game, "start": start, "end": self._log_size(), "at": round(time.time(), 3)}
        with contextlib.suppress(OSError), spans_path(self.log_path).open("a") as index:
            index.write(json.dumps(span) + "\n")

    def _caught_up(self) -> None:
        """Wait until what the bot has written so far is in its log (its drain, a thread, may lag behind)."""
        if self._drain is not None:
            self._drain.catch_up()

    def _log_size(self) -> int:
        """How many bytes its log holds now (0 when it cannot be read)."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def _budget(self) -> None:
        """Give the bot :meth:`game_started`'s CPU time, counted from what it has used so far."""
        if self.sandbox is None or not self.running:
            return
        assert self.process is not None
        budget = self.sandbox.settings.cpu_seconds * max(1, self._games)
        if self._cgroup is not None:
            self._allowance = self._cgroup.cpu_seconds() + budget
            return
        for pid in [pid for pid in processes() if _runs_in(pid, self.process.pid)]:
            soft = math.ceil(_cpu_seconds(pid)) + budget  # each process's rlimit counts over its life: raised
            with contextlib.suppress(OSError):  # not without CAP_SYS_RESOURCE: then it stays what it was
                resource.prlimit(pid, resource.RLIMIT_CPU, (soft, soft + 1))

    def _cpu_limit(self) -> str:
        assert self.sandbox is not None
        return f"cpu limit of {self.sandbox.settings.cpu_seconds} s per game"

    async def _watch_cpu(self, cgroup: BotCgroup) -> None:
        """End the bot once its cgroup's CPU time passes its allowance; until it is stopped or relaunched."""
        while cgroup is self._cgroup:
            await asyncio.sleep(CPU_WATCH)
            if cgroup is self._cgroup and cgroup.cpu_seconds() > self._allowance:
                self._end_by(self._cpu_limit())
                cgroup.kill()
                return

    def _end_by(self, limit: str) -> None:
        """Note in the bot's log, and for its next fault, that ``limit`` ended it."""
        self._ended_by = limit
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.write(f"\n=== the referee ends the bot: it passed its {limit}\n".encode())

    async def why_lost(self, said: str) -> str:
        """What a fault says of the bot's lost connection (``said``): the limit that ended it, when one did;
        else, when its process has ended, how (:func:`ending`; its last words are in its log, beside the
        referee's lines about its games)."""
        code = await self.exit_code(0 if self._exit_awaited else 0.1)
        self._exit_awaited = True
        if self._ended_by is None and self.sandbox is not None:
            if code is not None and code in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
                self._end_by(self._cpu_limit())
            elif self._cgroup is not None and self._cgroup.memory_kills() > self._memory_kills:
                self._memory_kills = self._cgroup.memory_kills()
                self._end_by(f"memory limit of {self.sandbox.settings.memory_mb} MiB per bot")
        ended, self._ended_by = self._ended_by, None
        if ended is not None:
            return f"ended by its {ended} ({said})"
        return said if code is None else f"{said}; the bot {ending(code)}"

    def log_tail(self, lines: int = 3) -> str:
        """The last lines the latest launch wrote, made printable and joined into one line."""
        try:
            written = [line for line in tail_lines(self.log_path, 20, self._launched_at) if line.strip()]
        except OSError:
            return ""
        return " | ".join(bot_text(line, 200) for line in written[-lines:])

    async def last_words(self) -> str:
        """:meth:`log_tail` of a bot that has exited, once all it wrote has reached its log (the drain reads
        the pipe in a thread of its own, and may not have written its last words yet)."""
        if self._drain is not None:
            await asyncio.to_thread(self._drain.finish)
        return self.log_tail()

    async def exit_code(self, wait: float) -> int | None:
        """The process's exit code once it has exited, waiting up to ``wait`` seconds; ``None`` while it runs."""
        process = self.process
        deadline = asyncio.get_running_loop().time() + wait
        while process is not None and process.poll() is None and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        return None if process is None else process.poll()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    async def stopped(self, grace: float = 2.0) -> None:
        """:meth:`stop` in a thread: the referee's other games go on while a bot deaf to SIGTERM is given its grace."""
        if self.process is not None or self._jail is not None:
            await asyncio.to_thread(self.stop, grace)
        else:
            self.stop(grace)

    def stop(self, grace: float = 2.0) -> None:
        """End the whole process group (SIGTERM, then SIGKILL after ``grace`` seconds), and what the bot
        started outside it."""
        process, self.process = self.process, None
        if process is not None:
            tree = descendants(process.pid)  # those that left its group (setsid) but not its tree
            stop_group(process, grace)
            end_left(tree)
        if self.port:
            release_port(self.port)
            self.port = 0
        if self._mark is not None:
            end_marked(self._mark)
            self._mark = None
        cgroup, self._cgroup = self._cgroup, None
        if cgroup is not None:  # whatever it started, in any session or group, with any environment
            cgroup.end()
        jail, self._jail = self._jail, None
        if jail is not None:
            jail.end()
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None
        drain, self._drain = self._drain, None
        if drain is not None:
            drain.finish()
        if self._log is not None:
            self._log.close()
            self._log = None
