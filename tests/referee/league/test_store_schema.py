"""A database made by the released schema (``games`` with ``decisions`` beside the record) opens with its
games kept, resumes its league and rates the same, on SQLite and on PostgreSQL; two processes opening
it at once bring it up to date once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from rage_referee.league import ratings as ratings_module
from rage_referee.league import store as store_module
from rage_referee.league.ratings import rating_table
from rage_referee.league.store import Store, StoreError
from rage_referee.play.finished import figures_of
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    insert,
    inspect,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from tests.helpers.league import flat, rage, stored, write_league
from tests.referee.league.test_store import at_once

RELEASED = MetaData()
"""The tables as the released schema made them."""
Table(
    "leagues",
    RELEASED,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), unique=True, nullable=False),
    Column("key", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Table(
    "games",
    RELEASED,
    Column("id", Integer, primary_key=True),
    Column("league_id", ForeignKey("leagues.id"), index=True, nullable=False),
    Column("index", Integer, nullable=False),
    Column("set_id", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("totals", JSON, nullable=False),
    Column("places", JSON, nullable=False),
    Column("hits", JSON, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("faults", JSON, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("record", JSON, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("league_id", "index"),
)
Table(
    "deal_keys",
    RELEASED,
    Column("league_id", ForeignKey("leagues.id"), primary_key=True),
    Column("key", String(64), nullable=False),
    Column("revealed_at", DateTime(timezone=True), nullable=True),
)
GAMES, KEPT = 12, 8
"""The released league: 12 games of 4 bots at 3 players, 2 duplicate sets at 2 of the 4 tables (the first
schedule design; the current one rounds them up to 24, a set at each table)."""
RELEASED_SCHEDULE = "schedule = 1"
"""The reference league is played under the released schedule design, whose stored key names no version."""


@pytest.fixture(autouse=True)
def quick_bootstrap() -> Iterator[None]:
    """Fewer bootstrap samples behind ``rage ratings``: the bootstrap itself is tested in test_ratings.py."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ratings_module, "rating_table", partial(rating_table, samples=25))
        yield


def released_copy(source: str, target: str, kept: int) -> None:
    """The leagues and the first ``kept`` games of each at ``source``, written at ``target`` as the released
    schema stored them (each game's ``decisions`` too; the ids the target's own). Each league's key is the
    released code's: it names no schedule design."""
    reader, writer = create_engine(source), create_engine(target)
    try:
        RELEASED.create_all(writer)
        leagues, games = RELEASED.tables["leagues"], RELEASED.tables["games"]
        with reader.connect() as connection:
            league_rows = [dict(row._mapping) for row in connection.execute(select(leagues))]
            assert all("schedule" not in league["key"] for league in league_rows), "not a key the release stored"
            copied = [c for c in games.c if c.name not in {"id", "decisions"}]
            game_rows = [dict(row._mapping) for row in connection.execute(select(*copied)) if row.index < kept]
        with writer.begin() as connection:
            for league in league_rows:
                new_id = connection.execute(
                    insert(leagues).values({k: v for k, v in league.items() if k != "id"}).returning(leagues.c.id)
                ).scalar_one()
                rows = [row for row in game_rows if row["league_id"] == league["id"]]
                for row in rows:
                    row.update(league_id=new_id, decisions=100 + row["index"])
                connection.execute(insert(games), rows)
    finally:
        reader.dispose()
        writer.dispose()


def columns(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return {column["name"] for column in inspect(connection).get_columns("games")}
    finally:
        engine.dispose()


def ratings(url: str) -> list[dict[str, Any]]:
    result = rage("ratings", "--db", url, "--format", "json")
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def test_a_database_of_the_released_schema_opens_resumes_and_rates_the_same(tmp_path: Path, database_url: str) -> None:
    reference = write_league(tmp_path / "reference", games=GAMES, extra=RELEASED_SCHEDULE)
    assert rage("league", "run", reference).exit_code == 0
    reference_url = f"sqlite:///{reference.parent / 'league.sqlite'}"
    played = stored(reference)

    released_copy(reference_url, database_url, KEPT)
    assert "decisions" in columns(database_url)
    league = write_league(tmp_path / "released", games=GAMES, database=database_url)  # as the release's file
    kept = stored(league)  # opening brings the schema up to date, every game kept
    assert "decisions" not in columns(database_url)
    assert [game.index for game in kept] == list(range(KEPT))
    for game, before in zip(kept, played, strict=False):
        assert game.figures == before.figures
        assert game.record == before.record
        assert figures_of(game.record) == game.figures

    result = rage("league", "run", league)
    assert result.exit_code == 0, result.output
    # the league keeps the released design: its 12 games, not rounded up to whole rounds
    assert f"{KEPT} of {GAMES} games stored already; playing the other {GAMES - KEPT}" in flat(result.output)
    assert "whole rounds" not in flat(result.output)
    resumed = stored(league)
    assert [game.index for game in resumed] == list(range(GAMES))
    assert [figures_of(game.record) for game in resumed] == [figures_of(game.record) for game in played]
    assert ratings(database_url) == ratings(reference_url)


def test_two_stores_opening_a_released_database_at_once_both_open_it(tmp_path: Path, database_url: str) -> None:
    reference = write_league(tmp_path / "reference", games=6, extra=RELEASED_SCHEDULE)
    assert rage("league", "run", reference).exit_code == 0
    released_copy(f"sqlite:///{reference.parent / 'league.sqlite'}", database_url, 6)
    opened = at_once(2, lambda _: Store(database_url))
    try:
        assert all(isinstance(store, Store) for store in opened), opened
        assert "decisions" not in columns(database_url)
        store = opened[0]
        assert isinstance(store, Store)
        assert len(store.games(store.league("test"))) == 6
    finally:
        for store in opened:
            if isinstance(store, Store):
                store.close()


def test_a_released_database_that_cannot_be_changed_is_read_as_it_is(
    tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rage ratings`` and the report open for reading: a database they may not change still reads."""
    reference = write_league(tmp_path / "reference", games=6, extra=RELEASED_SCHEDULE)
    assert rage("league", "run", reference).exit_code == 0
    reference_url = f"sqlite:///{reference.parent / 'league.sqlite'}"
    released_copy(reference_url, database_url, 6)

    def read_only(engine: Engine) -> None:
        raise OperationalError("ALTER TABLE games DROP COLUMN decisions", {}, Exception("readonly database"))

    monkeypatch.setattr(store_module, "upgrade", read_only)
    assert ratings(database_url) == ratings(reference_url)
    assert "decisions" in columns(database_url)
    with pytest.raises(StoreError, match="readonly database") as refused:
        Store(database_url)  # to write games, it must be brought up to date
    assert "\n" not in str(refused.value)
