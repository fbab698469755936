"""The services any caller may use without a token, health and reflection, work and hold few of the
referee's calls: streams left open there leave room for every call with a token (in process, on loopback)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rage_referee.hosted import server
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.submissions import SandboxPolicy

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
DEADLINE = 10.0


def run(tmp_path: Path, scenario: Callable[[grpc.aio.Channel], Awaitable[None]]) -> None:
    async def main() -> None:
        url = f"sqlite:///{tmp_path / 'contest.sqlite'}"
        contest = Contest.open(url, ADMIN, ENTRY, AllowList.parse(LOOPBACK), tmp_path / "s", SandboxPolicy(None))
        grpc_server, port = await server.create_server(contest, 0, "127.0.0.1")
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                await scenario(channel)
        finally:
            await grpc_server.stop(0)
            contest.close()

    asyncio.run(asyncio.wait_for(main(), DEADLINE * 3))


def health_watch(channel: grpc.aio.Channel) -> Any:
    return health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest(), timeout=DEADLINE)


def test_health_watch_says_serving(tmp_path: Path) -> None:
    async def scenario(channel: grpc.aio.Channel) -> None:
        watch = health_watch(channel)
        assert (await watch.read()).status == health_pb2.HealthCheckResponse.SERVING
        watch.cancel()

    run(tmp_path, scenario)
