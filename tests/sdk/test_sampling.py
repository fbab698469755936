"""World sampling: every world fits the view, replays to it, and is drawn uniformly."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_sdk.actions import Play
from rage_sdk.cards import NUM_COLOURED, card_id
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import PILE, SamplingError, WorldSampler
from rage_sdk.state import GameState, Phase
from rage_sdk.view import SeatView, view_for

from tests.helpers.strategies import rulesets_and_players

seeds = st.integers(0, 2**32)


def _mid_round(ruleset: Ruleset, players: int, seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(ruleset, players)
    state.deal_seeded(seed % 10_000)
    for _ in range(steps):
        if state.phase is not Phase.BID and state.phase is not Phase.PLAY:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_world(world: GameState, view: SeatView) -> None:
    """The world shows the seat exactly its view, and the voids it has seen hold."""
    assert view_for(world, view.seat) == view
    for seat, colours in view.voids().items():
        held = {card >> 4 for card in world.hands[seat] if card < NUM_COLOURED}
        assert not held & set(colours), f"seat {seat} holds a colour it showed it has none of"


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=rulesets_and_players(), seed=seeds, steps=st.integers(0, 60), seat=st.integers(0, 9))
def test_every_world_fits_the_view_and_replays_to_it(
    table: tuple[Ruleset, int], seed: int, steps: int, seat: int
) -> None:
    ruleset, players = table
    state = _mid_round(ruleset, players, seed, steps)
    if state.phase is not Phase.BID and state.phase is not Phase.PLAY:
        return
    view = view_for(state, seat % players)
    sampler = WorldSampler(view, max_tries=200)
    rng = random.Random(seed)
    for _ in range(3):
        try:
            world = sampler.sample(rng)
        except SamplingError:
            assert not sampler.exact, "exact counting found no world for a real view"
            return
        check_world(world, view)


def test_a_world_of_a_seat_holding_a_choose_mode_change_keeps_the_colours_it_may_name() -> None:
    """The seat to move may name with its change only colours the pile holds, so its legal plays tell them;
    a world whose pile held red beside the seat's orange, green and purple was kept."""
    state = _mid_round(Ruleset.of("waddingtons"), 10, 22, 47)
    view = view_for(state, 6)
    named = {action.trump for action in view.legal_actions if isinstance(action, Play) and action.trump is not None}
    assert view.to_move == 6 and named  # the seat holds a change that names colours
    sampler, rng = WorldSampler(view), random.Random(22)
    for _ in range(20):
        check_world(sampler.sample(rng), view)


def _crafted(hands: list[list[str]], plays: list[str], viewer: int | None = None, trump: str = "p3") -> SeatView:
    """A round for three seats (dealer 0): the deal, bids of 1, then ``plays`` in order; the view of
    ``viewer`` (default: the seat to move)."""
    players = len(hands)
    ruleset = Ruleset.of("amigo", rounds=[len(hands[0])])
    state = GameState(ruleset, players)
    dealt = [[card_id(token) for token in hand] for hand in hands]
    used = Counter(card for hand in dealt for card in hand) + Counter([card_id(trump)])
    rest = list((Counter(ruleset.deck) - used).elements())
    random.Random(0).shuffle(rest)
    state.deal(dealt, [card_id(trump), *rest])
    for _ in range(players):
        state.apply(state.legal_bids()[1])
    for token in plays:
        card, _, colour = token.partition(" as ")
        state.apply(Play.of(card, colour=colour or None))
    return view_for(state, state.to_move if viewer is None else viewer)


def _exact_placements(view: SeatView) -> dict[tuple[int, int], float]:
    """Expected copies of each unseen card id in each holder, over every deal of the unseen cards
    (copies told apart) whose replay the engine accepts and which shows the seat this view."""
    sampler = WorldSampler(view)
    unseen = sorted(card for holder in sampler.deal_unseen(random.Random(0)) for card in holder)
    others = sampler.holders[:-1]
    assert all(view.hand_sizes[seat] == 1 for seat in others), "enumeration needs one card per other hand"
    counts: Counter[tuple[int, int]] = Counter()
    worlds = 0

    def place(index: int, taken: list[int]) -> None:
        nonlocal worlds
        if index == len(others):
            pile = [card for i, card in enumerate(unseen) if i not in taken]
            world = sampler._replay([[unseen[i]] for i in taken] + [pile], random.Random(0))
            if world is None or view_for(world, view.seat) != view:
                return
            worlds += 1
            for seat, i in zip(others, taken):
                counts[(unseen[i], seat)] += 1
            for card in pile:
                counts[(card, PILE)] += 1
            return
        for i in range(len(unseen)):
            if i not in taken:
                place(index + 1, [*taken, i])

    place(0, [])
    assert worlds
    return {cell: count / worlds for cell, count in counts.items()}


@pytest.mark.parametrize(
    ("hands", "plays", "viewer"),
    [
        # Seat 2 shows it has no red; seat 0 (to lead the second trick) looks.
        ([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"], None),
        # Both others show they have no red; seat 1 looks.
        ([["wild", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "wild as o"], None),
        # Seat 2 has no red and seat 0 no green: each may hold what the other may not; seat 1 looks.
        ([["r9", "b2", "o4"], ["r5", "g3", "y1"], ["p7", "g9", "y2"]], ["r5", "p7", "r9", "g9", "b2", "g3"], 1),
    ],
)
def test_each_unseen_card_lands_where_exact_enumeration_says(
    hands: list[list[str]], plays: list[str], viewer: int | None
) -> None:
    view = _crafted(hands, plays, viewer)
    expected = _exact_placements(view)
    sampler = WorldSampler(view)
    rng = random.Random(1)
    draws = 4000
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(draws):
        for holder, cards in zip(sampler.holders, sampler.deal_unseen(rng)):
            for card in cards:
                seen[(card, holder)] += 1
    # Chi-square over the cells of the hands (the pile takes the rest of each card).
    chi2 = cells = 0.0
    for (card, holder), share in expected.items():
        if holder == PILE or share <= 0:
            continue
        chi2 += (seen[(card, holder)] - draws * share) ** 2 / (draws * share)
        cells += 1
    assert not any(seen[cell] for cell in seen if cell not in expected), "a card landed where no world puts it"
    assert chi2 < cells + 5 * (2 * cells) ** 0.5, f"chi-square {chi2:.0f} over {cells:.0f} cells"


def test_a_view_no_deal_explains_is_refused() -> None:
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    view.hand_sizes = (1, 1, 200)
    with pytest.raises(SamplingError, match=re.escape("hand_sizes: [1, 1, 200], but a hand holds 0-2 cards")):
        WorldSampler(view)


def test_a_weight_of_zero_ends_in_a_clear_error() -> None:
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    with pytest.raises(SamplingError, match="no world kept in 20 draws"):
        WorldSampler(view, weight=lambda world: 0.0, max_tries=20).sample(random.Random(0))


def test_weights_favour_worlds() -> None:
    """Keeping only worlds where seat 1 holds g-something leaves no other world."""
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    greens = WorldSampler(view, weight=lambda world: float(world.hands[1][0] >> 4 == 3))
    rng = random.Random(2)
    assert all(greens.sample(rng).hands[1][0] >> 4 == 3 for _ in range(20))


def test_a_world_the_rules_reject_is_not_returned() -> None:
    """Replaying refuses a deal the view's plays could not have come from."""
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    sampler = WorldSampler(view)
    dealt = sampler.deal_unseen(random.Random(0))
    red = next(card for card in dealt[-1] if card >> 4 == 0)
    dealt[-1].remove(red)
    dealt[-1].append(dealt[1][0])
    dealt[1] = [red]  # seat 2 holding red after it did not follow red
    assert sampler._replay(dealt, random.Random(0)) is None


@pytest.mark.parametrize("tries", [0, -3, 2.5])
def test_max_tries_of_no_draw_is_refused(tries: int) -> None:
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    with pytest.raises(ValueError, match="max_tries is a whole number of draws, at least 1"):
        WorldSampler(view, max_tries=tries)


def test_a_weight_that_is_no_function_and_a_seed_for_the_rng_are_refused_in_one_line() -> None:
    """``WorldSampler(view, weight=3)`` was taken and failed at sample() ('int' object is not callable), and
    ``sample(1)`` was 'int' object has no attribute 'random' (compiled: 'random.Random object expected')."""
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    with pytest.raises(TypeError) as weight:
        WorldSampler(view, weight=3)
    assert str(weight.value) == "weight is a function of a world (a GameState) to its weight 0..1, not 3"
    with pytest.raises(TypeError) as seed:
        WorldSampler(view).sample(1)
    assert str(seed.value) == "sample takes a random.Random (random.Random(seed) once, reused), not 1"


@pytest.mark.parametrize("weight", [float("nan"), -0.5, 1.5, "1", None])
def test_a_weight_outside_0_to_1_is_refused_naming_it(weight: object) -> None:
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    sampler = WorldSampler(view, weight=lambda world: weight)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError, match=r"a world's weight is a number in \[0, 1\]; the weight function gave"):
        sampler.sample(random.Random(0))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand_sizes": (1, 1)}, "hand_sizes: 2 entries for 3 players"),
        ({"hand_sizes": (1, -2, 1)}, "hand_sizes: [1, -2, 1], but a hand holds 0-2 cards this round"),
        ({"seat": 7}, "seat: 7 is not one of the seats 0-2"),
        ({"seat": -1}, "seat: -1 is not one of the seats 0-2"),
        ({"players": 2}, "hand_sizes: 3 entries for 2 players"),
        ({"players": 11}, "players: 11, but amigo is for 2-10"),
    ],
)
def test_a_view_that_does_not_hold_together_is_refused_naming_the_field(change: dict[str, Any], message: str) -> None:
    view = _crafted([["r9", "o4"], ["r5", "g3"], ["b7", "y2"]], ["r5", "b7", "r9"])
    with pytest.raises(SamplingError, match=re.escape(message)):
        WorldSampler(dataclasses.replace(view, **change))


def test_a_state_given_for_a_view_is_refused_saying_how_to_make_one() -> None:
    """``WorldSampler(state)`` was ``AttributeError: 'GameState' object has no attribute 'seat'``."""
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(seed=7)
    with pytest.raises(TypeError) as info:
        WorldSampler(state)  # type: ignore[arg-type]
    assert str(info.value) == "WorldSampler takes a SeatView, not a GameState: WorldSampler(view_for(state, seat))"
