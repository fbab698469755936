"""The search bot, reading the opponents' bids: worlds where each opponent's hand fits its bid
are drawn more often.

A world's weight is, for each bid this seat has seen from another seat, a Gaussian in the gap
between that bid and what the opponent's hand (as dealt, in that world) looks worth by the
heuristic bot's card estimate (never below ``FLOOR``). Worlds are kept with that weight, so
fewer are played out per decision, but they look more like the real deal.

    python examples/bid_reading_bot.py --port 50051 --budget-ms 100
"""

from __future__ import annotations

import functools
import math

from rage_sdk import Colour, SeatView
from rage_sdk.cards import CARDS
from rage_sdk.examples.heuristic_bot import win_chance
from rage_sdk.examples.search_bot import SearchBot, budget
from rage_sdk.sampling import WorldSampler
from rage_sdk.server import bot_parser, main
from rage_sdk.state import NO_TRUMP, GameState

SPREAD = 1.0
"""How far (in tricks) a bid may stray from the hand's estimate before a world is half as likely."""
FLOOR = 0.05
"""The least weight: a bid no hand explains (bidding all ten) costs at most 20 draws a world."""


class BidReadingBot(SearchBot):
    name = "bid-reading"
    version = "1"

    def sampler(self, view: SeatView) -> WorldSampler:
        played: list[list[int]] = [[] for _ in range(view.players)]
        for plays in [trick.plays for trick in view.tricks] + [view.trick]:
            for seat, play in plays:
                played[seat].append(play.card.id)
        bids = [(seat, bid) for seat, bid in enumerate(view.bids) if bid is not None and seat != view.seat]
        scale = 2 * SPREAD**2 / math.log(2)

        def weight(world: GameState) -> float:
            trump = None if world.first_trump == NO_TRUMP else Colour(world.first_trump)
            gap = 0.0
            for seat, bid in bids:
                worth = sum(win_chance(CARDS[card], trump, view.players) for card in world.hands[seat] + played[seat])
                gap += (bid - worth) ** 2
            return max(FLOOR, math.exp(-gap / scale))

        return WorldSampler(view, weight=weight if bids else None)


if __name__ == "__main__":
    parser = bot_parser()
    parser.add_argument("--budget-ms", type=budget, default=100, help="thinking time per decision (default 100 ms)")
    main(functools.partial(BidReadingBot, parser.parse_args().budget_ms), parser=parser)
