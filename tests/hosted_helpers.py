"""Hosted tests' shared set-up: a contest served in-process on a free loopback port, torn down after."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import grpc
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.server import create_server
from rage_sdk.pb import referee_pb2_grpc


@asynccontextmanager
async def serving(contest: Contest) -> AsyncIterator[Any]:
    """A stub of ``contest`` served on a free loopback port; after, its leagues, hub, server and database closed."""
    server, port = await create_server(contest, 0, "127.0.0.1")
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
    finally:
        await contest.leagues.close(1.0)
        contest.hub.shutdown()
        await server.stop(0)
        contest.close()
