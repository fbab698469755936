"""rules.md, Scoring a round, game score and places.

Seat 1 (left of dealer 0) leads; hands are by seat, plays in play order.
"""

from __future__ import annotations

from typing import Any

import pytest
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState

from tests.helpers.rules import bid, deal, play, started

# Two seats, three tricks: seat 1 wins y9 and y8, seat 0 wins g9.
TWO_ONE = {"hands": [["y1", "y0", "g9"], ["y9", "y8", "g2"]], "plays": ["y9", "y1", "y8", "y0", "g2", "g9"]}


def points(
    hands: list[list[str]], plays: list[str], bids: list[int], pile: tuple[str, ...] = ("r0",), **options: Any
) -> tuple[int, ...]:
    """The round points of one round played out as given."""
    state = started(hands, list(pile), bids, **options)
    play(state, *plays)
    assert state.is_terminal()
    return state.results[0].points


@pytest.mark.parametrize(("per_trick", "expected"), [(1, (11, -3)), (3, (13, 1)), (0, (10, -5))])
def test_points_per_trick(per_trick: int, expected: tuple[int, int]) -> None:
    """rules.md, Scoring: 't * points_per_trick'."""
    assert points(TWO_ONE["hands"], TWO_ONE["plays"], [1, 0], points_per_trick=per_trick) == expected


def test_plus5_and_minus5_in_the_tricks_won() -> None:
    """rules.md, Scoring: '+5 for each plus5 and -5 for each minus5 in the tricks it won'."""
    hands = [["y1", "g9"], ["y9", "g2"], ["plus5", "minus5"]]
    plays = ["y9", "plus5", "y1", "g2", "minus5", "g9"]
    assert points(hands, plays, [1, 1, 0]) == (1 - 5 + 10, 1 + 5 + 10, 10)
    assert points(hands, plays, [1, 1, 0], pile=("plus5", "minus5", "plus5", "r0")) == (6, 16, 10)


@pytest.mark.parametrize(
    ("preset", "options", "expected"),
    [
        ("amigo", {}, (1 - 5, 1 + 10, 10)),
        ("fundex", {}, (1 + 0, 1 + 10, 5)),
        ("amigo", {"bid_hit": 7, "bid_zero_hit": 3, "bid_miss": -2}, (1 - 2, 1 + 7, 3)),
    ],
)
def test_bid_hit_bid_zero_hit_bid_miss(preset: str, options: dict[str, Any], expected: tuple[int, ...]) -> None:
    """rules.md, Scoring: 'bid points: bid_hit when t equals the bid (bid_zero_hit when both are 0), else
    bid_miss'."""
    hands = [["y1", "g9"], ["y9", "g2"], ["b1", "b2"]]
    plays = ["y9", "b1", "y1", "g2", "b2", "g9"]
    assert points(hands, plays, [0, 1, 0], preset=preset, **options) == expected


@pytest.mark.parametrize(
    ("sweep", "per_trick", "swept"),
    [
        ("none", 1, 2 - 5 - 5),
        ("double_tricks", 1, 2 * 2 - 5 - 5),
        ("double_tricks", 2, 2 * 4 - 5 - 5),
        ("double_round", 1, 2 * (2 - 5 - 5)),
        ("double_round", 2, 2 * (4 - 5 - 5)),
    ],
)
def test_sweep(sweep: str, per_trick: int, swept: int) -> None:
    """rules.md, Scoring: 'sweep (t = c ...): double_tricks counts the trick points twice; double_round doubles the
    seat's whole round score.' and 'double_tricks doubles only the trick points; double_round doubles everything,
    negative parts included.'"""
    hands = [["y1", "minus5"], ["y9", "y8"]]
    plays = ["y9", "y1", "y8", "minus5"]
    assert points(hands, plays, [0, 1], sweep=sweep, points_per_trick=per_trick) == (10, swept)


@pytest.mark.parametrize("card", ["plus5", "minus5"])
@pytest.mark.parametrize(
    ("sweep", "swept"),
    [("none", 2 * 2 + 10), ("double_tricks", 2 * 2 * 2 + 10), ("double_round", 2 * (2 * 2 + 10))],
)
def test_double_tricks_doubles_the_trick_points_not_the_plus5_or_minus5(card: str, sweep: str, swept: int) -> None:
    """rules.md, Scoring: '`t * points_per_trick`; +5 for each plus5 and -5 for each minus5 in the tricks it won' and
    'double_tricks doubles only the trick points; double_round doubles everything': the trick points are
    t * points_per_trick, so a sweep under double_tricks leaves a won plus5 or minus5 at 5 (Amigo's Sweep: '2 plus
    points for each trick instead of just one point')."""
    bonus = 5 if card == "plus5" else -5
    expected = swept + (2 * bonus if sweep == "double_round" else bonus)
    hands = [["y1", card], ["y9", "y8"]]
    assert points(hands, ["y9", "y1", "y8", card], [0, 2], sweep=sweep, points_per_trick=2) == (10, expected)


@pytest.mark.parametrize(
    ("sweep", "one_card", "swept"),
    [
        ("double_round", False, 11),
        ("double_round", True, 22),
        ("double_tricks", False, 11),
        ("double_tricks", True, 12),
        ("none", True, 11),
    ],
)
def test_sweep_in_one_card_round(sweep: str, one_card: bool, swept: int) -> None:
    """rules.md, Scoring: 'sweep (t = c, and c > 1 unless sweep_in_one_card_round)'."""
    options = {"sweep": sweep, "sweep_in_one_card_round": one_card}
    assert points([["y1"], ["y9"]], ["y9", "y1"], [0, 1], **options) == (10, swept)


def test_a_sweep_needs_every_trick() -> None:
    """rules.md, Scoring: 'sweep (t = c, ...)' (a seat that misses a trick does not sweep)."""
    for sweep in ("double_tricks", "double_round"):
        assert points(TWO_ONE["hands"], TWO_ONE["plays"], [1, 2], sweep=sweep) == (11, 12)


def test_game_score_is_the_sum_over_rounds() -> None:
    """rules.md, Scoring: 'The game score is the sum over rounds.'"""
    state = GameState(Ruleset.of("amigo", rounds=[2, 1]), players=2)
    deal(state, [["y1", "g9"], ["y9", "g2"]], ["r0"])
    bid(state, [1, 1])
    play(state, "y9", "y1", "g2", "g9")
    deal(state, [["b5"], ["b7"]], ["r0"])
    bid(state, [0, 0])
    play(state, "b5", "b7")
    assert [result.points for result in state.results] == [(11, 11), (10, 1 - 5)]
    assert state.outcome().totals == (21, 7)
    assert state.outcome().places == (1, 2)


def test_tied_seats_share_a_place_and_the_next_is_skipped() -> None:
    """rules.md, Scoring: 'Places go by game score; ... ties that remain share the place and the next place is
    skipped (1, 1, 3).'"""
    state = started([["y2"], ["y9"], ["y1"]], ["r0"], [0, 0, 0])
    play(state, "y9", "y1", "y2")
    assert state.outcome().totals == (10, -4, 10)
    assert state.outcome().places == (1, 3, 1)
    state = started([["y2"], ["y9"], ["y1"], ["y0"]], ["r0"], [0, 1, 1, 0])
    play(state, "y9", "y1", "y0", "y2")
    assert state.outcome().totals == (10, 11, -5, 10)
    assert state.outcome().places == (2, 1, 4, 2)


@pytest.mark.parametrize(
    ("tiebreak", "two_seats", "three_seats"), [("most_hits", (1, 2), (1, 3, 1)), ("none", (1, 1), (1, 1, 1))]
)
def test_tiebreak_most_hits(tiebreak: str, two_seats: tuple[int, ...], three_seats: tuple[int, ...]) -> None:
    """rules.md, Scoring: '`most_hits` breaks ties by the number of rounds bid exactly; ties that remain share the
    place'."""
    options = {"preset": "fundex", "bid_zero_hit": 1, "tiebreak": tiebreak}
    state = started([["y1"], ["y9"]], ["r0"], [0, 0], **options)
    play(state, "y9", "y1")
    assert state.outcome().totals == (1, 1) and state.outcome().hits == (1, 0)
    assert state.outcome().places == two_seats
    state = started([["y2"], ["y9"], ["y1"]], ["r0"], [0, 0, 0], **options)
    play(state, "y9", "y1", "y2")
    assert state.outcome().totals == (1, 1, 1) and state.outcome().hits == (1, 0, 1)
    assert state.outcome().places == three_seats
