"""The ladder's final: the versions it pins, best first."""

from __future__ import annotations

import pytest
from rage_referee.ladder.final import finalists
from rage_referee.ladder.ratings import VersionRating, leaderboard

TABLE = {
    "a@1": VersionRating(mu=30.0, sigma=1.0),  # 27
    "a@2": VersionRating(mu=33.0, sigma=1.0),  # 30
    "b@1": VersionRating(mu=28.0, sigma=2.0),  # 22
    "c@1": VersionRating(mu=31.0, sigma=3.0),  # 22, more mu than b
    "d@1": VersionRating(mu=31.0, sigma=3.0),  # level with c: by id
}


def test_the_leaderboard_sorts_by_conservative_rating_then_mu_then_id() -> None:
    assert leaderboard(TABLE, ["d@1", "b@1", "a@2", "c@1"]) == ["a@2", "c@1", "d@1", "b@1"]


def test_the_final_pins_the_active_versions_of_the_top_bots() -> None:
    active = {"a": "a@1", "b": "b@1", "c": "c@1", "d": "d@1"}
    assert finalists(TABLE, active) == ["a@1", "c@1", "d@1", "b@1"]
    assert finalists(TABLE, active, top=2) == ["a@1", "c@1"]
    assert finalists(TABLE, active, top=9) == ["a@1", "c@1", "d@1", "b@1"]
    assert finalists(TABLE, {**active, "a": "a@2"}, top=3)[0] == "a@2"


@pytest.mark.parametrize(
    ("active", "top", "message"),
    [
        ({"a": "a@1", "b": "b@1"}, 1, "top: a final needs 2 bots at least, not 1"),
        ({"a": "a@1"}, None, "a final needs 2 bots at least; the ladder has 1"),
    ],
)
def test_a_final_of_fewer_than_two_is_refused(active: dict[str, str], top: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        finalists(TABLE, active, top)
