"""The services any caller may use without a token, health and reflection, work and hold few of the
referee's calls: streams left open there leave room for every call with a token (in process, on loopback)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from rage_referee.hosted import server, tokenless
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.submissions import SandboxPolicy
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc

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


def test_tokenless_streams_leave_room_for_calls_with_a_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "MAX_CONCURRENT_RPCS", 12)
    monkeypatch.setattr(tokenless, "MAX_TOKENLESS_STREAMS", 4, raising=False)

    async def scenario(channel: grpc.aio.Channel) -> None:
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        streams = [reflection.ServerReflectionInfo(timeout=DEADLINE) for _ in range(3)]
        for stream in streams:
            await stream.write(reflection_pb2.ServerReflectionRequest(list_services=""))
            await stream.read()
        watches = [health_watch(channel) for _ in range(12)]
        answered, refused = 0, set()
        for watch in watches:
            try:
                await watch.read()
                answered += 1
            except grpc.aio.AioRpcError as error:
                refused.add((error.code(), error.details()))
        assert answered == 1  # beside the 3 reflection streams
        assert refused == {
            (grpc.StatusCode.RESOURCE_EXHAUSTED, "4 health and reflection streams are open already; try again later")
        }
        stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
        listed = await stub.ListBots(pb.ListBotsRequest(), metadata=[("authorization", f"Bearer {ADMIN}")])
        assert list(listed.bots) == []
        for call in [*watches, *streams]:
            call.cancel()

    run(tmp_path, scenario)
