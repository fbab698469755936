"""Answers a legal-looking but illegal action on every EVERY-th decision of a game; otherwise the first legal one.

The cheat: a bid of one more than the cards in hand; a card of the hand that does not follow the
lead colour while the hand holds that colour; failing that, a coloured card that is not in the hand.

    python tests/bots/cheater.py [--every N] --port N
"""

from __future__ import annotations

import argparse

from rage_sdk import Bot, Play, SeatView
from rage_sdk.cards import CARDS, NUM_COLOURED
from rage_sdk.server import main

EVERY = 3


def cheat(view: SeatView) -> Play:
    """An illegal play for ``view``: off the lead colour if the hand can follow it, else a card not in the hand."""
    coloured = [card for card in view.hand if card.is_coloured]
    if view.lead is not None and any(card.colour == view.lead for card in coloured):
        off_lead = [card for card in coloured if card.colour != view.lead]
        if off_lead:
            return Play.of(off_lead[0])
    held = {card.id for card in view.hand}
    return Play.of(CARDS[next(card for card in range(NUM_COLOURED) if card not in held)])


class CheaterBot(Bot):
    name = "cheater"
    version = "1"
    every = EVERY

    def __init__(self) -> None:
        self.decisions = 0

    def _cheats(self) -> bool:
        self.decisions += 1
        return self.decisions % self.every == 0

    def bid(self, view: SeatView) -> int:
        return view.cards + 1 if self._cheats() else view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return cheat(view) if self._cheats() else view.legal_plays[0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--every", type=int, default=EVERY)
    known, rest = parser.parse_known_args()
    CheaterBot.every = known.every
    main(CheaterBot, rest)
