"""Answers every EVERY-th decision request with an ``error`` of about 100 KB: ANSI escapes, newlines, a
terminal title change and a bidirectional override; otherwise the first legal action.

    python tests/bots/shouter.py --port N
"""

from __future__ import annotations

from collections import defaultdict

from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb

EVERY = 5
SHOUT = "\x1b[2J\x1b[31mBOOM\x1b]0;owned\x07\u202e\r\n" * 4000
"""About 100 KB of text no terminal should ever see raw."""


class ShouterServicer(TamperingServicer):
    def __init__(self) -> None:
        super().__init__("shouter\x1b[5m\n")
        self.requests: defaultdict[int, int] = defaultdict(int)

    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        self.requests[decision.game] += 1
        if self.requests[decision.game] % EVERY == 0:
            return [pb.Decision(game=decision.game, seq=decision.seq, error=SHOUT)]
        return [decision]


if __name__ == "__main__":
    serve_servicer(ShouterServicer())
