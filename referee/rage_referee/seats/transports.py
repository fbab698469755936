"""Transports: how the referee reaches each kind of bot, one function per :class:`~.spec.BotKind`.

A transport makes the seat's connection (not opened yet), launching the bot's process first when
the referee runs it. :func:`register` adds one for a new kind.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from ..sandbox import Sandbox
from ..submissions.store import Submission
from .connection import Connection
from .local import FailureLog, LocalConnection, bot_output, load_bot_class
from .process import BotProcess
from .remote import Dispatcher, RemoteConnection
from .spec import BotKind, BotSpec, BotSpecError


class Seat(Protocol):
    """What a transport reads of the bot it connects (a :class:`~.handle.BotHandle`), and the process it sets."""

    spec: BotSpec
    log_dir: Path
    sandbox: Sandbox | None
    submission: Submission | None
    dispatcher: Dispatcher
    process: BotProcess | None


Transport = Callable[[Seat], Awaitable[Connection]]
LONGEST_FILE_NAME = 100
"""Characters of a bot's name kept in the name of its log."""
TRANSPORTS: dict[BotKind, Transport] = {}


def register(kind: BotKind) -> Callable[[Transport], Transport]:
    """Make the decorated function the transport of ``kind``."""

    def registered(transport: Transport) -> Transport:
        TRANSPORTS[kind] = transport
        return transport

    return registered


def log_path(seat: Seat) -> Path:
    """Where a launched bot's stderr goes: its name as a file name, in the log folder.

    A name with characters a file name should not hold has them replaced and a hash of the whole name
    added, so no two bots share a log (nor, in the sandbox, the work folder beside it): ``a b`` and
    ``a_b`` would both have been ``a_b.log``. A name past :data:`LONGEST_FILE_NAME` characters is cut
    there, and hashed likewise (a file name holds 255 bytes at most).
    """
    return seat.log_dir / log_file_name(seat.spec.name)


def log_file_name(name: str) -> str:
    """The name of bot ``name``'s log file (:func:`log_path`)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:LONGEST_FILE_NAME]
    if safe != name:
        safe = f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
    return f"{safe}.log"


@register(BotKind.MODULE)
async def in_process(seat: Seat) -> Connection:
    failures = FailureLog(log_path(seat))
    failures.make_folder()
    with bot_output(failures):  # what the bot's file prints as it is loaded
        bot_class = load_bot_class(seat.spec.target, seat.spec.folder)
    return LocalConnection(bot_class, failures)


@register(BotKind.ADDRESS)
async def serving(seat: Seat) -> Connection:
    return RemoteConnection(seat.spec.target, seat.dispatcher)


@register(BotKind.COMMAND)
async def launched(seat: Seat) -> Connection:
    seat.process = BotProcess(seat.spec.target, log_path(seat), sandbox=seat.sandbox, folder=seat.spec.folder)
    return RemoteConnection(await seat.process.start(), seat.dispatcher)


@register(BotKind.SUBMISSION)
async def submitted(seat: Seat) -> Connection:
    if seat.submission is None:
        raise BotSpecError(f"{seat.spec.name}: a submitted bot must be stored and built before it plays")
    manifest, folder = seat.submission.manifest, seat.submission.folder
    log = log_path(seat)
    seat.process = BotProcess(
        manifest.run, log, sandbox=seat.sandbox, code_dir=folder, log_name=f"its log ({log.name} on the referee)"
    )
    return RemoteConnection(await seat.process.start(), seat.dispatcher)
