"""World sampling at big tables with many voids: a deal that keeps every void, never a failure."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_sdk import sampling
from rage_sdk.cards import NUM_COLOURED
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import WorldSampler
from rage_sdk.state import GameState, Phase
from rage_sdk.view import SeatView, view_for

from tests.sdk.test_sampling import _mid_round, check_world


def two_colour_round(players: int, tricks: int, seed: int) -> SeatView:
    """A ten-card round where each seat is dealt mostly two colours, played low for ``tricks``
    tricks: most seats soon show voids in several colours. The view of the seat to move."""
    ruleset = Ruleset.of("amigo", rounds=[10])
    rng = random.Random(seed)
    by_colour = [[card for card in ruleset.deck if card < NUM_COLOURED and card >> 4 == c] for c in range(6)]
    for cards in by_colour:
        rng.shuffle(cards)
    actions = [card for card in ruleset.deck if card >= NUM_COLOURED]
    hands: list[list[int]] = []
    for seat in range(players):
        mine, hand = [seat % 6, (seat + 2) % 6], []
        while len(hand) < 10:
            colour = mine[len(hand) % 2]
            pool = by_colour[colour] or actions or max(by_colour, key=len)
            hand.append(pool.pop())
        hands.append(hand)
    rest = [card for cards in by_colour for card in cards] + actions
    rng.shuffle(rest)
    rest.sort(key=lambda card: card >= NUM_COLOURED)  # a coloured card on top turns the trump
    state = GameState(ruleset, players)
    state.deal(hands, rest)
    for _ in range(players):
        state.apply(state.legal_bids()[0])
    while state.trick_number <= tricks and state.phase is Phase.PLAY:
        state.apply(min(state.legal_plays(), key=lambda play: (play.card.is_action, play.card.id & 15)))
    return view_for(state, state.to_move)


def test_a_nine_seat_view_with_many_voids_gets_worlds() -> None:
    """23 voids among nine seats: too many splits to count, and a plain shuffle almost never fits
    them (it was 1000 shuffles, then a failure, and the search bot played its first legal card)."""
    view = two_colour_round(9, tricks=4, seed=0)
    assert sum(map(len, view.voids().values())) == 23
    sampler = WorldSampler(view)
    assert not sampler.exact
    rng = random.Random(0)
    for _ in range(20):
        check_world(sampler.sample(rng), view)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(9, 10), tricks=st.integers(1, 7), seed=st.integers(0, 2**32))
def test_every_big_table_view_gets_worlds_that_fit_it(players: int, tricks: int, seed: int) -> None:
    view = two_colour_round(players, tricks, seed)
    sampler = WorldSampler(view)
    rng = random.Random(seed)
    for _ in range(3):
        check_world(sampler.sample(rng), view)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],  # the patch is constant
)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32), steps=st.integers(0, 90))
def test_the_deal_that_keeps_the_voids_fits_any_real_view(
    players: int, seed: int, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With exact counting off everywhere, every world still fits its view."""
    monkeypatch.setattr(sampling, "_MAX_SPLITS", 0)
    state = _mid_round(Ruleset.of("amigo"), players, seed, steps)
    if state.phase is not Phase.PLAY:
        return
    view = view_for(state, state.to_move)
    sampler = WorldSampler(view)
    rng = random.Random(seed)
    for _ in range(3):
        check_world(sampler.sample(rng), view)


def test_building_a_sampler_at_a_big_table_is_quick() -> None:
    """Counting stops early: building took over a second at some nine- and ten-seat views."""
    view = two_colour_round(9, tricks=4, seed=0)
    start = time.process_time()
    WorldSampler(view)
    assert time.process_time() - start < 0.5
