"""Determinized Monte Carlo: deal the unseen cards many ways that fit what this seat has seen,
play each legal bid or card out to the end of the round in every such world with a quick
policy (the heuristic bot's play rule, ``aiming_policy``), and take the one that scores best on
average.

Each decision gets ``--budget-ms`` (never more than half the referee's deadline).

    python examples/search_bot.py --port 50051 --budget-ms 100
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import time
from collections.abc import Callable

from rage_sdk import Action, Bot, Play, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.rollout import aiming_policy, playout
from rage_sdk.sampling import SamplingError, WorldSampler
from rage_sdk.server import bot_parser, main


class SearchBot(Bot):
    name = "search"
    version = "1"

    def __init__(self, budget_ms: float = 100, clock: Callable[[], float] = time.perf_counter) -> None:
        self.budget_ms = budget_ms
        self.clock = clock
        """Counts the budget: the wall clock under a referee, ``time.thread_time`` to measure strength."""
        self.rng = random.Random()

    def on_game_start(self, game: GameInfo) -> None:
        self.rng.seed(game.game)
        self.budget_ms = min(self.budget_ms, game.decision_ms / 2)

    def bid(self, view: SeatView) -> int:
        return self.search(view).tricks  # type: ignore[union-attr]

    def play(self, view: SeatView) -> Play:
        return self.search(view)  # type: ignore[return-value]

    def sampler(self, view: SeatView) -> WorldSampler:
        """Where worlds come from: uniform over the deals that fit the view."""
        return WorldSampler(view)

    def search(self, view: SeatView) -> Action:
        """The legal action with the best mean round score for this seat over sampled worlds."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        stop = self.clock() + self.budget_ms / 1000
        scores = [0] * len(legal)
        try:
            sampler = self.sampler(view)
            while self.clock() < stop:
                world = sampler.sample(self.rng)
                for index, action in enumerate(legal):  # every action in the same world: a fair comparison
                    scores[index] += playout(world.copy(history=False), self.rng, aiming_policy, action)[view.seat]
        except SamplingError:
            pass  # no world found (big tables with many voids): the best so far, or the first action
        return legal[max(range(len(legal)), key=scores.__getitem__)]


class CpuSearchBot(SearchBot):
    """The search bot counting its budget in its own CPU time (``time.thread_time``), as ``rage bench
    ladder --clock cpu`` does: its play does not depend on machine load. For the referee's process
    (``FILE.py:CLASS``), where a decision runs start to end on one thread; the deadline stays the wall's."""

    def __init__(self, budget_ms: float = 100, clock: Callable[[], float] = time.thread_time) -> None:
        super().__init__(budget_ms, clock)


def budget(text: str) -> float:
    """A ``--budget-ms`` value: milliseconds, more than 0 (with none, the bot never searched)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text} is no time in milliseconds (more than 0)")
    return value


if __name__ == "__main__":
    parser = bot_parser()
    parser.add_argument("--budget-ms", type=budget, default=100, help="thinking time per decision (default 100 ms)")
    main(functools.partial(SearchBot, parser.parse_args().budget_ms), parser=parser)
