"""Forfeits in leagues: fault counts that survive a resume, ratings that do not credit the referee's
moves to a bot, entrants excluded by the organizer, and bots that cannot start."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from rage_referee.faults import Forfeits
from rage_referee.league import ratings as ratings_module
from rage_referee.league.config import load_league
from rage_referee.league.ratings import rating_table
from rage_referee.league.runner import plan_league, run_league
from rage_referee.league.store import Store
from rage_referee.play.finished import FinishedGame

from tests.helpers.game_records import scored_game
from tests.helpers.league import GREEDY, HEURISTIC, RANDOM, TEST_BOTS, flat, rage, stored, write_league
from tests.helpers.report import page_text

BOTS = {"heuristic": HEURISTIC, "greedy": GREEDY, "random": RANDOM, "cheater": f"{TEST_BOTS / 'cheater.py'}:CheaterBot"}
MAX_FAULTS = 3


@pytest.fixture(autouse=True)
def quick_bootstrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer bootstrap samples behind the commands: the bootstrap itself is tested in test_ratings.py."""
    monkeypatch.setattr(ratings_module, "rating_table", partial(rating_table, samples=25))


def league_file(directory: Path, *, bots: dict[str, str] = BOTS, extra: str = "", games: int = 24) -> Path:
    return write_league(
        directory,
        name="forfeits",
        games=games,
        seed=None,
        bots=bots,
        extra="concurrency = 1\n" + extra,
        ruleset='preset = "amigo"\nrounds = [3, 2]',
        tables=f"[time]\nmax_faults = {MAX_FAULTS}",
    )


def play(file: Path, only: set[int] | None = None) -> None:
    """Run the league's unplayed games (of ``only``, when given), as ``rage league run`` does."""
    config = load_league(file)
    store = Store(config.database_url(file.parent))
    try:
        plan = plan_league(config, store)
        if only is not None:
            plan = replace(plan, done=plan.done | {g.index for g in plan.games} - only)
        asyncio.run(run_league(config, store, plan, file.parent / "logs"))
    finally:
        store.close()


def charged(games: list[FinishedGame], bot: str) -> int:
    return sum(game.figures.faults_of(game.figures.seats.index(bot)) for game in games if bot in game.figures.seats)


def test_fault_counts_survive_a_resume(tmp_path: Path) -> None:
    """A bot forfeited after max_faults stays forfeited when the league resumes: never charged twice the limit."""
    file = league_file(tmp_path, games=24)  # four tables, one duplicate set of six games each
    play(file, only=set(range(12)))
    first = stored(file)
    assert charged(first, "cheater") == MAX_FAULTS
    play(file)
    games = stored(file)
    assert len(games) == 24
    assert charged(games, "cheater") == MAX_FAULTS
    later = [game for game in games if game.index >= 12 and "cheater" in game.figures.seats]
    assert later and all(game.figures.forfeited == {game.figures.seats.index("cheater")} for game in later)
    result = rage("ratings", "--league", file, "--format", "json")
    assert result.exit_code == 0, result.output
    assert '"faults": 3' in result.output


DYING = {
    "heuristic": BOTS["heuristic"],
    "greedy": BOTS["greedy"],
    "random-1": BOTS["random"],
    "random-2": BOTS["random"],
    "dying": f"{TEST_BOTS / 'raiser.py'}:DyingBot",
}


def ratings_json(file: Path, *options: str) -> list[dict[str, Any]]:
    result = rage("ratings", "--league", file, "--format", "json", *options)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def test_a_forfeited_bot_is_not_rated_on_the_referees_moves(tmp_path: Path) -> None:
    """A bot that died in its first game is rated on no game and listed last, marked, whatever the fallback scored."""
    file = league_file(tmp_path, bots=DYING, games=60)
    run = rage("league", "run", file)
    assert run.exit_code == 0, run.output
    games = stored(file)
    seated = sum("dying" in game.figures.seats for game in games)
    assert seated == 36 and all("dying" not in game.figures.seats or game.figures.forfeited for game in games)
    rows = ratings_json(file)
    assert rows[-1]["name"] == "dying"
    assert (rows[-1]["elo"], rows[-1]["games"], rows[-1]["forfeited"], rows[-1]["faults"]) == (None, 0, 36, MAX_FAULTS)
    assert all(row["forfeited"] == 0 and row["elo"] is not None for row in rows[:-1])
    assert "| dying (forfeited 36) | - |" in rage("ratings", "--league", file, "--format", "markdown").output
    assert "not rated on them" in flat(rage("ratings", "--league", file).output)
    assert "dying forfeited (forfeited after 3 faults): the referee played its" in flat(run.output)


def test_a_bot_rated_on_no_game_has_no_rating_nor_means_in_any_output(tmp_path: Path) -> None:
    """Its rating, mean score, place and bid accuracy are none: '-' in tables and pages, empty in CSV, null in
    JSON, and no point in the chart (they were nan, or 0.0 as if it had scored nothing, and cx="nan")."""
    file = league_file(tmp_path, bots=DYING, games=12)
    run = rage("league", "run", file, "--standings-every", "1")
    assert run.exit_code == 0, run.output
    live = [line.split() for line in run.output.splitlines() if line.split()[:2][1:] == ["dying"]]
    assert live and all(line[2:6] == ["-", "0", "-", "-"] for line in live), live  # #, bot, elo, games, score, place
    dying = ratings_json(file)[-1]
    assert (dying["games"], dying["elo"], dying["mean_score"], dying["mean_place"], dying["bid_accuracy"]) == (
        0,
        None,
        None,
        None,
        None,
    )
    csv = rage("ratings", "--league", file, "--format", "csv").stdout.splitlines()
    cells = next(line for line in csv if line.startswith("dying,")).split(",")
    assert cells[1:10] == ["", "", "", "", "0", "", "", "", "3"]  # elo, low, high, LOS, games, the means, faults
    table = next(line for line in rage("ratings", "--league", file).output.splitlines() if "dying" in line)
    assert table.split()[3:9] == ["-", "0", "-", "-", "-", "3"]  # elo, (no interval, no LOS), games, score, ...
    assert rage("league", "report", file, "--out", tmp_path / "site").exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text()
    assert "nan" not in index and index.count("<circle") == len(DYING) - 1
    dying_row = next(line for line in page_text(index) if line.split()[1:2] == ["dying"])
    assert dying_row.split()[2:8] == ["-", "0", "-", "-", "-", "3"]  # elo, games, score, place, bids, faults
    summary = next(line for line in page_text((tmp_path / "site" / "bots" / "dying.html").read_text()) if "elo" in line)
    assert summary.startswith("elo -, 0 games, mean score -, mean place -, 3 faults"), summary


def test_forfeits_can_count_as_losses(tmp_path: Path) -> None:
    file = league_file(tmp_path, bots=DYING, games=60, extra='forfeits = "loss"')
    assert rage("league", "run", file).exit_code == 0
    rows = ratings_json(file)
    assert rows[-1]["name"] == "dying" and rows[-1]["games"] == 36 and rows[-1]["mean_place"] == 3.0
    assert rows[-1]["elo"] < min(row["elo"] for row in rows[:-1])
    assert "counts as a loss" in flat(rage("ratings", "--league", file).output)
    assert ratings_json(file, "--forfeits", "unrated")[-1]["games"] == 0  # the option overrides the file


def test_an_excluded_entrant_s_remaining_games_are_forfeits(tmp_path: Path) -> None:
    """Excluded half-way: its games so far stand; the referee plays the rest for it, each decision marked."""
    file = league_file(
        tmp_path, bots={name: BOTS[name] for name in ("heuristic", "greedy", "random")} | {"random-2": BOTS["random"]}
    )
    play(file, only=set(range(6)))
    file.write_text(file.read_text().replace("[ruleset]", 'exclude = ["greedy"]\n[ruleset]'))
    play(file)
    games = stored(file)
    assert len(games) == 24
    for game in games:
        if "greedy" not in game.figures.seats:
            continue
        seat = game.figures.seats.index("greedy")
        mine = [fault for fault in game.figures.faults if fault.seat == seat]
        if game.index < 6:
            assert mine == []
        else:
            assert mine and {(fault.kind, fault.detail) for fault in mine} == {
                ("forfeited", "excluded by the organizer")
            }
            assert len(mine) == 7, "every decision of the seat (2 bids, 5 plays) was the referee's"
    greedy = next(row for row in ratings_json(file) if row["name"] == "greedy")
    before = sum("greedy" in game.figures.seats for game in games if game.index < 6)
    assert (greedy["games"], greedy["forfeited"]) == (before, sum("greedy" in g.figures.seats for g in games) - before)


def test_exclude_names_a_bot_of_the_league(tmp_path: Path) -> None:
    file = league_file(tmp_path, extra='exclude = ["nobody"]')
    result = rage("league", "run", file)
    assert result.exit_code == 2 and "exclude: no bot named 'nobody'" in result.output


def test_a_bot_that_cannot_start_stops_the_league_unless_asked_to_keep_going(tmp_path: Path) -> None:
    broken = {"broken": f"{sys.executable} -c 'raise SystemExit(3)'"}
    file = league_file(tmp_path, bots={name: BOTS[name] for name in ("heuristic", "greedy", "random")} | broken)
    stopped = rage("league", "run", file)
    assert stopped.exit_code == 1 and "exited with code 3" in stopped.output and "--keep-going" in stopped.output
    assert "Traceback" not in stopped.output
    kept = rage("league", "run", file, "--keep-going")
    assert kept.exit_code == 0, kept.output
    games = stored(file)
    assert len(games) == 24
    for game in games:
        if "broken" in game.figures.seats:
            seat = game.figures.seats.index("broken")
            details = {fault.detail for fault in game.figures.faults if fault.seat == seat}
            assert len(details) == 1 and details.pop().startswith("could not start: ")
    assert flat(kept.output).count("broken forfeited (could not start") == 1, "once for the league, not per game"


def test_hosted_standings_count_forfeits_as_the_definition_says() -> None:
    from rage_referee.faults import Fault, FaultKind, Forfeits
    from rage_referee.hosted.definition import forfeits_of, league_config
    from rage_referee.hosted.standings import point_table

    assert forfeits_of('players = 2\ngames = 4\n[ruleset]\npreset = "amigo"\n') is Forfeits.LOSS  # a contest's
    assert forfeits_of('forfeits = "unrated"\nplayers = 2\n[ruleset]\npreset = "amigo"\n') is Forfeits.UNRATED
    hosted = league_config('players = 2\ngames = 4\n[ruleset]\npreset = "amigo"\n', "cup", {"a": "h:1", "b": "h:2"})
    assert hosted.forfeits is Forfeits.LOSS
    faults = (Fault(0, FaultKind.FORFEITED, 1, 0, "excluded by the organizer", "bid 0"),)
    game = scored_game(0, ("dead", "a", "b"), (1, 3, 2), totals=(9, 1, 2), rounds=2, faults=faults)
    assert [row.games for row in point_table([game]).rows] == [1, 1, 0]
    assert [(row.name, row.games) for row in point_table([game], Forfeits.LOSS).rows][-1] == ("dead", 1)


def test_a_bot_that_cannot_start_is_quoted_as_text(tmp_path: Path) -> None:
    """Its stderr, quoted in the message, is escaped and never read as console markup."""
    shout = "import sys; print('[/] [bold]loud \\x1b[31m red', file=sys.stderr); sys.exit(3)"
    result = rage(
        "match",
        "--bot",
        f"x={sys.executable} -c {json.dumps(shout)}",
        "--bot",
        f"g={BOTS['greedy']}",
        "--bot",
        f"r={BOTS['random']}",
        "--logs",
        tmp_path,
    )
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "[/] [bold]loud \\x1b[31m red" in result.output and "\x1b" not in result.output


def test_a_quitter_gains_nothing_in_a_contest(tmp_path: Path) -> None:
    """A bot that quits after its first decisions, in a league with the sandbox enabled: by default each game
    the referee played for it is a loss, where unrated it would keep the rating of the games it played."""
    quitter = f"{sys.executable} {TEST_BOTS / 'quitter.py'} --after 12"
    bots = {name: BOTS[name] for name in ("heuristic", "greedy", "random")} | {"quitter": quitter}
    file = league_file(tmp_path, bots=bots, extra="[sandbox]\nenabled = true\n")
    play(file)  # without the sandbox: the league file's default is what is shown
    assert load_league(file).forfeits is Forfeits.LOSS
    games = stored(file)
    seated = sum("quitter" in game.figures.seats for game in games)
    forfeited = sum(
        game.figures.seats.index("quitter") in game.figures.forfeited
        for game in games
        if "quitter" in game.figures.seats
    )
    assert 0 < forfeited < seated
    rows = {row["name"]: row for row in ratings_json(file)}
    assert (rows["quitter"]["games"], rows["quitter"]["forfeited"]) == (seated, forfeited)
    unrated = {row["name"]: row for row in ratings_json(file, "--forfeits", "unrated")}
    assert unrated["quitter"]["games"] == seated - forfeited
    assert rows["quitter"]["elo"] < unrated["quitter"]["elo"]


def test_the_crosstable_counts_the_games_the_ratings_count(tmp_path: Path) -> None:
    """The crosstable counted a forfeited bot's games as wins and losses ('6-0-6' against a bot it never played)
    while the ratings gave it 0 games; with forfeits = "loss" it loses them, as the ratings count them."""
    file = league_file(tmp_path, bots=DYING, games=12)
    assert rage("league", "run", file, "--standings-every", "0").exit_code == 0

    def against_dying(*options: str) -> list[dict[str, object]]:
        shown = rage("ratings", "--league", file, "--crosstable", "--format", "json", *options)
        return [row for row in json.loads(shown.stdout) if "dying" in (row["bot"], row["opponent"])]

    assert against_dying() == []  # unrated: no game of its counts
    lost = against_dying("--forfeits", "loss")
    assert lost and all(row["losses"] > 0 and row["wins"] == 0 for row in lost if row["bot"] == "dying"), lost
    assert rage("league", "report", file, "--out", tmp_path / "site").exit_code == 0
    page = (tmp_path / "site" / "index.html").read_text()  # the report's crosstable: dying's cells hold no score
    assert 'data-pair="dying|' in page
    assert not re.search(r'data-pair="(dying\|[^"]*|[^"]*\|dying)" data-wdl', page)
