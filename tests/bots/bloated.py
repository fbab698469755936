"""A bot whose Hello reply (``--in hello``, its version BYTES long), or each of whose stream messages (``--in
play``, its decision's error BYTES long), is past the referee's message size (BYTES: 5 MiB by default);
it otherwise plays the first legal action.

    python tests/bots/bloated.py [--in hello|play] [--bytes N] --port N
"""

from __future__ import annotations

import argparse

import grpc
from botbase import TamperingServicer, serve_servicer
from rage_sdk import wire
from rage_sdk.pb import bot_pb2 as pb


class BloatedServicer(TamperingServicer):
    def __init__(self, where: str, size: int) -> None:
        super().__init__("bloated")
        self.where, self.size = where, size

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        version = "v" * self.size if self.where == "hello" else "1"
        return pb.HelloReply(name=self.name, version=version, protocol_version=wire.PROTOCOL_VERSION)

    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        if self.where == "play":
            decision.error = "e" * self.size
        return [decision]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--in", dest="where", choices=["hello", "play"], default="hello")
    parser.add_argument("--bytes", type=int, default=5 * 1024 * 1024)
    args, rest = parser.parse_known_args()
    serve_servicer(BloatedServicer(args.where, args.bytes), rest)
