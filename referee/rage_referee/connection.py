"""Connections to bots: one long-lived, batched stream per remote bot, or a direct in-process call.

A :class:`Connection` carries every game the referee runs with one bot. A game's start and
events are held until the referee next needs that seat (a decision, or the game's end) and go
out in the same :class:`GameMessage`; messages for several games that are ready at once go out
together in one stream message. ``decide`` never waits longer than the timeout it is given.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rage_sdk import wire
from rage_sdk.bot import BotFactory, BotRunner, bot_class_of
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.pb import bot_pb2_grpc

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
HELLO_TIMEOUT = 5.0
MAX_BATCH = 64
BATCH_WAIT = 0.001
"""Seconds a write waits for more messages while other requests on the stream are outstanding: with many
games in flight, fuller batches cost less CPU per decision than they add in latency (``rage bench protocol``)."""
UNSOLICITED_LIMIT = 1000
"""Decisions nobody asked for (not late answers) before a connection counts as flooding and is cut."""


class ConnectionLost(Exception):
    """The bot's stream ended or failed; the message says how."""


class SeatTimeout(Exception):
    """No decision in time."""


class HandshakeError(Exception):
    """The bot could not be greeted, or speaks another protocol version."""


@dataclass(frozen=True)
class BotIdentity:
    name: str
    version: str


@dataclass
class _Held:
    start: pb.GameStart | None = None
    events: list[pb.Event] = field(default_factory=list)


class Connection(ABC):
    """Every game the referee runs with one bot."""

    identity: BotIdentity | None = None

    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}

    def start(self, game: int, start: pb.GameStart) -> None:
        """Tell the bot a game begins (it goes out with the game's next message)."""
        self._held.setdefault(game, _Held()).start = start

    def tell(self, game: int, event: pb.Event) -> None:
        """An event of ``game`` (it goes out with the game's next message)."""
        self._held.setdefault(game, _Held()).events.append(event)

    def _message(self, game: int, **body: pb.DecisionRequest | pb.GameEnd) -> pb.GameMessage:
        held = self._held.pop(game, None)
        if held is None:
            return pb.GameMessage(game=game, **body)
        return pb.GameMessage(game=game, start=held.start, events=held.events, **body)

    def end(self, game: int, end: pb.GameEnd) -> None:
        """The game is over: send what is held, with the totals, places and the seat's faults."""
        self._deliver(self._message(game, end=end))

    async def decide(self, game: int, request: pb.DecisionRequest, timeout: float | None) -> pb.Decision:
        """Send what is held with a decision request, and wait for the answer.

        :raises SeatTimeout: no answer within ``timeout`` seconds.
        :raises ConnectionLost: the stream is gone.
        """
        return await self._ask(self._message(game, request=request), timeout)

    @abstractmethod
    async def open(self) -> BotIdentity:
        """Greet the bot and open the stream; :class:`HandshakeError` if it cannot be done."""

    @abstractmethod
    def _deliver(self, message: pb.GameMessage) -> None: ...

    @abstractmethod
    async def _ask(self, message: pb.GameMessage, timeout: float | None) -> pb.Decision: ...

    @abstractmethod
    async def close(self) -> None:
        """End the stream (pending decisions fail with :class:`ConnectionLost`)."""

    @property
    @abstractmethod
    def alive(self) -> bool: ...


class LocalConnection(Connection):
    """A bot in the referee's own process: the same messages, handed over by a function call.

    For fast local testing. The bot runs on the referee's thread, so deadlines are not enforced.
    """

    def __init__(self, factory: BotFactory) -> None:
        super().__init__()
        self.factory = factory
        self.runner = BotRunner(factory)

    async def open(self) -> BotIdentity:
        bot_class = bot_class_of(self.factory)
        self.identity = BotIdentity(bot_class.display_name(), bot_class.version)
        return self.identity

    def _deliver(self, message: pb.GameMessage) -> None:
        self.runner.handle([message])

    async def _ask(self, message: pb.GameMessage, timeout: float | None) -> pb.Decision:
        return self.runner.handle([message])[0]

    async def close(self) -> None:
        self.runner = BotRunner(self.factory)
        self._held.clear()

    @property
    def alive(self) -> bool:
        return True


class RemoteConnection(Connection):
    """A bot served over gRPC at ``address``: one ``Play`` stream, batched both ways."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address
        self._channel: grpc.aio.Channel | None = None
        self._call: grpc.aio.StreamStreamCall | None = None
        self._outbox: asyncio.Queue[pb.GameMessage | None] = asyncio.Queue()  # None ends the stream
        self._pending: dict[tuple[int, int], asyncio.Future[pb.Decision]] = {}
        self._expired: set[tuple[int, int]] = set()
        self._reader: asyncio.Task[None] | None = None
        self._failure: str | None = "not connected"
        self.unsolicited = 0

    @property
    def alive(self) -> bool:
        return self._failure is None

    async def open(self) -> BotIdentity:
        await self.close()
        self._channel = grpc.aio.insecure_channel(
            self.address,
            options=[
                ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            ],
        )
        stub = bot_pb2_grpc.BotStub(self._channel)  # type: ignore[no-untyped-call]
        request = pb.HelloRequest(protocol_version=wire.PROTOCOL_VERSION, referee="rage-arena referee")
        try:
            reply = await stub.Hello(request, timeout=HELLO_TIMEOUT)
        except grpc.aio.AioRpcError as error:
            await self.close()
            detail = f"{error.code().name} {error.details() or ''}".strip()
            raise HandshakeError(f"{self.address}: Hello failed: {detail}") from None
        if reply.protocol_version != wire.PROTOCOL_VERSION:
            await self.close()
            raise HandshakeError(
                f"{self.address}: bot {reply.name!r} speaks protocol version {reply.protocol_version}, "
                f"this referee speaks {wire.PROTOCOL_VERSION}"
            )
        self.identity = BotIdentity(reply.name or self.address, reply.version)
        self.unsolicited = 0
        self._outbox = asyncio.Queue()
        self._call = stub.Play(self._batches())
        self._failure = None
        self._reader = asyncio.create_task(self._read())
        return self.identity

    async def _batches(self) -> AsyncIterator[pb.RefereeBatch]:
        """Everything ready to go, in as few stream messages as possible, until ``None`` ends it."""
        while True:
            first = await self._outbox.get()
            if first is None:
                return
            messages = [first]
            if len(self._pending) > 1:
                await asyncio.sleep(BATCH_WAIT)  # others are in flight: let their next requests join
            while not self._outbox.empty() and len(messages) < MAX_BATCH:
                following = self._outbox.get_nowait()
                if following is None:
                    yield pb.RefereeBatch(messages=messages)
                    return
                messages.append(following)
            yield pb.RefereeBatch(messages=messages)

    async def _read(self) -> None:
        assert self._call is not None
        try:
            async for batch in self._call:
                for decision in batch.decisions:
                    key = (decision.game, decision.seq)
                    future = self._pending.pop(key, None)
                    if future is not None:
                        if not future.done():
                            future.set_result(decision)
                    elif key in self._expired:
                        self._expired.discard(key)  # a late answer: its timeout was charged already
                    else:
                        self.unsolicited += 1
                        if self.unsolicited > UNSOLICITED_LIMIT:
                            self._fail(f"{self.unsolicited} decisions nobody asked for (flooding)")
                            self._call.cancel()
                            return
            self._fail("the bot closed its stream")
        except grpc.aio.AioRpcError as error:
            self._fail(f"stream failed: {error.code().name} {error.details() or ''}".strip())
        except asyncio.CancelledError:
            self._fail("stream closed by the referee")
            raise

    def _fail(self, why: str) -> None:
        if self._failure is None:
            self._failure = why
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost(why))
        self._pending.clear()

    def _deliver(self, message: pb.GameMessage) -> None:
        if self._failure is None:
            self._outbox.put_nowait(message)

    async def _ask(self, message: pb.GameMessage, timeout: float | None) -> pb.Decision:
        if self._failure is not None:
            raise ConnectionLost(self._failure)
        key = (message.game, message.request.seq)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[pb.Decision] = loop.create_future()
        self._pending[key] = future
        self._outbox.put_nowait(message)
        timer = None if timeout is None else loop.call_later(timeout, self._expire, key)
        try:
            return await future
        finally:
            if timer is not None:
                timer.cancel()

    def _expire(self, key: tuple[int, int]) -> None:
        future = self._pending.pop(key, None)
        if future is not None and not future.done():
            self._expired.add(key)
            future.set_exception(SeatTimeout())

    async def close(self, grace: float = 2.0) -> None:
        """Send what is queued and end the stream (the bot's answer to it ends too), then let go."""
        if self._call is not None and self._failure is None and self._reader is not None:
            self._outbox.put_nowait(None)
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._reader), grace)
        if self._call is not None:
            self._call.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self._reader = None
        self._fail("closed")
        self._held.clear()
        if self._channel is not None:
            await self._channel.close()
        self._channel = self._call = None


async def wait_healthy(address: str, timeout: float) -> bool:
    """Poll the standard health service at ``address`` until it says SERVING, or ``timeout`` passes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while loop.time() < deadline:
            try:
                reply = await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.aio.AioRpcError:
                pass
            await asyncio.sleep(0.05)
    return False
