"""Makes faults of three kinds in each game and writes to its stderr at its end; otherwise the first legal action.

- its first bid of a game is one trick over the hand (illegal);
- its 10th play sleeps past the deadline (timeout);
- every 40th play raises, with console markup and a terminal escape in its message (bot_error).

    python tests/bots/mixed.py --port N
"""

from __future__ import annotations

import sys
import time

from rage_sdk import Bot, Play, SeatView
from rage_sdk.events import GameInfo, GameOver
from rage_sdk.server import main


class MixedBot(Bot):
    name = "mixed"
    version = "1"

    def __init__(self) -> None:
        self.bids = self.plays = 0
        self.decision_ms = 0

    def on_game_start(self, game: GameInfo) -> None:
        self.decision_ms = game.decision_ms

    def on_game_end(self, over: GameOver) -> None:
        print(f"mixed: my own words, {len(over.faults)} faults", file=sys.stderr, flush=True)

    def bid(self, view: SeatView) -> int:
        self.bids += 1
        return view.cards + 1 if self.bids == 1 else view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        self.plays += 1
        if self.plays == 10:
            time.sleep(self.decision_ms / 1000 + 0.1)
        if self.plays % 40 == 0:
            raise RuntimeError("[/oops] \x1b[31mred")
        return view.legal_plays[0]


if __name__ == "__main__":
    main(MixedBot)
