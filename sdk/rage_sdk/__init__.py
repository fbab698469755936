"""Rage Arena SDK: the rules engine, seat views and game records of the card game Rage."""

from .actions import Action, Bid, Play
from .cards import Card, Colour
from .errors import IllegalActionError, InvalidActionError, InvalidDealError
from .rules import Ruleset, RulesetError
from .state import CHANCE, TERMINAL, GameState, Outcome, Phase, RoundResult, Trick

__all__ = [
    "Action",
    "Bid",
    "CHANCE",
    "Card",
    "Colour",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDealError",
    "Outcome",
    "Phase",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "TERMINAL",
    "Trick",
]
