"""Answers garbage below the SDK's Bot layer: out-of-range numbers, and answers nobody asked for.

For the k-th decision request of a game, :func:`garbage_for` says what goes out instead of the
first legal action: ``out_of_range`` (action 9999), ``bare_wild`` (play code 96, a wild with no
colour: no play at all), ``unknown_seq`` or ``unknown_game`` (an answer to a request that does not
exist, and none to the real one).

    python tests/bots/garbage.py --port N
"""

from __future__ import annotations

from collections import defaultdict

from botbase import TamperingServicer, serve_servicer
from rage_sdk.pb import bot_pb2 as pb

OUT_OF_RANGE = 9999
BARE_WILD = 96


def garbage_for(k: int, kind: int) -> str | None:
    """What the k-th request (1-based) of a game gets instead of a proper answer, or None."""
    if k % 30 == 15:
        return "unknown_seq"
    if k % 30 == 0:
        return "unknown_game"
    if k % 3 == 0:
        return "out_of_range"
    if k % 3 == 1 and kind == pb.DECISION_KIND_PLAY:
        return "bare_wild"
    return None


class GarbageServicer(TamperingServicer):
    def __init__(self) -> None:
        super().__init__("garbage")
        self.requests: defaultdict[int, int] = defaultdict(int)

    def tamper(self, decision: pb.Decision, request: pb.DecisionRequest) -> list[pb.Decision]:
        self.requests[decision.game] += 1
        match garbage_for(self.requests[decision.game], request.kind):
            case "unknown_seq":
                return [pb.Decision(game=decision.game, seq=decision.seq + 100_000, action=decision.action)]
            case "unknown_game":
                return [pb.Decision(game=decision.game + 1_000_000, seq=decision.seq, action=decision.action)]
            case "out_of_range":
                return [pb.Decision(game=decision.game, seq=decision.seq, action=OUT_OF_RANGE)]
            case "bare_wild":
                return [pb.Decision(game=decision.game, seq=decision.seq, action=BARE_WILD)]
        return [decision]


if __name__ == "__main__":
    serve_servicer(GarbageServicer())
