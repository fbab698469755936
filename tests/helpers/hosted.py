"""Hosted tests' shared set-up: a contest served in-process on a free loopback port, torn down after."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import grpc
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.server import create_server
from rage_referee.seats.local import load_bot_class
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.server import start_server

from tests.helpers.league import RANDOM


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
