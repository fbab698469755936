"""Greets the referee and reads every request, but answers none: a bot that hangs on its first decision.

python tests/bots/mute.py --port N
"""

from __future__ import annotations

from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb


class MuteServicer(TamperingServicer):
    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        return []


if __name__ == "__main__":
    serve_servicer(MuteServicer("mute"))
