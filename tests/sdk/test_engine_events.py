"""apply() and the deal return the events they caused, tagged with who may see them."""

from __future__ import annotations

import random

import pytest
from rage_sdk.cards import colour_code
from rage_sdk.engine_events import (
    EVERYONE,
    BidMade,
    BidsShown,
    CardPlayed,
    EngineEvent,
    RoundDealt,
    RoundScored,
    TrickWon,
)
from rage_sdk.rules import Bidding, Ruleset
from rage_sdk.state import GameState, Phase


def _oracle(before: GameState, after: GameState, seat: int, code: int) -> list[EngineEvent]:
    """A play's events read off the state before and after it (the way the referee once learnt them)."""
    grown = len(after.tricks) > len(before.tricks) or after.round_number != before.round_number
    trick = after.tricks[-1] if grown else None
    revealed = tuple(card.id for card in trick.revealed) if trick else ()
    turned = tuple(after.turned[len(before.turned) : len(after.turned) - len(revealed)])
    events: list[EngineEvent] = [
        CardPlayed(EVERYONE, seat, code, turned, colour_code(trick.trump) if trick else after.trump)
    ]
    if trick is not None:
        events.append(TrickWon(EVERYONE, trick.winner, revealed, after.trump))
    if after.round_number != before.round_number:
        r = after.results[-1]
        events.append(RoundScored(EVERYONE, r.round_number, r.bids, r.tricks_won, r.points, tuple(after.totals)))
    return events


@pytest.mark.parametrize("bidding", list(Bidding))
@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons"])
@pytest.mark.parametrize("seed", range(3))
def test_events_say_what_each_move_did(preset: str, bidding: Bidding, seed: int) -> None:
    rng = random.Random(seed)
    ruleset = Ruleset.of(preset).model_copy(update={"bidding": bidding})
    state = GameState(ruleset, 3 + seed % 3)
    while not state.is_terminal():
        if state.phase is Phase.DEAL:
            dealt, turned = state.deal_seeded(seed), tuple(state.turned)
            assert dealt == tuple(
                RoundDealt(seat, state.round_number, state.cards, state.dealer, tuple(hand), turned, state.trump)
                for seat, hand in enumerate(state.hands)
            )
            continue
        before, action = state.copy(), rng.choice(state.legal_actions())
        seat = state.to_move
        events = state.apply(action)
        if before.phase is Phase.BID:
            bid = action.tricks  # type: ignore[union-attr]
            expected: list[EngineEvent] = [BidMade(EVERYONE if bidding is Bidding.OPEN else seat, seat, bid)]
            if bidding is Bidding.HIDDEN and state.phase is Phase.PLAY:
                expected.append(BidsShown(EVERYONE, tuple(state.bids)))  # type: ignore[arg-type]
            assert list(events) == expected
        else:
            assert list(events) == _oracle(before, state, seat, action.code)  # type: ignore[union-attr]


def test_a_rollout_copy_returns_no_events() -> None:
    state = GameState(Ruleset.of("amigo"), 4)
    assert state.deal_seeded(5)
    fast = state.copy(history=False)
    while not fast.is_terminal():
        if fast.phase is Phase.DEAL:
            assert fast.deal_seeded(5) == ()
        else:
            assert fast.apply(fast.legal_actions()[0]) == ()
