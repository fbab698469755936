"""A database that fails once open (full, read-only, damaged) is one line naming it, never a traceback,
and a league stopped by it keeps every game stored before, to resume."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import rage_referee.league.store as store_module
from sqlalchemy import event

from tests.helpers.cli import one_line, rage
from tests.helpers.league import GREEDY, RANDOM, stored, write_league

BOTS = {"a": RANDOM, "b": GREEDY}


def league(folder: Path, games: int = 4, name: str = "cup") -> Path:
    """A 2-player league of one-round games (a record is about 1.4 KB), public deals."""
    return write_league(folder, name=name, players=2, games=games, bots=BOTS, ruleset='preset = "amigo"\nrounds = [1]')


def every_connection(monkeypatch: pytest.MonkeyPatch, pragma: str) -> None:
    """Each database the store opens from now on runs ``PRAGMA pragma`` on every connection it makes."""
    made = store_module.create_engine

    def create(url: str, **options: Any) -> Any:
        engine = made(url, **options)
        event.listen(engine, "connect", lambda connection, _: connection.execute(f"PRAGMA {pragma}"))
        return engine

    monkeypatch.setattr(store_module, "create_engine", create)


def test_a_league_on_a_full_disk_stops_in_one_line_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = league(tmp_path, games=40)
    every_connection(monkeypatch, "max_page_count = 10")  # 40 KB: the tables and a few games
    result = rage("league", "run", file)
    assert result.exit_code == 1, result.output
    stopped = [line for line in result.stderr.splitlines() if line.startswith("stopped: ")]
    assert stopped == [
        f"stopped: the database sqlite:///{tmp_path / 'league.sqlite'}: database or disk is full; "
        "every game stored before it is kept: run again to resume"
    ], result.stderr
    kept = len(stored(file))
    assert 0 < kept < 40
    monkeypatch.undo()  # room on the disk again
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    assert f"{kept} of 40 games stored already" in result.stdout
    assert sorted(game.index for game in stored(file)) == list(range(40))


def test_a_new_league_in_a_read_only_database_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert rage("league", "run", league(tmp_path)).exit_code == 0
    every_connection(monkeypatch, "query_only = 1")
    result = rage("league", "run", league(tmp_path, name="other"))
    assert result.exit_code == 2, result.output
    database = tmp_path / "league.sqlite"
    assert one_line(result.stderr) == f"the database sqlite:///{database}: attempt to write a readonly database"


def test_revealing_in_a_read_only_database_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = league(tmp_path, name="secret")
    file.write_text(file.read_text().replace("seed = 1\n", ""))  # a secret deal key, to reveal
    assert rage("league", "run", file).exit_code == 0
    every_connection(monkeypatch, "query_only = 1")
    result = rage("league", "reveal", file)
    assert result.exit_code == 2, result.output
    assert one_line(result.stderr).endswith("attempt to write a readonly database")


def test_ratings_of_a_damaged_database_are_one_line(tmp_path: Path) -> None:
    file = league(tmp_path)
    assert rage("league", "run", file).exit_code == 0
    database = tmp_path / "league.sqlite"
    with sqlite3.connect(database) as connection:  # the games table's first page overwritten: it opens, then fails
        (page,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()
        (size,) = connection.execute("PRAGMA page_size").fetchone()
    with database.open("r+b") as data:
        data.seek((page - 1) * size)
        data.write(b"\xff" * size)
    result = rage("ratings", "--db", database)
    assert result.exit_code == 2, result.output
    assert one_line(result.stderr) == f"the database sqlite:///{database}: database disk image is malformed"


@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("totals", "garbage", "totals is no JSON (Expecting value: line 1 column 1 (char 0))"),
        ("record", '{"cut', "record is no JSON (Unterminated string starting at: line 1 column 2 (char 1))"),
        ("places", "[1]", "places is no list of 2 whole numbers, one a seat"),
        ("totals", "[1e999, 0]", "totals is no list of 2 whole numbers, one a seat"),
        ("faults", '[{"kind": "nonsense"}]', "faults: 'nonsense' is not a valid FaultKind"),
    ],
)
def test_a_damaged_game_is_one_line_naming_it_and_its_column(
    tmp_path: Path, column: str, value: str, said: str
) -> None:
    """A game edited or damaged in the database was a traceback in every league command (JSONDecodeError,
    IndexError in the standings, 'fsum' of an infinite total)."""
    file = league(tmp_path)
    assert rage("league", "run", file).exit_code == 0
    database = tmp_path / "league.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute(f'UPDATE games SET {column} = ? WHERE "index" = 2', (value,))
    expected = f"sqlite:///{database}: game 2 of league 'cup' is damaged: {said}"
    for command in (["ratings", "--league", file], ["league", "export", file, "--out", tmp_path / "out"]):
        result = rage(*command)
        assert result.exit_code != 0, result.output
        assert one_line(result.stderr) == expected


def test_a_damaged_record_is_named_by_the_reads_of_records_and_only_for_its_game(tmp_path: Path) -> None:
    """Reading some games' records (the records folder, a game's record) met a damaged one as a JSONDecodeError;
    and the error named the league's first damaged game, not the one asked for."""
    file = league(tmp_path)
    assert rage("league", "run", file).exit_code == 0
    database = tmp_path / "league.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute('UPDATE games SET record = ? WHERE "index" IN (1, 2)', ('{"cut',))
    store = store_module.Store(f"sqlite:///{database}")
    league_id = store.league("cup", create=False)
    with pytest.raises(store_module.StoreError, match="game 2 of league 'cup' is damaged: record is no JSON"):
        store.records(league_id, [0, 2, 3])
    with pytest.raises(store_module.StoreError, match="game 2 of league 'cup' is damaged"):
        store.record(league_id, 2)
    assert store.record(league_id, 3) is not None
    store.close()
