"""Rage Arena SDK: the rules engine, seat views and game records of the card game Rage."""

from typing import TYPE_CHECKING, Any

from .actions import Action, Bid, Play
from .cards import Card, Colour
from .errors import IllegalActionError, InvalidActionError, InvalidDealError
from .grpc_engine import choose_grpc_engine
from .rules import Ruleset, RulesetError
from .state import CHANCE, TERMINAL, GameState, Outcome, Phase, RoundResult, Trick
from .view import SeatView, view_for

if TYPE_CHECKING:
    from .bot import Bot

choose_grpc_engine()  # gRPC reads its settings when first imported, so before any module of ours imports it


def __getattr__(name: str) -> Any:
    # The bot base class brings in protobuf: loaded on first use, so record tools start fast.
    if name == "Bot":
        from .bot import Bot

        return Bot
    raise AttributeError(f"module 'rage_sdk' has no attribute {name!r}")


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
