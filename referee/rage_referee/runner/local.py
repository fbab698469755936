"""Games on this machine: one event loop, ``concurrency`` games at a time, the bots as processes or in-process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Self

from ..play.spec import GameSpec
from ..seats import BotHandle, BotSpec, Dispatcher
from .base import GameRunner, OnFailed, OnFinished, StartFailure
from .isolation import Isolation, Seating, interleaved
from .tasks import all_or_cancel


class LocalRunner(GameRunner):
    """Today's asyncio loop: each game played against a process of each of its bots, as :attr:`isolation` lends it.

    The ledger is charged live, so a bot forfeited in one game is not asked in the next decision
    of any other game.
    """

    seating: Seating
    """Each bot's processes (or connection), once entered."""

    @property
    def handles(self) -> dict[str, BotHandle]:
        """Each bot's first process (or its one connection), once entered."""
        return self.seating.first

    async def __aenter__(self) -> Self:
        dispatcher = Dispatcher()  # this runner's own: another runner's batches never hold its bots up

        def handle(spec: BotSpec, log_dir: Path) -> BotHandle:
            submission = self.submissions.get(spec.name)
            return BotHandle(spec, log_dir, sandbox=self.sandbox, submission=submission, dispatcher=dispatcher)

        forfeit = self.start_failure is not StartFailure.RAISE
        self.seating = Seating(self.bots.values(), self.isolation, self.log_dir, handle, forfeit)
        playing = [name for name, h in self.handles.items() if name not in self.ledger.forfeited and h.spec.target]
        try:
            if self.start_failure is StartFailure.RAISE:
                await self.seating.start(playing, keep_going=False)
            else:
                self.unstarted = await self.seating.start(playing, keep_going=True)
        except BaseException:
            await self.seating.stop()
            raise
        if self.start_failure is StartFailure.FORFEIT:
            for name, why in self.unstarted.items():
                self.ledger.forfeit(name, f"could not start: {why}")
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.seating.stop()

    async def run(self, specs: Iterable[GameSpec], on_finished: OnFinished, on_failed: OnFailed | None = None) -> None:
        pending = iter(specs if self.isolation is Isolation.LEAGUE else interleaved(specs, self.concurrency))
        refused = False  # on_finished raised: the games still playing are dropped, none reported

        async def worker() -> None:
            nonlocal refused
            while not (self.stopping or refused):
                await asyncio.sleep(0)  # the loop runs between games (in-process games never wait): Ctrl-C, other runs
                if self.stopping or refused:
                    return
                spec = next(pending, None)
                if spec is None:
                    return
                try:
                    game = await self.seating.play(spec, self.ledger)
                except Exception as error:
                    if on_failed is None:
                        refused = True
                        raise
                    on_failed(spec, error)
                    continue
                if refused:
                    return
                try:
                    on_finished(game)
                except BaseException:
                    refused = True
                    raise

        await all_or_cancel([worker() for _ in range(self.concurrency)])

    def readdress(self, bot: str, address: str) -> None:
        super().readdress(bot, address)
        seating = getattr(self, "seating", None)
        if seating is not None:
            seating.readdress(bot, address)
