"""Raises from bid()/play() on every EVERY-th decision of a game (the SDK answers with Decision.error);
otherwise bids and plays the first legal action.

    python tests/bots/raiser.py --port N
"""

from __future__ import annotations

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

EVERY = 4


class RaiserBot(Bot):
    name = "raiser"
    version = "1"

    def __init__(self) -> None:
        self.decisions = 0

    def _count(self, view: SeatView) -> None:
        self.decisions += 1
        if self.decisions % EVERY == 0:
            raise RuntimeError(f"raiser fails on decision {self.decisions} (round {view.round_number})")

    def bid(self, view: SeatView) -> int:
        self._count(view)
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        self._count(view)
        return view.legal_plays[0]


class DyingBot(Bot):
    """Plays its first DIES decisions of a game, then raises on every one after: a bot that died mid-game."""

    name = "dying"
    version = "1"
    dies = 3

    def __init__(self) -> None:
        self.decisions = 0

    def _count(self) -> None:
        self.decisions += 1
        if self.decisions > self.dies:
            raise RuntimeError(f"dead since decision {self.dies + 1}")

    def bid(self, view: SeatView) -> int:
        self._count()
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        self._count()
        return view.legal_plays[0]


if __name__ == "__main__":
    main(RaiserBot)
