"""The test bots of ``tests/bots`` as modules, for what the tests share with them (the recorder's reader, a
bot's counters and constants)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from rage_sdk.pb import bot_pb2

TEST_BOTS = Path(__file__).resolve().parents[1] / "bots"


def bot_module(name: str) -> ModuleType:
    """A module of ``tests/bots`` (they import their shared ``botbase`` by plain name)."""
    sys.path.insert(0, str(TEST_BOTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(TEST_BOTS))


def read_dump(dump: Path) -> list[bot_pb2.GameMessage]:
    """The messages the recorder bot wrote to ``dump``, a message not yet whole left out."""
    messages: list[bot_pb2.GameMessage] = bot_module("recorder").read_dump(dump)
    return messages
