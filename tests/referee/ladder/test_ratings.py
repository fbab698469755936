"""The ladder's ratings: OpenSkill per version, once per duplicate set, forfeiters rated apart."""

from __future__ import annotations

import random

import pytest
from rage_referee.ladder.ratings import (
    MODEL,
    SetResult,
    VersionRating,
    ladder_table,
    ranks,
    rate_set,
    starting_rating,
)


def test_ranks_share_ties_and_lead_with_the_most_points() -> None:
    assert ranks([10, 30, 10, -5]) == [2, 1, 2, 4]


def test_one_set_is_one_update_of_its_ranked_totals() -> None:
    table = ladder_table([SetResult(0, ("a", "b", "c"), (5.0, 12.0, -3.0), games=6, finished=100.0)], {})
    assert table["b"].mu > table["a"].mu > table["c"].mu
    rated = MODEL.rate([[MODEL.rating()] for _ in range(3)], ranks=[2, 1, 3])
    assert [table[v].mu for v in "abc"] == [team[0].mu for team in rated]
    assert table["a"] == VersionRating(rated[0][0].mu, rated[0][0].sigma, sets=1, games=6, last_played=100.0)
    assert table["a"].conservative == table["a"].mu - 3 * table["a"].sigma


def test_a_set_never_makes_a_versions_rating_less_sure() -> None:
    # A version's code is fixed, so its skill does not drift: a tie between two well-known versions
    # leaves each as sure as before (a dynamics factor would widen sigma before every update).
    known = {v: VersionRating(mu=25.0, sigma=0.5, sets=400) for v in "ab"}
    after = rate_set(known, SetResult(0, ("a", "b"), (10.0, 10.0), games=2))
    assert all(after[v].sigma <= known[v].sigma and after[v].mu == known[v].mu for v in "ab")


def test_an_opponents_rating_is_the_same_with_or_without_a_crashing_bot_at_its_table() -> None:
    history = [SetResult(0, ("a", "b", "x"), (4.0, 9.0, 1.0), games=6)]
    with_crash = [*history, SetResult(1, ("a", "b", "crash"), (7.0, 2.0, 20.0), frozenset({"crash"}), games=6)]
    without = [*history, SetResult(1, ("a", "b"), (7.0, 2.0), games=6)]
    crashed, clean = ladder_table(with_crash, {}), ladder_table(without, {})
    assert (crashed["a"].mu, crashed["a"].sigma) == (clean["a"].mu, clean["a"].sigma)
    assert (crashed["b"].mu, crashed["b"].sigma) == (clean["b"].mu, clean["b"].sigma)
    # the forfeiter is last of its set whatever its points, and takes the loss alone
    assert crashed["crash"].mu < MODEL.mu
    assert crashed["crash"].games == 6 and crashed["crash"].sets == 1


def test_forfeiting_costs_as_much_as_playing_and_coming_last() -> None:
    before = {v: VersionRating() for v in "abcd"}
    played = rate_set(before, SetResult(0, ("a", "b", "c", "d"), (30.0, 20.0, 10.0, 0.0), games=24))
    forfeited = rate_set(before, SetResult(0, ("a", "b", "c", "d"), (30.0, 20.0, 10.0, 50.0), frozenset("d"), games=24))
    assert forfeited["d"].mu == played["d"].mu and forfeited["d"].sigma == played["d"].sigma
    # against stronger opponents too: a crash in a set going badly gains nothing
    strong = {**{v: VersionRating(mu=35.0) for v in "abc"}, "d": VersionRating()}
    last = rate_set(strong, SetResult(1, ("a", "b", "c", "d"), (30.0, 20.0, 10.0, 0.0), games=24))["d"]
    crashed = rate_set(strong, SetResult(1, ("a", "b", "c", "d"), (30.0, 20.0, 10.0, 0.0), frozenset("d"), games=24))[
        "d"
    ]
    assert crashed.mu <= last.mu


def test_a_set_that_every_version_forfeited_moves_no_rating() -> None:
    table = ladder_table([SetResult(0, ("a", "b"), (1.0, 2.0), frozenset({"a", "b"}), games=2, finished=5.0)], {})
    assert (table["a"].mu, table["a"].sigma, table["a"].sets) == (MODEL.mu, MODEL.sigma, 1)


def test_a_new_version_starts_from_its_predecessors_mu_with_sigma_reset() -> None:
    sets = [SetResult(i, ("old", "b"), (10.0, 0.0), games=2) for i in range(4)]
    sets.append(SetResult(4, ("new", "b"), (10.0, 0.0), games=2))
    predecessors = {"old": None, "new": "old", "b": None}
    before_new = ladder_table(sets[:4], predecessors)
    assert starting_rating("new", before_new, predecessors) == VersionRating(mu=before_new["old"].mu)
    table = ladder_table(sets, predecessors, versions=["newer"])
    assert table["new"].mu > before_new["old"].mu  # it started from the old mu, and won again
    assert table["new"].sets == 1 and table["old"] == before_new["old"]  # the old version keeps its rating
    assert table["newer"] == VersionRating()  # no predecessor: the model's start


def test_a_chain_of_unplayed_predecessors_reaches_the_last_that_played() -> None:
    sets = [SetResult(0, ("v1", "b"), (3.0, 0.0))]
    table = ladder_table(sets, {"v2": "v1", "v3": "v2"}, versions=["v3"])
    assert table["v3"].mu == table["v1"].mu and table["v3"].sigma == MODEL.sigma


def test_the_table_is_a_pure_function_of_the_sets_in_order() -> None:
    rng = random.Random(3)
    names = [f"v{i}" for i in range(8)]
    sets = []
    for set_id in range(60):
        table = rng.sample(names, 4)
        sets.append(
            SetResult(
                set_id,
                tuple(table),
                tuple(float(rng.randint(-20, 40)) for _ in table),
                frozenset(table[:1]) if rng.random() < 0.1 else frozenset(),
                games=12,
                finished=float(set_id),
            )
        )
    predecessors = {"v7": "v6"}
    assert ladder_table(sets, predecessors) == ladder_table(list(sets), dict(predecessors))  # to the last bit
    assert ladder_table(sets, predecessors) != ladder_table(reversed(sets), predecessors)


def test_a_set_result_is_checked() -> None:
    with pytest.raises(ValueError, match="one total of points"):
        SetResult(0, ("a", "b"), (1.0,))
    with pytest.raises(ValueError, match="not at its table"):
        SetResult(0, ("a", "b"), (1.0, 2.0), frozenset({"c"}))
