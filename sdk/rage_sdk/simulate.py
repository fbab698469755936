"""Whole games with uniformly random legal decisions: for benchmarks, tests and quick looks."""

from __future__ import annotations

import random

from .rules import Ruleset
from .state import GameState


def random_game(ruleset: Ruleset, players: int, seed: int, rng: random.Random | None = None) -> tuple[GameState, int]:
    """Play a game dealt from ``seed``, every decision drawn by ``rng`` (default: seeded by ``seed``).

    Returns the finished state and the number of decisions (bids and plays) taken.
    """
    rng = rng or random.Random(seed)
    state = GameState(ruleset, players)
    decisions = 0
    while not state.is_terminal():
        state.deal_seeded(seed, events=False)  # nobody reads them here
        turns = players * (state.cards + 1)  # each seat bids once and plays each of its cards
        for _ in range(turns):
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))], events=False)
        decisions += turns
    return state, decisions
