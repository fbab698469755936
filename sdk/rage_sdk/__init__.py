"""Rage Arena SDK: the rules engine, seat views and game records of the card game Rage.

Each name below is loaded from its module on first use, so a program that needs only some of the
SDK (a command's ``--help``, the record tools) does not import the rest (pydantic, the engine, protobuf).

``RAGE_PURE_PYTHON=1`` (any value but ``0``) runs the modules the install compiled
(:data:`~rage_sdk.compiled.COMPILED_MODULES`) from their ``.py`` files: :class:`PureSource` comes first
on ``sys.meta_path`` for them.
"""

import os
import sys
from collections.abc import Sequence
from importlib import import_module
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .compiled import COMPILED_MODULES
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


class PureSource(MetaPathFinder):
    """Loads each module of ``COMPILED_MODULES`` from its ``.py`` file, not the extension module beside it."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in COMPILED_MODULES:
            return None
        source = fullname.rpartition(".")[2] + ".py"
        files = [Path(folder, source) for folder in path or ()]
        return next((spec_from_file_location(fullname, file) for file in files if file.is_file()), None)


if os.environ.get("RAGE_PURE_PYTHON", "") not in ("", "0"):  # a compiled install run as pure Python
    sys.meta_path.insert(0, PureSource())

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
