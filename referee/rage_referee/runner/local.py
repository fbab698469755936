"""Games on this machine: one event loop, ``concurrency`` games at a time, the bots as processes or in-process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from types import TracebackType
from typing import Self

from ..game import play_game
from ..game_spec import GameSpec
from ..seats import BotHandle, Dispatcher, start_all
from ..tasks import all_or_cancel
from .base import GameRunner, OnFailed, OnFinished, StartFailure


class LocalRunner(GameRunner):
    """Today's asyncio loop: each bot started once, every game of :meth:`run` played against it.

    The ledger is charged live, so a bot forfeited in one game is not asked in the next decision
    of any other game.
    """

    handles: dict[str, BotHandle]
    """Each bot's process and connection, once entered."""

    async def __aenter__(self) -> Self:
        dispatcher = Dispatcher()  # this runner's own: another runner's batches never hold its bots up
        self.handles = {
            name: BotHandle(
                spec, self.log_dir, sandbox=self.sandbox, submission=self.submissions.get(name), dispatcher=dispatcher
            )
            for name, spec in self.bots.items()
        }
        playing = [h for name, h in self.handles.items() if name not in self.ledger.forfeited and h.spec.target]
        try:
            if self.start_failure is StartFailure.RAISE:
                await start_all(playing)
            else:
                self.unstarted = await start_all(playing, keep_going=True)
        except BaseException:
            await self._stop_all()
            raise
        if self.start_failure is StartFailure.FORFEIT:
            for name, why in self.unstarted.items():
                self.ledger.forfeit(name, f"could not start: {why}")
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self._stop_all()

    async def _stop_all(self) -> None:
        await asyncio.gather(*(handle.stop() for handle in self.handles.values()), return_exceptions=True)

    async def run(self, specs: Iterable[GameSpec], on_finished: OnFinished, on_failed: OnFailed | None = None) -> None:
        pending = iter(specs)
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
                    game = await play_game(spec, self.handles, self.ledger)
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
        handle = getattr(self, "handles", {}).get(bot)
        if handle is not None:
            handle.readdress(address)
