"""The bot ladder: a duplicate league of example bots in-process, and ``rage bench ladder``."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest
from rage_referee.bench import ladder
from rage_referee.league.config import load_league
from rage_referee.seats import load_bot_class

from tests.referee.cli.test_cli import rage

ROOT = Path(__file__).resolve().parents[3]


def test_seats_of_one_kind_are_numbered() -> None:
    modules = ["search_bot", "heuristic_bot", "heuristic_bot", "greedy_bot"]
    assert ladder.seat_names(modules) == ["search", "heuristic", "heuristic-2", "greedy"]
    assert ladder.reference_seats(ladder.seat_names(modules), "heuristic") == ["heuristic", "heuristic-2"]


def test_a_league_deals_each_set_alike_and_seats_every_bot_everywhere() -> None:
    names = ["greedy", "heuristic", "random", "random-2"]
    modules = ["greedy_bot", "heuristic_bot", "random_bot", "random_bot"]
    factories = {name: ladder.factory_for(module, 1, "cpu") for name, module in zip(names, modules)}
    games = list(ladder.play_league(factories, 12, seed=3))
    assert len(games) == 12 and {game.set_id for game in games} == {0}
    assert len({game.seed for game in games}) == 1
    for seat in range(4):
        assert {game.figures.seats[seat] for game in games} == set(names)
    assert all(game.figures.rounds == 10 and len(game.figures.totals) == 4 for game in games)
    figure = ladder.strength(games, "heuristic", ["random", "random-2"], samples=20)
    assert (
        figure.games == 12 and figure.low - 1e-6 <= figure.elo <= figure.high + 1e-6
    )  # a degenerate interval: equal up to rounding
    assert figure.elo > 0, "heuristic beats random players"
    assert 0 <= figure.reference_bid_accuracy < figure.bid_accuracy <= 1


def test_a_search_bot_gets_its_budget_on_the_clock_asked_for() -> None:
    bot = ladder.factory_for("search_bot", 7, "cpu")()
    assert bot.budget_ms == 7 and bot.clock is time.thread_time  # type: ignore[attr-defined]


def test_bench_ladder_prints_the_table() -> None:
    result = rage(
        "bench", "ladder", "--bot", "heuristic_bot", "--field", "random_bot,random_bot,greedy_bot",
        "--reference", "random", "--budgets", "1", "--games", "12",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Elo over random" in result.stdout and "12" in result.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--bot", "nobody_bot"], "--bot/--field: no example bot 'nobody_bot'"),
        (["--field", "greedy_bot"], "--field: three bots"),
        (["--budgets", "fast"], "--budgets"),
        (["--budgets", "0,10"], "--budgets"),
        (["--reference", "random"], "--reference: no 'random' seat"),
        (["--clock", "sundial"], "--clock"),
    ],
)
def test_bench_ladder_refuses_bad_input_in_one_line(args: list[str], named: str) -> None:
    result = rage("bench", "ladder", *args)
    assert result.exit_code == 2
    assert named in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_strength_without_samples_is_the_point_estimate() -> None:
    seats = [("a", "greedy_bot"), ("b", "random_bot"), ("c", "random_bot"), ("d", "random_bot")]
    factories = {name: ladder.factory_for(module, 1, "cpu") for name, module in seats}
    games = list(ladder.play_league(factories, 12, seed=1))
    figure = ladder.strength(games, "a", ["b"], samples=0)
    assert figure.low == figure.elo == figure.high and not math.isnan(figure.elo)


def test_the_example_ladder_league_counts_the_search_bots_budget_on_the_cpu_clock() -> None:
    """examples/ladder.toml plays the search bot on the clock the README's ladder figures were measured on."""
    config = load_league(ROOT / "examples" / "ladder.toml")
    (target,) = [target for target in config.bots.values() if "search_bot.py" in target]
    bot = load_bot_class(target, config.folder)()
    assert bot.clock is ladder.CLOCKS["cpu"]  # type: ignore[attr-defined]
