"""One bot as a game sees it: its spec, its connection, its process if the referee runs it; started and restarted."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..sandbox import Sandbox
from ..submissions.store import Submission
from ..text import name_text
from .backoff import Backoff
from .connection import BotIdentity, Connection
from .errors import HandshakeError
from .process import BotProcess, ending
from .remote import Dispatcher, RemoteConnection
from .spec import BotKind, BotSpec, BotSpecError
from .transports import TRANSPORTS

MAX_RESTARTS = 3
EXIT_WAIT = 0.5
"""Seconds a launched bot whose handshake failed is given to be seen exiting, if it is exiting."""
MOVE_GRACE = 60.0
"""Seconds a moved bot's stream at its old address has to answer what it was asked before it is closed."""


@dataclass
class BotHandle:
    """One bot in a match: its spec, its process if the referee runs it, and its connection."""

    spec: BotSpec
    log_dir: Path
    connection: Connection | None = None
    process: BotProcess | None = None
    restarts: int = 0
    """How often the bot was restarted: a new connection knows no game until told again."""
    relaunches: int = 0
    """How many of the :attr:`restarts` launched the bot's process afresh; the others connected to it again."""
    restarts_before_move: int = 0
    """:attr:`restarts` when the bot was last moved (:meth:`readdress`): at its new address it has
    :data:`MAX_RESTARTS` afresh."""
    sandbox: Sandbox | None = None
    """The sandbox a launched command runs in; none: with the referee's rights."""
    submission: Submission | None = None
    """For a ``submission:`` bot, its stored and built version."""
    dispatcher: Dispatcher = field(default_factory=Dispatcher)
    """Paces the writes of the remote connections that share it (a runner's bots share one)."""
    backoff: Backoff = field(default_factory=Backoff, repr=False)
    """When a bot at an address that does not answer is called again (:meth:`restart_once`)."""
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    _retiring: set[asyncio.Task[None]] = field(default_factory=set, repr=False)
    """The closing of streams at addresses the bot moved from."""

    async def start(self) -> BotIdentity:
        """Launch or load the bot (its kind's transport), greet it and open its stream."""
        self.connection = await TRANSPORTS[self.spec.kind](self)
        return await self._greet()

    async def _greet(self) -> BotIdentity:
        """Open the connection; a launched bot that exits meanwhile is said to have, with its last words."""
        assert self.connection is not None
        try:
            return await self.connection.open()
        except HandshakeError as error:
            code = None if self.process is None else await self.process.exit_code(EXIT_WAIT)
            if code is None:
                raise
            assert self.process is not None
            raise HandshakeError(f"{error}; the bot {ending(code)}{await self.process.last_words_shown()}") from None

    @property
    def identity(self) -> BotIdentity | None:
        """Who the bot said it is at its last handshake (a moved or restarted bot may say otherwise), if any."""
        return None if self.connection is None else self.connection.identity

    async def restart_once(self) -> None:
        """After a crash: relaunch the process if it died and reconnect, at most ``MAX_RESTARTS`` times
        (at an address, since the bot last moved there). A bot at an address is called after the wait its
        unanswered calls have earned (:class:`~.backoff.Backoff`); a call it does not answer is no restart.

        :raises HandshakeError: when the bot cannot be brought back.
        """
        async with self._lock:
            if self.connection is not None and self.connection.alive:
                return  # another game brought it back meanwhile
            assert self.connection is not None
            restarted = self.restarts - self.restarts_before_move
            if restarted >= MAX_RESTARTS:
                raise HandshakeError(self._not_again(self.connection, restarted))
            if self.process is None and self.spec.kind is BotKind.ADDRESS:
                await self._call_again()
                return
            self.restarts += 1
            if self.process is not None:
                if self.process.running:
                    with contextlib.suppress(HandshakeError):
                        await self.connection.open()
                        return
                # Dead, or alive but not answering: launch it afresh.
                assert isinstance(self.connection, RemoteConnection)
                self.relaunches += 1
                self.connection.address = await self.process.start()
            await self._greet()

    def _not_again(self, connection: Connection, restarted: int) -> str:
        """Why the bot is not brought back: how its connection was lost this time, and how it was brought back
        before (a bot that could not make its bot ended its stream; its process ran on, and was connected again)."""
        if self.relaunches == 0:
            how = "connected again"
        elif self.relaunches == self.restarts:
            how = "relaunched"
        else:
            how = "relaunched or connected again"
        return f"{name_text(self.spec.name)}: {connection.failure}; it was {how} {restarted} times already, not again"

    async def _call_again(self) -> None:
        """Greet a bot at an address again, once its wait is over; a failed call makes the next wait longer."""
        await self.backoff.wait()
        try:
            await self._greet()
        except HandshakeError:
            self.backoff.failed()
            raise
        self.backoff.reset()
        self.restarts += 1

    def readdress(self, address: str) -> None:
        """Call a bot that serves at an address at ``address`` from now on, with :data:`MAX_RESTARTS` afresh.

        Each game's next decision of it goes to a new connection there, which is told the game so far (as
        after a restart); the stream at the old address answers what it was asked already, then closes
        (within :data:`MOVE_GRACE` seconds). The same address again keeps the stream open.
        """
        if self.spec.kind is not BotKind.ADDRESS:
            return
        moved = address != self.spec.target
        self.spec = replace(self.spec, target=address)
        self.restarts_before_move = self.restarts
        self.backoff.reset()
        old = self.connection
        if not moved or not isinstance(old, RemoteConnection):
            return
        self.connection = RemoteConnection(address, self.dispatcher)  # opened at its first decision
        self.connection.identity = old.identity  # who it is until it says otherwise there
        closing = asyncio.get_running_loop().create_task(old.close(MOVE_GRACE))
        self._retiring.add(closing)
        closing.add_done_callback(self._retiring.discard)

    async def stop(self) -> None:
        """Close the connection (what is queued is sent first) and end the process, if the referee runs it."""
        for closing in list(self._retiring):
            closing.cancel()
        await asyncio.gather(*self._retiring, return_exceptions=True)
        if self.connection is not None:
            await self.connection.close()
        if self.process is not None:
            await self.process.stopped()


async def start_all(handles: Iterable[BotHandle], keep_going: bool = False) -> dict[str, str]:
    """Start every bot at once; if one cannot start, stop the others' starts too and raise its error.

    With ``keep_going`` the others start regardless: the bots that could not start are returned,
    each name with why.
    """
    handles = list(handles)
    if keep_going:
        tasks = [asyncio.create_task(handle.start()) for handle in handles]
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        failed = {}
        for handle, outcome in zip(handles, outcomes, strict=True):
            if isinstance(outcome, HandshakeError | BotSpecError):
                failed[handle.spec.name] = str(outcome)
            elif isinstance(outcome, BaseException):
                raise outcome
        return failed
    tasks = [asyncio.create_task(_start_named(handle)) for handle in handles]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return {}


async def _start_named(handle: BotHandle) -> BotIdentity:
    """Start ``handle``; a failure to start names the bot (its address or command alone may not)."""
    try:
        return await handle.start()
    except (HandshakeError, BotSpecError) as error:
        raise type(error)(f"{name_text(handle.spec.name)}: {error}") from None
