"""The example bots, installed with the SDK (the files of the project's ``examples/``).

Each is a module with a ``main`` guard, so ``python -m rage_sdk.examples.heuristic_bot --port N``
serves it, and :func:`example_bot` names its file for ``FILE.py:CLASS`` or ``python FILE.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).parent

#: The example bots: module name to ``Bot`` class name.
EXAMPLE_BOTS: Final = {
    "random_bot": "RandomBot",
    "greedy_bot": "GreedyBot",
    "heuristic_bot": "HeuristicBot",
    "search_bot": "SearchBot",
    "bid_reading_bot": "BidReadingBot",
}


def example_bot(module: str) -> Path:
    """The file of an example bot (a key of :data:`EXAMPLE_BOTS`)."""
    if module not in EXAMPLE_BOTS:
        raise KeyError(f"no example bot {module!r}; there are {', '.join(EXAMPLE_BOTS)}")
    return HERE / f"{module}.py"
