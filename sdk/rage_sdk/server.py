"""Serving a bot over gRPC: ``serve(MyBot, port)``, or ``python my_bot.py --port N`` via :func:`main`.

``--listen unix:PATH`` (``listen=`` here) binds a Unix socket instead of a TCP port: the way a
referee reaches a bot it runs in a sandbox with no network.

The server runs on asyncio (``grpc.aio``): the bot's methods are called on the event loop, one
batch at a time per connection, which is the cheapest way through for a Python bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import stat
import sys
import threading
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from . import wire
from .bot import Bot, BotFactory, BotNotMade, BotRunner, arguments_needed, bot_class_of, made_refusal, unplayable
from .errors import RageError
from .gc_tuning import tune_gc
from .pb import bot_pb2 as pb
from .pb import bot_pb2_grpc

SERVICE_NAME = "rage.v1.Bot"
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
PARENT_ENV = "RAGE_REFEREE_PID"
"""Set by a referee that launches the bot: the bot stops when that process is gone."""
WATCH_SECONDS = 1.0
"""How often a launched bot looks for its referee."""


class BotServicer(bot_pb2_grpc.BotServicer):
    """The ``Bot`` service over one bot class: a fresh :class:`BotRunner` for every stream."""

    def __init__(self, factory: BotFactory) -> None:
        self.factory = factory
        bot_class = bot_class_of(factory)
        self.name: str = bot_class.display_name()
        self.version: str = bot_class.version

    async def Hello(self, request: pb.HelloRequest, context: grpc.aio.ServicerContext) -> pb.HelloReply:
        print(run_header(request.referee, context.peer()), file=sys.stderr, flush=True)
        return pb.HelloReply(name=self.name, version=self.version, protocol_version=wire.PROTOCOL_VERSION)

    async def Play(
        self, request_iterator: AsyncIterator[pb.RefereeBatch], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.BotBatch]:
        runner = BotRunner(self.factory, log=sys.stderr)
        async for batch in request_iterator:
            try:
                decisions = runner.handle(list(batch.messages))
            except BotNotMade as error:  # the stream ends saying so, whatever the bot raised (a CancelledError too)
                await context.abort(grpc.StatusCode.ABORTED, str(error))
            if decisions:
                yield pb.BotBatch(decisions=decisions)


def run_header(referee: str, peer: str) -> str:
    """The log line that opens a run: a referee greeted the bot (once per connection: a match, a league, a check)."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"=== {when}: {referee[:80]!r} connected from {peer[:80]}"


class ListenError(RageError, OSError):
    """An address that cannot be listened on, in one line; ``option`` names the setting at fault."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option
        """``port``, ``host`` or ``listen``, as the command-line options are named."""


def bind(server: grpc.aio.Server, address: str, credentials: grpc.ServerCredentials | None = None) -> int:
    """Add a port to ``server``; return the port bound.

    :raises ListenError: the address cannot be bound (in use, not allowed, not an address of this host,
        a socket's folder missing), in one line: gRPC itself logs a line of its own, then raises a
        :class:`RuntimeError` or returns 0.
    """
    if is_unix_address(address):
        _check_socket(address)
    else:
        _check_free(address)
    try:
        if credentials is None:
            bound = server.add_insecure_port(address)
        else:
            bound = server.add_secure_port(address, credentials)
    except RuntimeError:
        bound = 0
    if bound == 0:
        raise ListenError(
            f"cannot listen on {address}: the port is in use, or the address is not one of this host",
            "listen" if is_unix_address(address) else "port",
        )
    return int(bound)


def _check_free(address: str) -> None:
    """Look the host of ``address`` up, and bind its port once without port sharing, so a host unknown
    or a port in use is refused here, in one line.

    gRPC shares ports (``SO_REUSEPORT``): a second gRPC server on the port would start without a
    word, and a failed bind logs a line of its own before raising.
    """
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return
    try:
        places = socket.getaddrinfo(
            host.strip("[]") or None, int(port), type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as error:
        raise ListenError(f"cannot listen on {address}: no such host ({error.strerror or error})", "host") from None
    except OSError:
        return  # gRPC says what is wrong with the address
    if int(port) == 0:
        return
    for family, kind, protocol, _, where in places:
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(where)
            except OSError as error:
                raise ListenError(f"cannot listen on {address}: {error.strerror or error}", "port") from None


def _check_socket(address: str) -> None:
    """Bind the Unix socket of ``address`` (``unix:PATH``) once and let it go, so a path that can hold no
    socket (its folder missing, too long, a file there) is refused here, in one line.

    A socket left at ``PATH`` by an earlier server is fine: gRPC replaces it, and only such a file.
    """
    path = address.removeprefix("unix:")
    if path.startswith("//"):
        path = path[2:]  # unix:///abs/path
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise ListenError(f"cannot listen on {address}: {error.strerror or error}", "listen") from None
    if mode is not None:
        if not stat.S_ISSOCK(mode):
            raise ListenError(f"cannot listen on {address}: {path} is there already, and is no socket", "listen")
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(path)
        except OSError as error:
            raise ListenError(f"cannot listen on {address}: {error.strerror or error}", "listen") from None
    with contextlib.suppress(OSError):
        os.unlink(path)


async def start_server(
    factory: BotFactory,
    port: int = 0,
    host: str = "[::]",
    servicer: BotServicer | None = None,
    listen: str | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Start serving ``factory``'s bots with the health service; return the server and its port.

    ``listen`` (``unix:PATH``) replaces ``host`` and ``port``; the port returned is then 0.
    """
    if listen is not None and not is_unix_address(listen):
        raise ValueError(f"--listen {listen!r}: expected unix:PATH")
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )
    bot_pb2_grpc.add_BotServicer_to_server(servicer or BotServicer(factory), server)  # type: ignore[no-untyped-call]
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = bind(server, listen or f"{host}:{port}")
    await server.start()
    for service in ("", SERVICE_NAME):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return server, 0 if listen else bound


def is_unix_address(address: str) -> bool:
    """Whether ``address`` names a Unix socket as gRPC spells it: ``unix:PATH``."""
    return address.startswith("unix:") and len(address) > len("unix:")


async def serve_async(
    factory: BotFactory,
    port: int = 50051,
    host: str = "[::]",
    grace: float = 2.0,
    servicer: BotServicer | None = None,
    listen: str | None = None,
) -> None:
    """Serve until SIGTERM or SIGINT, then stop gracefully."""
    server, bound = await start_server(factory, port, host, servicer, listen)
    tune_gc()
    print(f"serving on {listen or f'port {bound}'}", file=sys.stderr, flush=True)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    threading.Thread(target=_watch_parent, args=(loop, stopping, grace), name="referee-watch", daemon=True).start()
    await stopping.wait()
    await server.stop(grace)


def _watch_parent(loop: asyncio.AbstractEventLoop, stopping: asyncio.Event, grace: float) -> None:
    """Stop once the referee that launched this bot has gone (even if it was killed outright).

    It watches from a thread of its own, so a bot's code that holds the event loop (a search that
    never ends) cannot hold it up: if the loop does not stop the server within ``grace`` seconds and
    one more, the process exits.
    """
    parent = os.environ.get(PARENT_ENV, "")
    if not parent.isdigit():
        return
    pid = int(parent)
    launched_directly = os.getppid() == pid
    while not referee_gone(pid, launched_directly):
        time.sleep(WATCH_SECONDS)
    with contextlib.suppress(RuntimeError):  # the loop has closed: the bot is stopping already
        loop.call_soon_threadsafe(stopping.set)
    with contextlib.suppress(OSError):  # the log is the referee's pipe, gone with it
        print("the referee that launched this bot is gone; stopping", file=sys.stderr, flush=True)
    time.sleep(grace + 1.0)
    with contextlib.suppress(OSError):
        print("the bot's code holds its event loop; exiting", file=sys.stderr, flush=True)
    os._exit(1)


def referee_gone(pid: int, launched_directly: bool) -> bool:
    """Whether the referee ``pid`` has exited, even where it is not reaped yet.

    A process that exited but was not reaped (a zombie) still passes ``kill(pid, 0)``. Its children
    are given a new parent the moment it exits, so a bot the referee started itself compares
    ``getppid()``; one started through a wrapper (a shell, a package runner) reads the process
    state instead.
    """
    if launched_directly:
        return os.getppid() != pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False  # no /proc: kill(pid, 0) is all there is
    return stat[stat.rindex(")") + 2 :].startswith("Z")


def serve(
    factory: BotFactory, port: int = 50051, host: str = "[::]", grace: float = 2.0, listen: str | None = None
) -> None:
    """Serve a bot until SIGTERM or SIGINT (blocking)."""
    asyncio.run(serve_async(factory, port, host, grace, listen=listen))


def port_number(text: str) -> int:
    """A ``--port`` value, 0 to 65535 (a number past them was bound as another port)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is out of range; it takes 0 to 65535")
    return port


def bot_parser() -> argparse.ArgumentParser:
    """The command line of a bot file, ``--port``, ``--host`` and ``--listen``, for a bot to add its own options to."""
    parser = argparse.ArgumentParser(description="Serve this Rage bot over gRPC.")
    parser.add_argument("--port", type=port_number, default=50051, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="[::]", help="address to listen on")
    parser.add_argument("--listen", metavar="unix:PATH", help="a Unix socket to listen on instead of a port")
    return parser


def _refusal(factory: object) -> str | None:
    """Why :func:`main` cannot serve ``factory``, in one line: a bot, not its class; a class that is no
    :class:`Bot`; a bot class that cannot play (:func:`~rage_sdk.bot.unplayable`); a function whose bot cannot
    (:func:`~rage_sdk.bot.made_refusal`). None for a bot class or function that serves."""
    if isinstance(factory, Bot):
        name = type(factory).__name__
        return f"main() takes the bot's class, not a bot: main({name}), not main({name}())"
    if not isinstance(factory, type):
        if not callable(factory):
            return f"main() takes a rage_sdk.Bot subclass, not {factory!r}"
        refused = made_refusal(factory)
        return None if refused is None else f"main() takes a function that makes a bot that plays; {refused}"
    if not issubclass(factory, Bot):
        return f"main() takes a rage_sdk.Bot subclass; {factory.__name__} is not one"
    needed = arguments_needed(factory)
    if needed:
        name = factory.__name__
        return (
            f"{name}() needs {', '.join(needed)}: main() makes a bot for each game with no arguments; "
            f"give them defaults, or pass a function that makes one (main(lambda: {name}(...)))"
        )
    return unplayable(factory)


def main(factory: BotFactory, argv: list[str] | None = None, *, parser: argparse.ArgumentParser | None = None) -> None:
    """Command-line entry for a bot file: ``python my_bot.py --port N`` or ``--listen unix:PATH``.

    A bot with options of its own passes the :func:`bot_parser` it added them to (and read them from), so that
    ``--help`` lists them all and nothing else is taken.
    """
    parser = parser or bot_parser()
    not_ours = "main(parser=...) takes rage_sdk.server.bot_parser() with the bot's own options added to it\n"
    if parser.get_default("port") is None:  # not a bot_parser(): it would refuse --port, or never read it
        parser.exit(2, not_ours)
    args = parser.parse_args(argv)
    if not all(hasattr(args, option) for option in ("port", "host", "listen")):
        parser.exit(2, not_ours)
    refused = _refusal(factory)
    if refused is not None:
        parser.exit(2, f"{refused}\n")
    if args.listen is not None and not is_unix_address(args.listen):
        parser.error(f"--listen {args.listen!r}: expected unix:PATH")
    try:
        serve(factory, args.port, args.host, listen=args.listen)
    except OSError as error:
        parser.exit(2, f"{error}\n")
