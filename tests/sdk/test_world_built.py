"""A sampled world, built from its deal and the round's history on the unchecked path, equals the round
replayed from that deal through the checked engine (``deal`` and ``apply``), and both reject the same deals."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_sdk.actions import Bid
from rage_sdk.errors import IllegalActionError
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import PILE, SamplingError, WorldSampler
from rage_sdk.state import GameState, Phase
from rage_sdk.view import SeatView, view_for

from tests.helpers.strategies import rulesets_and_players


def _mid_round(ruleset: Ruleset, players: int, seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(ruleset, players)
    state.deal_seeded(seed % 10_000)
    for _ in range(steps):
        if state.phase is not Phase.BID and state.phase is not Phase.PLAY:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _replayed(view: SeatView, holders: list[int], dealt: list[list[int]], rng: random.Random) -> GameState | None:
    """The round replayed from ``dealt`` with the checked deal and every action checked."""
    played: list[list[int]] = [[] for _ in range(view.players)]
    plays = [seated for trick in view.tricks for seated in trick.plays] + list(view.trick)
    for seat, play in plays:
        played[seat].append(play.card.id)
    hands = [[card.id for card in view.hand] for _ in range(view.players)]
    for holder, cards in zip(holders, dealt):
        if holder != PILE:
            hands[holder] = cards[:]
    state = GameState(view.ruleset, view.players, first_round=view.round_number, dealer=view.dealer)
    state.results = list(view.results)
    state.totals = list(view.totals)
    state.hits = [sum(r.tricks_won[s] == r.bids[s] for r in view.results) for s in range(view.players)]
    state.deal([hand + mine for hand, mine in zip(hands, played)], [card.id for card in view.turned] + dealt[-1])
    try:
        while state.phase is Phase.BID and (state.to_move != view.to_move or view.phase is not Phase.BID):
            bid = view.bids[state.to_move]
            state.apply(Bid.of(bid) if bid is not None else rng.choice(state.legal_bids()))
        for seat, play in plays:
            state.apply(play, seat)
    except IllegalActionError:
        return None
    return state


def _picture(state: GameState) -> tuple[object, ...]:
    return (
        state.hands,
        state.pile_cards(),
        state.turned,
        state.trump,
        state.first_trump,
        state.bids,
        state.phase,
        state.to_move,
        state.trick_number,
        state.trick,
        state.lead,
        state.tricks,
        state.tricks_won,
        state.totals,
        state.hits,
        state.results,
        state.legal_actions(),
        state._winner if state.trick and not state._recount else None,
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets_and_players(), st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 9))
def test_a_built_world_equals_the_replayed_round(table: tuple[Ruleset, int], seed: int, steps: int, seat: int) -> None:
    ruleset, players = table
    state = _mid_round(ruleset, players, seed, steps)
    if state.phase is not Phase.BID and state.phase is not Phase.PLAY:
        return
    view = view_for(state, seat % players)
    try:
        sampler = WorldSampler(view)
    except SamplingError:
        return
    rng = random.Random(seed)
    for draw in range(3):
        dealt = sampler.deal_unseen(rng)
        if draw == 2 and len(dealt[-1]) >= len(dealt[0]):  # may break a void or what a change saw: refused alike
            dealt[0], dealt[-1] = dealt[-1][: len(dealt[0])], dealt[0] + dealt[-1][len(dealt[0]) :]
        built = sampler._replay([cards[:] for cards in dealt], random.Random(draw))
        replayed = _replayed(view, sampler.holders, dealt, random.Random(draw))
        if replayed is None:
            assert built is None
        else:
            assert built is not None
            assert _picture(built) == _picture(replayed)
            assert view_for(built, view.seat) == view
