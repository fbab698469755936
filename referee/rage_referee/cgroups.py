"""A launched bot's control group: every process it starts, counted, bounded and ended together.

Where the machine lets the referee make cgroups (root, and cgroup v1 with writable ``memory`` and
``cpuacct`` hierarchies), each launch of a bot gets one of its own beneath the referee's: it joins
it before the bot's first instruction, and whatever the bot starts stays in it, whatever session,
process group or environment it gives itself. Its memory limit holds for all its processes at once,
its CPU time is read whole, and when the bot stops every process in it is killed. Elsewhere
:meth:`BotCgroup.make` gives none, and the referee relies on rlimits and the process group.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import shlex
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "cpuacct")
PASSES = 50
"""Rounds of killing at most, for processes forked while one was under way."""
_numbers = itertools.count()


def _own(controller: str) -> Path | None:
    """The folder of this process's cgroup in the v1 hierarchy of ``controller``, when it is writable."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            folder = ROOT / controller / path.lstrip("/")
            return folder if os.access(folder, os.W_OK) and (folder / "cgroup.procs").is_file() else None
    return None


def _sweep(own: Path) -> None:
    """Remove the cgroups beneath ``own`` left by referees gone without stopping their bots (``kill -9``):
    their bots have ended (they stop with the referee), the folders stayed."""
    for folder in own.glob("rage-bot-*-*"):
        referee = folder.name.split("-")[2]
        if referee.isdigit() and not Path(f"/proc/{referee}").exists():
            with contextlib.suppress(OSError):  # one still holding a process is kept
                folder.rmdir()


@dataclass
class BotCgroup:
    """One launch's cgroup, a folder in each hierarchy of :data:`CONTROLLERS`."""

    folders: dict[str, Path]
    memory_bytes: int | None = None
    """The memory all its processes may hold together; none: unbounded here."""

    @staticmethod
    def make(memory_bytes: int | None = None) -> BotCgroup | None:
        """A new cgroup for one launch, its memory bounded by ``memory_bytes``; none where the machine gives none."""
        if os.geteuid() != 0:
            return None
        made, name = BotCgroup({}, memory_bytes), f"rage-bot-{os.getpid()}-{next(_numbers)}"
        try:
            for controller in CONTROLLERS:
                own = _own(controller)
                if own is None:
                    raise OSError(f"no writable {controller} cgroup")
                _sweep(own)
                folder = own / name
                folder.mkdir()
                made.folders[controller] = folder
            if memory_bytes is not None:
                memory = made.folders["memory"]
                (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):  # swap counted too, where the kernel accounts it
                    (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
        except OSError:
            made.remove()
            return None
        return made

    def entry(self) -> list[str]:
        """A command's prefix that joins this cgroup, then runs the command (``exec``): the bot is in it
        from its first instruction, and so is every process it starts. A program that is not there exits
        127 as it would without the prefix, the shell adding no line of its own to the bot's log."""
        joins = " && ".join(
            f"echo $$ > {shlex.quote(str(folder / 'cgroup.procs'))}" for folder in self.folders.values()
        )
        found = 'command -v "$1" >/dev/null || exit 127'
        return ["/bin/sh", "-c", f'{joins} && {found} && exec "$@"', "rage-bot"]

    def pids(self) -> list[int]:
        """The processes in it."""
        try:
            return [int(pid) for pid in (self.folders["cpuacct"] / "cgroup.procs").read_text().split()]
        except (OSError, KeyError):
            return []

    def cpu_seconds(self) -> float:
        """The CPU time its processes have used, those that have exited too."""
        try:
            return int((self.folders["cpuacct"] / "cpuacct.usage").read_text()) / 1e9
        except (OSError, KeyError, ValueError):
            return 0.0

    def memory_kills(self) -> int:
        """How many of its processes the kernel has killed for its memory limit."""
        try:
            lines = (self.folders["memory"] / "memory.oom_control").read_text().splitlines()
        except (OSError, KeyError):
            return 0
        return next((int(line.split()[1]) for line in lines if line.startswith("oom_kill ")), 0)

    def kill(self) -> None:
        """Kill every process in it, once."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def end(self) -> None:
        """Kill every process in it, then remove it."""
        for _ in range(PASSES):
            if not self.pids():
                break
            self.kill()
            time.sleep(0.01)
        self.remove()

    def remove(self) -> None:
        """Remove its folders (a folder still holding a process, or a zombie not reaped yet, is tried again
        for a moment, then left)."""
        for folder in self.folders.values():
            for _ in range(PASSES):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
        self.folders = {}


@functools.cache
def available() -> bool:
    """Whether this machine gives the referee a cgroup for each bot (asked once)."""
    made = BotCgroup.make()
    if made is None:
        return False
    made.remove()
    return True
