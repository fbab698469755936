"""Rage Arena SDK: the rules engine, seat views and game records of the card game Rage.

Each name below is loaded from its module on first use, so a program that needs only some of the
SDK (a command's ``--help``, the record tools) does not import the rest (pydantic, the engine, protobuf).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .grpc_engine import choose_grpc_engine

if TYPE_CHECKING:
    from .actions import Action, Bid, Play
    from .bot import Bot
    from .cards import Card, Colour
    from .errors import IllegalActionError, InvalidActionError, InvalidDealError
    from .rules import Ruleset, RulesetError
    from .state import CHANCE, TERMINAL, GameState, Outcome, Phase, RoundResult, Trick
    from .view import SeatView, view_for

choose_grpc_engine()  # gRPC reads its settings when first imported, so before any module of ours imports it

_MODULES = {
    "Action": "actions",
    "Bid": "actions",
    "Play": "actions",
    "Bot": "bot",
    "Card": "cards",
    "Colour": "cards",
    "IllegalActionError": "errors",
    "InvalidActionError": "errors",
    "InvalidDealError": "errors",
    "Ruleset": "rules",
    "RulesetError": "rules",
    "CHANCE": "state",
    "TERMINAL": "state",
    "GameState": "state",
    "Outcome": "state",
    "Phase": "state",
    "RoundResult": "state",
    "Trick": "state",
    "SeatView": "view",
    "view_for": "view",
}
"""The module of each name the SDK exports."""


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'rage_sdk' has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


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
