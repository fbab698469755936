"""The builds' queue: a number of slots (``rage referee serve --build-slots``), handed out in turn by entrant.

A slot that comes free goes to the waiting entrant served longest ago (one never served first, then
in the order they came), so an entrant with many builds waiting delays another's by one build at
most, however many it queues. An entrant has at most :data:`MAX_BUILDS_PER_ENTRANT` builds waiting
or running.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections import Counter, deque
from collections.abc import AsyncIterator

from .auth import holder_text
from .errors import ResourceExhausted

MAX_BUILDS_PER_ENTRANT = 2
"""Builds one entrant (or one token without an entrant) may have waiting or running at once."""


class BuildQueue:
    """At most ``slots`` builds at once; the others wait, served round robin by holder."""

    def __init__(self, slots: int = 1) -> None:
        if slots < 1:
            raise ValueError("build slots: at least 1")
        self.slots = slots
        self._running = 0
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        """The turns waiting, by holder, in the order the holders came."""
        self._held: Counter[str] = Counter()
        """Builds waiting or running, by holder."""
        self._served: dict[str, int] = {}
        """When each holder was last given a slot (a count of slots given)."""
        self._given = itertools.count()

    @property
    def waiting(self) -> int:
        """Builds waiting for a slot."""
        return sum(len(turns) for turns in self._waiting.values())

    @contextlib.asynccontextmanager
    async def slot(self, holder: str) -> AsyncIterator[None]:
        """A build slot for ``holder`` (:attr:`~.auth.Caller.holder`), held to the block's end.

        :raises ResourceExhausted: the holder has :data:`MAX_BUILDS_PER_ENTRANT` builds waiting or running.
        """
        if self._held[holder] >= MAX_BUILDS_PER_ENTRANT:
            raise ResourceExhausted(
                f"{holder_text(holder)} has {MAX_BUILDS_PER_ENTRANT} builds queued already; wait for one to finish"
            )
        self._held[holder] += 1
        try:
            await self._take(holder)
            try:
                yield
            finally:
                self._give_back()
        finally:
            self._held[holder] -= 1
            if not self._held[holder]:
                del self._held[holder]

    async def _take(self, holder: str) -> None:
        if self._running < self.slots and not self._waiting:
            self._running += 1
            self._served[holder] = next(self._given)
            return
        turn = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(holder, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give_back()  # given the slot just as the wait was cancelled
            else:
                self._forget(holder, turn)
            raise

    def _forget(self, holder: str, turn: asyncio.Future[None]) -> None:
        turns = self._waiting.get(holder)
        if turns is not None and turn in turns:
            turns.remove(turn)
            if not turns:
                del self._waiting[holder]

    def _give_back(self) -> None:
        """A slot freed: to the waiting holder served longest ago, else free."""
        if not self._waiting:
            self._running -= 1
            return
        holder = min(self._waiting, key=lambda name: self._served.get(name, -1))
        turns = self._waiting[holder]
        turn = turns.popleft()
        if not turns:
            del self._waiting[holder]
        self._served[holder] = next(self._given)
        turn.set_result(None)
