"""Running a bot the referee launches in a sandbox: bubblewrap, rlimits and a user of its own.

A sandboxed bot sees a read-only view of the system (``/usr``, ``/etc``, the Python the referee
runs, of its packages the SDK's alone) and of its own code directory; it may write only to its work directory (``/bot``,
its current directory and ``$HOME``) and a private ``/tmp``, both in memory and bounded. It has no
network at all (its own network namespace, holding only a loopback) and speaks to the referee over a
Unix socket in the one directory bind-mounted from outside (``/run/rage``). It runs as a user of its
own, so the kernel bounds its processes (threads count), file size, open files and each process's
address space by rlimit, and in its own PID namespace, process group and session; when its games
end everything it started is killed and its user's kernel keyrings are emptied (the kernel keeps
them, and a later launch may be given the same user). Nothing else outlives a launch: its work
directory, ``/tmp`` and socket folder are its own, and so are its IPC and network namespaces. Its
memory and CPU time are bounded for the bot as a whole by its cgroup (:mod:`.cgroups`) where the
machine gives one, its CPU time per game; else by rlimit, each process's.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

import rage_sdk
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from rage_sdk.errors import RageError

from . import cgroups
from .bot_python import bot_python

SOCKET_DIR = "/run/rage"
"""Where a sandboxed bot finds the directory of its socket."""
LISTEN = f"unix:{SOCKET_DIR}/bot.sock"
"""What a sandboxed bot is told to listen on."""
WORK_DIR = "/bot"
HOSTNAME = "rage-bot"
"""The host name a sandboxed bot sees (not the referee's machine's)."""
UID_BASE = 1_000_000_000
"""Sandboxed bots run as users from here up: no account has them, each bot its own."""
USERS = 1000
"""Users in each referee process's block (by its process id): at most this many sandboxed launches at once."""
_uids = itertools.count()
_in_use: set[int] = set()
_users_lock = threading.Lock()
MiB = 1024 * 1024
OPEN_FILES = 1024
"""Open files per bot process (the host's limit, often tens of thousands, times each process a bot
may start would let a few bots take the kernel's every file handle)."""
TOOLS = {
    "bwrap": "bubblewrap",
    "prlimit": "util-linux",
    "setpriv": "util-linux",
    "kill": "procps",
    "mount": "mount",
    "umount": "mount",
}
"""The programs the sandbox is built from, and the Debian package of each."""
SHARED_FOLDERS = {Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")}
"""Folders a bot's program may not lie in directly: as its code folder, the bot would read all of them."""
SOCKET_FOLDER = "size=64k,nr_inodes=8,mode=0711,nosymfollow"
"""The socket's folder, the one a bot shares with the host: a tmpfs holding its socket and little more,
whose links the host does not follow (a bot's ``bot.sock`` linking to another socket had the referee, as
root, connect there)."""
SOCKET_SOURCE = "rage-bot"
"""The socket folders' device name, as the host's mount table shows it."""
_SOCKET_NAME = re.compile(r"rage-bot-(?P<pid>[0-9]+)\.(?P<start>[0-9]+)-.*")
"""A socket folder's name: its referee's process id and start time (a process id is reused, the pair is not)."""


CLEAR_KEYRINGS = """
import ctypes, platform
keyctl = {"x86_64": 250, "aarch64": 219}.get(platform.machine())
if keyctl is not None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall(keyctl, 1, None)  # KEYCTL_JOIN_SESSION_KEYRING: a new one, so what is linked there is possessed
    persistent = libc.syscall(keyctl, 22, -1, -3)  # KEYCTL_GET_PERSISTENT, linked into that session keyring
    for ring in (-4, -5, *([persistent] if persistent > 0 else [])):  # the user's, its session's, the persistent
        libc.syscall(keyctl, 7, ring)  # KEYCTL_CLEAR
"""
"""Run as a launch's user once it has ended: the kernel keeps a user's keyrings after its last process
exits, so a later launch given the same user (users are reused, :data:`USERS` per referee) would read
what this one stored there."""


class SandboxError(RageError, RuntimeError):
    """The machine refuses what the sandbox needs; the message says what, in one line."""

    exit_code = 1


class SandboxSettings(BaseModel):
    """A league file's ``[sandbox]`` table: whether its launched bots are sandboxed, and their limits."""

    model_config = ConfigDict(extra="forbid")

    enabled: StrictBool = False
    memory_mb: StrictInt = Field(
        1024,
        ge=64,
        le=1024 * 1024,
        description="memory of the bot with all its processes, in a cgroup of its own where the machine gives one; "
        "else address space per process (so up to memory_mb times processes in all)",
    )
    cpu_seconds: StrictInt = Field(
        600,
        ge=1,
        le=100_000_000,
        description="CPU time for each game the bot plays, all its processes together where the machine gives a "
        "cgroup (else each process); a bot past it is ended, its fault naming the limit",
    )
    processes: StrictInt = Field(64, ge=8, le=100_000, description="processes and threads per bot")
    file_size_mb: StrictInt = Field(64, ge=1, le=1024 * 1024, description="the largest file a bot may write")
    tmp_mb: StrictInt = Field(
        64, ge=1, le=1024 * 1024, description="the size of the bot's private /tmp and of its work folder (in memory)"
    )


def _system_paths() -> list[Path]:
    """What every sandboxed bot may read: the system, the referee's Python and the SDK (of the Python's
    installed packages, only the SDK's are shown: :func:`.bot_python.bot_python`), with the files its
    links lead to (a checkout's SDK, installed editable, links its example bots to the checkout's examples/)."""
    sdk = Path(rage_sdk.__file__).resolve().parent
    paths = [Path(p) for p in ("/usr", "/etc", "/opt")]
    paths += [Path(sys.base_prefix), Path(sys.prefix), sdk]
    paths += [link.resolve() for link in sdk.rglob("*") if link.is_symlink()]
    return [path for path in paths if path.exists()]


@dataclass
class Jail:
    """One sandboxed launch of a bot: its socket, work directory and user."""

    sandbox: Sandbox
    uid: int
    socket_dir: Path
    work_dir: Path | None
    """The folder shown writable at ``/bot``; none: a private one in memory."""
    code_dir: Path | None = None
    """The bot's code, shown read-only; none: the folder of the program its command names, or for a build
    (``work_dir`` shown) nothing but its own folder: a file its command names may be anyone's."""
    chdir: str = WORK_DIR

    @property
    def address(self) -> str:
        """Where the referee reaches the bot."""
        return f"unix:{self.socket_dir}/bot.sock"

    def argv(self, command: list[str], cpu_rlimit: bool = True) -> list[str]:
        """``command`` (which listens on :data:`LISTEN`) inside the sandbox; without ``cpu_rlimit``, its CPU
        time is bounded elsewhere (its cgroup's, watched by the referee).

        ``prlimit`` sets the limits; ``bwrap`` (as root: no user namespace to undo it) builds the
        view and the namespaces, keeping only the rights to change user and to empty the bounding set
        (as root it drops the capabilities it holds, not the set that bounds what its children may
        gain); ``setpriv`` empties that set and gives up the rest for the bot's own user. Run it in a
        session of its own (``start_new_session``): bwrap's init, in the bot's PID namespace, stays in
        that process group, so ending the group ends the sandbox even while bwrap sets it up (its
        ``--die-with-parent`` binds the init to bwrap only once set up; ``--new-session`` took it out
        of the group before).
        """
        limits = self.sandbox.settings
        entry = [self.sandbox.tools["prlimit"], f"--as={limits.memory_mb * MiB}"]
        entry += [f"--cpu={limits.cpu_seconds}"] if cpu_rlimit else []
        entry += [f"--nproc={limits.processes}", f"--fsize={limits.file_size_mb * MiB}", f"--nofile={OPEN_FILES}", "--"]
        jail = [self.sandbox.tools["bwrap"], "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
        jail += ["--unshare-cgroup-try", "--die-with-parent", "--hostname", HOSTNAME]
        jail += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
        jail += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(limits.tmp_mb * MiB)]
        jail += ["--tmpfs", "/tmp", "--tmpfs", "/run"]  # first: a bot's code may be in the host's /tmp
        if self.code_dir is not None:
            code = [self.code_dir]
        else:
            code = [] if self.work_dir is not None else _code_dirs(command)
        if shared := SHARED_FOLDERS.intersection(code):
            raise SandboxError(
                f"{min(shared)} holds a bot's program and is shared with every user: give the bot a folder of its own"
            )
        system = _system_paths()
        python = bot_python()
        shown = [*system, *python.shown, *code]
        masks = [*self.sandbox.masked(code, system), *python.covered]
        within = [path for path in shown if any(mask in path.parents for mask in masks)]
        for path in [path for path in shown if path not in within]:
            jail += _readable(path)
        for path in masks:
            jail += ["--tmpfs", str(path)]
        for path in within:  # shown inside a covered folder (a submitted bot's own among the versions): after it
            jail += _readable(path)
        for link in ("bin", "lib", "lib64", "sbin"):
            if Path(f"/{link}").is_symlink():
                jail += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
        jail += ["--bind", str(self.socket_dir), SOCKET_DIR]
        if self.work_dir is None:  # in memory, at most tmp_mb, and gone with the launch
            jail += ["--perms", "0777", "--size", str(limits.tmp_mb * MiB), "--tmpfs", WORK_DIR]
        else:
            jail += ["--bind", str(self.work_dir), WORK_DIR]
        jail += ["--chdir", self.chdir, "--"]
        return entry + jail + self._as_bot_user() + command

    def _as_bot_user(self) -> list[str]:
        uid = str(self.uid)
        setpriv = [self.sandbox.tools["setpriv"], f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
        return [*setpriv, "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]

    def environment(self) -> dict[str, str]:
        """What a sandboxed bot's environment holds: nothing of the referee's but the locale."""
        keep = {name: value for name, value in os.environ.items() if name in ("LANG", "LC_ALL", "TZ")}
        fixed = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": WORK_DIR, "TMPDIR": "/tmp"}
        return keep | fixed | {"MALLOC_ARENA_MAX": "2"}  # each malloc arena reserves address space, which is limited

    def end(self) -> None:
        """Kill whatever the bot left running, empty its user's kernel keyrings, then remove its socket directory."""
        _quiet([*self._as_bot_user(), self.sandbox.tools["kill"], "-KILL", "-1"])
        _quiet([*self._as_bot_user(), sys.executable, "-I", "-S", "-c", CLEAR_KEYRINGS])
        _quiet([self.sandbox.tools["umount"], "--lazy", str(self.socket_dir)])
        shutil.rmtree(self.socket_dir, ignore_errors=True)
        with _users_lock:
            _in_use.discard(self.uid)


def _quiet(argv: list[str]) -> None:
    """Run a tool of the sandbox's, its output dropped."""
    quiet = subprocess.DEVNULL
    subprocess.run(argv, stdin=quiet, stdout=quiet, stderr=quiet, timeout=30, check=False)


def _free_uid() -> int:
    """A user of this process's block that no running launch holds (a shared one could signal the
    other launch, and its end would kill it)."""
    block = UID_BASE + (os.getpid() % 100_000) * USERS
    with _users_lock:
        for _ in range(USERS):
            uid = block + next(_uids) % USERS
            if uid not in _in_use:
                _in_use.add(uid)
                return uid
    raise SandboxError(f"{USERS:,} bots run in the sandbox at once: no user is left for another")


def _started(pid: int) -> str | None:
    """When process ``pid`` started (in clock ticks since boot), or none when no such process runs."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]  # the 22nd field, the 20th after the command's name


def _socket_mounts() -> list[Path]:
    """The socket folders the host's mount table holds, this referee's and any other's."""
    try:
        table = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return []
    folders = []
    for line in table.splitlines():
        ours, _, theirs = line.partition(" - ")
        fields, kind = ours.split(), theirs.split()
        if len(fields) > 4 and kind[:2] == ["tmpfs", SOCKET_SOURCE]:
            folders.append(Path(re.sub(r"\\([0-7]{3})", lambda octal: chr(int(octal[1], 8)), fields[4])))
    return folders


def _readable(path: Path) -> list[str]:
    """Mount ``path`` read-only at its own place, its parents made traversable (``/root`` is not)."""
    options: list[str] = []
    for parent in reversed(path.parents[:-1]):
        if parent not in (Path("/tmp"), Path("/run")):  # mounted already, /tmp open to all
            options += ["--perms", "0755", "--dir", str(parent)]
    return [*options, "--ro-bind", str(path), str(path)]


def _code_dirs(command: list[str]) -> list[Path]:
    """The folder of the bot's program, shown read-only: the first file its arguments name, else the
    program itself when it is no system one."""
    system = _system_paths()
    named = [Path(part) for part in command[1:]] + [Path(command[0])]
    for path in named:
        if path.is_absolute() and path.is_file():
            if path == named[-1] and any(root in path.resolve().parents for root in system):
                break
            return [path.parent] if path.parent != Path("/") else []
    return []


def absolute_files(command: list[str], base: Path | None = None) -> list[str]:
    """``command`` with each argument that names an existing file (relative to ``base``, or here) made
    absolute: the bot starts elsewhere."""
    folder = base or Path.cwd()
    return [
        str((folder / part).resolve()) if i and (folder / part).is_file() else part for i, part in enumerate(command)
    ]


@dataclass
class Sandbox:
    """The sandbox every bot a league launches runs in, when its file asks for one."""

    settings: SandboxSettings
    tools: dict[str, str]
    """Where ``bwrap``, ``prlimit``, ``setpriv`` and ``kill`` are."""
    hidden: list[Path] = field(default_factory=list)
    """Directories no bot may see even inside the folders it is shown (its code's, the system's): the
    database's, the logs, the records, the submissions."""

    def masked(self, code_dirs: list[Path], system: list[Path]) -> list[Path]:
        """The hidden directories inside the folders a bot is shown, its code's and the ``system`` ones (a
        database under ``/opt`` is no less the league's), to cover with an empty one.

        :raises SandboxError: when a hidden directory is a shown folder itself.
        """
        masks = []
        for hidden in self.hidden:
            for path in [*system, *code_dirs]:
                if hidden == path:
                    shown, owner = ("a bot's code", "the bot") if path in code_dirs else ("the system", "the league")
                    raise SandboxError(
                        f"{path} holds {shown} and the league's database or logs: give {owner} a folder of its own"
                    )
                if path in hidden.parents and hidden not in masks:
                    hidden.mkdir(parents=True, exist_ok=True)  # the folder is shown live: cover it before it fills
                    masks.append(hidden)
        return masks

    @staticmethod
    def available(settings: SandboxSettings) -> Sandbox:
        """A sandbox this machine can give; :class:`SandboxError` says in one line why not."""
        tools: dict[str, str] = {}
        for name, package in TOOLS.items():
            path = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin")
            if path is None:
                raise SandboxError(f"the sandbox needs {name}: install it (apt-get install {package})")
            tools[name] = path
        if os.geteuid() != 0:
            raise SandboxError("the sandbox runs each bot as a user of its own, which needs rage to run as root")
        sandbox = Sandbox(settings, tools)
        sandbox.sweep()
        sandbox.probe()
        return sandbox

    def sweep(self) -> None:
        """Unmount and remove the socket folders of referees gone without ending their launches (``kill -9``):
        their bots died with them (bubblewrap's ``--die-with-parent``), the folders stayed mounted."""
        for folder in _socket_mounts():
            owner = _SOCKET_NAME.fullmatch(folder.name)
            if owner is not None and _started(int(owner["pid"])) != owner["start"]:
                _quiet([self.tools["umount"], "--lazy", str(folder)])
                with contextlib.suppress(OSError):
                    folder.rmdir()

    def probe(self) -> None:
        """Run ``true`` in the sandbox once: the kernel may refuse namespaces or the limits."""
        with tempfile.TemporaryDirectory(prefix="rage-probe-") as scratch:
            jail = self.jail(Path(scratch) / "work")
            try:
                result = subprocess.run(
                    jail.argv(["/bin/true"]), capture_output=True, text=True, timeout=30, check=False
                )
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SandboxError(f"the sandbox cannot start: {error}") from None
            finally:
                jail.end()
        if result.returncode != 0:
            detail = (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]
            raise SandboxError(f"this machine refuses the sandbox: {detail[:200]}")

    def jail(self, work_dir: Path, fresh: bool = True, code_dir: Path | None = None) -> Jail:
        """A fresh user and socket directory for one launch of a bot, and its work directory: when
        ``fresh`` a private one in memory of ``tmp_mb`` (many files each under ``file_size_mb`` filled
        the host's disk), ``work_dir`` on the host removed; else ``work_dir`` kept and handed to the new
        user (a build works in its own folder, watched for its size)."""
        uid = _free_uid()
        socket_dir = Path(tempfile.mkdtemp(prefix=f"rage-bot-{os.getpid()}.{_started(os.getpid())}-"))
        self._socket_folder(socket_dir, uid)
        folders = []
        if fresh:
            with contextlib.suppress(FileNotFoundError):
                shutil.rmtree(work_dir)
        else:
            work_dir.mkdir(parents=True, exist_ok=True)
            folders.append(work_dir)
        for path in [*folders, *([] if fresh else work_dir.rglob("*"))]:
            os.chown(path, uid, uid, follow_symlinks=False)
        for path in folders:
            path.chmod(0o711)  # bwrap, root without capabilities, must enter it
        shown = None if fresh else work_dir
        return Jail(self, uid, socket_dir, shown, code_dir, WORK_DIR if code_dir is None else str(code_dir))

    def _socket_folder(self, folder: Path, uid: int) -> None:
        """Mount a tiny tmpfs of ``uid``'s on ``folder`` (on the host's disk, a bot could fill it with files)."""
        options = f"{SOCKET_FOLDER},uid={uid},gid={uid}"
        argv = [self.tools["mount"], "-t", "tmpfs", "-o", options, SOCKET_SOURCE, str(folder)]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
        if result.returncode != 0:
            folder.rmdir()
            with _users_lock:
                _in_use.discard(uid)
            detail = (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]
            raise SandboxError(f"the sandbox cannot mount a bot's socket folder: {detail[:200]}")

    def describe(self) -> str:
        limits = self.settings
        memory = (
            f"{limits.memory_mb} MiB memory per bot (a cgroup)"
            if cgroups.available()
            else f"{limits.memory_mb} MiB address space per process (no cgroup)"
        )
        return (
            f"sandbox: bubblewrap, no network; limits per bot: {memory}, "
            f"{limits.cpu_seconds} s CPU per game, {limits.processes} processes, {limits.file_size_mb} MiB per file, "
            f"{limits.tmp_mb} MiB of /tmp"
        )
