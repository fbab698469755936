"""Sleeps past its deadline on every EVERY-th play of a game; otherwise bids and plays the first legal action.

The referee waits the decision time plus what is left of the game's bank, and a timeout uses the
bank up, so the bot keeps track of the bank to oversleep by MARGIN seconds each time and no more
(a longer sleep would eat into its next decision too).

    python tests/bots/sleeper.py --port N
"""

from __future__ import annotations

import time

from rage_sdk import Bot, Play, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.server import main

EVERY = 8
MARGIN = 0.1


class SleeperBot(Bot):
    name = "sleeper"
    version = "1"

    def __init__(self) -> None:
        self.plays = 0
        self.decision_ms = self.bank_ms = 0

    def on_game_start(self, game: GameInfo) -> None:
        self.decision_ms, self.bank_ms = game.decision_ms, game.bank_ms

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        self.plays += 1
        if self.plays % EVERY == 0:
            time.sleep((self.decision_ms + self.bank_ms) / 1000 + MARGIN)
            self.bank_ms = 0
        return view.legal_plays[0]


if __name__ == "__main__":
    main(SleeperBot)
