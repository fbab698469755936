"""``rage bench contest``: the contest simulation's figures, in a tiny configuration."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from rage_referee.bench.contest import (
    Contest,
    Entrant,
    baseline_contest,
    entrants,
    games_to_tau,
    ladder_contest,
    settled_after,
)
from rage_referee.ladder.ratings import SetResult

from tests.helpers.cli import one_line, rage


def test_a_tiny_contest_prints_both_systems_figures_with_owners_apart() -> None:
    result = rage("bench", "contest", "--games", "24", "--players", "3", "--step", "12", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert set(figures) == {"ladder", "baseline"}
    for side in figures.values():
        assert {
            "games_to_tau",
            "tau_all",
            "tau_top8",
            "settled_after",
            "games_per_bot",
            "owner_clashes",
            "curve",
        } <= set(side)
        assert side["games"] >= 24 and side["owner_clashes"] == 0
        assert set(side["games_per_bot"]) == {"min", "median", "max"}
        assert set(side["settled_after"]) == {"b06@2", "b09@2", "b12@2", "b15@2"}
        assert [point[0] for point in side["curve"]][:2] == [12, 24]
        assert all(-1 <= tau <= 1 for point in side["curve"] for tau in point[1:])
    assert (
        figures["ladder"]["curve"]
        == json.loads(rage("bench", "contest", "--games", "24", "--players", "3", "--step", "12", "--json").stdout)[
            "ladder"
        ]["curve"]
    )  # seeded: the same run again


def test_the_contest_has_two_bots_of_one_owner_and_four_stronger_second_versions() -> None:
    versions = entrants(300)
    owners = [e.owner for e in versions if e.number == 1]
    assert len(owners) == 16 and len(set(owners)) == 15
    second = {e.bot: e for e in versions if e.number == 2}
    first = {e.bot: e for e in versions if e.number == 1}
    assert len(second) == 4 and all(e.joins == 100 and e.slip < first[bot].slip for bot, e in second.items())
    slips = [e.slip for e in versions]
    assert len(set(slips)) == len(slips)  # no two versions level: the true order is strict


def test_games_to_tau_is_where_the_top_stays_at_the_target_to_the_end() -> None:
    curve = [(10, 0.5, 0.95), (20, 0.6, 0.7), (30, 0.7, 0.9), (40, 0.8, 1.0)]
    assert games_to_tau(curve) == 30
    assert games_to_tau(curve[:2]) is None


def test_a_version_settles_once_it_stays_within_one_place_of_its_true_rank() -> None:
    points = [(110, 9, 3), (120, 4, 3), (130, 6, 3), (140, 2, 3), (150, 3, 3)]
    assert settled_after(points, 100) == 40
    assert settled_after(points[:3], 100) is None


def test_a_curve_step_beyond_the_games_is_refused_in_one_line() -> None:
    result = rage("bench", "contest", "--games", "24", "--step", "100")
    assert result.exit_code != 0
    assert one_line(result.output).endswith("--step: 100 games between points of the curve, more than the 24 --games")


def test_the_ladder_never_seats_the_two_bots_of_one_owner_together() -> None:
    rng = random.Random(5)

    def play(seated: Sequence[Entrant], deal: int, number: int) -> list[float]:
        """No engine: points falling with the slip, and some luck."""
        return [rng.gauss(50 - 50 * e.slip, 20) for e in seated]

    ladder = ladder_contest(1200, 4, 1, 48, play)
    assert ladder.owner_clashes == 0
    assert all(ladder.table[f"b0{i}@1"].sets >= 5 for i in (3, 4))  # both played throughout
    baseline = baseline_contest(1200, 4, 1, 48, play)
    assert baseline.owner_clashes == 0 and len(baseline.table) == 20
    clashing = Contest(entrants(48), 48)
    clashing.record(SetResult(0, ("b03@1", "b04@1"), (1.0, 2.0)), ["shared", "shared"])
    assert clashing.owner_clashes == 1
