"""Serving a bot over gRPC: ``serve(MyBot, port)``, or ``python my_bot.py --port N`` via :func:`main`.

``--listen unix:PATH`` (``listen=`` here) binds a Unix socket instead of a TCP port: the way a
referee reaches a bot it runs in a sandbox with no network.

The server runs on asyncio (``grpc.aio``): the bot's methods are called on the event loop, one
batch at a time per connection, which is the cheapest way through for a Python bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from . import wire
from .bot import BotFactory, BotRunner, bot_class_of
from .gc_tuning import tune_gc
from .pb import bot_pb2 as pb
from .pb import bot_pb2_grpc

SERVICE_NAME = "rage.v1.Bot"
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
PARENT_ENV = "RAGE_REFEREE_PID"
"""Set by a referee that launches the bot: the bot stops when that process is gone."""


class BotServicer(bot_pb2_grpc.BotServicer):
    """The ``Bot`` service over one bot class: a fresh :class:`BotRunner` for every stream."""

    def __init__(self, factory: BotFactory) -> None:
        self.factory = factory
        bot_class = bot_class_of(factory)
        self.name: str = bot_class.display_name()
        self.version: str = bot_class.version

    async def Hello(self, request: pb.HelloRequest, context: grpc.aio.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name=self.name, version=self.version, protocol_version=wire.PROTOCOL_VERSION)

    async def Play(
        self, request_iterator: AsyncIterator[pb.RefereeBatch], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.BotBatch]:
        runner = BotRunner(self.factory)
        async for batch in request_iterator:
            decisions = runner.handle(list(batch.messages))
            if decisions:
                yield pb.BotBatch(decisions=decisions)


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
    address = listen or f"{host}:{port}"
    bound = server.add_insecure_port(address)
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
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
    watch = asyncio.create_task(_watch_parent(stopping))
    await stopping.wait()
    watch.cancel()
    await server.stop(grace)


async def _watch_parent(stopping: asyncio.Event) -> None:
    """Stop once the referee that launched this bot has gone (even if it was killed outright)."""
    parent = os.environ.get(PARENT_ENV, "")
    if not parent.isdigit():
        return
    while True:
        await asyncio.sleep(1.0)
        try:
            os.kill(int(parent), 0)
        except ProcessLookupError:
            print("the referee that launched this bot is gone; stopping", file=sys.stderr, flush=True)
            stopping.set()
            return
        except PermissionError:
            pass


def serve(
    factory: BotFactory, port: int = 50051, host: str = "[::]", grace: float = 2.0, listen: str | None = None
) -> None:
    """Serve a bot until SIGTERM or SIGINT (blocking)."""
    asyncio.run(serve_async(factory, port, host, grace, listen=listen))


def main(factory: BotFactory, argv: list[str] | None = None) -> None:
    """Command-line entry for a bot file: ``python my_bot.py --port N`` or ``--listen unix:PATH``."""
    parser = argparse.ArgumentParser(description="Serve this Rage bot over gRPC.")
    parser.add_argument("--port", type=int, default=50051, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="[::]", help="address to listen on")
    parser.add_argument("--listen", metavar="unix:PATH", help="a Unix socket to listen on instead of a port")
    args = parser.parse_args(argv)
    if args.listen is not None and not is_unix_address(args.listen):
        parser.error(f"--listen {args.listen!r}: expected unix:PATH")
    serve(factory, args.port, args.host, listen=args.listen)
