"""The commands that read a stored league find it one way (league.runner.stored_league_id, and for rage
ratings and rage league report cli.stored_league.read_league): a league of submitted bots opens from its
file for each of them, and the ratings and the report both count forfeits as its file says."""

from __future__ import annotations

import re
from pathlib import Path

from rage_referee.cli import app
from rage_referee.faults import Fault, FaultKind
from rage_referee.league.config import load_league
from rage_referee.league.store import Store
from typer.testing import CliRunner

from tests.helpers.game_records import finished_game

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"
runner = CliRunner()


def stored_league(tmp_path: Path, b: str = RANDOM, forfeits: str = "unrated", seed: str = "") -> Path:
    """A league file of bots a and b, and four of its games stored as a run stores them; b is forfeited in the last."""
    file = tmp_path / "league.toml"
    file.write_text(
        f'name = "spring"\nplayers = 2\ngames = 4\nforfeits = "{forfeits}"\n{seed}'
        f'[ruleset]\npreset = "amigo"\n[bots]\na = "{RANDOM}"\nb = "{b}"\n'
    )
    config = load_league(file)
    versions = {"versions": {"b": "0123abcd"}} if b.startswith("submission:") else {}
    store = Store(config.database_url(tmp_path))
    try:
        league = store.league(config.name, config.schedule_key() | versions)
        forfeited = Fault(1, FaultKind.FORFEITED, 1, 0, "excluded by the organizer", "bid 0")
        for index in range(4):
            faults = [forfeited] if index == 3 else []
            store.add(league, finished_game(index, ("a", "b"), set_id=index // 2, faults=faults))  # sets of 2
    finally:
        store.close()
    return file


def test_a_league_of_submitted_bots_is_reported_from_its_file(tmp_path: Path) -> None:
    """The report opened a league file by its schedule alone, so a league of submitted bots (stored under
    its versions too) was refused as "stored under other settings"; rage ratings opened it."""
    file = stored_league(tmp_path, b="submission:b")
    ratings = runner.invoke(app, ["ratings", "--league", str(file)])
    assert ratings.exit_code == 0, ratings.output
    report = runner.invoke(app, ["league", "report", str(file), "--out", str(tmp_path / "site")])
    assert report.exit_code == 0, report.output
    assert (tmp_path / "site" / "index.html").exists()


def test_a_league_of_submitted_bots_is_revealed_and_exported_from_its_file(tmp_path: Path) -> None:
    """rage league reveal and export opened it by its schedule alone too, and refused it the same way."""
    file = stored_league(tmp_path, b="submission:b", seed="seed = 7\n")
    reveal = runner.invoke(app, ["league", "reveal", str(file)])
    line = "spring: deals from seed 7 are public already: there is no key to reveal"
    assert (reveal.exit_code, reveal.output.strip()) == (2, line)
    export = runner.invoke(app, ["league", "export", str(file), "--out", str(tmp_path / "bundle")])
    assert export.exit_code == 0, export.output
    assert (tmp_path / "bundle" / "games.json").exists()


def test_the_report_counts_forfeits_as_the_league_file_says(tmp_path: Path) -> None:
    """With forfeits = "loss" the game b was forfeited in counts for both (4 games each); the report rated
    every league as unrated (3 each) while rage ratings followed the file."""
    file = stored_league(tmp_path, forfeits="loss")
    ratings = runner.invoke(app, ["ratings", "--league", str(file), "--format", "csv"])
    assert ratings.exit_code == 0, ratings.output
    report = runner.invoke(app, ["league", "report", str(file), "--out", str(tmp_path / "site")])
    assert report.exit_code == 0, report.output
    index = (tmp_path / "site" / "index.html").read_text()
    assert re.findall(r'<td class="games">(\d+)</td>', index) == ["4", "4"]


def test_neither_or_both_of_a_file_and_a_database_is_one_line(tmp_path: Path) -> None:
    file = stored_league(tmp_path)
    db = str(tmp_path / "league.sqlite")
    for argv, line in [
        (["ratings"], "give --league FILE or --db URL"),
        (["ratings", "--league", str(file), "--db", db], "give --league FILE or --db URL"),
        (["league", "report", "--out", str(tmp_path / "site")], "give a league FILE or --db URL"),
    ]:
        result = runner.invoke(app, argv)
        assert (result.exit_code, result.output.strip()) == (2, line)
    by_db = runner.invoke(app, ["league", "report", "--db", db, "--out", str(tmp_path / "site")])
    assert by_db.exit_code == 0, by_db.output


def test_a_league_begun_under_the_first_schedule_design_keeps_its_schedule(tmp_path: Path) -> None:
    """A league stored before the schedule had versions names none in its settings: it resumes on the
    first design's schedule (the second would seat its remaining games otherwise), and reads as it was."""
    from rage_referee.league.runner import league_schedule, plan_league, stored_league_id

    file = stored_league(tmp_path, seed="seed = 5\n")
    config = load_league(file)
    first = config.model_copy(update={"schedule": 1})
    store = Store(config.database_url(tmp_path))
    try:
        league = store.league("first", first.schedule_key())
        store.add(league, finished_game(0, ("b", "a")))
        named = config.model_copy(update={"name": "first"})
        plan = plan_league(named, store)
        assert plan.games == league_schedule(first.model_copy(update={"name": "first"}))
        assert plan.games != league_schedule(named)
        assert plan.done == {0}
        assert stored_league_id(named, store) == league
    finally:
        store.close()
