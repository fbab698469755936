"""Rage Arena SDK: the rules engine, seat views and game records of the card game Rage."""

from .actions import Action, Bid, Play
from .bot import Bot
from .cards import Card, Colour
from .errors import IllegalActionError, InvalidActionError, InvalidDealError
from .rules import Ruleset, RulesetError
from .state import CHANCE, TERMINAL, GameState, Outcome, Phase, RoundResult, Trick
from .view import SeatView, view_for

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Bid",
    "Bot",
    "Card",
    "Colour",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDealError",
    "Outcome",
    "Phase",
    "Play",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "SeatView",
    "Trick",
    "view_for",
]
