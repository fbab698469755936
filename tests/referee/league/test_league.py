"""Leagues end to end: the league file, running (resume, refusal, crash safety), export and ``rage ratings``."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli.ratings import AUDIT_CSV
from rage_referee.league import ratings as ratings_module
from rage_referee.league.config import LeagueConfigError, load_league
from rage_referee.league.ratings import rating_table
from rage_referee.league.runner import league_schedule, plan_league, run_league
from rage_referee.league.store import GameStoredAlready, Store, StoreError, sqlite_url
from rage_referee.play.finished import FinishedGame
from rage_sdk.replay import verify
from sqlalchemy import create_engine, text

from tests.helpers.backends import BACKENDS, fresh_database
from tests.helpers.league import FIELD, flat, kill_league_run, league_text, rage, stored, write_league

BOTS = FIELD
FIELDS = [
    "name",
    "elo",
    "low",
    "high",
    "los_next",
    "games",
    "mean_score",
    "mean_place",
    "bid_accuracy",
    "faults",
    "skill",
    "forfeited",
]


def clean_failure(result: Any) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def assert_matches_schedule(file: Path, games: list[FinishedGame]) -> None:
    """The stored games are the league's schedule, each once, seats and deals as scheduled."""
    schedule = league_schedule(load_league(file))
    assert [game.index for game in games] == list(range(len(schedule)))
    for game in games:
        planned = schedule[game.index]
        assert (game.figures.seats, game.seed, game.set_id) == (planned.seats, planned.seed, planned.set_id)
        assert game.record["players"] == list(planned.seats)


def assert_verifies(record: dict[str, Any] | str) -> None:
    verdict = verify(record if isinstance(record, str) else json.dumps(record))
    assert verdict.ok, verdict.message


@pytest.fixture(scope="module", autouse=True)
def quick_bootstrap() -> Iterator[None]:
    """Fewer bootstrap samples behind the commands: the bootstrap itself is tested in test_ratings.py."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ratings_module, "rating_table", partial(rating_table, samples=25))
        yield


@pytest.fixture(scope="module", params=BACKENDS)
def played(
    quick_bootstrap: None, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[Path, Any]]:
    """A league of four in-process bots, three at a table, 24 games, run once through the CLI (on each database)."""
    directory = tmp_path_factory.mktemp("league")
    with fresh_database(request.param, directory) as url:
        file = write_league(directory, database=url, extra='records = "records"\nconcurrency = 4')
        yield file, rage("league", "run", file)


def database_of(file: Path) -> str:
    """The URL of the league's database."""
    return load_league(file).database_url(file.parent)


# --------------------------------------------------------------------------- the league file

GOOD = league_text()


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (GOOD.split("[bots]")[0], ["bots: missing"]),
        (league_text(games=24, games_per_table=6), ["games", "games_per_table", "exactly one"]),
        (league_text(games=None), ["games", "games_per_table", "exactly one"]),
        (
            league_text(players=9, ruleset='preset = "fundex"', bots={f"b{k}": "x.py:B" for k in range(10)}),
            ["players:", "fundex", "2-8", "9"],
        ),
        (league_text(players=11), ["players:"]),
        (league_text(players=1), ["players:"]),
        (league_text(ruleset='preset = "amigo"\ncolour_blind = true'), ["ruleset:", "unknown option 'colour_blind'"]),
        (league_text(ruleset='preset = "nope"'), ["ruleset:", "unknown preset 'nope'"]),
        (GOOD.replace('[ruleset]\npreset = "amigo"\n', ""), ["ruleset: missing"]),
        (GOOD.replace("games = 24", "games = 24 24"), ["not valid TOML", "line"]),
        (GOOD.replace("games = 24", "games = [24"), ["not valid TOML"]),
        (league_text(extra="typo = 1"), ["unknown setting 'typo'"]),
        (league_text(extra="[time]\ndecision_ms = 0"), ["time.decision_ms:"]),
        (league_text(games=0), ["games:"]),
        (league_text(bots={"a": "a.py:A", "b": "b.py:B"}), ["bots:", "2 bots", "table of 3"]),
        (league_text(bots={"a": "a.py:A", "b": " ", "c": "c.py:C"}), ["bots:", "'b'"]),
        (league_text(extra="concurrency = 0"), ["concurrency:"]),
    ],
    ids=[
        "missing-bots",
        "games-and-games_per_table",
        "neither-games-nor-games_per_table",
        "players-outside-preset",
        "players-too-many",
        "players-too-few",
        "unknown-ruleset-option",
        "unknown-preset",
        "missing-ruleset",
        "bad-toml",
        "bad-toml-unclosed",
        "unknown-key",
        "bad-time",
        "zero-games",
        "too-few-bots",
        "empty-bot-target",
        "zero-concurrency",
    ],
)
def test_config_errors_name_the_key(tmp_path: Path, text: str, fragments: list[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(LeagueConfigError) as info:
        load_league(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message, message
    result = rage("league", "run", path)
    clean_failure(result)
    for fragment in fragments:
        assert fragment in flat(result.output), result.output
    assert not (tmp_path / "league.sqlite").exists(), "nothing is stored for a bad league file"


MISTYPED = [
    ("games = 24", "games_per_tabel = 8", "unknown setting 'games_per_tabel' (did you mean games_per_table?)"),
    ("[ruleset]", "[rulset]", "unknown setting 'rulset' (did you mean ruleset?)"),
    ("[bots]", "[time]\ndecison_ms = 500\n[bots]", "time: unknown setting 'decison_ms' (did you mean decision_ms?)"),
    (
        "[bots]",
        '[runner]\nkind = "ray"\nworker = 2\n[bots]',
        "runner: unknown setting 'worker' (did you mean workers?)",
    ),
    ("[bots]", "[sandbox]\nmemory = 64\n[bots]", "sandbox: unknown setting 'memory' (did you mean memory_mb?)"),
    ("games = 24", "games = 24\nfrobnicate = 1", "unknown setting 'frobnicate'"),
]


@pytest.mark.parametrize(("setting", "mistyped", "refusal"), MISTYPED)
def test_a_mistyped_setting_is_named_with_the_closest_known_one(
    tmp_path: Path, setting: str, mistyped: str, refusal: str
) -> None:
    path = tmp_path / "cup.toml"
    path.write_text(league_text(games=24).replace(setting, mistyped, 1))
    with pytest.raises(LeagueConfigError) as info:
        load_league(path)
    assert str(info.value) == f"{path}: {refusal}"


@pytest.mark.parametrize(("setting", "mistyped", "refusal"), MISTYPED[:3])
def test_a_hosted_definition_names_a_mistyped_setting_with_the_closest_known_one(
    setting: str, mistyped: str, refusal: str
) -> None:
    from rage_referee.hosted.definition import read_definition
    from rage_referee.hosted.errors import InvalidArgument

    text = league_text(games=24).replace(setting, mistyped, 1)
    with pytest.raises(InvalidArgument) as info:
        read_definition(text, "test", {name: f"127.0.0.1:{9000 + k}" for k, name in enumerate(FIELD)})
    table, _, message = refusal.rpartition(": ")
    assert str(info.value) == f"definition{'.' + table if table else ''}: {message}"


def test_league_run_on_a_missing_file_fails_cleanly(tmp_path: Path) -> None:
    result = rage("league", "run", tmp_path / "nowhere.toml")
    clean_failure(result)
    assert "cannot read" in flat(result.output)


def test_league_file_defaults(tmp_path: Path) -> None:
    path = tmp_path / "spring.toml"
    path.write_text(league_text().replace('name = "test"\n', ""))
    config = load_league(path)
    assert config.name == "spring"
    assert config.duplicate is True and config.concurrency == 4
    assert config.database_url(tmp_path) == f"sqlite:///{tmp_path / 'league.sqlite'}"
    absolute = load_league(write_league(tmp_path, "abs.toml", database=str(tmp_path / "x" / "db.sqlite")))
    assert absolute.database_url(Path("/elsewhere")) == f"sqlite:///{tmp_path / 'x' / 'db.sqlite'}"
    url = load_league(write_league(tmp_path, "url.toml", database="postgresql://host/db"))
    assert url.database_url(tmp_path) == "postgresql://host/db"


def test_league_run_with_a_bot_that_cannot_be_loaded_fails_cleanly(tmp_path: Path) -> None:
    bots = {**BOTS, "ghost": f"{tmp_path / 'ghost.py'}:Ghost"}
    file = write_league(tmp_path, bots=bots)
    result = rage("league", "run", file)
    clean_failure(result)
    assert "ghost" in flat(result.output)


# --------------------------------------------------------------------------- run, resume, refuse


def test_league_runs_end_to_end_and_prints_the_rating_table(played: tuple[Path, Any]) -> None:
    file, result = played
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "test: 24 games" in text
    for column in ("bot", "elo", "95%", "LOS", "games", "score", "place", "bids", "faults", "skill"):
        assert column in text
    for name in BOTS:
        assert name in text
    games = stored(file)
    assert len(games) == 24
    assert_matches_schedule(file, games)
    for game in games:
        assert_verifies(game.record)
        assert len(game.figures.seats) == 3 and set(game.figures.places) <= {1, 2, 3} and game.figures.rounds > 0
    # every bot sits at 3 of the 4 tables: 18 games each
    assert {name: sum(name in game.figures.seats for game in games) for name in BOTS} == dict.fromkeys(BOTS, 18)
    records = sorted((file.parent / "records").glob("game-*.json"))
    assert [path.name for path in records] == [f"game-{k:05d}.json" for k in range(24)]
    for path in records:
        assert_verifies(path.read_text())


def test_running_a_league_again_plays_nothing_new(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    before = stored(file)
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    assert "test: all 24 games are stored already: nothing left to play" in flat(result.output)
    assert "test: 24 games" in flat(result.output)
    after = stored(file)
    assert after == before


def test_settings_outside_the_schedule_may_change_on_resume(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    changed = file.with_name("faster.toml")
    changed.write_text(file.read_text().replace("concurrency = 4", "concurrency = 9\n[time]\ndecision_ms = 50"))
    result = rage("league", "run", changed)
    assert result.exit_code == 0, result.output
    assert "all 24 games are stored already" in flat(result.output)
    assert len(stored(file)) == 24


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("seed = 1", "seed = 2"),
        ("games = 24", "games = 30"),
        ('preset = "amigo"', 'preset = "fundex"'),
        ("players = 3", "players = 2"),
        ('"random-2" = ', '"random-3" = '),
    ],
    ids=["seed", "games", "ruleset", "players", "bots"],
)
def test_a_league_stored_under_other_settings_is_refused(played: tuple[Path, Any], old: str, new: str) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    changed = file.with_name("changed.toml")
    text = file.read_text()
    assert old in text
    changed.write_text(text.replace(old, new))
    result = rage("league", "run", changed)
    clean_failure(result)
    message = flat(result.output)
    assert "league 'test'" in message and "other settings" in message and "new name" in message
    assert len(stored(file)) == 24


def test_reordering_the_bots_does_not_resume_under_another_schedule(tmp_path: Path) -> None:
    first = load_league(write_league(tmp_path, "first.toml"))
    reordered = load_league(write_league(tmp_path, "second.toml", bots=dict(reversed(BOTS.items()))))
    store = Store(sqlite_url(tmp_path / "league.sqlite"))
    plan_league(first, store)
    try:
        plan = plan_league(reordered, store)
    except StoreError:
        return  # refused as another league: as good as the same schedule
    # No game is stored yet, so the league starts afresh under the new order: nothing can mix.
    assert (plan.games, plan.done) == (league_schedule(reordered), set())


def test_another_league_in_the_same_database_is_kept_apart(tmp_path: Path, database_url: str) -> None:
    small = {name: target for name, target in BOTS.items() if name != "random-2"}
    one = write_league(tmp_path, "one.toml", name="one", games=6, bots=small, database=database_url)
    two = write_league(tmp_path, "two.toml", name="two", games=12, seed=5, bots=small, database=database_url)
    assert rage("league", "run", one).exit_code == 0
    assert rage("league", "run", two).exit_code == 0
    assert len(stored(one)) == 6 and len(stored(two)) == 12
    assert_matches_schedule(one, stored(one))
    assert_matches_schedule(two, stored(two))
    # a database with two leagues needs --name
    url = database_url
    result = rage("ratings", "--db", url, "--format", "json")
    clean_failure(result)
    assert "2 leagues" in flat(result.output) and "one, two" in flat(result.output)
    result = rage("ratings", "--db", url, "--name", "two", "--format", "json")
    assert result.exit_code == 0, result.output
    assert sum(row["games"] for row in json.loads(result.stdout)) == 12 * 3
    result = rage("ratings", "--db", url, "--name", "three")
    clean_failure(result)
    assert "no league 'three'" in flat(result.output)


# --------------------------------------------------------------------------- export


def test_export_writes_games_standings_and_verifiable_records(played: tuple[Path, Any], tmp_path: Path) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    out = tmp_path / "export"
    result = rage("league", "export", file, "--out", out)
    assert result.exit_code == 0, result.output
    assert "24 games of test" in flat(result.output)
    games = stored(file)

    rows = json.loads((out / "games.json").read_text())
    assert [row["index"] for row in rows] == list(range(24))
    for row, game in zip(rows, games):
        assert row == {
            "index": game.index,
            "set": game.set_id,
            "seed": game.seed,
            "seats": list(game.figures.seats),
            "totals": list(game.figures.totals),
            "places": list(game.figures.places),
            "hits": list(game.figures.hits),
            "rounds": game.figures.rounds,
            "faults": len(game.figures.faults),
        }

    with (out / "games.csv").open(newline="") as handle:
        seat_rows = list(csv.DictReader(handle))
    assert len(seat_rows) == 24 * 3
    assert list(seat_rows[0]) == [
        "index",
        "set",
        "seed",
        "seat",
        "bot",
        "total",
        "place",
        "rounds_bid_exactly",
        "faults",
    ]
    for line in seat_rows:
        game = games[int(line["index"])]
        seat = int(line["seat"])
        assert line["bot"] == game.figures.seats[seat]
        assert int(line["total"]) == game.figures.totals[seat] and int(line["place"]) == game.figures.places[seat]
        assert int(line["rounds_bid_exactly"]) == game.figures.hits[seat]

    standings = json.loads((out / "standings.json").read_text())
    assert sorted(row["name"] for row in standings) == sorted(BOTS)
    assert all(list(row) == FIELDS for row in standings)
    assert [row["elo"] for row in standings] == sorted((row["elo"] for row in standings), reverse=True)
    assert all(row["games"] == 18 for row in standings)
    with (out / "standings.csv").open(newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [row["name"] for row in table] == [row["name"] for row in standings]
    assert list(table[0]) == FIELDS
    for line, row in zip(table, standings):
        assert float(line["elo"]) == pytest.approx(row["elo"])

    records = sorted((out / "records").iterdir())
    assert [path.name for path in records] == [f"game-{k:05d}.json" for k in range(24)]
    for path, game in zip(records, games):
        text = path.read_text()
        assert_verifies(text)
        assert json.loads(text) == game.record


def test_export_of_a_league_never_run_fails_cleanly(tmp_path: Path) -> None:
    file = write_league(tmp_path)
    result = rage("league", "export", file, "--out", tmp_path / "out")
    clean_failure(result)
    assert "no database at" in flat(result.output) and "league.sqlite" in flat(result.output)
    assert not (tmp_path / "league.sqlite").exists()


# --------------------------------------------------------------------------- rage ratings


def ratings(file: Path, fmt: str, *, by_path: bool = False) -> str:
    database = database_of(file)
    result = rage("ratings", "--db", database.removeprefix("sqlite:///") if by_path else database, "--format", fmt)
    assert result.exit_code == 0, result.output
    return str(result.stdout)


def test_ratings_json(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    rows = json.loads(ratings(file, "json"))
    assert sorted(row["name"] for row in rows) == sorted(BOTS)
    for row in rows:
        assert list(row) == [*FIELDS, "memory_audit"]
        audit = row["memory_audit"]
        assert list(audit) == ["sets", "estimate", "low", "high", "p_value", "flagged"]
        assert audit["sets"] == 3  # each bot sits at three of the four tables, one duplicate set each
        assert audit["low"] <= audit["estimate"] <= audit["high"] and audit["flagged"] in (True, False)
        assert row["low"] <= row["elo"] <= row["high"]
        assert row["games"] == 18
        assert 1 <= row["mean_place"] <= 3 and 0 <= row["bid_accuracy"] <= 1
    assert [row["los_next"] is None for row in rows] == [False, False, False, True]
    assert all(0 <= row["los_next"] <= 1 for row in rows[:-1])
    assert [row["elo"] for row in rows] == sorted((row["elo"] for row in rows), reverse=True)
    assert sum(row["elo"] for row in rows) / len(rows) == pytest.approx(1500)
    # the same table whichever way the database is named
    assert json.loads(ratings(file, "json", by_path=True)) == rows
    league = rage("ratings", "--league", file, "--format", "json")
    assert league.exit_code == 0, league.output
    assert json.loads(league.stdout) == rows


def test_ratings_csv(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    table = list(csv.reader(io.StringIO(ratings(file, "csv"))))
    assert table[0] == [*FIELDS, *AUDIT_CSV]
    assert len(table) == 1 + len(BOTS)
    rows = [dict(zip(table[0], line)) for line in table[1:]]
    assert sorted(row["name"] for row in rows) == sorted(BOTS)
    assert [row["los_next"] for row in rows][-1] == ""
    for row in rows:
        assert float(row["low"]) <= float(row["elo"]) <= float(row["high"])
        assert int(row["games"]) == 18 and int(row["faults"]) == 0
        assert int(row["memory_sets"]) == 3 and row["memory_flagged"] in ("True", "False")


def test_ratings_markdown(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    lines = ratings(file, "markdown").splitlines()
    assert lines[0] == "| bot | elo | 95% | LOS | games | score | place | bids | faults | skill | memory |"
    assert lines[1] == "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    body = lines[2:]
    assert len(body) == len(BOTS)
    names = []
    for line in body:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == 11, line
        assert cells[10].startswith(("+", "-")) and "±" in cells[10]
        names.append(cells[0])
        low, high = cells[2].split("/")
        assert float(low) <= 0 <= float(high)
        assert cells[4] == "18"
        assert cells[7].endswith("%")
    assert sorted(names) == sorted(BOTS)
    assert body[-1].split("|")[4].strip() == ""  # no LOS for the last bot


def test_ratings_table_is_the_default(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    text = flat(ratings(file, "table"))
    assert "test: 24 games" in text and "Bradley-Terry" in text
    for name in BOTS:
        assert name in text


PAIR_FIELDS = [
    *("a", "b", "sets", "difference", "low", "high", "los", "p"),
    *("low_corrected", "high_corrected", "p_corrected", "separated"),
]


def test_ratings_pairs_in_every_format(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    url = database_of(file)

    def pairs(fmt: str) -> str:
        result = rage("ratings", "--db", url, "--pairs", "--format", fmt)
        assert result.exit_code == 0, result.output
        return str(result.stdout)

    order = [row["name"] for row in json.loads(ratings(file, "json"))]
    rows = json.loads(pairs("json"))
    assert [(row["a"], row["b"]) for row in rows] == list(combinations(order, 2))
    for row in rows:
        assert list(row) == PAIR_FIELDS
        assert row["sets"] == 2  # each pair meets at two of the four tables, one duplicate set each
        assert 0 <= row["los"] <= 1 and row["p"] <= row["p_corrected"] <= 1
        # two sets bound no sequence yet: they hold for every later read too, so they widen first
        assert row["low"] is row["high"] is row["low_corrected"] is None and not row["separated"]
    table = list(csv.reader(io.StringIO(pairs("csv"))))
    assert table[0] == PAIR_FIELDS and len(table) == 1 + len(rows)
    lines = pairs("markdown").splitlines()
    assert lines[0] == "| " + " | ".join(["bot", *order]) + " |"
    assert len(lines) == 2 + len(order)
    first_row = [cell.strip() for cell in lines[2].strip("|").split("|")]
    assert first_row[0] == order[0] and first_row[1] == "" and first_row[2].startswith(("+", "-"))
    text = flat(pairs("table"))
    assert "duplicate score difference" in text and all(name in text for name in BOTS)
    assert "Holm" in text and "only 2 duplicate sets" in text


def test_ratings_collusion_in_every_format(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    url = database_of(file)

    def collusion(fmt: str) -> str:
        result = rage("ratings", "--db", url, "--collusion", "--format", fmt)
        assert result.exit_code == 0, result.output
        return str(result.stdout)

    order = [row["name"] for row in json.loads(ratings(file, "json"))]
    rows = json.loads(collusion("json"))
    assert [(row["a"], row["b"]) for row in rows] == list(permutations(order, 2))
    for row in rows:
        assert list(row) == ["a", "b", "sets", "estimate", "low", "high", "p_value", "flagged"]
        # b sits at three tables: with a at two, without a at one; one duplicate set each
        assert row["sets"] == 3 and row["low"] is None and row["flagged"] is False
    table = list(csv.reader(io.StringIO(collusion("csv"))))
    assert table[0] == ["a", "b", "sets", "estimate", "low", "high", "p_value", "flagged"] and len(table) == 1 + 12
    lines = collusion("markdown").splitlines()
    assert lines[0] == "| " + " | ".join(["present", *order]) + " |" and len(lines) == 2 + len(order)
    text = flat(collusion("table"))
    assert "the row bot's effect on the column bot" in text and all(name in text for name in BOTS)
    both = rage("ratings", "--db", url, "--collusion", "--pairs")
    assert both.exit_code != 0 and "give one of them" in flat(both.output)


def test_ratings_needs_exactly_one_source(played: tuple[Path, Any]) -> None:
    file, first = played
    assert first.exit_code == 0, first.output
    for args in ([], ["--league", str(file), "--db", database_of(file)]):
        result = rage("ratings", *args)
        clean_failure(result)
        assert "give --league FILE or --db URL" in flat(result.output)
    result = rage("ratings", "--db", database_of(file), "--format", "yaml")
    clean_failure(result)


# --------------------------------------------------------------------------- crash safety


def count_stored(url: str) -> int:
    """The games stored so far, read beside the writer (0 before its tables exist)."""
    if url.startswith("sqlite:///"):
        try:
            with sqlite3.connect(f"file:{url.removeprefix('sqlite:///')}?mode=ro", uri=True, timeout=1) as connection:
                return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.Error:
            return 0
    return len(stored_rows(url))


def stored_rows(url: str) -> dict[int, tuple[Any, ...]]:
    """Every stored game's row by id, as the database holds it."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            if not engine.dialect.has_table(connection, "games"):
                return {}
            query = 'SELECT id, "index", seats, seed, record, finished_at FROM games'
            return {row[0]: tuple(row[1:]) for row in connection.execute(text(query))}
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_killed_league_loses_nothing_and_resumes_to_completion(tmp_path: Path, database_url: str) -> None:
    total = 48  # killed after 8 stored games, 8 at once
    file = write_league(tmp_path, games=total, database=database_url, extra='records = "records"\nconcurrency = 8')
    database = database_url
    kill_league_run(["league", "run", str(file)], tmp_path, lambda: count_stored(database), 8, 60)

    before = stored_rows(database)
    assert 8 <= len(before) < total
    games = stored(file)
    assert len(games) == len(before)
    schedule = league_schedule(load_league(file))
    for game in games:
        assert_verifies(game.record)
        planned = schedule[game.index]
        assert (game.figures.seats, game.seed) == (planned.seats, planned.seed)
    # a record file is written only after its game is stored, and never half-written
    written = sorted((tmp_path / "records").glob("game-*.json"))
    assert {int(path.stem.split("-")[1]) for path in written} <= {game.index for game in games}
    for path in written:
        assert_verifies(path.read_text())

    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    already = len(before)
    assert f"{already} of {total} games stored already; playing the other {total - already}" in flat(result.output)
    after = stored_rows(database)
    assert len(after) == total
    indices = [row[0] for row in after.values()]
    assert sorted(indices) == list(range(total)), "every scheduled game once, no index twice"
    # the games stored before the kill were not played again
    for row_id, row in before.items():
        assert after[row_id] == row
    games = stored(file)
    assert_matches_schedule(file, games)
    for game in games:
        assert_verifies(game.record)


# --------------------------------------------------------------------------- two runs of one league at once


def test_a_run_that_plans_a_game_another_run_stores_is_refused_and_stores_nothing(
    tmp_path: Path, database_url: str
) -> None:
    """Two runs plan the same league before either stores a game; the one that comes second is refused."""
    three = {name: target for name, target in BOTS.items() if name != "random-2"}  # one table: a set is a round
    file = write_league(tmp_path, games=6, bots=three, database=database_url, extra="concurrency = 2")
    config = load_league(file)
    first, second = Store(database_url), Store(database_url)
    try:
        first_plan, second_plan = plan_league(config, first), plan_league(config, second)
        assert first_plan.todo == second_plan.todo and len(first_plan.todo) == 6
        assert asyncio.run(run_league(config, first, first_plan, tmp_path / "logs")) == 6
        before = stored_rows(database_url)
        with pytest.raises(GameStoredAlready) as refused:
            asyncio.run(run_league(config, second, second_plan, tmp_path / "logs"))
        message = str(refused.value)
        assert "\n" not in message and "league 'test'" in message and "stored already" in message
        assert re.search(r"game [0-5] is", message)
        assert stored_rows(database_url) == before, "nothing of the refused run is stored"
    finally:
        first.close()
        second.close()


def league_process(file: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as handle:
        return subprocess.Popen(
            [sys.executable, "-m", "rage_referee", "league", "run", str(file)],
            cwd=file.parent,
            stdout=handle,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "400"},
        )


@pytest.mark.slow
def test_two_league_runs_at_once_store_each_game_once(tmp_path: Path, database_url: str) -> None:
    file = write_league(tmp_path, games=48, database=database_url, extra="concurrency = 4")
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    processes = [league_process(file, log) for log in logs]
    try:
        codes = [process.wait(120) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)
    outputs = [flat(log.read_text()) for log in logs]
    for code, output in zip(codes, outputs):
        assert "Traceback" not in output, output
        assert code in (0, 1), output
        if code == 1:
            assert re.search(r"stopped: league 'test': game \d+ is stored already in \S+; another run", output), output
    assert 1 in codes, f"both runs finished without meeting: {outputs}"
    indices = [row[0] for row in stored_rows(database_url).values()]
    assert len(indices) == len(set(indices)), "a game stored twice"
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    games = stored(file)
    assert_matches_schedule(file, games)


@pytest.mark.parametrize("other_program", [False, True])
def test_ratings_on_a_file_of_no_league_writes_nothing_into_it(tmp_path: Path, other_program: bool) -> None:
    # an empty file (a typo's, or one just made) was given the store's tables, 28,672 bytes, then said to hold 0 leagues
    file = tmp_path / "league.sqlite"
    file.touch()
    if other_program:
        with sqlite3.connect(file) as connection:
            connection.execute("CREATE TABLE notes (text)")
        connection.close()
    before = file.read_bytes()
    result = rage("ratings", "--db", file)
    clean_failure(result)
    assert result.output.strip() == f"no league database at sqlite:///{file}: it holds no table of leagues"
    assert file.read_bytes() == before


def test_ratings_on_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "league.sqlite"
    result = rage("ratings", "--db", missing)
    clean_failure(result)
    assert not missing.exists() and not missing.parent.exists()
