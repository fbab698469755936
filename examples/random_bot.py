"""A bot that bids and plays uniformly at random among the legal actions.

python examples/random_bot.py --port 50051
"""

from __future__ import annotations

import random

from rage_sdk import Bot, Play, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.server import main


class RandomBot(Bot):
    name = "random"
    version = "1"

    def __init__(self) -> None:
        self.rng = random.Random()

    def on_game_start(self, game: GameInfo) -> None:
        self.rng.seed(game.game)  # the same game plays the same way, in-process or over gRPC

    def bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return self.rng.choice(view.legal_plays)


if __name__ == "__main__":
    main(RandomBot)
