"""What the misbehaving test bots share.

- :class:`FirstLegalBot` bids the lowest legal bid and plays the first legal play: exactly the
  referee's fallback, so a game where a misbehaving seat is replaced by it is the game the referee
  should have produced.
- :class:`TamperingServicer` implements the generated ``Bot`` service over :class:`FirstLegalBot`
  (through the SDK's ``BotRunner``) but lets a subclass rewrite or add to each decision before it
  goes out, below the SDK's ``Bot`` layer.
- :func:`serve_servicer` serves such a servicer (with the health service) as ``--port N`` asks.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterator
from concurrent import futures
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from rage_sdk import Bot, Play, SeatView, wire
from rage_sdk.bot import BotRunner
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.pb import bot_pb2_grpc

SERVICE_NAME = "rage.v1.Bot"


class FirstLegalBot(Bot):
    name = "first-legal"
    version = "1"

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


class TamperingServicer(bot_pb2_grpc.BotServicer):
    """:class:`FirstLegalBot` served, with :meth:`tamper` between the bot and the wire."""

    def __init__(self, name: str) -> None:
        self.name = name

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name=self.name, version="1", protocol_version=wire.PROTOCOL_VERSION)

    def Play(self, request_iterator: Iterator[pb.RefereeBatch], context: grpc.ServicerContext) -> Iterator[pb.BotBatch]:
        runner = BotRunner(FirstLegalBot)
        for batch in request_iterator:
            messages = list(batch.messages)
            requests = {(m.game, m.request.seq): m.request for m in messages if m.HasField("request")}
            out: list[pb.Decision] = []
            for decision in runner.handle(messages):
                out += self.tamper(decision, requests[decision.game, decision.seq])
            if out:
                yield pb.BotBatch(decisions=out)

    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        """The decisions to send for one request (default: the bot's own answer)."""
        return [decision]


def serve_servicer(
    servicer: bot_pb2_grpc.BotServicer, argv: list[str] | None = None, handler: grpc.GenericRpcHandler | None = None
) -> None:
    """Serve ``servicer`` (or ``handler`` instead) on ``--port`` until SIGTERM, as ``rage_sdk.server.serve`` does."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--host", default="[::]")
    args = parser.parse_args(argv)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    if handler is None:
        bot_pb2_grpc.add_BotServicer_to_server(servicer, server)
    else:
        server.add_generic_rpc_handlers((handler,))
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    bound = server.add_insecure_port(f"{args.host}:{args.port}")
    if bound == 0:
        raise SystemExit(f"cannot listen on {args.host}:{args.port}")
    server.start()
    for service in ("", SERVICE_NAME):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    print(f"serving on port {bound}", file=sys.stderr, flush=True)

    def stop(signum: int, frame: FrameType | None) -> None:
        server.stop(0.5)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()
