"""``GameState.copy``, ``apply_unchecked`` and playouts: the fast path search bots use."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rage_sdk.actions import Bid, Play
from rage_sdk.cards import CARDS, card_id
from rage_sdk.errors import IllegalActionError
from rage_sdk.rollout import aiming_policy, greedy_policy, playout, random_policy
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState, Phase

from tests.helpers.rules import play as play_cards
from tests.helpers.rules import show, started
from tests.helpers.strategies import rulesets_and_players
from tests.sdk.test_properties import snapshot

seeds = st.integers(0, 2**32)
few = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _advance(state: GameState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.phase is Phase.DEAL:
            state.deal_seeded(rng.randrange(1000))
        else:
            state.apply(rng.choice(state.legal_actions()))


@few
@given(table=rulesets_and_players(), seed=seeds, steps=st.integers(0, 60))
def test_a_copy_plays_on_alone_and_like_the_original(table: tuple[Ruleset, int], seed: int, steps: int) -> None:
    ruleset, players = table
    state = GameState(ruleset, players)
    _advance(state, random.Random(seed), steps)
    before = snapshot(state)
    twin = state.copy()
    assert snapshot(twin) == before
    _advance(twin, random.Random(seed + 1), 400)
    assert snapshot(state) == before, "playing the copy changed the original"
    _advance(state, random.Random(seed + 1), 400)
    assert snapshot(state) == snapshot(twin)


@few
@given(table=rulesets_and_players(), seed=seeds)
@example(table=(Ruleset.of("amigo", rounds=[3, 2, 1]), 10), seed=58)  # a tie with a trick's winner before a change
def test_unchecked_legal_actions_do_what_apply_does(table: tuple[Ruleset, int], seed: int) -> None:
    ruleset, players = table
    checked, unchecked = GameState(ruleset, players), GameState(ruleset, players)
    rng = random.Random(seed)
    while not checked.is_terminal():
        if checked.phase is Phase.DEAL:
            deal = rng.randrange(1000)
            checked.deal_seeded(deal)
            unchecked.deal_seeded(deal)
            continue
        legal = checked.legal_actions()
        assert legal == unchecked.legal_actions()
        action = rng.choice(legal)
        checked.apply(action)
        unchecked.apply_unchecked(action)
        assert snapshot(checked) == snapshot(unchecked)


@few
@given(table=rulesets_and_players(), seed=seeds, steps=st.integers(0, 40))
def test_a_rollout_copy_scores_the_round_as_the_full_state_does(
    table: tuple[Ruleset, int], seed: int, steps: int
) -> None:
    ruleset, players = table
    state = GameState(ruleset, players)
    state.deal_seeded(seed % 1000)
    _advance(state, random.Random(seed), steps)
    if state.phase not in (Phase.BID, Phase.PLAY):
        return
    for policy in (greedy_policy, aiming_policy, random_policy):
        fast, full = state.copy(history=False), state.copy()
        points = playout(fast, random.Random(seed), policy)
        assert playout(full, random.Random(seed), policy) == points
        assert full.results[-1].points == points
        assert fast.totals == full.totals and fast.hits == full.hits
        assert fast.tricks == [] and fast.results == [] and fast.logs == []


def test_a_playout_whose_first_action_ends_the_round_scores_that_round() -> None:
    """The last card of a round is a wild, six declarations to choose from: each scores the round."""
    ruleset = Ruleset.of("amigo", rounds=[1])
    state = GameState(ruleset, 2)
    pile = list(ruleset.deck)
    pile.remove(card_id("r0"))
    pile.remove(card_id("wild"))
    state.deal([[card_id("wild")], [card_id("r0")]], pile)  # seat 1 leads r0; the pile's top, r1, makes red trump
    state.apply(Bid.of(1))
    state.apply(Bid.of(0))
    state.apply(Play.of("r0"))
    last = state.legal_plays()
    assert len(last) == 6
    for play in last:
        full = state.copy()
        full.apply(play)
        assert playout(state.copy(history=False), random.Random(0), first=play) == full.results[-1].points


def _aim(state: GameState) -> str:
    return show(aiming_policy(state, state.legal_actions(), random.Random(0)))


def test_the_aiming_policy_wins_cheaply_when_short_and_ducks_once_its_bid_is_made() -> None:
    """Seat 1 leads r9; seat 2 (bid 1, short) beats it with r10, not r14; bid 0, it keeps under with r8."""
    hands = [["g1", "g2", "g3"], ["r9", "b1", "b2"], ["r8", "r10", "r14"]]
    short = started(hands, ["p0"], bids=[0, 0, 1])
    play_cards(short, "r9")
    assert _aim(short) == "r10"
    made = started(hands, ["p0"], bids=[0, 0, 0])
    play_cards(made, "r9")
    assert _aim(made) == "r8"


def test_the_aiming_policy_sheds_a_minus5_on_a_trick_it_need_not_win() -> None:
    state = started([["g1", "g2"], ["r9", "b1"], ["minus5", "b3"]], ["p0"], bids=[0, 1, 0])
    play_cards(state, "r9")
    assert _aim(state) == "minus5"


def test_a_playout_whose_first_action_is_not_legal_is_refused() -> None:
    state = GameState(Ruleset.of("amigo", rounds=[3]), 3)
    state.deal_seeded(1)
    with pytest.raises(IllegalActionError, match="bid"):
        playout(state.copy(history=False), random.Random(0), first=Bid.of(7))
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    hand = state.hands[state.current_player()]
    elsewhere = next(card for card in range(96) if card not in hand)
    with pytest.raises(IllegalActionError):
        playout(state.copy(history=False), random.Random(0), first=Play(CARDS[elsewhere]))
