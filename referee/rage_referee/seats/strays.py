"""Processes a launched bot left outside its process group (a daemon it started), found by a mark in their environment.

Each launch outside the sandbox carries :data:`LAUNCH_ENV` with a mark of its own; processes inherit
it, so a child that made a session or group of its own (``setsid``, a double fork) still carries it
when the bot's group is ended, and is ended with it. A child that clears its environment escapes
this, but not the bot's cgroup (:mod:`~rage_referee.cgroups`), where the machine gives one, nor, while
the bot runs, its tree (:func:`descendants`); in the sandbox everything a bot started is ended with it.
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


def stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (state first), or none when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def descendants(pid: int) -> set[tuple[int, str]]:
    """The processes below ``pid`` (its children, theirs, ...), each with its start time, so that an id
    taken again by another process later is not mistaken for one of them."""
    below: dict[str, list[int]] = {}
    started: dict[int, str] = {}
    for other in processes():
        fields = stat_fields(other)
        if len(fields) > 19:
            below.setdefault(fields[1], []).append(other)
            started[other] = fields[19]
    found, todo = set(), [pid]
    while todo:
        for child in below.get(str(todo.pop()), []):
            found.add((child, started[child]))
            todo.append(child)
    return found


def end_left(tree: set[tuple[int, str]]) -> None:
    """SIGKILL each process of ``tree`` that still runs (the same process: started when it was)."""
    for pid, started in tree:
        fields = stat_fields(pid)
        if len(fields) > 19 and fields[19] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
