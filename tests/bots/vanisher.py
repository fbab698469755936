"""Exits with code 5 in the middle of its handshake (inside Hello), after a word on its stderr.

python tests/bots/vanisher.py --port N
"""

from __future__ import annotations

import os
import sys

import grpc
from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb


class VanisherServicer(TamperingServicer):
    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloReply:
        print("vanishing mid-handshake", file=sys.stderr, flush=True)
        os._exit(5)


if __name__ == "__main__":
    serve_servicer(VanisherServicer("vanisher"))
