"""Resuming a paused league whose games in progress are still finishing (in process, on loopback):
the call returns at once, the organizer's other calls are not held up meanwhile, and the league then
plays every game once, the new run starting when the paused one has ended."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import grpc
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.seats.local import load_bot_class
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.server import BotServicer, start_server

from tests.helpers.hosted import serving
from tests.helpers.league import RANDOM

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
PROMPTLY = 5.0
"""Seconds an organizer's call may take here: the games held at the gate would take for ever."""
GAMES = 6
DEFINITION = (
    f'name = "cup"\nplayers = 3\ngames = {GAMES}\nconcurrency = 3\nbots = ["gated", "r1", "r2"]\n'
    '[ruleset]\npreset = "amigo"\nrounds = [2, 1]\n[time]\ndecision_ms = 60000\n'
)


class GatedServicer(BotServicer):
    """A bot whose decisions wait until :attr:`gate` opens; :attr:`waiting` is set once one does."""

    def __init__(self) -> None:
        super().__init__(load_bot_class(RANDOM))
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def Play(self, request_iterator: Any, context: Any) -> AsyncIterator[Any]:
        async for reply in super().Play(self._held(request_iterator), context):
            yield reply

    async def _held(self, batches: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for batch in batches:
            self.waiting.set()
            await self.gate.wait()
            yield batch


async def call(stub: Any, method: str, league: str = "cup") -> pb.LeagueInfo:
    metadata = [("authorization", f"Bearer {ADMIN}")]
    reply: pb.LeagueInfo = await getattr(stub, method)(pb.LeagueRequest(league=league), metadata=metadata)
    return reply


async def promptly(stub: Any, method: str, league: str = "cup") -> pb.LeagueInfo:
    try:
        return await asyncio.wait_for(call(stub, method, league), PROMPTLY)
    except TimeoutError:
        raise AssertionError(f"{method} {league} waited for the paused games in progress") from None


def test_resuming_while_the_paused_games_finish_returns_at_once_and_plays_every_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        contest = Contest.open(f"sqlite:///{tmp_path / 'contest.sqlite'}", ADMIN, ENTRY, AllowList.parse(LOOPBACK))
        gated = GatedServicer()
        servicers: dict[str, BotServicer] = {"gated": gated}
        servicers |= {name: BotServicer(load_bot_class(RANDOM)) for name in ("r1", "r2")}
        async with AsyncExitStack() as stack:
            for name, servicer in servicers.items():
                server, port = await start_server(servicer.factory, 0, "127.0.0.1", servicer)
                stack.push_async_callback(server.stop, 0)
                contest.registry.add_bot(name, f"127.0.0.1:{port}", "", token_hash(f"{name}-token-0123456789"))
            stub = await stack.enter_async_context(serving(contest))
            metadata = [("authorization", f"Bearer {ADMIN}")]
            await stub.CreateLeague(pb.CreateLeagueRequest(definition=DEFINITION), metadata=metadata)
            second = DEFINITION.replace('"cup"', '"other"')
            await stub.CreateLeague(pb.CreateLeagueRequest(definition=second), metadata=metadata)
            await call(stub, "StartLeague")
            await asyncio.wait_for(gated.waiting.wait(), PROMPTLY)  # games in progress, held at the gate
            await promptly(stub, "PauseLeague")
            paused, _ = contest.leagues._runs["cup"]
            resumed = await promptly(stub, "ResumeLeague")
            assert resumed.status == pb.LEAGUE_STATUS_RUNNING
            assert contest.store.count(1) == 0, "the paused games finished meanwhile: nothing was tested"
            # a bot moved meanwhile is called at its new address by the paused run's games too
            address = contest.registry.bot("r1").address
            contest.leagues.readdress("r1", "127.0.0.1:1")
            assert paused.runner is not None and paused.runner.bots["r1"].target == "127.0.0.1:1"
            contest.leagues.readdress("r1", address)  # back: the games go on against it
            # the organizer's calls on other leagues go on meanwhile
            assert (await promptly(stub, "CancelLeague", "other")).status == pb.LEAGUE_STATUS_CANCELLED
            gated.gate.set()
            for _ in range(int(60 / 0.05)):
                (info,) = [
                    league
                    for league in (await stub.ListLeagues(pb.ListLeaguesRequest(), metadata=metadata)).leagues
                    if league.name == "cup"
                ]
                if info.status != pb.LEAGUE_STATUS_RUNNING:
                    break
                await asyncio.sleep(0.05)
            assert (info.status, info.games_done) == (pb.LEAGUE_STATUS_FINISHED, GAMES)
            assert sorted(game.index for game in contest.store.games(1, False)) == list(range(GAMES))

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    except grpc.aio.AioRpcError as error:
        raise AssertionError(f"a call failed: {error.code()} {error.details()}") from None
