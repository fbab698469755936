"""Python's garbage collector, set for a process that serves games: called once its set-up is done.

Start-up leaves objects that live as long as the process (modules, protobuf descriptors, pydantic
schemas, Typer and Rich: some 120,000 in the referee, 37,000 in a bot), and every full collection
walks them all: at 16 concurrent games a full collection stopped the referee, and with it every
game, for about 100 ms. Frozen, no collection walks them again. Games make a few container objects
per decision, nearly all freed at once by reference counting; collecting the youngest generation
every ``YOUNG_THRESHOLD`` allocations rather than every 700 does the same work in far fewer
passes. Figures in ``proto/README.md``.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000


def tune_gc() -> None:
    """Collect once, freeze what is left, and collect the youngest generation less often."""
    gc.collect()
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
