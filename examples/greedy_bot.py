"""A simple bot: bids its trumps and wilds, then always plays its strongest card.

python examples/greedy_bot.py --port 50051
"""

from __future__ import annotations

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main


class GreedyBot(Bot):
    name = "greedy"
    version = "1"

    def bid(self, view: SeatView) -> int:
        strong = sum(
            card.token == "wild" or (view.trump is not None and card.colour == view.trump) for card in view.hand
        )
        return min(view.legal_bids, key=lambda bid: abs(bid - strong))

    def play(self, view: SeatView) -> Play:
        def strength(play: Play) -> int:
            card = play.card
            if card.token == "wild":
                return 100 + (play.colour == view.trump)
            if not card.is_coloured:
                return -1
            return (card.value or 0) + (50 if card.colour == view.trump else 0)

        return max(view.legal_plays, key=strength)


if __name__ == "__main__":
    main(GreedyBot)
