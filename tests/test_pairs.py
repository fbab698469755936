"""The pairwise duplicate score difference: paired set figures, t intervals and LOS, known by hand."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from game_records import scored_game
from rage_referee.finished import FinishedGame
from rage_referee.league.pairs import Summary, pair_row, pair_table, set_differences
from rage_referee.league.schedule import schedule


def game(index: int, set_id: int, seats: Sequence[str], totals: Sequence[int]) -> FinishedGame:
    return scored_game(index, seats, totals=totals, set_id=set_id, seed=0)


def test_summary_of_known_values() -> None:
    summary = Summary.of([1.0, 2.0, 3.0])
    half = 4.302652729911275 / math.sqrt(3)  # t(0.975, 2 df) * sd 1 / sqrt(3)
    assert (summary.n, summary.mean) == (3, 2.0)
    assert summary.low == pytest.approx(2 - half) and summary.high == pytest.approx(2 + half)
    assert summary.los == pytest.approx(0.96291, abs=1e-5)  # t cdf of 2 / (1 / sqrt 3) at 2 df
    assert Summary.of([1.0, -1.0]).los == pytest.approx(0.5)


def test_summary_of_too_few_or_equal_values() -> None:
    assert Summary.of([]) == Summary(0, 0.0, -math.inf, math.inf, 0.5)
    assert Summary.of([4.0]) == Summary(1, 4.0, -math.inf, math.inf, 0.5)
    assert Summary.of([2.0, 2.0]) == Summary(2, 2.0, 2.0, 2.0, 1.0)
    assert Summary.of([0.0, 0.0]).los == 0.5


def test_a_set_gives_the_difference_of_the_pairs_mean_totals() -> None:
    games = [game(0, 0, ("a", "b"), (10, 4)), game(1, 0, ("b", "a"), (6, 8))]
    assert set_differences(games, "a", "b") == [(10 + 8 - 4 - 6) / 2]
    assert set_differences(games, "b", "a") == [-4.0]


def test_only_sets_where_the_pair_held_the_same_hands_count() -> None:
    games = [
        game(0, 0, ("a", "b"), (10, 4)),
        game(1, 0, ("b", "a"), (6, 8)),
        game(2, 1, ("a", "b"), (30, 0)),  # a set cut short: a held seat 0, b never did
        game(3, 2, ("a", "c"), (1, 2)),  # b not there
    ]
    assert set_differences(games, "a", "b") == [4.0]
    assert set_differences(games, "b", "c") == []
    row = pair_row(games, "b", "c")
    assert row.sets == 0 and row.los == 0.5


def test_a_pair_at_a_table_of_three_is_paired_over_the_six_seatings() -> None:
    # a scores 3 more than the seat's due, b 1 less, c the seat's due (10, 20, 30 by seat)
    bias = {"a": 3, "b": -1, "c": 0}
    games = [
        game(g.index, g.set_id, g.seats, [10 * (seat + 1) + bias[name] for seat, name in enumerate(g.seats)])
        for g in schedule(["a", "b", "c"], 3, games=12, seed=1)
    ]
    assert set_differences(games, "a", "b") == [4.0, 4.0]
    assert set_differences(games, "c", "a") == [-3.0, -3.0]


def test_the_pair_table_finds_the_stronger_bot_and_flips_with_the_order() -> None:
    rng = random.Random(3)
    strength = {"strong": 2.0, "weak": 0.0, "field": 0.0}
    games = []
    for g in schedule(list(strength), 3, games=6 * 40, seed=2):
        rng.seed(g.set_id)  # the deal's luck by seat: the same in every game of a set
        luck = [rng.gauss(0, 20) for _ in g.seats]
        rng.seed(g.index + 10_000)
        games.append(
            game(
                g.index,
                g.set_id,
                g.seats,
                [round(luck[s] + strength[n] + rng.gauss(0, 3)) for s, n in enumerate(g.seats)],
            )
        )
    (row, *_) = pair_table(games, ["strong", "weak", "field"])
    assert (row.a, row.b, row.sets) == ("strong", "weak", 40)
    assert row.low > 0 and row.los > 0.99 and abs(row.difference - 2.0) < 1.0
    assert row.high - row.low < 2.0  # the luck of the deal, sd 20 a seat, cancels out
    flipped = pair_row(games, "weak", "strong")
    assert flipped.difference == pytest.approx(-row.difference) and flipped.los == pytest.approx(1 - row.los)
