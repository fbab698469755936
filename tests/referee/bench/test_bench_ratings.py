"""rage bench ratings: the rating table's time beside its bootstrap fitted one resample at a time."""

from __future__ import annotations

import json

from rage_referee.cli import app
from typer.testing import CliRunner


def test_bench_ratings_json_gives_each_size_its_figures() -> None:
    result = CliRunner().invoke(app, ["bench", "ratings", "--games", "30,60", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert [figure["games"] for figure in figures] == [30, 60]
    for figure in figures:
        assert figure["bootstrap_seconds"] > 0 and figure["table_seconds"] > 0  # timed apart: no order between them
        assert figure["baseline_seconds"] > 0 and figure["baseline_fits"] == 5


def test_bench_ratings_refuses_sizes_that_are_not_positive_numbers() -> None:
    for games in ("0", "ten", ""):
        result = CliRunner().invoke(app, ["bench", "ratings", "--games", games])
        assert result.exit_code == 2
        assert result.stderr.strip().startswith("--games: "), result.stderr
