"""Answers each decision request properly (the first legal action), then sends FLOOD decisions nobody asked for:
a second answer to the same request and answers to the game's next requests, all with the last legal action.

    python tests/bots/flooder.py [--flood N] --port N
"""

from __future__ import annotations

import argparse

from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb

FLOOD = 5


class FlooderServicer(TamperingServicer):
    def __init__(self, flood: int) -> None:
        super().__init__("flooder")
        self.flood = flood

    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        other = request.legal[-1]
        extra = [pb.Decision(game=decision.game, seq=decision.seq + i, action=other) for i in range(self.flood)]
        return [decision, *extra]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--flood", type=int, default=FLOOD)
    known, rest = parser.parse_known_args()
    serve_servicer(FlooderServicer(known.flood), rest)
