"""What rage_sdk.visibility lets a seat see: never another seat's hand, never the pile, bids per mode."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rage_sdk.actions import PLAYS
from rage_sdk.cards import NUM_COLOURED
from rage_sdk.engine_events import BidMade, BidsShown, CardPlayed, EngineEvent, RoundDealt, TrickWon
from rage_sdk.rules import Bidding, Ruleset
from rage_sdk.state import GameState, Phase
from rage_sdk.visibility import events_for, seen


def _named(event: EngineEvent) -> set[int]:
    """The card ids an event names."""
    if isinstance(event, RoundDealt):
        return {*event.hand, *event.turned}
    if isinstance(event, CardPlayed):
        return {PLAYS[event.play].card.id, *event.turned}
    if isinstance(event, TrickWon):
        return set(event.turned)
    return set()


def _hidden_from(state: GameState, seat: int) -> set[int]:
    """Coloured cards ``seat`` may not know of: other hands and the pile, less any copy it sees."""
    others = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    public = {*state.hands[seat], *state.turned, *(play.card.id for _, play in state.trick)}
    public |= {play.card.id for trick in state.tricks for _, play in trick.plays}
    return {card for card in others | set(state.pile_cards()) if card < NUM_COLOURED} - public


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(["amigo", "fundex", "waddingtons"]),
    bidding=st.sampled_from(list(Bidding)),
    players=st.integers(3, 6),
    seed=st.integers(0, 10_000),
)
def test_no_seat_is_told_or_shown_another_hand_or_the_pile(
    preset: str, bidding: Bidding, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = GameState(Ruleset.of(preset).model_copy(update={"bidding": bidding}), players)
    while not state.is_terminal():
        events = (
            state.deal_seeded(seed) if state.phase is Phase.DEAL else state.apply(rng.choice(state.legal_actions()))
        )
        for seat in range(players):
            hidden = _hidden_from(state, seat)
            for event in events_for(events, seat):
                assert not _named(event) & hidden, (seat, event)
                if isinstance(event, BidMade) and event.seat != seat:
                    assert bidding is Bidding.OPEN, (seat, event)
                if isinstance(event, BidsShown):
                    assert bidding is Bidding.HIDDEN and state.phase is Phase.PLAY
            if state.phase is Phase.DEAL or state.is_terminal():
                continue
            view = seen(state, seat)
            assert sorted(view.hand) == sorted(state.hands[seat])
            named = {*view.turned, *(PLAYS[code].card.id for code in view.trick_plays)}
            assert not named & hidden
            others_shown = bidding is Bidding.OPEN or (bidding is Bidding.HIDDEN and state.phase is Phase.PLAY)
            assert others_shown or all(bid < 0 for other, bid in enumerate(view.bids) if other != seat)


def test_the_hidden_cards_are_many_while_a_round_is_played() -> None:
    """The check above is not empty: mid-round, other hands and the pile hide cards from each seat."""
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(1)
    assert all(len(_hidden_from(state, seat)) > 30 for seat in range(4))
