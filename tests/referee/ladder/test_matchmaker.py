"""The ladder's matchmaker: each rule holds, and fails its test when removed."""

from __future__ import annotations

import random
from typing import Any

from rage_referee.ladder.matchmaker import Candidate, pick_table, pick_tables
from rage_referee.ladder.ratings import VersionRating
from rage_referee.ladder.settings import LadderSettings

SETTINGS = LadderSettings()
SEEDS = range(40)


def bot(name: str, rating: float = 0.0, owner: str | None = None, number: int = 1, **more: Any) -> Candidate:
    """A candidate version ``name@number`` of bot ``name``, its own owner unless told."""
    return Candidate(f"{name}@{number}", name, owner or name, number, rating, **more)


def settled(name: str, rating: float = 0.0, games: int = 60, **more: Any) -> Candidate:
    """A version past placement that last played at 100 s."""
    return bot(name, rating, **{"sets": 5, "games": games, "placement": False, "last_played": 100.0, **more})


def tables(candidates: list[Candidate], players: int, settings: LadderSettings = SETTINGS) -> list[tuple[str, ...]]:
    """The table picked for each seed."""
    picked = [pick_table(candidates, players, settings, random.Random(seed)) for seed in SEEDS]
    assert all(table is not None for table in picked)
    return [table for table in picked if table is not None]


def test_a_version_in_placement_takes_the_first_seat_before_one_with_fewer_games() -> None:
    candidates = [settled(f"s{i}", games=12) for i in range(4)] + [bot("new", games=24, sets=2)]
    assert {table[0] for table in tables(candidates, 3)} == {"new@1"}


def test_then_the_fewest_games_take_the_first_seat() -> None:
    candidates = [settled(f"s{i}", games=60) for i in range(4)] + [settled("behind", games=36)]
    assert {table[0] for table in tables(candidates, 3)} == {"behind@1"}


def test_then_the_longest_idle_takes_the_first_seat() -> None:
    candidates = [settled(f"s{i}") for i in range(4)]
    candidates[2] = settled("s2", last_played=50.0)
    assert {table[0] for table in tables(candidates, 3)} == {"s2@1"}


def test_ties_for_the_first_seat_are_drawn_and_each_seed_repeats_its_table() -> None:
    candidates = [settled(f"s{i}", rating=float(i)) for i in range(6)]
    assert len({table[0] for table in tables(candidates, 3)}) > 1
    assert tables(candidates, 3) == tables(candidates, 3)


def test_opponents_are_drawn_within_the_window_of_the_first_seat() -> None:
    near = [settled(f"n{i}", rating=1.0 + i) for i in range(3)]
    far = [settled(f"f{i}", rating=30.0 + i) for i in range(3)]
    candidates = [settled("first", rating=0.0, games=12), *near, *far]
    picked = tables(candidates, 3, LadderSettings(window=5))
    assert all(set(table[1:]) <= {c.version for c in near} for table in picked)
    assert len({frozenset(table) for table in picked}) == 3  # drawn among the near ones, not always the nearest


def test_the_window_widens_when_too_few_are_within_it() -> None:
    candidates = [settled("first", rating=0.0, games=12), settled("near", rating=1.0)]
    candidates += [settled("f0", rating=20.0), settled("f1", rating=40.0), settled("f2", rating=50.0)]
    picked = tables(candidates, 3, LadderSettings(window=2, window_growth=2))
    assert {frozenset(table) for table in picked} == {frozenset({"first@1", "near@1", "f0@1"})}  # 2 to 32, not 64


def test_no_two_bots_of_one_owner_share_a_table() -> None:
    candidates = [settled("a1", owner="ann"), settled("a2", owner="ann"), settled("a3", owner="ann"), settled("b")]
    candidates += [settled("c"), settled("d")]
    picked = tables(candidates, 3)
    owners = {c.version: c.owner for c in candidates}
    assert all(len({owners[v] for v in table}) == 3 for table in picked)
    assert pick_table(candidates[:4], 3, SETTINGS, random.Random(0)) is None  # two owners cannot fill 3 seats
    apart_off = LadderSettings(owners_apart=False)
    assert any(
        len({owners[v] for v in table}) < 3 for table in tables(candidates, 3, apart_off)
    )  # the rule is what kept them apart


def test_a_busy_version_is_never_picked() -> None:
    candidates = [bot("slow", busy=True)] + [settled(f"s{i}") for i in range(3)]
    assert all("slow@1" not in table for table in tables(candidates, 3))
    assert pick_table(candidates, 4, SETTINGS, random.Random(0)) is None


def test_only_the_newest_active_versions_of_a_bot_play_and_never_two_at_a_table() -> None:
    candidates = [bot("a", number=1), bot("a", number=2), bot("a", number=3), settled("b"), settled("c")]
    assert {v for table in tables(candidates, 3) for v in table} == {"a@3", "b@1", "c@1"}
    two = LadderSettings(active_versions=2, owners_apart=False)
    played = {v for table in tables(candidates, 3, two) for v in table}
    assert played == {"a@2", "a@3", "b@1", "c@1"}
    assert all(sum(v.startswith("a@") for v in table) == 1 for table in tables(candidates, 3, two))


def test_too_few_bots_make_no_table() -> None:
    assert pick_table([settled("a"), settled("b")], 3, SETTINGS, random.Random(0)) is None
    assert pick_table([], 2, SETTINGS, random.Random(0)) is None


def test_tables_at_once_share_no_version() -> None:
    candidates = [settled(f"s{i}", rating=float(i)) for i in range(7)]
    picked = pick_tables(candidates, 3, SETTINGS, random.Random(1), count=3)
    assert len(picked) == 2  # 7 bots fill two tables of 3
    assert not set(picked[0]) & set(picked[1])


def test_a_candidate_is_in_placement_until_it_has_played_placement_sets() -> None:
    settings = LadderSettings(placement_sets=2)
    fresh = Candidate.of("a@1", "a", "ann", 1, VersionRating(sets=1, games=12, last_played=5.0), settings)
    settled_one = Candidate.of("a@1", "a", "ann", 1, VersionRating(mu=30.0, sigma=2.0, sets=2), settings, busy=True)
    assert fresh.placement and (fresh.games, fresh.last_played) == (12, 5.0)
    assert fresh.rating == VersionRating().conservative
    assert not settled_one.placement and settled_one.busy and settled_one.rating == 24.0
