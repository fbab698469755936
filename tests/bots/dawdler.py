"""Bids and plays at random (seeded by the game, as the example random bot) after DELAY seconds each time,
so a game lasts long enough to be interrupted.

    python tests/bots/dawdler.py --port N
"""

from __future__ import annotations

import random
import time

from rage_sdk import Bot, Play, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.server import main

DELAY = 0.004


class DawdlerBot(Bot):
    name = "dawdler"
    version = "1"

    def __init__(self) -> None:
        self.rng = random.Random()

    def on_game_start(self, game: GameInfo) -> None:
        self.rng.seed(game.game)

    def bid(self, view: SeatView) -> int:
        time.sleep(DELAY)
        return self.rng.choice(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        time.sleep(DELAY)
        return self.rng.choice(view.legal_plays)


if __name__ == "__main__":
    main(DawdlerBot)
