"""Per-league fan-out of events to any number of watchers, each with a bounded backlog.

A watcher that falls :data:`BACKLOG` events behind is dropped (its stream ends with
RESOURCE_EXHAUSTED) rather than holding the referee's memory; when the referee stops, every stream
ends with UNAVAILABLE.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from rage_sdk.pb import referee_pb2 as pb

from .errors import ContestError, ResourceExhausted, Unavailable

BACKLOG = 2000
MAX_WATCHERS = 200


class Watcher:
    """One Watch stream's queue; ``None`` in it ends the stream (with :attr:`refusal`, if set)."""

    def __init__(self, league: str) -> None:
        self.league = league
        self.queue: asyncio.Queue[pb.LeagueEvent | None] = asyncio.Queue()
        self.refusal: ContestError | None = None

    async def next(self) -> pb.LeagueEvent | None:
        return await self.queue.get()

    def end(self, refusal: ContestError | None = None) -> None:
        self.refusal = refusal
        self.queue.put_nowait(None)


class EventHub:
    def __init__(self) -> None:
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)

    def subscribe(self, league: str) -> Watcher:
        if sum(map(len, self._watchers.values())) >= MAX_WATCHERS:
            raise ResourceExhausted(f"the referee serves {MAX_WATCHERS} watchers already; try again later")
        watcher = Watcher(league)
        self._watchers[league].add(watcher)
        return watcher

    def unsubscribe(self, watcher: Watcher) -> None:
        watchers = self._watchers.get(watcher.league)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.league]

    def publish(self, event: pb.LeagueEvent) -> None:
        for watcher in list(self._watchers.get(event.league, ())):
            if watcher.queue.qsize() >= BACKLOG:
                self.unsubscribe(watcher)
                watcher.end(ResourceExhausted("the watcher fell too far behind; watch again"))
            else:
                watcher.queue.put_nowait(event)

    def close(self, league: str) -> None:
        """End every stream watching ``league`` (it is over)."""
        for watcher in self._watchers.pop(league, set()):
            watcher.end()

    def shutdown(self) -> None:
        """End every stream: the referee is stopping."""
        for league in list(self._watchers):
            for watcher in self._watchers.pop(league):
                watcher.end(Unavailable("the referee is stopping; watch again once it is back"))
