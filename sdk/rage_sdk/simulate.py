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
    while state.phase is _DEAL:
        state.deal_seeded(seed)
        decisions += players * (state.cards + 1)  # each seat bids once and plays each of its cards
        while state.phase is _BID:
            bids: list[Action] = legal_bids()  # type: ignore[assignment]
            apply(bids[int(draw() * len(bids))])
        while state.phase is _PLAY:
            plays: list[Action] = legal_plays()  # type: ignore[assignment]
            apply(plays[int(draw() * len(plays))])
    return state, decisions
