"""Bots as the referee knows them: where each one is, how to start it, and its connection.

A bot is given as one of:

- ``path/to/bot.py:ClassName``: loaded into the referee's process (fast local testing);
- ``HOST:PORT`` or ``unix:PATH``: a bot already serving there;
- ``submission:PATH``: a submitted bot (a folder or archive with ``rage-bot.toml``), stored as a
  version, built once and run in the sandbox from its own folder;
- any other text: a command the referee launches on a free port N: run with ``--port N``
  appended, or, when it contains ``{port}``, with N there instead (proto/README.md, Launching);
  or with ``{listen}`` replaced by a Unix socket (``unix:PATH``). A sandboxed bot always listens
  on a Unix socket: ``--listen unix:PATH`` is appended when its command has no ``{listen}``.
  A leading ``python`` or ``python3`` runs the referee's own interpreter, which has the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from rage_sdk.bot import Bot
from rage_sdk.grpc_engine import environment_for_child
from rage_sdk.server import PARENT_ENV, is_unix_address

from .connection import BotIdentity, Connection, HandshakeError, LocalConnection, RemoteConnection, wait_healthy
from .sandbox import LISTEN, Jail, Sandbox, absolute_files
from .submissions.store import Submission
from .text import bot_text

SUBMISSION = "submission:"
START_TIMEOUT = 20.0
MAX_RESTARTS = 3
_ADDRESS = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}$")
_IN_PROCESS = re.compile(r"^(?P<path>\S+\.py):(?P<name>[A-Za-z_]\w*)$")


class BotSpecError(ValueError):
    """A bot given in a form the referee cannot use; the message names the bot."""


@dataclass(frozen=True)
class BotSpec:
    """A named bot: ``kind`` is ``in-process``, ``address`` or ``command``."""

    name: str
    target: str
    kind: str

    @staticmethod
    def parse(text: str) -> BotSpec:
        """``NAME=TARGET`` as given to ``rage match --bot``."""
        name, sep, target = text.partition("=")
        name, target = name.strip(), target.strip()
        if not sep or not name or not target:
            raise BotSpecError(f"--bot {text!r}: expected NAME=COMMAND, NAME=HOST:PORT or NAME=FILE.py:CLASS")
        return BotSpec.of(name, target)

    @staticmethod
    def of(name: str, target: str) -> BotSpec:
        if _IN_PROCESS.match(target) and " " not in target:
            return BotSpec(name, target, "in-process")
        if target.startswith(SUBMISSION):
            return BotSpec(name, target, "submission")
        if _ADDRESS.match(target) or (is_unix_address(target) and " " not in target):
            return BotSpec(name, target, "address")
        return BotSpec(name, target, "command")


def load_bot_class(target: str) -> type[Bot]:
    """The :class:`Bot` subclass named by ``path/to/file.py:ClassName``."""
    match = _IN_PROCESS.match(target)
    if not match:
        raise BotSpecError(f"{target!r}: expected FILE.py:CLASS")
    path = Path(match["path"])
    if not path.is_file():
        raise BotSpecError(f"{target!r}: no file {path}")
    spec = importlib.util.spec_from_file_location(f"rage_bot_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise BotSpecError(f"{target!r}: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise BotSpecError(f"{target!r}: loading {path} failed: {error}") from error
    bot_class = getattr(module, match["name"], None)
    if not (isinstance(bot_class, type) and issubclass(bot_class, Bot)):
        raise BotSpecError(f"{target!r}: {match['name']} is not a rage_sdk.Bot subclass in {path}")
    return bot_class


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_group(process: subprocess.Popen[bytes], grace: float) -> None:
    """End a process started in its own group, and its children: SIGTERM, then SIGKILL after ``grace`` seconds."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def launch_header(command: str) -> str:
    """The line the referee writes to a bot's log before each launch: a new section per run (and relaunch)."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"\n=== {when}: the referee (pid {os.getpid()}) launches {command}\n"


@dataclass
class BotProcess:
    """A bot command the referee runs: its own process group, stderr to a log file."""

    command: str
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    port: int = 0
    sandbox: Sandbox | None = None
    """Run in this sandbox, its work directory beside the log; none: with the referee's rights."""
    code_dir: Path | None = None
    """A submitted bot's own folder: where it starts, and what its relative paths mean."""
    _log: IO[bytes] | None = field(default=None, repr=False)
    _jail: Jail | None = field(default=None, repr=False)
    _socket_dir: Path | None = field(default=None, repr=False)

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
        environment = {**environment_for_child(), PARENT_ENV: str(os.getpid())}  # SDK bots stop if the referee dies
        if self.sandbox is not None:
            command = absolute_files(self.argv(listen=LISTEN), self.code_dir)
            self._jail = self.sandbox.jail(self.log_path.with_suffix(".work"), code_dir=self.code_dir)
            return self._jail.argv(command), self._jail.environment(), self._jail.address
        if "{listen}" in self.command:
            self._socket_dir = Path(tempfile.mkdtemp(prefix="rage-bot-"))
            address = f"unix:{self._socket_dir}/bot.sock"
            return self.argv(listen=address), environment, address
        self.port = free_port()
        return self.argv(self.port), environment, f"127.0.0.1:{self.port}"

    async def start(self) -> str:
        """Launch on a free port (or socket) and wait until its health service says SERVING; return its address."""
        self.stop()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        argv, environment, address = self._launch()
        shown = shlex.join(argv) if self._jail is None else f"{self.command} (in the sandbox)"
        self._log.write(launch_header(shown).encode())
        self._log.flush()
        try:
            process = self.process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=self._log,
                stderr=self._log,
                start_new_session=True,
                env=environment,
                cwd=self.code_dir if self._jail is None else None,
            )
        except OSError as error:
            self.stop()
            raise HandshakeError(f"cannot run {shown}: {error.strerror or error}") from None
        deadline = asyncio.get_running_loop().time() + START_TIMEOUT
        try:
            while asyncio.get_running_loop().time() < deadline:
                if process.poll() is not None:
                    raise HandshakeError(
                        f"{shown} exited with code {process.returncode} before serving; "
                        f"see {self.log_path}: {self.log_tail()}"
                    )
                if await wait_healthy(address, timeout=1.0):
                    return address
            raise HandshakeError(f"{shown} did not serve within {START_TIMEOUT:.0f} s; see {self.log_path}")
        except BaseException:  # a failed or cancelled start leaves no process behind
            self.stop()
            raise

    def log_tail(self, lines: int = 3) -> str:
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(bot_text(line, 200) for line in text[-lines:])

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, grace: float = 2.0) -> None:
        """End the whole process group: SIGTERM, then SIGKILL after ``grace`` seconds."""
        process, self.process = self.process, None
        if process is not None:
            stop_group(process, grace)
        jail, self._jail = self._jail, None
        if jail is not None:
            jail.end()
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
            self._socket_dir = None
        if self._log is not None:
            self._log.close()
            self._log = None


@dataclass
class BotHandle:
    """One bot in a match: its spec, its process if the referee runs it, and its connection."""

    spec: BotSpec
    log_dir: Path
    connection: Connection | None = None
    process: BotProcess | None = None
    identity: BotIdentity | None = None
    restarts: int = 0
    """How often the bot was restarted: a new connection knows no game until told again."""
    sandbox: Sandbox | None = None
    """The sandbox a launched command runs in; none: with the referee's rights."""
    submission: Submission | None = None
    """For a ``submission:`` bot, its stored and built version."""
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    async def start(self) -> BotIdentity:
        """Launch or load the bot, greet it and open its stream."""
        if self.spec.kind == "in-process":
            self.connection = LocalConnection(load_bot_class(self.spec.target))
        elif self.spec.kind == "submission":
            if self.submission is None:
                raise BotSpecError(f"{self.spec.name}: a submitted bot must be stored and built before it plays")
            command, folder = self.submission.manifest.run, self.submission.folder
            self.process = BotProcess(
                command, self.log_dir / f"{_safe(self.spec.name)}.log", sandbox=self.sandbox, code_dir=folder
            )
            self.connection = RemoteConnection(await self.process.start())
        elif self.spec.kind == "address":
            self.connection = RemoteConnection(self.spec.target)
        else:
            self.process = BotProcess(
                self.spec.target, self.log_dir / f"{_safe(self.spec.name)}.log", sandbox=self.sandbox
            )
            self.connection = RemoteConnection(await self.process.start())
        self.identity = await self.connection.open()
        return self.identity

    async def restart_once(self) -> None:
        """After a crash: relaunch the process if it died and reconnect, at most ``MAX_RESTARTS`` times.

        :raises HandshakeError: when the bot cannot be brought back.
        """
        async with self._lock:
            if self.connection is not None and self.connection.alive:
                return  # another game brought it back meanwhile
            if self.restarts >= MAX_RESTARTS:
                raise HandshakeError(f"{self.spec.name} was restarted {self.restarts} times; not again")
            self.restarts += 1
            assert self.connection is not None
            if self.process is not None:
                if self.process.running:
                    with contextlib.suppress(HandshakeError):
                        await self.connection.open()
                        return
                # Dead, or alive but not answering: launch it afresh.
                assert isinstance(self.connection, RemoteConnection)
                self.connection.address = await self.process.start()
            await self.connection.open()

    async def stop(self) -> None:
        """Close the connection (what is queued is sent first) and end the process, if the referee runs it."""
        if self.connection is not None:
            await self.connection.close()
        if self.process is not None:
            self.process.stop()


def _safe(name: str) -> str:
    """A bot's name as a file name."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


async def start_all(handles: Iterable[BotHandle], keep_going: bool = False) -> dict[str, str]:
    """Start every bot at once; if one cannot start, stop the others' starts too and raise its error.

    With ``keep_going`` the others start regardless: the bots that could not start are returned,
    each name with why.
    """
    handles = list(handles)
    tasks = [asyncio.create_task(handle.start()) for handle in handles]
    if keep_going:
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        failed = {}
        for handle, outcome in zip(handles, outcomes, strict=True):
            if isinstance(outcome, HandshakeError | BotSpecError):
                failed[handle.spec.name] = str(outcome)
            elif isinstance(outcome, BaseException):
                raise outcome
        return failed
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return {}
