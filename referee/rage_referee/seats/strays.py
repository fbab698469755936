"""Processes a launched bot left outside its process group (a daemon it started), found by a mark in their environment.

Each launch outside the sandbox carries :data:`LAUNCH_ENV` with a mark of its own; processes inherit
it, so a child that made a session or group of its own (``setsid``, a double fork) still carries it
when the bot's group is ended, and is ended with it. A child that clears its environment escapes
this, but not the bot's cgroup (:mod:`~rage_referee.cgroups`), where the machine gives one; in the
sandbox everything a bot started is ended with it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
from pathlib import Path

LAUNCH_ENV = "RAGE_BOT_LAUNCH"
PASSES = 3
"""Scans at most, for children forked while one was under way."""


def new_mark() -> str:
    """A mark for one launch."""
    return secrets.token_hex(8)


def end_marked(mark: str) -> int:
    """SIGKILL every process whose environment holds ``LAUNCH_ENV=mark``; how many were found."""
    needle = f"{LAUNCH_ENV}={mark}".encode()
    ended = 0
    for _ in range(PASSES):
        found = [pid for pid in processes() if needle in _environment(pid)]
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        ended += len(found)
        if not found:
            break
    return ended


def processes() -> list[int]:
    """The ids of every process this machine runs (none known without ``/proc``)."""
    proc = Path("/proc")
    return [int(entry.name) for entry in proc.iterdir() if entry.name.isdigit()] if proc.is_dir() else []


def _environment(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return []
