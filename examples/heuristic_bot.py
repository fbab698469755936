"""A bot worth beating: bids each card's chance to win a trick, then plays to make its bid.

Bidding adds up, for each card in hand, an estimate of its chance to take a trick given the
trump and the number of players. Playing: while short of its bid it wins as cheaply as it can
(or leads its strongest card); once the bid is made it ducks under the winning card, sheds
-5 cards on tricks it will lose and keeps +5 cards for tricks it wins.

    python examples/heuristic_bot.py --port 50051

``SloppyHeuristicBot`` is the same bot playing a random legal move 10% of the time: a slightly
weaker twin for trying ``rage test`` (and the pair ``rage bench test`` measures).
"""

from __future__ import annotations

import random

from rage_sdk import Bot, Card, Colour, Play, SeatView
from rage_sdk.cards import colour_code
from rage_sdk.events import GameInfo
from rage_sdk.rules import WildTie
from rage_sdk.server import main
from rage_sdk.state import trick_winner


def win_chance(card: Card, trump: Colour | None, players: int) -> float:
    """A rough chance that ``card`` takes a trick at a table of ``players``."""
    if card.token == "wild":
        return 0.85
    if card.is_action:
        return 0.03
    value = card.value or 0
    crowd = max(1.0, (players - 1) / 2)
    if trump is not None and card.colour == trump:
        return 0.3 + 0.7 * float((value / 15) ** crowd)
    high = max(0.0, (value - 8) / 7)
    return (high**2) * (0.7 if trump is not None else 0.9) / float(crowd**0.5)


class HeuristicBot(Bot):
    name = "heuristic"
    version = "1"

    def bid(self, view: SeatView) -> int:
        expected = sum(win_chance(card, view.trump, view.players) for card in view.hand)
        return min(view.legal_bids, key=lambda bid: (abs(bid - expected), bid))

    def play(self, view: SeatView) -> Play:
        plays = view.legal_plays
        bid = view.bids[view.seat] or 0
        short = bid > view.tricks_won[view.seat]
        winners = [play for play in plays if self._wins(view, play)]
        if short:
            if not view.trick:
                return max(plays, key=lambda play: self._strength(view, play))
            if winners:
                return min(winners, key=lambda play: self._strength(view, play))
            return min(plays, key=lambda play: self._strength(view, play))
        losers = [play for play in plays if play not in winners]
        minus = [play for play in losers if play.card.token == "minus5"]
        if minus:
            return minus[0]
        if losers:
            return max(losers, key=lambda play: self._strength(view, play))
        return min(plays, key=lambda play: self._strength(view, play))

    def _strength(self, view: SeatView, play: Play) -> float:
        """How much of a winner a play is: trumps above the rest, wilds above all, action cards last."""
        card = play.card
        if card.token == "wild":
            colour, rank = play.colour, 16 if play.value is None else play.value
        elif card.is_coloured:
            colour, rank = card.colour, card.value or 0
        else:
            return -1.0 if card.token != "plus5" else -0.5
        bonus = 20 if view.trump is not None and colour == view.trump else 0
        return rank + bonus

    def _wins(self, view: SeatView, play: Play) -> bool:
        """Whether the trick, with ``play`` added, would be won by this seat (ignoring trump changes)."""
        if play.card.is_action and play.card.token != "wild":
            return False
        rules = view.ruleset
        lead = view.lead
        if lead is None:
            lead = play.card.colour if play.card.is_coloured else play.colour
        trick = (*view.trick, (view.seat, play))
        trump = colour_code(view.trump)
        later_wins = rules.wild_tie is WildTie.LATER_WINS and not rules.wild_declares_value
        lead_code = colour_code(lead)
        return trick_winner(trick, trump, lead_code, later_wins, rules.wild_declares_value) == view.seat


class SloppyHeuristicBot(HeuristicBot):
    name = "sloppy-heuristic"
    slip = 0.1
    """The share of decisions taken at random."""

    def on_game_start(self, game: GameInfo) -> None:
        self.rng = random.Random(f"{game.game}:{game.seat}:{','.join(game.players)}")

    def bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids) if self.rng.random() < self.slip else super().bid(view)

    def play(self, view: SeatView) -> Play:
        return self.rng.choice(view.legal_plays) if self.rng.random() < self.slip else super().play(view)


if __name__ == "__main__":
    main(HeuristicBot)
