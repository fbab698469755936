"""The seatings of a duplicate set: every hand to every bot, every relative position to every pair."""

from __future__ import annotations

from collections import Counter

import pytest
from rage_referee.league.seatings import seatings


@pytest.mark.parametrize("players", range(2, 11))
def test_seatings_are_balanced_permutations(players: int) -> None:
    plan = seatings(players)
    assert plan[0] == tuple(range(players))
    assert len(set(plan)) == len(plan)
    assert all(sorted(seating) == list(range(players)) for seating in plan)
    # every bot in every seat equally often
    seats = Counter((bot, seat) for seating in plan for seat, bot in enumerate(seating))
    assert len(seats) == players**2 and len(set(seats.values())) == 1
    # every ordered pair of bots in every ordered pair of seats equally often
    pairs = Counter(
        (seating[i], seating[j], i, j) for seating in plan for i in range(players) for j in range(players) if i != j
    )
    assert len(pairs) == (players * (players - 1)) ** 2 and len(set(pairs.values())) == 1


@pytest.mark.parametrize(("players", "size"), [(2, 2), (3, 6), (4, 12), (5, 20), (6, 60), (7, 42), (10, 360)])
def test_set_sizes(players: int, size: int) -> None:
    assert len(seatings(players)) == size


def test_three_players_is_every_seating() -> None:
    assert set(seatings(3)) == {(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)}


def test_no_design_past_ten() -> None:
    with pytest.raises(ValueError, match="12 players"):
        seatings(12)
