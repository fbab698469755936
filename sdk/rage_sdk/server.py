"""Serving a bot over gRPC: ``serve(MyBot, port)``, or ``python my_bot.py --port N`` via :func:`main`."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterator
from concurrent import futures
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from . import wire
from .bot import BotFactory, BotRunner
from .pb import bot_pb2 as pb
from .pb import bot_pb2_grpc

SERVICE_NAME = "rage.v1.Bot"
MAX_MESSAGE_BYTES = 4 * 1024 * 1024


class BotServicer(bot_pb2_grpc.BotServicer):
    """The ``Bot`` service over one bot class: a fresh :class:`BotRunner` for every stream."""

    def __init__(self, factory: BotFactory, name: str, version: str) -> None:
        self.factory, self.name, self.version = factory, name, version

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name=self.name, version=self.version, protocol_version=wire.PROTOCOL_VERSION)

    def Play(self, request_iterator: Iterator[pb.RefereeBatch], context: grpc.ServicerContext) -> Iterator[pb.BotBatch]:
        runner = BotRunner(self.factory)
        for batch in request_iterator:
            decisions = runner.handle(list(batch.messages))
            if decisions:
                yield pb.BotBatch(decisions=decisions)


def start_server(factory: BotFactory, port: int = 0, host: str = "[::]") -> tuple[grpc.Server, int]:
    """Start serving ``factory``'s bots with the health service; return the server and its port."""
    bot_class = factory if isinstance(factory, type) else type(factory())
    name = getattr(bot_class, "display_name", lambda: bot_class.__name__)()
    version = getattr(bot_class, "version", "0")
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=8),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ],
    )
    bot_pb2_grpc.add_BotServicer_to_server(BotServicer(factory, name, version), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}")
    server.start()
    for service in ("", SERVICE_NAME):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return server, bound


def serve(factory: BotFactory, port: int = 50051, host: str = "[::]", grace: float = 2.0) -> None:
    """Serve a bot until SIGTERM or SIGINT, then stop gracefully."""
    server, bound = start_server(factory, port, host)
    print(f"serving on port {bound}", file=sys.stderr, flush=True)

    def stop(signum: int, frame: FrameType | None) -> None:
        server.stop(grace)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()


def main(factory: BotFactory, argv: list[str] | None = None) -> None:
    """Command-line entry for a bot file: ``python my_bot.py --port N``."""
    parser = argparse.ArgumentParser(description="Serve this Rage bot over gRPC.")
    parser.add_argument("--port", type=int, default=50051, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="[::]", help="address to listen on")
    args = parser.parse_args(argv)
    serve(factory, args.port, args.host)
