"""``rage league run --until-separated``: a league stops once its standings are separated, or at its games."""

from __future__ import annotations

from pathlib import Path

from rage_referee.league.pairs import PairRow
from rage_referee.league.schedule import schedule
from rage_referee.league.separation import SetWatch, adjacent_separated

from tests.helpers.game_records import scored_game
from tests.helpers.league import HEURISTIC, RANDOM, flat, rage, stored, write_league

SHORT = 'preset = "amigo"\nrounds = [5, 4, 3, 2, 1]'


def row(a: str, b: str, p_corrected: float, difference: float = 1.0) -> PairRow:
    """``a`` against ``b``: ``difference`` points a game to ``a``."""
    low, high = difference - 0.5, difference + 0.5
    return PairRow(a, b, 10, difference, low, high, 0.9, p_corrected, low, high, p_corrected)


def test_the_rule_asks_every_adjacent_pair_and_no_other() -> None:
    rows = [row("a", "b", 0.01), row("c", "b", 0.02, -1.0), row("a", "c", 0.5)]  # a pair either way round
    assert adjacent_separated(rows, ["a", "b", "c"])
    assert not adjacent_separated(rows, ["a", "c", "b"])  # a and c are not separated
    assert not adjacent_separated(rows, ["a"])


def test_a_pair_separated_against_the_order_does_not_hold_it() -> None:
    rows = [row("a", "b", 0.01, -2.0)]  # b scores 2 points a game more than a, surely
    assert not adjacent_separated(rows, ["a", "b"])  # the standings put a first: not shown
    assert adjacent_separated(rows, ["b", "a"])
    assert rows[0].separates("b") and not rows[0].separates("a")


def test_the_watch_counts_a_set_once_its_every_game_is_in() -> None:
    scheduled = schedule(["a", "b"], 2, games=40, seed=1)
    watch = SetWatch(scheduled)
    completed = []
    for game in scheduled:
        better = game.seats.index("a")
        totals = [20 if seat == better else 10 for seat in range(2)]
        completed.append(watch.add(scored_game(game.index, game.seats, totals=totals, set_id=game.set_id)))
    assert completed == [False, True] * 20 and watch.sets == 20
    assert watch.figures["a", "b"] == [10.0] * 20
    assert watch.order() == ["a", "b"] and watch.separated()


def test_clearly_different_bots_stop_early(tmp_path: Path) -> None:
    file = write_league(tmp_path, bots={"heuristic": HEURISTIC, "random": RANDOM}, players=2, games=200, ruleset=SHORT)
    result = rage("league", "run", file, "--until-separated", "--standings-every", "0")
    assert result.exit_code == 0, result.output
    games = stored(file)
    assert len(games) < 200 and len(games) % 2 == 0  # whole sets of both seatings
    assert "stopped: every bot separated from the next one down after" in flat(result.stdout)
    assert f"({len(games)} of 200 games;" in flat(result.stdout)


def test_identical_bots_run_to_the_cap(tmp_path: Path) -> None:
    file = write_league(tmp_path, bots={"random": RANDOM, "random-2": RANDOM}, players=2, games=40, ruleset=SHORT)
    result = rage("league", "run", file, "--until-separated", "--standings-every", "0")
    assert result.exit_code == 0, result.output
    assert len(stored(file)) == 40
    assert "stopped at the league's 40 games: after 20 complete duplicate sets not every bot" in flat(result.stdout)


def test_a_league_without_duplicate_deals_is_told_it_has_no_sets_to_separate_by(tmp_path: Path) -> None:
    """It played all its games and said 'after 20 complete duplicate sets not every bot is separated': it had
    none, and --pairs and --collusion showed an empty matrix of them."""
    bots = {"heuristic": HEURISTIC, "random": RANDOM}
    file = write_league(tmp_path, bots=bots, players=2, games=4, ruleset=SHORT, extra="duplicate = false")
    result = rage("league", "run", file, "--until-separated")
    assert result.exit_code == 2 and not stored(file)
    assert f"--until-separated: {file} deals no duplicate sets (duplicate = false)" in flat(result.output)
    assert rage("league", "run", file, "--standings-every", "0").exit_code == 0
    for option in ("--pairs", "--collusion"):
        result = rage("ratings", "--league", file, option)
        assert result.exit_code == 2, result.output
        assert f"{option}: the league deals no duplicate sets (duplicate = false), and it reads each pair's" in flat(
            result.output
        )
