"""rules.md, A game 4: Bidding."""

from __future__ import annotations

import pytest
from rage_sdk.actions import Bid
from rage_sdk.errors import IllegalActionError
from rage_sdk.state import Phase

from tests.helpers.rules import assert_illegal, game

HANDS = [["r1", "r2", "r3"], ["o1", "o2", "o3"], ["y1", "y2", "y3"]]


def test_bidding_starts_left_of_dealer_and_ends_with_dealer() -> None:
    """rules.md, Bidding: 'Starting left of the dealer, clockwise, the dealer last, each seat bids'."""
    state = game([*HANDS, ["g1", "g2", "g3"]], ["b0"], dealer=2)
    order = []
    while state.phase is Phase.BID:
        order.append(state.current_player())
        state.apply(Bid.of(1))
    assert order == [3, 0, 1, 2]
    assert state.phase is Phase.PLAY
    state = game(HANDS, ["b0"], dealer=1)
    with pytest.raises(IllegalActionError, match=r"seat 1 bid out of turn \(it is seat 2's turn\)"):
        state.apply(Bid.of(0), seat=1)


def test_bids_range_from_zero_to_cards_in_hand() -> None:
    """rules.md, Bidding: 'each seat bids 0..cards in hand.'"""
    state = game(HANDS, ["b0"])
    assert state.legal_bids() == [Bid.of(n) for n in range(4)]
    assert_illegal(state, 4, "a bid must be 0..3 (cards in hand)")
    assert_illegal(state, -1, "a bid must be 0..3 (cards in hand)")
    for tricks in (3, 0, 2):
        state.apply(Bid.of(tricks))
    assert state.bids == [2, 3, 0]


def test_plus_minus_one_forbids_the_dealer_the_number_that_makes_the_bids_add_up() -> None:
    """rules.md, Bidding: 'With plus_minus_one, the dealer may not bid the number that makes the bids add up to the
    cards in hand'."""
    state = game(HANDS, ["b0"], plus_minus_one=True)
    state.apply(Bid.of(1))
    state.apply(Bid.of(1))
    assert state.current_player() == state.dealer
    assert state.legal_bids() == [Bid.of(0), Bid.of(2), Bid.of(3)]
    assert_illegal(state, 1, "dealer seat 0 bid 1, making the bids add up to 3 tricks (plus_minus_one forbids it)")
    state.apply(Bid.of(2))
    assert state.bids == [2, 1, 1]


def test_plus_minus_one_binds_only_the_dealer() -> None:
    """rules.md, Bidding: 'the dealer may not bid the number ...' (the other seats bid freely)."""
    state = game(HANDS, ["b0"], plus_minus_one=True)
    assert state.legal_bids() == [Bid.of(n) for n in range(4)]
    state.apply(Bid.of(3))
    assert state.legal_bids() == [Bid.of(n) for n in range(4)]
    state.apply(Bid.of(0))
    assert state.legal_bids() == [Bid.of(1), Bid.of(2), Bid.of(3)]


def test_plus_minus_one_no_constraint_when_number_outside_range() -> None:
    """rules.md, Bidding: '(no constraint when that number is outside 0..cards)'."""
    state = game(HANDS, ["b0"], plus_minus_one=True)
    state.apply(Bid.of(3))
    state.apply(Bid.of(2))
    assert state.legal_bids() == [Bid.of(n) for n in range(4)]
    state.apply(Bid.of(0))
    assert state.phase is Phase.PLAY


def test_without_plus_minus_one_the_dealer_may_make_the_bids_add_up() -> None:
    """rules.md, Presets: plus_minus_one false (the default of every preset) puts no constraint on the dealer."""
    state = game(HANDS, ["b0"])
    state.apply(Bid.of(1))
    state.apply(Bid.of(1))
    assert Bid.of(1) in state.legal_bids()
    state.apply(Bid.of(1))
    assert state.bids == [1, 1, 1]


@pytest.mark.parametrize("bidding", ["open", "hidden", "secret"])
def test_bidding_mode_changes_only_who_sees_the_bids(bidding: str) -> None:
    """rules.md, Bidding: 'bidding says only who sees which bid when' (order and legal bids are the same)."""
    state = game(HANDS, ["b0"], dealer=1, bidding=bidding)
    order = []
    while state.phase is Phase.BID:
        order.append(state.current_player())
        assert state.legal_bids() == [Bid.of(n) for n in range(4)]
        state.apply(Bid.of(3))
    assert order == [2, 0, 1]
    assert state.bids == [3, 3, 3]
