"""A bot that feeds a partner: lets it take the tricks it still needs, takes from it the ones it does not,
sheds +5 cards on its tricks and -5 cards on a rival's, and lets a rival that has made its bid win more.

:class:`FeederBot` feeds the bot named :attr:`FeederBot.partner` wherever it sits at the table (the
names of a league's bots reach each seat at the start of a game); :func:`feeder_of` makes one feeding
another name. It bids as the heuristic bot does; its own score is no concern of it.
"""

from __future__ import annotations

from typing import ClassVar

from rage_sdk import Play, SeatView
from rage_sdk.cards import colour_code
from rage_sdk.events import GameInfo
from rage_sdk.examples.heuristic_bot import HeuristicBot
from rage_sdk.rules import WildTie
from rage_sdk.state import trick_winner


class FeederBot(HeuristicBot):
    name = "feeder"
    partner: ClassVar[str] = "partner"
    """The name of the bot fed."""

    def on_game_start(self, game: GameInfo) -> None:
        self.partner_seat = game.players.index(self.partner) if self.partner in game.players else None

    def play(self, view: SeatView) -> Play:
        if self.partner_seat is None:
            return super().play(view)
        return max(view.legal_plays, key=lambda play: self._feeding(view, play))

    def _feeding(self, view: SeatView, play: Play) -> tuple[int, int, float]:
        """How well ``play`` feeds the partner: the trick going where it should, then the card's points, then
        the weakest card (the strong ones kept for later)."""
        partner = self.partner_seat
        winner = self._winner(view, play)
        partner_short = view.bids[partner] is None or (view.bids[partner] or 0) > view.tricks_won[partner]
        made = view.bids[winner] is not None and (view.bids[winner] or 0) <= view.tricks_won[winner]
        if winner == partner:
            aim = 3 if partner_short else 0
        elif winner == view.seat:
            aim = 1
        else:
            aim = 2 if made else 0  # a rival past its bid misses it by another trick
        token = play.card.token
        points = (winner == partner and token == "plus5") or (winner not in (partner, view.seat) and token == "minus5")
        return aim, int(points), -self._strength(view, play)

    def _winner(self, view: SeatView, play: Play) -> int:
        """Who would win the trick with ``play`` added, if it ended there (ignoring trump changes)."""
        rules = view.ruleset
        lead = view.lead
        if lead is None:
            lead = play.card.colour if play.card.is_coloured else play.colour
        trick = (*view.trick, (view.seat, play))
        trump = colour_code(view.trump)
        later_wins = rules.wild_tie is WildTie.LATER_WINS and not rules.wild_declares_value
        lead_code = colour_code(lead)
        return trick_winner(trick, trump, lead_code, later_wins, rules.wild_declares_value)


def feeder_of(partner: str) -> type[FeederBot]:
    """A feeder of the bot named ``partner``."""
    return type(f"FeederOf{partner.title()}", (FeederBot,), {"partner": partner})
