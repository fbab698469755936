"""Watch streams on a hosted league of the example bots, served at addresses (in process, on loopback):

- every watcher with ``history`` sees every game exactly once, whenever it subscribed (before the
  start, right after it, mid-league), then the final standings and the league's last status;
- a watcher without ``history`` sees, exactly once, every game not finished when it subscribed;
- a paused league's watcher is not ended while the games in progress are still to finish.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.hosted import events, messages
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.service import RefereeServicer
from rage_referee.hosted.standings import point_table
from rage_referee.seats.local import load_bot_class
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.server import BotServicer, start_server

from tests.helpers.hosted import serving
from tests.helpers.league import GREEDY, HEURISTIC, RANDOM

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
EXAMPLE_BOTS = {"random": RANDOM, "greedy": GREEDY, "heuristic": HEURISTIC}
DEADLINE = 120.0


class SlowServicer(BotServicer):
    """A bot that takes ``delay`` seconds over each batch of decisions (without holding the loop)."""

    def __init__(self, target: str, delay: float) -> None:
        super().__init__(load_bot_class(target))
        self.delay = delay
        self.batches = 0

    async def Play(self, request_iterator: Any, context: Any) -> AsyncIterator[Any]:
        async for reply in super().Play(self._slowly(request_iterator), context):
            yield reply

    async def _slowly(self, batches: AsyncIterator[Any]) -> AsyncIterator[Any]:
        async for batch in batches:
            self.batches += 1
            await asyncio.sleep(self.delay)
            yield batch


@dataclass
class Stream:
    """One Watch stream read to its end on a task, every event kept."""

    events: list[pb.LeagueEvent] = field(default_factory=list)
    error: grpc.StatusCode | None = None
    task: asyncio.Task[None] | None = None

    def of(self, kind: str) -> list[Any]:
        return [getattr(event, kind) for event in self.events if event.WhichOneof("kind") == kind]

    async def subscribed(self) -> None:
        """Until the first event is here: the referee subscribes the stream before it sends it."""
        while not self.events:
            assert self.task is not None and not self.task.done(), f"the stream ended at once: {self.error}"
            await asyncio.sleep(0.01)


@dataclass
class Hosted:
    contest: Contest
    stub: Any

    async def call(self, method: str, request: Any) -> Any:
        metadata = [("authorization", f"Bearer {ADMIN}")]
        return await getattr(self.stub, method)(request, metadata=metadata, timeout=DEADLINE)

    async def watch(self, history: bool) -> Stream:
        stream = Stream()

        async def read() -> None:
            call = self.stub.Watch(
                pb.WatchRequest(league="cup", history=history),
                metadata=[("authorization", f"Bearer {ENTRY}")],
                timeout=DEADLINE,
            )
            try:
                async for event in call:
                    stream.events.append(event)
            except grpc.aio.AioRpcError as error:
                stream.error = error.code()

        stream.task = asyncio.create_task(read())
        await stream.subscribed()
        return stream

    async def games_done(self) -> int:
        return int((await self.call("ListLeagues", pb.ListLeaguesRequest())).leagues[0].games_done)


@asynccontextmanager
async def hosted(folder: Path, servicers: Mapping[str, BotServicer]) -> AsyncIterator[Hosted]:
    """A referee on a free loopback port with each of ``servicers`` serving and registered at its address."""
    contest = Contest.open(f"sqlite:///{folder / 'contest.sqlite'}", ADMIN, ENTRY, AllowList.parse(LOOPBACK))
    async with AsyncExitStack() as stack:
        for name, servicer in servicers.items():
            bot_server, bot_port = await start_server(servicer.factory, 0, "127.0.0.1", servicer)
            stack.push_async_callback(bot_server.stop, 0)
            contest.registry.add_bot(name, f"127.0.0.1:{bot_port}", "", token_hash(f"{name}-token-0123456789"))
        async with serving(contest) as stub:
            yield Hosted(contest, stub)


def league(games: int, duplicate: bool, concurrency: int = 4, decision_ms: int = 2000) -> str:
    return (
        f'name = "cup"\nplayers = 3\ngames = {games}\nseed = 5\nduplicate = {str(duplicate).lower()}\n'
        f'concurrency = {concurrency}\nbots = ["random", "greedy", "heuristic"]\n'
        f'[ruleset]\npreset = "amigo"\nrounds = [2, 1]\n[time]\ndecision_ms = {decision_ms}\n'
    )


def run(scenario: Any) -> None:
    asyncio.run(asyncio.wait_for(scenario(), DEADLINE))


def assert_ends_with_the_league(stream: Stream, total: int) -> None:
    """The stream ended cleanly: the last game, then standings of every game, then the finished status last."""
    assert stream.error is None, stream.error
    kinds = [event.WhichOneof("kind") for event in stream.events]
    last_game = max(index for index, kind in enumerate(kinds) if kind == "game_finished")
    assert "standings_changed" in kinds[last_game:], kinds[last_game:]
    assert stream.of("standings_changed")[-1].games == total
    final = stream.events[-1]
    assert final.WhichOneof("kind") == "status_changed", kinds[last_game:]
    assert final.status_changed.status == pb.LEAGUE_STATUS_FINISHED
    assert final.status_changed.games_done == total


@pytest.mark.slow
@pytest.mark.parametrize("duplicate", [True, False], ids=["duplicate", "no-duplicate"])
def test_every_watcher_sees_every_game_once_then_the_end(tmp_path: Path, duplicate: bool) -> None:
    async def scenario() -> None:
        servicers = {name: BotServicer(load_bot_class(target)) for name, target in EXAMPLE_BOTS.items()}
        async with hosted(tmp_path, servicers) as referee:
            total = (
                await referee.call("CreateLeague", pb.CreateLeagueRequest(definition=league(48, duplicate)))
            ).games_total
            watchers = {"before": await referee.watch(False), "before, history": await referee.watch(True)}
            await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
            watchers["started"] = await referee.watch(False)
            watchers["started, history"] = await referee.watch(True)
            while await referee.games_done() < total // 2:
                await asyncio.sleep(0.02)
            watchers["mid-league"] = await referee.watch(False)
            watchers["mid-league, history"] = await referee.watch(True)
            await asyncio.gather(*(stream.task for stream in watchers.values() if stream.task is not None))
            assert referee.contest.store.count(1) == total
            for label, stream in watchers.items():
                games = [game.game for game in stream.of("game_finished")]
                assert len(games) == len(set(games)), f"{label}: a game twice"
                if label.endswith("history") or label == "before":
                    assert sorted(games) == list(range(total)), f"{label}: {len(games)} of {total} games"
                else:  # every game not stored when it subscribed (those stored then reach it live or not at all)
                    first = stream.events[0].status_changed.games_done
                    assert len(games) >= total - first, f"{label}: {len(games)} games, {first} done at subscribing"
                assert_ends_with_the_league(stream, total)

    run(scenario)


@pytest.mark.slow
def test_a_paused_league_keeps_its_watchers_until_the_games_in_progress_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events, "IDLE_SECONDS", 0.5)  # far less than the games in progress take to finish

    async def scenario() -> None:
        servicers = {name: SlowServicer(target, 0.1) for name, target in EXAMPLE_BOTS.items()}
        async with hosted(tmp_path, servicers) as referee:
            definition = league(12, duplicate=False, concurrency=3)
            await referee.call("CreateLeague", pb.CreateLeagueRequest(definition=definition))
            stream = await referee.watch(False)
            await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
            while sum(servicer.batches for servicer in servicers.values()) < 3:
                await asyncio.sleep(0.01)  # games under way, each of them more than a second from its end
            await referee.call("PauseLeague", pb.LeagueRequest(league="cup"))
            assert stream.task is not None
            await stream.task
            while referee.contest.leagues.playing("cup"):
                await asyncio.sleep(0.05)
            stored = {game.index for game in referee.contest.store.games(1, False)}
            assert stored, "no game was in progress at the pause"
            assert sorted(game.game for game in stream.of("game_finished")) == sorted(stored)
            final = stream.events[-1].status_changed
            assert (final.status, final.games_done) == (pb.LEAGUE_STATUS_PAUSED, len(stored))

    run(scenario)


@pytest.mark.slow
def test_events_published_while_a_watcher_reads_the_league_are_not_sent_twice_nor_out_of_date(tmp_path: Path) -> None:
    """What the run publishes between a watcher's subscribing and its reading the stored games (here
    all of it: the stored games' events again, standings fitted on fewer games) is not sent after them."""

    async def scenario() -> None:
        servicers = {name: BotServicer(load_bot_class(target)) for name, target in EXAMPLE_BOTS.items()}
        async with hosted(tmp_path, servicers) as referee:
            contest = referee.contest
            await referee.call("CreateLeague", pb.CreateLeagueRequest(definition=league(24, False, concurrency=2)))
            await referee.call("StartLeague", pb.LeagueRequest(league="cup"))
            while await referee.games_done() < 3:
                await asyncio.sleep(0.01)
            await referee.call("PauseLeague", pb.LeagueRequest(league="cup"))
            while contest.leagues.playing("cup"):
                await asyncio.sleep(0.05)
            stored = contest.store.games(1, False)
            watcher = contest.hub.subscribe("cup")
            for done, game in enumerate(stored, start=1):
                for event in messages.game_events("cup", game, done, 24):
                    contest.hub.publish(event)
            contest.hub.publish(messages.standings_event("cup", point_table(stored[:1])))
            contest.hub.close("cup")
            sent = [event async for event in RefereeServicer(contest)._events("cup", watcher, True)]
            games = [event.game_finished.game for event in sent if event.WhichOneof("kind") == "game_finished"]
            assert sorted(games) == sorted(game.index for game in stored)
            tables = [
                event.standings_changed.games for event in sent if event.WhichOneof("kind") == "standings_changed"
            ]
            assert tables == [len(stored)]

    run(scenario)
