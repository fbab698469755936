"""Whole games with uniformly random legal decisions: for benchmarks, tests and quick looks."""

from __future__ import annotations

import random

from .actions import Action
from .rules import Ruleset
from .state import GameState, Phase

_DEAL, _BID, _PLAY = Phase.DEAL, Phase.BID, Phase.PLAY  # a member lookup on an Enum class is slow


def random_game(ruleset: Ruleset, players: int, seed: int, rng: random.Random | None = None) -> tuple[GameState, int]:
    """Play a game dealt from ``seed``, every decision drawn by ``rng`` (default: seeded by ``seed``).

    Returns the finished state and the number of decisions (bids and plays) taken.
    """
    rng = rng or random.Random(seed)
    draw = rng.random
    state = GameState(ruleset, players)
    legal_plays, legal_bids, apply = state.legal_plays, state.legal_bids, state.apply
    decisions = 0
    while True:
        phase = state.phase
        if phase is _PLAY:
            actions: list[Action] = legal_plays()  # type: ignore[assignment]
        elif phase is _BID:
            actions = legal_bids()  # type: ignore[assignment]
        elif phase is _DEAL:
            state.deal_seeded(seed)
            continue
        else:
            return state, decisions
        apply(actions[int(draw() * len(actions))])
        decisions += 1
