"""The remote transport: one long-lived, batched gRPC stream per bot, over TCP or a Unix socket.

Remote connections write their messages in batches paced by their :class:`Dispatcher` (one per
runner, shared by its bots), framed without copying (``proto/rage/v1/frames.proto``).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rage_sdk import wire
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.pb import bot_pb2_grpc
from rage_sdk.pb import frames_pb2 as frames

from ..faults import FaultKind
from ..text import bot_text, name_text
from .connection import Answer, BotIdentity, Connection, Key
from .errors import ConnectionLost, HandshakeError, SeatTimeout

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""The largest message a bot may send (gRPC refuses a bigger one as it comes, with RESOURCE_EXHAUSTED)."""
TOO_LARGE = re.compile(r"Received message larger than max \((\d+) vs\. \d+\)")
"""gRPC's details of a message refused for its size, which they give first."""
HELLO_TIMEOUT = 5.0
MAX_BATCH = 64
"""Messages per stream message at most (a restarted bot's messages repeat whole games)."""
PLAY = "/rage.v1.Bot/Play"
UNSOLICITED_LIMIT = 1000
"""Decisions nobody asked for (not late answers), and stream messages holding no decision, within
:data:`UNSOLICITED_WINDOW` that count as flooding."""
UNSOLICITED_WINDOW = 10.0
"""Seconds over which unsolicited decisions are counted: a long match's occasional double answer never adds up."""


class Dispatcher:
    """When remote connections write: full batches, with a bot and the referee working side by side.

    A stream message costs each Python gRPC end a few hundred microseconds however many decision
    requests it carries (``rage bench protocol``), so throughput comes from full batches. One batch
    of the connections sharing a dispatcher (a runner's) is in flight at a time: while a bot works
    on it, the requests for the other bots gather, and when it lands the fullest queue goes at once,
    before the referee works through the answers, so that the next bot works while the referee
    does. A batch lands once its requests are all answered, or ``STALE`` seconds after it went, so
    a slow bot holds the others up that long at most. A connection with ``FULL`` messages waiting
    writes at once whatever is in flight, and none waits longer than ``HOLD`` seconds.
    """

    FULL = 16
    IN_FLIGHT = 1
    HOLD = 0.004
    STALE = 0.005

    def __init__(self) -> None:
        self._waiting: dict[RemoteConnection, asyncio.Future[None]] = {}
        self._in_flight = 0
        self._scheduled = False

    async def turn(self, connection: RemoteConnection) -> None:
        """Wait for ``connection``'s turn to write; the batch it writes counts as in flight until :meth:`landed`."""
        if self._in_flight < self.IN_FLIGHT or connection.waiting >= self.FULL:
            self._in_flight += 1
            return
        loop = asyncio.get_running_loop()
        go = self._waiting[connection] = loop.create_future()
        timer = loop.call_later(self.HOLD, self._go, connection)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._dispatch)
        try:
            await go
        except BaseException:
            if go.done() and not go.cancelled():
                self.landed()  # the turn was given, but the writer is gone
            raise
        finally:
            timer.cancel()
            self._waiting.pop(connection, None)

    def landed(self) -> None:
        """A batch given a turn is answered, stale, or was never sent."""
        self._in_flight -= 1
        if self._waiting:
            self._dispatch()

    def _go(self, connection: RemoteConnection) -> None:
        go = self._waiting.pop(connection, None)
        if go is not None and not go.done():
            self._in_flight += 1
            go.set_result(None)

    def _dispatch(self) -> None:
        self._scheduled = False
        for connection in [c for c in self._waiting if c.waiting >= self.FULL]:
            self._go(connection)
        while self._waiting and self._in_flight < self.IN_FLIGHT:
            self._go(max(self._waiting, key=lambda connection: connection.waiting))


@dataclass(slots=True)
class _Asked:
    """A decision request waiting for its answer."""

    future: asyncio.Future[Answer]
    timeout: float | None
    sent: float | None = None
    """The loop's time when the request went out, in a batch written to the stream; ``None`` until then."""


class _Deadlines:
    """Many deadlines on one timer, armed for the earliest: setting one is a heap push, not a timer."""

    def __init__(self, expire: Callable[[Key, asyncio.Future[Answer]], None]) -> None:
        self._expire = expire
        self._heap: list[tuple[float, int, Key, asyncio.Future[Answer]]] = []
        self._count = itertools.count()  # orders equal times, so futures are never compared
        self._timer: asyncio.TimerHandle | None = None

    def set(self, key: Key, future: asyncio.Future[Answer], timeout: float) -> None:
        """Call ``expire(key, future)`` in ``timeout`` seconds unless ``future`` is done by then."""
        loop = asyncio.get_running_loop()
        when = loop.time() + timeout
        heapq.heappush(self._heap, (when, next(self._count), key, future))
        if self._timer is None or when < self._timer.when():
            self._arm(loop)

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(self._heap[0][0], self._fire) if self._heap else None

    def _fire(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._heap and self._heap[0][0] <= now:
            _, _, key, future = heapq.heappop(self._heap)
            if not future.done():
                self._expire(key, future)
        self._timer = None
        self._arm(loop)

    def clear(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._heap, self._timer = [], None


class _Flight:
    """A batch in flight: it lands when its requests are all answered, or ``Dispatcher.STALE`` after it went."""

    def __init__(self, requests: set[Key], dispatcher: Dispatcher) -> None:
        self.requests = requests
        self.dispatcher = dispatcher
        self.landed = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        if requests:
            self._timer = asyncio.get_running_loop().call_later(Dispatcher.STALE, self.land)
        else:
            self.land()

    def answered(self, key: Key) -> None:
        self.requests.discard(key)
        if not self.requests:
            self.land()

    def land(self) -> None:
        """Let the connection's next batch go (the first call counts, once per batch)."""
        if not self.landed.is_set():
            if self._timer is not None:
                self._timer.cancel()
            self.landed.set()
            self.dispatcher.landed()


class FloodGauge:
    """Counts decisions nobody asked for in windows of ``window`` seconds: more than ``limit`` in one is a flood."""

    def __init__(self, limit: int = UNSOLICITED_LIMIT, window: float = UNSOLICITED_WINDOW) -> None:
        self.limit, self.window = limit, window
        self.count = 0
        self._since = -math.inf

    def flooded(self, now: float) -> bool:
        """Count one at time ``now``; whether its window holds more than ``limit`` now."""
        if now - self._since >= self.window:
            self._since, self.count = now, 0
        self.count += 1
        return self.count > self.limit


class RemoteConnection(Connection):
    """A bot served over gRPC at ``address``: one ``Play`` stream, batched both ways."""

    def __init__(self, address: str, dispatcher: Dispatcher | None = None) -> None:
        self.address = address
        self.dispatcher = dispatcher or Dispatcher()
        """Paces the writes; the connections of one runner share one, so one batch of theirs is in flight."""
        self._channel: grpc.aio.Channel | None = None
        self._call: grpc.aio.StreamStreamCall | None = None
        self._outbox: asyncio.Queue[tuple[bytes, Key | None] | None] = asyncio.Queue()  # None ends the stream
        self._pending: dict[Key, _Asked] = {}
        self._expired: set[Key] = set()
        self._deadlines = _Deadlines(self._expire)
        self._flight: _Flight | None = None  # the last batch written
        self._reader: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._failure: str | None = "not connected"
        self._failure_kind = FaultKind.CRASHED
        self.flood = FloodGauge()

    @property
    def alive(self) -> bool:
        return self._failure is None

    @property
    def failure(self) -> str | None:
        return self._failure

    @property
    def waiting(self) -> int:
        """Messages waiting to be written (the one the writer holds included)."""
        return self._outbox.qsize() + 1

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
            raise HandshakeError(f"{self.address}: {_failed(error, 'Hello failed', 'its Hello reply')}") from None
        if reply.protocol_version != wire.PROTOCOL_VERSION:
            await self.close()
            raise HandshakeError(
                f"{self.address}: bot '{name_text(reply.name)}' speaks protocol version {reply.protocol_version}, "
                f"this referee speaks {wire.PROTOCOL_VERSION}"
            )
        self.identity = BotIdentity(bot_text(reply.name, 60) or self.address, bot_text(reply.version, 60))
        self.flood = FloodGauge()
        self._outbox = asyncio.Queue()
        play = self._channel.stream_stream(PLAY, request_serializer=None, response_deserializer=None)
        self._call = play()
        self._failure, self._failure_kind = None, FaultKind.CRASHED
        self._reader = asyncio.create_task(self._read())
        self._writer = asyncio.create_task(self._write(self._call, self._outbox))
        return self.identity

    async def _write(
        self, call: grpc.aio.StreamStreamCall, outbox: asyncio.Queue[tuple[bytes, Key | None] | None]
    ) -> None:
        """Write everything queued, a ``RefereeBatch`` at a time when the dispatcher says, until ``None`` ends it."""
        pacing = self.dispatcher
        try:
            while True:
                first = await outbox.get()
                if first is None:
                    await call.done_writing()
                    return
                await pacing.turn(self)
                batch, ended = [first], False
                while not outbox.empty() and len(batch) < MAX_BATCH:
                    following = outbox.get_nowait()
                    if following is None:
                        ended = True
                        break
                    batch.append(following)
                flight = self._flight = _Flight({key for _, key in batch if key is not None}, pacing)
                try:
                    encoded = frames.RefereeBatchFrames(messages=[message for message, _ in batch]).SerializeToString()
                    self._sending(flight.requests)
                    await call.write(encoded)
                    if ended:
                        await call.done_writing()
                        return
                    await flight.landed.wait()
                finally:
                    flight.land()
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            pass  # the stream has ended: the reader says how
        except Exception as error:  # never a dead writer: the seat's decisions fail, and it is reconnected
            self._fail(f"writing to the bot failed: {type(error).__name__}: {error}", FaultKind.MALFORMED)
            call.cancel()

    async def _read(self) -> None:
        """Hand each answer to the decision waiting for it; any failure ends the stream as a fault."""
        assert self._call is not None
        loop = asyncio.get_running_loop()
        try:
            async for message in self._call:
                arrived = loop.time()
                try:
                    batch = pb.BotBatch.FromString(message)
                except DecodeError as error:
                    self._fail(
                        f"a stream message that is no BotBatch ({len(message)} bytes): {error}", FaultKind.MALFORMED
                    )
                    self._call.cancel()
                    return
                # The batch lands before any game wakes: the next batch goes out while the referee
                # works on these answers, so a bot works while the referee does.
                answered, flooded = [], not batch.decisions and self.flood.flooded(arrived)
                for decision in batch.decisions:
                    key = (decision.game, decision.seq)
                    asked = self._pending.get(key)
                    if asked is not None and asked.sent is not None:  # not one answered before it was sent
                        del self._pending[key]
                        answered.append((asked, decision))
                        if self._flight is not None:
                            self._flight.answered(key)
                    elif key in self._expired:
                        self._expired.discard(key)  # a late answer: its timeout was charged already
                    elif self.flood.flooded(arrived):
                        flooded = True
                        break
                for asked, decision in answered:
                    if not asked.future.done():
                        assert asked.sent is not None
                        asked.future.set_result(Answer(decision, arrived - asked.sent))
                if flooded:
                    self._fail(
                        f"{self.flood.count} decisions nobody asked for (or messages of none) within "
                        f"{self.flood.window:g} s (flooding)"
                    )
                    self._call.cancel()
                    return
            self._fail("the bot closed its stream")
        except grpc.aio.AioRpcError as error:
            self._fail(_failed(error, "stream failed", "its stream message"))
        except asyncio.CancelledError:
            self._fail("stream closed by the referee")
            raise
        except Exception as error:  # never a dead reader: the seat's decisions fail, and it is reconnected
            self._fail(f"reading from the bot failed: {type(error).__name__}: {error}", FaultKind.MALFORMED)
            self._call.cancel()

    def _fail(self, why: str, kind: FaultKind = FaultKind.CRASHED) -> None:
        if self._failure is None:
            self._failure, self._failure_kind = why, kind
        for asked in self._pending.values():
            if not asked.future.done():
                asked.future.set_exception(ConnectionLost(self._failure, self._failure_kind))
        self._pending.clear()
        if self._flight is not None:
            self._flight.land()

    def send(self, message: bytes) -> None:
        if self._failure is None:
            self._outbox.put_nowait((message, None))

    async def decide(self, message: bytes, key: Key, timeout: float | None) -> Answer:
        """The answer, with the seconds from when the request went out to when the answer came in.

        The deadline counts from the request's going out too; one that has not gone out ``timeout``
        seconds after it was asked (the bot takes in nothing more: its stream is full) ends then.
        """
        if self._failure is not None:
            raise ConnectionLost(self._failure, self._failure_kind)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending[key] = _Asked(future, timeout)
        self._outbox.put_nowait((message, key))
        if timeout is not None:
            self._deadlines.set(key, future, timeout)
        return await future

    def _sending(self, keys: set[Key]) -> None:
        """The requests ``keys`` go out now: each one's time, and its deadline, count from here."""
        now = asyncio.get_running_loop().time()
        for key in keys:
            asked = self._pending.get(key)
            if asked is not None and asked.sent is None:
                asked.sent = now
                if asked.timeout is not None:
                    self._deadlines.set(key, asked.future, asked.timeout)

    def _expire(self, key: Key, future: asyncio.Future[Answer]) -> None:
        asked = self._pending.get(key)
        if asked is not None and asked.future is future:
            if asked.sent is not None and asked.timeout is not None:
                if asyncio.get_running_loop().time() < asked.sent + asked.timeout:
                    return  # asked, but sent later: its deadline from then is armed
            del self._pending[key]
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
        for task in (self._writer, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._reader = self._writer = None
        self._fail("closed")
        self._deadlines.clear()
        if self._channel is not None:
            await self._channel.close()
        self._channel = self._call = None


def _status(error: grpc.aio.AioRpcError) -> str:
    """A failed call's code and details (the details are the bot's own text)."""
    return f"{error.code().name} {bot_text(error.details() or '')}".strip()


def _failed(error: grpc.aio.AioRpcError, call: str, message: str) -> str:
    """Why ``call`` failed: the bot's ``message`` was refused for its size, in words, or the call's status."""
    found = TOO_LARGE.search(error.details() or "") if error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED else None
    if found is None:
        return f"{call}: {_status(error)}"
    return f"{message} was larger than {MAX_MESSAGE_BYTES:,} bytes ({int(found[1]):,} bytes)"


async def wait_healthy(address: str, timeout: float) -> bool:
    """Poll the standard health service at ``address`` until it says SERVING, or ``timeout`` passes.

    :raises HandshakeError: a server answers there but serves no health service, which it never will.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while loop.time() < deadline:
            try:
                reply = await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1.0)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.aio.AioRpcError as error:
                if error.code() is grpc.StatusCode.UNIMPLEMENTED:
                    raise HandshakeError(f"it serves no health service ({NO_HEALTH})") from None
            await asyncio.sleep(0.05)
    return False


NO_HEALTH = "grpc.health.v1.Health/Check is UNIMPLEMENTED; proto/README.md, Launching and serving, item 3"


async def health_said(address: str) -> str:
    """What the health service at ``address`` answers for the server as a whole, in words: why a bot is not serving."""
    async with grpc.aio.insecure_channel(address) as channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=1.0
            )
        except grpc.aio.AioRpcError as error:
            if error.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                return f"nothing answers at {address}"
            return f"its health service answers {_status(error)}"
    return f"its health service says {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
