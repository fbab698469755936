"""The trick's winner the engine keeps as cards are played equals :func:`trick_winner` over the trick."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_sdk.cards import NUM_COLOURED, WILD, colour_code
from rage_sdk.rules import Ruleset
from rage_sdk.state import NO_TRUMP, GameState, Phase, Trick, trick_winner

from tests.helpers.strategies import rulesets_and_players


def _lead(trick: Trick) -> int:
    """The lead colour of a finished trick: its first coloured card's, or its first wild's declared colour."""
    for _, play in trick.plays:
        if play.card.id < NUM_COLOURED:
            return play.card.id >> 4
        if play.card.id == WILD:
            return play.colour  # type: ignore[return-value]
    return NO_TRUMP


def _winner_now(state: GameState) -> int:
    rules = state.ruleset
    return trick_winner(state.trick, state.trump, state.lead, state._table.later_wins, rules.wild_declares_value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets_and_players(), st.integers(0, 2**32))
def test_kept_winner_is_trick_winner(game: tuple[Ruleset, int], seed: int) -> None:
    ruleset, players = game
    rng = random.Random(seed)
    state = GameState(ruleset, players)
    while not state.is_terminal():
        if state.phase is Phase.DEAL:
            state.deal_seeded(seed)
            continue
        if state.trick and not state._recount and state._best >= 0:  # the winner is kept, not recounted
            assert state._winner == _winner_now(state)
        finished = len(state.tricks)
        state.apply(rng.choice(state.legal_actions()))
        if len(state.tricks) > finished:
            trick = state.tricks[-1]
            wild_values = ruleset.wild_declares_value
            assert trick.winner == trick_winner(
                trick.plays, colour_code(trick.trump), _lead(trick), state._table.later_wins, wild_values
            )
