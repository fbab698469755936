"""Bots as they are given: a name and where the bot is, its kind read from the form of the target.

- ``path/to/bot.py:ClassName``: loaded into the referee's process (fast local testing of trusted code;
  refused where the sandbox is asked for, :func:`untrusted_refusal`);
- ``HOST:PORT`` or ``unix:PATH``: a bot already serving there;
- ``submission:PATH``: a submitted bot (a folder or archive with ``rage-bot.toml``), stored as a
  version, built once and run in the sandbox from its own folder;
- any other text: a command the referee launches (:class:`~.process.BotProcess` says how).
"""

from __future__ import annotations

import ipaddress
import os
import re
import shlex
import socket
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from rage_sdk.errors import RageError
from rage_sdk.server import is_unix_address

from ..text import name_text

SUBMISSION = "submission:"
_ADDRESS = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d+)$")
IN_PROCESS = re.compile(r"^(?P<path>\S+\.py):(?P<name>[A-Za-z_]\w*)$")


class BotSpecError(RageError, ValueError):
    """A bot given in a form the referee cannot use; the message names the bot."""


class BotKind(StrEnum):
    """How the referee reaches a bot; each kind has its transport (:mod:`.transports`)."""

    MODULE = "module"
    """A ``Bot`` subclass in a Python file, run in the referee's process."""
    COMMAND = "command"
    """A command the referee launches, serving gRPC on a port or Unix socket it is given."""
    ADDRESS = "address"
    """A bot serving gRPC already, at ``HOST:PORT`` or ``unix:PATH``."""
    SUBMISSION = "submission"
    """A submitted bot, stored and built as a version, launched in the sandbox."""


@dataclass(frozen=True)
class BotSpec:
    """A named bot: where it is, and what kind of target that is."""

    name: str
    target: str
    kind: BotKind
    folder: Path | None = None
    """Where the target's relative paths are read from, and a command starts: a league file's folder; none:
    the current folder (a bot given on the command line)."""

    @staticmethod
    def parse(text: str) -> BotSpec:
        """``NAME=TARGET`` as given to ``rage match --bot``."""
        name, sep, target = text.partition("=")
        name, target = name.strip(), target.strip()
        if not sep or not name or not target:
            raise BotSpecError(f"--bot {text!r}: expected NAME=COMMAND, NAME=HOST:PORT or NAME=FILE.py:CLASS")
        return BotSpec.of(name, target)

    @staticmethod
    def of(name: str, target: str, folder: Path | None = None) -> BotSpec:
        """The bot ``name`` at ``target`` (its relative paths read from ``folder``); :class:`BotSpecError` for a
        command no process could run."""
        kind = kind_of(target)
        if kind is BotKind.COMMAND:
            problem = command_problem(target)
            if problem:
                raise BotSpecError(f"bot {name_text(name)!r}: {target!r} is no command line: {problem}")
        if kind is BotKind.ADDRESS and not is_unix_address(target):
            port = int(target.rpartition(":")[2])
            if not 1 <= port <= 65535:  # gRPC would take the port modulo 65536: a second seat of another bot's
                raise BotSpecError(f"bot {name_text(name)!r}: {target!r}: the port must be 1-65535, not {port}")
        return BotSpec(name, target, kind, folder)


LOOPBACK = "loopback"
"""Every address of this machine as one host: a process listening on all of a machine's addresses answers at
each (loopback, the unspecified 0.0.0.0 and ::, and the addresses of its interfaces)."""

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def seat_address(target: str, resolve: bool = True) -> str:
    """The socket a bot at the address ``target`` listens on, one text however it is written: a Unix socket
    by its real path, a host by the first address it resolves to (when ``resolve``; else by its name), an
    IPv4 address written as IPv6 (``::ffff:a.b.c.d``) as itself, every address of this machine (and
    ``localhost``) as :data:`LOOPBACK`."""
    if is_unix_address(target):
        return f"unix:{os.path.realpath(target.removeprefix('unix:'))}"
    host, _, port_text = target.rpartition(":")
    host, port = host.strip("[]").rstrip(".").lower(), int(port_text)
    try:
        ips = [ipaddress.ip_address(host)]
    except ValueError:
        ips = _resolved(host) if resolve else []
    ips = [_unmapped(ip) for ip in ips]
    if host == "localhost" or any(_of_this_machine(ip) for ip in ips):
        return f"{LOOPBACK}:{port}"
    return f"{ips[0] if ips else host}:{port}"


def _unmapped(ip: IP) -> IP:
    """An IPv4-mapped IPv6 address as the IPv4 address it is."""
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return mapped or ip


def _of_this_machine(ip: IP) -> bool:
    """Whether a connection to ``ip`` reaches this machine: loopback, unspecified, or one a socket here binds to."""
    if ip.is_loopback or ip.is_unspecified:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.bind((str(ip), 0))
    except OSError:
        return False
    return True


def _resolved(host: str) -> list[IP]:
    """The addresses ``host`` resolves to, in order; none when it resolves to none."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return []
    return [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in infos]


def shared_seat(specs: list[BotSpec], resolve: bool = True) -> str | None:
    """Why ``specs`` cannot play together when two of them are at one address (one process would hold two
    seats and know both hands), or None; host names resolved when ``resolve`` (:func:`seat_address`)."""
    seen: dict[str, BotSpec] = {}
    for spec in specs:
        if spec.kind is not BotKind.ADDRESS:
            continue
        first = seen.setdefault(seat_address(spec.target, resolve), spec)
        if first is not spec:
            return (
                f"bots {name_text(first.name)!r} and {name_text(spec.name)!r} are both at {spec.target}"
                f"{'' if spec.target == first.target else f' ({first.target})'}: "
                "one process would hold two seats and see both hands; give each bot its own"
            )
    return None


def untrusted_refusal(specs: list[BotSpec], where: str) -> str | None:
    """Why the bots of a contest (a sandbox league, a hosted league: ``where``) cannot include the first of
    ``specs`` that runs in the referee's own process, or None: such a bot is trusted code, which reads every
    hand of its game and the referee's secrets."""
    for spec in specs:
        if spec.kind is BotKind.MODULE:
            return (
                f"bot {name_text(spec.name)!r}: {spec.target!r} would run inside the referee, outside {where}, "
                "reading every hand and the deal key: run the bot as a command instead (python FILE.py)"
            )
    return None


def command_problem(command: str) -> str | None:
    """Why ``command`` cannot be split into a program and its arguments, or None."""
    if "\0" in command:
        return "it holds a NUL character"
    try:
        argv = shlex.split(command)
    except ValueError as error:
        return str(error).lower()
    return None if argv and argv[0] else "it names no program"


def kind_of(target: str) -> BotKind:
    """The kind of bot ``target`` names, by its form."""
    if IN_PROCESS.match(target) and " " not in target:
        return BotKind.MODULE
    if target.startswith(SUBMISSION):
        return BotKind.SUBMISSION
    if _ADDRESS.match(target) or (is_unix_address(target) and " " not in target):
        return BotKind.ADDRESS
    return BotKind.COMMAND
