"""rage bench store: a league's figures read from the store's index, beside deriving them from every record."""

from __future__ import annotations

import json

from rage_referee.bench.store import league_games
from rage_referee.cli import app
from rage_referee.play.finished import figures_of
from typer.testing import CliRunner


def test_bench_store_json_gives_each_size_its_figures() -> None:
    result = CliRunner().invoke(app, ["bench", "store", "--games", "20,40", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert [figure["games"] for figure in figures] == [20, 40]
    for figure in figures:
        assert figure["index_seconds"] > 0 and figure["records_seconds"] > 0
        assert figure["record_kb"] > 5 and figure["database_mb"] > 0


def test_the_bench_league_is_of_real_records_under_their_seats() -> None:
    games = list(league_games(60))
    assert [game.index for game in games] == list(range(60))
    for game in games:
        assert figures_of(game.record).seats == game.figures.seats
    assert sum(bool(figures_of(game.record).faults) for game in games) == 2  # games 7 and 57


def test_bench_store_refuses_sizes_that_are_not_positive_numbers() -> None:
    for games in ("0", "ten", ""):
        result = CliRunner().invoke(app, ["bench", "store", "--games", games])
        assert result.exit_code == 2
        assert result.stderr.strip().startswith("--games: "), result.stderr
