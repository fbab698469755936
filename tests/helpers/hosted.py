"""Hosted tests' shared set-up: a contest served in-process on a free loopback port, torn down after."""

from __future__ import annotations

import io
import re
import socket
import tarfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import grpc
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.server import create_server
from rage_referee.seats.local import load_bot_class
from rage_referee.submissions.manifest import MANIFEST
from rage_referee.submissions.pack import pack
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.server import start_server

from tests.helpers.league import RANDOM


def named(manifest: str, name: str) -> str:
    """``manifest`` (a rage-bot.toml's text) naming the bot ``name``."""
    return re.sub(r'^name = ".*"$', f'name = "{name}"', manifest, count=1, flags=re.MULTILINE)


def pack_as(folder: Path, name: str) -> bytes:
    """``folder`` packed as :func:`~rage_referee.submissions.pack.pack` does, its rage-bot.toml naming the bot
    ``name`` (the folder is left as it is): the referee takes a bot only under the name its manifest gives."""
    manifest = (folder / MANIFEST).read_text()
    if named(manifest, name) == manifest:
        return pack(folder)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            if path != folder / MANIFEST:
                tar.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
        data = named(manifest, name).encode()
        info = tar.gettarinfo(folder / MANIFEST, arcname=MANIFEST)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def ipv6_loopback() -> bool:
    """Whether this machine has IPv6 on its loopback (``::1`` can be bound)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@asynccontextmanager
async def random_bots(count: int) -> AsyncIterator[list[str]]:
    """``count`` random bots served in this process, each on a free loopback port: their addresses.

    A league of bots nobody serves fails (none could be reached); these answer, quickly."""
    servers = []
    try:
        for _ in range(count):
            server, port = await start_server(load_bot_class(RANDOM), 0, "127.0.0.1")
            servers.append((server, f"127.0.0.1:{port}"))
        yield [address for _, address in servers]
    finally:
        for server, _ in servers:
            await server.stop(0)


@asynccontextmanager
async def serving(contest: Contest, host: str = "127.0.0.1") -> AsyncIterator[Any]:
    """A stub of ``contest`` served on a free port of ``host`` (loopback); after, its leagues, hub, server and
    database closed."""
    server, port = await create_server(contest, 0, host)
    try:
        async with grpc.aio.insecure_channel(f"[{host}]:{port}" if ":" in host else f"{host}:{port}") as channel:
            yield referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
    finally:
        await contest.leagues.close(1.0)
        contest.hub.shutdown()
        await server.stop(0)
        contest.close()
