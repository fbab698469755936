"""A bot whose handshake lies: it claims protocol version PROTOCOL (2 by default; 0 is a reply that leaves it unset),
then would play the first legal action.

    python tests/bots/liar.py [--protocol N] --port N
"""

from __future__ import annotations

import argparse

import grpc
from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb


class LiarServicer(TamperingServicer):
    def __init__(self, protocol: int) -> None:
        super().__init__("liar")
        self.protocol = protocol

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name=self.name, version="1", protocol_version=self.protocol)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--protocol", type=int, default=2)
    args, rest = parser.parse_known_args()
    serve_servicer(LiarServicer(args.protocol), rest)
