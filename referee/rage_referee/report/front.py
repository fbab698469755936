"""The live pages' HTTP front: uvicorn on a thread and event loop of its own, guarded against abuse.

The games are played on the referee's event loop; the pages never run there. Their front holds
under abuse: a connection past the cap (in all, or from one address) is closed as it is accepted;
one that has not sent a whole request's headers within :data:`HEADER_TIMEOUT` seconds of opening (or
of its last answer) is closed, as is one idle past :data:`IDLE_TIMEOUT`; what is refused is logged in
one line per cause at most every :data:`LOG_EVERY` seconds, never a traceback; and the front's
thread uses at most its :class:`CpuShare` of a core, so the Python interpreter the games share is
never the pages' for long.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .listening import HEADER_TIMEOUT, MAX_CONNECTIONS, MAX_PER_ADDRESS

log = logging.getLogger(__name__)

IDLE_TIMEOUT = 5.0
"""Seconds a kept-alive connection may wait without sending anything."""
CPU_SHARE = 0.05
"""The share of one core the pages' thread may use, over time (with a short burst above it)."""
BACKLOG = 128
"""Connections waiting to be accepted, and accepted in one turn of the pages' loop, at most: a burst
beyond waits in the kernel's queue rather than as open files of the referee."""
HELPERS = 2
"""Threads the pages hand their slow work to (reading games, rendering, replays)."""
LOG_EVERY = 10.0
"""Seconds between two log lines of one cause."""
MIN_WAIT = 0.01
"""Seconds a request in debt waits before the budget is looked at again, at least."""

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """How much of the referee the pages may hold."""

    max_connections: int = MAX_CONNECTIONS
    max_per_address: int = MAX_PER_ADDRESS
    header_timeout: float = HEADER_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    cpu_share: float = CPU_SHARE


class QuietLog:
    """One log line per cause at most every ``every`` seconds, counting those held back meanwhile."""

    def __init__(self, every: float = LOG_EVERY) -> None:
        self.every = every
        self._last: dict[str, float] = {}
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def warn(self, cause: str, line: str) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._last.get(cause, -self.every) < self.every:
                self._held[cause] += 1
                return
            self._last[cause] = now
            held = self._held.pop(cause, 0)
        log.warning("pages: %s%s", line, f" ({held} more since the last such line)" if held else "")


@dataclass
class ConnectionGate:
    """Counts the pages' open connections, in all and by address, and admits those within the caps."""

    limits: Limits
    quiet: QuietLog = field(default_factory=QuietLog)
    total: int = 0
    by_address: Counter[str] = field(default_factory=Counter)

    def admit(self, address: str) -> bool:
        """Whether a connection from ``address`` may stay open (counted if so; :meth:`release` it after)."""
        limits = self.limits
        if self.total >= limits.max_connections:
            self.quiet.warn("full", f"refused connections: {self.total} open, the most the pages take")
            return False
        if self.by_address[address] >= limits.max_per_address:
            open_here = self.by_address[address]
            line = f"refused connections from {address}: {open_here} open from it, the most one address has"
            self.quiet.warn("per address", line)
            return False
        self.total += 1
        self.by_address[address] += 1
        return True

    def release(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class GuardedProtocol(H11Protocol):
    """Uvicorn's HTTP/1.1 protocol, admitted by the :class:`ConnectionGate` and held to a header deadline."""

    gate: ConnectionGate

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        self._address = str(peer[0]) if isinstance(peer, tuple) else "local"
        self._admitted = self.gate.admit(self._address)
        self._header_timer: asyncio.TimerHandle | None = None
        if not self._admitted:
            transport.abort()
            return
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._admitted:
            return
        self._admitted = False
        self.gate.release(self._address)
        self._stop_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._stop_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()

    def _await_headers(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.gate.limits.header_timeout, self._headers_late)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.gate.quiet.warn("slow", f"closed connections that sent no request's headers within "
                                 f"{self.gate.limits.header_timeout:g} s (the last from {self._address})")  # fmt: skip
            self.transport.abort()


def guarded_protocol(gate: ConnectionGate) -> type[GuardedProtocol]:
    """A protocol class for uvicorn's ``http`` setting whose connections pass through ``gate``."""
    return type("Guarded", (GuardedProtocol,), {"gate": gate})


class CpuShare:
    """Holds the pages to ``share`` of one core: each request waits while they are over it.

    The pages' thread's CPU time (:func:`time.thread_time`: parsing, routing, rendering) and that of
    the work it hands its helper threads (:class:`ChargedExecutor`) are paid from a budget that fills
    at ``share`` seconds a second, up to ``burst``. Requests wait their turn in the order they came, one
    looking at the budget at a time, at most every :data:`MIN_WAIT` seconds: a look is paid from it too,
    and many requests looking often spent what it regained.
    """

    def __init__(self, share: float = CPU_SHARE, burst: float = 0.05) -> None:
        self.share, self.burst = share, burst
        self.budget = burst
        self._wall = time.monotonic()
        self._cpu: float | None = None  # the pages' thread's, from its first wait
        self._lock = threading.Lock()
        self._turn = asyncio.Lock()  # fair: the waiting requests go in the order they came

    def charge(self, seconds: float) -> None:
        """CPU time spent for the pages on another thread."""
        with self._lock:
            self.budget -= seconds

    async def wait(self) -> None:
        """Return once the budget is not in debt, this request's turn come (called on the pages' thread)."""
        async with self._turn:
            while (debt := self._debt()) > 0:
                await asyncio.sleep(max(debt / self.share, MIN_WAIT))

    def _debt(self) -> float:
        """The budget's debt now, the pages' thread's CPU time since the last look paid from it."""
        wall, cpu = time.monotonic(), time.thread_time()
        with self._lock:
            spent = 0.0 if self._cpu is None else cpu - self._cpu
            self.budget = min(self.burst, self.budget + (wall - self._wall) * self.share - spent)
            self._wall, self._cpu = wall, cpu
            return -self.budget


class WithinShare:
    """An ASGI app whose every HTTP request waits for the :class:`CpuShare` first (a page, a refusal, a 404)."""

    def __init__(self, app: Any, share: CpuShare) -> None:
        self.app, self.share = app, share

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self.share.wait()
        await self.app(scope, receive, send)


class ChargedExecutor(ThreadPoolExecutor):
    """The pages' helper threads (``asyncio.to_thread`` on their loop): each call's CPU time is charged to the share."""

    def __init__(self, share: CpuShare) -> None:
        super().__init__(max_workers=HELPERS, thread_name_prefix="rage-pages")
        self.cpu_share = share

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        def timed() -> T:
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu_share.charge(time.thread_time() - started)

        return super().submit(timed)


class Home:
    """The referee's event loop, where the games, the event hub and the standings live: the pages ask it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    async def run(self, coroutine: Awaitable[T]) -> T:
        """``coroutine`` awaited on the referee's loop, from the pages' thread."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(_awaited(coroutine), self.loop))

    def call(self, function: Callable[[], Any]) -> None:
        """``function`` called soon on the referee's loop."""
        self.loop.call_soon_threadsafe(function)


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


async def _awaited(awaitable: Awaitable[T]) -> T:
    return await awaitable


class _QuietErrors:
    """The pages' loop's exception handler: a failed accept (out of files) is one rate-limited line, no traceback."""

    def __init__(self, quiet: QuietLog) -> None:
        self.quiet = quiet

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        cause = type(error).__name__ if error is not None else "error"
        text = f"{context.get('message', 'error')}: {error}" if error is not None else str(context.get("message"))
        self.quiet.warn(f"loop {cause}", " ".join(text.split()))


class _QuietFilter(logging.Filter):
    """Uvicorn's own warnings (a malformed request, each) as rate-limited lines of their cause."""

    def __init__(self, quiet: QuietLog) -> None:
        super().__init__()
        self.quiet = quiet

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.exc_info is None:
            return True
        self.quiet.warn(f"uvicorn {record.getMessage()[:80]}", record.getMessage().splitlines()[0])
        return False


class FrontServer(uvicorn.Server):
    """Uvicorn on the front's own loop: the referee, not uvicorn, handles SIGTERM and SIGINT."""

    def capture_signals(self) -> Any:
        return _NoSignals()


class _NoSignals:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


@dataclass
class Front:
    """A started front: its server, thread and loop; :meth:`stop` ends it."""

    server: FrontServer
    thread: threading.Thread
    loop: asyncio.AbstractEventLoop
    stopped: asyncio.Future[None]
    """Done on the referee's loop once the front's thread has ended."""

    def stop(self) -> None:
        self.server.should_exit = True


async def start_front(config: uvicorn.Config, sockets: list[Any], quiet: QuietLog, share: CpuShare) -> Front:
    """Serve ``config`` on ``sockets`` from a new thread with its own event loop, its helper threads' work
    charged to ``share``; returns once it serves.

    :raises OSError: the server did not start.
    """
    home = asyncio.get_running_loop()
    stopped: asyncio.Future[None] = home.create_future()
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(_QuietErrors(quiet))
    loop.set_default_executor(ChargedExecutor(share))
    server = FrontServer(config)
    failure: list[BaseException] = []
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.serve(sockets=sockets))
        except BaseException as error:
            failure.append(error)
        finally:
            ready.set()
            left = asyncio.all_tasks(loop)
            for task in left:  # event streams whose pages are gone, requests cut short by the stop
                task.cancel()
            loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            home.call_soon_threadsafe(_settle, stopped)

    thread = threading.Thread(target=run, name="rage-pages", daemon=True)
    thread.start()
    while not (server.started or ready.is_set()):
        await asyncio.sleep(0.02)
    if not server.started:
        raise OSError(f"the pages did not start: {failure[0] if failure else 'the server stopped'}")
    return Front(server, thread, loop, stopped)


def quiet_uvicorn(quiet: QuietLog) -> None:
    """Uvicorn's warnings through ``quiet`` (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _QuietFilter) for f in logger.filters):
        logger.addFilter(_QuietFilter(quiet))
