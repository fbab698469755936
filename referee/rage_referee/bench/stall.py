"""How long the hosted referee's event loop stands still while a big league is created (``rage bench create-league``).

A ticker on the loop wakes every few milliseconds; the longest gap between two wakes, less the tick,
is the stall every other call waited through. The baseline reads the same definition on the loop
itself, as :meth:`RefereeServicer.CreateLeague` once did; the figure is a ``CreateLeague`` call over
gRPC on loopback, to a referee on a scratch database.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc

from ..hosted.addresses import LOOPBACK, AllowList
from ..hosted.auth import new_token, token_hash
from ..hosted.contest import Contest
from ..hosted.definition import read_definition
from ..hosted.server import create_server
from ..league.schedule import schedule_size

TICK = 0.002
BOTS = 8
PLAYERS = 4


@dataclass(frozen=True)
class Stall:
    seconds: float
    """How long the call took."""
    longest_stall: float
    """The longest the event loop stood still meanwhile."""

    def to_json(self) -> dict[str, float]:
        return {"seconds": self.seconds, "longest_stall_s": self.longest_stall}


def definition(name: str, games: int) -> str:
    bots = ", ".join(f'"bot{number}"' for number in range(BOTS))
    return f'name = "{name}"\nplayers = {PLAYERS}\ngames = {games}\nbots = [{bots}]\n[ruleset]\npreset = "amigo"\n'


def league_games(games: int) -> int:
    """The games the league of :func:`definition` plays for ``games`` asked: whole rounds, a duplicate set at
    each of its 70 tables (840 games a round)."""
    return schedule_size([f"bot{number}" for number in range(BOTS)], PLAYERS, games=games)[1]


async def _timed(call: Callable[[], Awaitable[Any]]) -> Stall:
    gaps = [0.0]
    running = True

    async def ticker() -> None:
        last = time.perf_counter()
        while running:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            gaps.append(now - last - TICK)
            last = now

    ticks = asyncio.create_task(ticker())
    await asyncio.sleep(TICK * 2)
    started = time.perf_counter()
    await call()
    took = time.perf_counter() - started
    running = False
    await ticks
    return Stall(took, max(gaps))


async def measure(games: int) -> tuple[Stall, Stall]:
    """The baseline (the definition read on the loop) and ``CreateLeague`` of a league of ``games`` games."""
    admin = new_token()
    with tempfile.TemporaryDirectory() as scratch:
        contest = Contest.open(
            f"sqlite:///{Path(scratch) / 'bench.sqlite'}", admin, new_token(), AllowList.parse(LOOPBACK)
        )
        for number in range(BOTS):
            contest.registry.add_bot(f"bot{number}", f"127.0.0.1:{9 + number}", "", token_hash(new_token()))
        registered = {bot.name: bot.address for bot in contest.registry.bots()}
        server, port = await create_server(contest, 0, "127.0.0.1")
        try:

            async def on_the_loop() -> None:
                read_definition(definition("baseline", games), "", registered)

            async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
                request = pb.CreateLeagueRequest(definition=definition("bench", games))
                metadata = [("authorization", f"Bearer {admin}")]
                baseline = await _timed(on_the_loop)
                created = await _timed(lambda: stub.CreateLeague(request, metadata=metadata, timeout=600))
        finally:
            await server.stop(0)
            contest.close()
    return baseline, created
