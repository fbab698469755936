"""Per-league fan-out of events to any number of watchers, each with a bounded backlog.

A watcher that falls :data:`BACKLOG` events behind is dropped (its stream ends with
RESOURCE_EXHAUSTED) rather than holding the referee's memory; when the referee stops, every stream
ends with UNAVAILABLE. Streams are limited per entrant, its own token's and its bots' together
(:data:`MAX_WATCHERS_PER_ENTRANT`), and in all (:data:`MAX_WATCHERS`), the last :data:`ADMIN_RESERVED`
of them kept for the admin token, so no one entrant can lock the others out.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from rage_sdk.pb import referee_pb2 as pb

from .auth import holder_text
from .errors import ContestError, ResourceExhausted, Unavailable

BACKLOG = 2000
MAX_WATCHERS = 200
MAX_WATCHERS_PER_ENTRANT = 20
"""Streams of one entrant (its token and its bots' tokens), or of one token without an entrant (the admin's)."""
ADMIN_RESERVED = 20
"""Of :data:`MAX_WATCHERS`, the streams only the admin token may open."""
IDLE_SECONDS = 600.0
"""A stream on a league that is not running, with no games left in progress, ends after this long without an event."""


class Watcher:
    """One Watch stream's queue; ``None`` in it ends the stream (with :attr:`refusal`, if set)."""

    def __init__(self, league: str, holder: str = "") -> None:
        self.league = league
        self.holder = holder
        """Whom the stream counts against (:attr:`~.auth.Caller.holder`)."""
        self.queue: asyncio.Queue[pb.LeagueEvent | None] = asyncio.Queue()
        self.refusal: ContestError | None = None

    async def next(self, timeout: float | None = None) -> pb.LeagueEvent | None:
        """The next event, ``None`` at the end; :class:`TimeoutError` after ``timeout`` seconds without one."""
        return await asyncio.wait_for(self.queue.get(), timeout)

    @property
    def pending(self) -> bool:
        """Whether events are queued still (one may arrive just as a wait for it times out)."""
        return not self.queue.empty()

    def end(self, refusal: ContestError | None = None) -> None:
        self.refusal = refusal
        self.queue.put_nowait(None)


class EventHub:
    def __init__(self) -> None:
        self._watchers: dict[str, set[Watcher]] = defaultdict(set)

    def subscribe(self, league: str, holder: str = "", admin: bool = False) -> Watcher:
        """A new stream on ``league`` for ``holder`` (:attr:`~.auth.Caller.holder`).

        :raises ResourceExhausted: the holder has :data:`MAX_WATCHERS_PER_ENTRANT` streams open, or the
            referee all it serves (for any token but the admin's, all but :data:`ADMIN_RESERVED`).
        """
        watchers = [watcher for group in self._watchers.values() for watcher in group]
        if sum(watcher.holder == holder for watcher in watchers) >= MAX_WATCHERS_PER_ENTRANT:
            raise ResourceExhausted(
                f"{holder_text(holder)} has {MAX_WATCHERS_PER_ENTRANT} Watch streams open already; close one first"
            )
        if len(watchers) >= (MAX_WATCHERS if admin else MAX_WATCHERS - ADMIN_RESERVED):
            raise ResourceExhausted(f"the referee serves {len(watchers)} watchers already; try again later")
        watcher = Watcher(league, holder)
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
