"""Finished games, stored as they end: SQLite by default, any SQLAlchemy URL (PostgreSQL) alike.

The store is the one home of I/O for finished games (:class:`~rage_referee.play.finished.FinishedGame`
in, and out again) and knows no rules; no other module reads its tables. Each game is committed
the moment it ends, so killing the process loses none, and a league resumes from what is here.

Beside a game's record the store keeps an index of its figures (seats, totals, places, hits, rounds,
faults): those the game is handed in with, taken with its record when it ended (:func:`index_row`),
never parsed back out of the record. Ratings, standings and resume read every game's figures:
for a 10,000-game league on SQLite, 0.5 s from the index and 8.4 s from the records (``rage bench
store``). A database made by an earlier release is brought up to date when opened (:mod:`.schema`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rage_sdk.errors import RageError
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    Select,
    String,
    Text,
    UniqueConstraint,
    cast,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine, ExceptionContext, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..faults import Fault
from ..play.deals import new_key
from ..play.finished import Figures, FinishedGame
from .schema import create_tables, has_table, upgrade


class StoreError(RageError, RuntimeError):
    """The database cannot be used: the message says which and why."""


class GameStoredAlready(StoreError):
    """A game of the league is stored already: another run of the same league is writing to the database."""


class Base(DeclarativeBase):
    pass


class LeagueRow(Base):
    __tablename__ = "leagues"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    key: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What the schedule depends on; a league resumes only under the same."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """One finished game: its place in the league, its record, and the index of its figures (:func:`index_row`)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("league_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    set_id: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[str]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    places: Mapped[list[int]] = mapped_column(JSON)
    hits: Mapped[list[int]] = mapped_column(JSON)
    rounds: Mapped[int] = mapped_column(Integer)
    faults: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DealKeyRow(Base):
    __tablename__ = "deal_keys"

    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    """The secret deal key in hex: never sent to a bot, never in a record or log until revealed."""
    revealed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


@dataclass(frozen=True)
class DealKey:
    """A league's secret deal key, and whether the organizer has revealed it."""

    key: bytes
    revealed: bool


def _write_ahead(connection: Any, _record: Any) -> None:
    """An SQLite connection in write-ahead-log mode: readers and the one writer do not wait for each other."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def database_folder_made(url: str) -> Path | None:
    """Make the folder of the SQLite file at ``url`` when it is missing: the folder made, absolute; none when it
    was there or ``url`` names no file."""
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return None
    folder = Path(url.removeprefix("sqlite:///")).parent
    if folder.is_dir():
        return None
    folder.mkdir(parents=True)
    return folder.absolute()


class Store:
    """The games of any number of leagues in one database."""

    def __init__(self, url: str, create: bool = True, wal: bool = False) -> None:
        """Open the database at ``url``; with ``create=False`` it must hold leagues already (nothing is written to
        an SQLite file of none, an empty file or another program's database). With ``wal`` an SQLite file is
        switched to write-ahead logging, so reading it (the live pages) never holds up storing a game."""
        self.url = _shown(url)
        """The URL as messages show it: without its password."""
        self.made_folder: Path | None = None
        """The folder made for a new SQLite file, which was missing (none: it was there, or no file is made)."""
        try:
            if url.startswith("sqlite:///"):
                path = Path(url.removeprefix("sqlite:///"))
                if not create and not path.is_file():
                    raise StoreError(f"no database at {path}")
                if create:
                    self.made_folder = database_folder_made(url)
            self.engine: Engine = create_engine(url)
            if wal and url.startswith("sqlite:///"):
                event.listen(self.engine, "connect", _write_ahead)
            if not create and not has_table(self.engine, LeagueRow.__tablename__):  # not one to write our tables into
                raise StoreError(f"no league database at {self.url}: it holds no table of leagues")
            create_tables(self.engine, Base.metadata)
            self._upgrade(create)
            event.listen(self.engine, "handle_error", self._refuse)
        except ImportError as error:
            raise StoreError(
                f"cannot open the database {self.url}: its driver is not installed ({error}); "
                "for PostgreSQL: pip install 'rage-arena[postgres]'"
            ) from None
        except (SQLAlchemyError, OSError, ValueError) as error:
            raise StoreError(f"cannot open the database {self.url}: {_one_line(error)}") from None

    def _upgrade(self, create: bool) -> None:
        """Bring the tables of an earlier release up to date; one this process may not change is read as
        it is when opened for reading (``create=False``: every column read is in both schemas)."""
        try:
            upgrade(self.engine)
        except OperationalError:
            if create:
                raise

    def _refuse(self, context: ExceptionContext) -> None:
        """A database that fails once open (full, read-only, damaged) raises :class:`StoreError` naming it;
        an :class:`IntegrityError` stays as it is, for the callers that expect one (a game stored twice), and
        what is no database error (KeyboardInterrupt) too."""
        if context.sqlalchemy_exception is not None and not isinstance(context.sqlalchemy_exception, IntegrityError):
            raise StoreError(f"the database {self.url}: {_one_line(context.original_exception)}")

    def league(self, name: str, key: dict[str, Any] | None = None, create: bool = True) -> int:
        """The league's id; created with ``key`` when new and ``create``.

        A league stored under another ``key`` takes the new one while it has no game stored yet
        (when ``create``), and is refused otherwise, the message naming the settings that differ.
        """
        with Session(self.engine) as session:
            row = session.scalar(select(LeagueRow).where(LeagueRow.name == name))
            if row is None:
                if not create or key is None:
                    raise StoreError(f"no league {name!r} in {self.url}")
                try:
                    session.add(LeagueRow(name=name, key=key, created_at=datetime.now(UTC)))
                    session.commit()
                except IntegrityError:  # another run created it at the same moment: use that one
                    session.rollback()
                row = session.scalars(select(LeagueRow).where(LeagueRow.name == name)).one()
            if key is not None and _canonical(row.key) != _canonical(key):
                stored = session.scalar(select(func.count()).select_from(GameRow).where(GameRow.league_id == row.id))
                if not stored and create:
                    row.key = key
                    session.commit()
                    return row.id
                raise StoreError(
                    f"league {name!r} in {self.url} has {stored} game{'s' * (stored != 1)} stored under other "
                    f"settings ({settings_changed(row.key, key)}); "
                    "give the league a new name or use another database to start afresh"
                )
            return row.id

    def league_key(self, name: str) -> dict[str, Any] | None:
        """The settings league ``name`` is stored under; none when there is no such league."""
        with Session(self.engine) as session:
            key: dict[str, Any] | None = session.scalar(select(LeagueRow.key).where(LeagueRow.name == name))
            return key

    def deal_key(self, league_id: int, create: bool = False) -> DealKey | None:
        """The league's deal key; drawn and stored first when it has none and ``create``."""
        with Session(self.engine) as session:
            row = session.get(DealKeyRow, league_id)
            if row is None:
                if not create:
                    return None
                try:
                    session.add(DealKeyRow(league_id=league_id, key=new_key().hex(), revealed_at=None))
                    session.commit()
                except IntegrityError:  # another run drew one at the same moment: every run deals from that one
                    session.rollback()
                row = session.get_one(DealKeyRow, league_id)
            return DealKey(bytes.fromhex(row.key), row.revealed_at is not None)

    def reveal(self, league_id: int) -> bytes:
        """Mark the league's deal key revealed and return it; :class:`StoreError` when it has none."""
        with Session(self.engine) as session:
            row = session.get(DealKeyRow, league_id)
            if row is None:
                raise StoreError("the league has no secret deal key: its deals are public (seed)")
            if row.revealed_at is None:
                row.revealed_at = datetime.now(UTC)
                session.commit()
            return bytes.fromhex(row.key)

    def league_settings(self, league_id: int) -> dict[str, Any]:
        """What the league is stored under: the settings its schedule depends on (players, duplicate, ...)."""
        with Session(self.engine) as session:
            return dict(session.get_one(LeagueRow, league_id).key)

    def league_names(self) -> list[str]:
        with Session(self.engine) as session:
            return list(session.scalars(select(LeagueRow.name).order_by(LeagueRow.id)))

    def finished(self, league_id: int) -> set[int]:
        """Indices of the league's stored games."""
        with Session(self.engine) as session:
            return set(session.scalars(select(GameRow.index).where(GameRow.league_id == league_id)))

    def add(self, league_id: int, game: FinishedGame) -> None:
        """Store one finished game, committed before returning.

        The game's figures are stored as it hands them over (:func:`index_row`), beside its record.

        :raises GameStoredAlready: the league has a game of that index already (each is stored once).
        :raises ValueError: the game comes without its record.
        """
        row = _row(league_id, game)
        with Session(self.engine) as session:
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                if game.index not in self.finished(league_id):
                    raise
                name = session.scalar(select(LeagueRow.name).where(LeagueRow.id == league_id))
                raise GameStoredAlready(
                    f"league {name!r}: game {game.index} is stored already in {self.url}; "
                    "another run of the league is writing to it: run one at a time"
                ) from None

    def add_all(self, league_id: int, games: Iterable[FinishedGame]) -> None:
        """Store many finished games in one transaction, all or none (a benchmark's league, an import).

        :raises IntegrityError: one of them is stored already.
        """
        with Session(self.engine) as session:
            session.add_all(_row(league_id, game) for game in games)
            session.commit()

    def records(self, league_id: int, indices: list[int]) -> dict[int, dict[str, Any]]:
        """The records of the league's stored games among ``indices``, by index.

        :raises StoreError: a stored record among them is damaged (no JSON object), naming the game.
        """
        with Session(self.engine) as session:
            query = select(GameRow.index, GameRow.record).where(
                GameRow.league_id == league_id, GameRow.index.in_(indices)
            )
            rows = self._rows(session, query, league_id, indices)
            return {index: self._checked_record(session, league_id, index, record) for index, record in rows}

    def count(self, league_id: int) -> int:
        """How many of the league's games are stored."""
        with Session(self.engine) as session:
            count = session.scalar(select(func.count()).select_from(GameRow).where(GameRow.league_id == league_id))
            return int(count or 0)

    def set_games(self, league_id: int, index: int) -> int:
        """How many stored games share game ``index``'s duplicate set (its deal), itself included."""
        with Session(self.engine) as session:
            of_league = GameRow.league_id == league_id
            set_id = select(GameRow.set_id).where(of_league, GameRow.index == index).scalar_subquery()
            count = session.scalar(select(func.count()).select_from(GameRow).where(of_league, GameRow.set_id == set_id))
            return int(count or 0)

    def play_order(self, league_id: int) -> list[int]:
        """The indices of the league's stored games in the order they were stored: the order they ended."""
        with Session(self.engine) as session:
            query = select(GameRow.index).where(GameRow.league_id == league_id)
            return list(session.scalars(query.order_by(GameRow.finished_at, GameRow.id)))

    def finish_times(self, league_id: int) -> dict[int, float]:
        """When each of the league's stored games was stored (seconds since the epoch), by index, in the order
        they were stored."""
        with Session(self.engine) as session:
            query = select(GameRow.index, GameRow.finished_at).where(GameRow.league_id == league_id)
            rows = session.execute(query.order_by(GameRow.finished_at, GameRow.id))
            return {index: _aware(at).timestamp() for index, at in rows}

    def record(self, league_id: int, index: int) -> dict[str, Any] | None:
        """One stored game's rage-record/1, or ``None`` when it is not stored.

        :raises StoreError: the stored record is damaged (no JSON object), naming the game.
        """
        with Session(self.engine) as session:
            query = select(GameRow.record).where(GameRow.league_id == league_id, GameRow.index == index)
            rows = self._rows(session, query, league_id, [index])
            return self._checked_record(session, league_id, index, rows[0][0]) if rows else None

    def games(self, league_id: int, records: bool = True) -> list[FinishedGame]:
        """The league's stored games by index; without ``records``, each with ``{}`` for its record
        (what ratings, fault counts and events need, a fraction of the memory and time).

        :raises StoreError: a stored game is damaged (a column that is no JSON, or figures of the wrong shape),
            naming the game and the column.
        """
        columns: list[Any] = [*_COLUMNS, GameRow.record] if records else _COLUMNS
        with Session(self.engine) as session:
            query = select(*columns).where(GameRow.league_id == league_id).order_by(GameRow.index)
            games = []
            for row in self._rows(session, query, league_id):
                try:
                    games.append(_game(*row))
                except ValueError as error:
                    raise self._damaged_game(session, league_id, row[0], str(error)) from None
            return games

    def _rows(
        self, session: Session, query: Select[Any], league_id: int, indices: list[int] | None = None
    ) -> Sequence[Any]:
        """The rows of ``query`` on the league's games (those among ``indices``, if given); a column that is no JSON
        is :meth:`_damaged`'s one line."""
        try:
            return session.execute(query).all()
        except ValueError:  # the JSON columns are read as they come
            raise self._damaged(session, league_id, indices) from None

    def _checked_record(self, session: Session, league_id: int, index: int, record: Any) -> dict[str, Any]:
        """A stored game's record, checked to be a JSON object (:meth:`_damaged_game` if not)."""
        if not isinstance(record, dict):
            raise self._damaged_game(session, league_id, index, "record is no JSON object")
        return record

    def _damaged(self, session: Session, league_id: int, indices: list[int] | None = None) -> StoreError:
        """The error naming the first of the league's games (among ``indices``, if given) with a column that is
        no JSON."""
        query = select(GameRow.index, *(cast(column, Text) for column in _JSON_COLUMNS)).where(
            GameRow.league_id == league_id
        )
        if indices is not None:
            query = query.where(GameRow.index.in_(indices))
        for index, *texts in session.execute(query.order_by(GameRow.index)):
            for column, text in zip(_JSON_COLUMNS, texts, strict=True):
                try:
                    json.loads(text)
                except (TypeError, ValueError) as error:
                    return self._damaged_game(session, league_id, index, f"{column.key} is no JSON ({error})")
        return StoreError(f"{self.url}: a stored game of the league cannot be read")

    def _damaged_game(self, session: Session, league_id: int, index: int, what: str) -> StoreError:
        name = session.scalar(select(LeagueRow.name).where(LeagueRow.id == league_id))
        return StoreError(f"{self.url}: game {index} of league {name!r} is damaged: {what}")

    def close(self) -> None:
        self.engine.dispose()


_COLUMNS = [
    GameRow.index,
    GameRow.set_id,
    GameRow.seed,
    GameRow.seats,
    GameRow.totals,
    GameRow.places,
    GameRow.hits,
    GameRow.rounds,
    GameRow.faults,
]


def _aware(at: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


_JSON_COLUMNS = [GameRow.seats, GameRow.totals, GameRow.places, GameRow.hits, GameRow.faults, GameRow.record]


def _game(
    index: Any,
    set_id: Any,
    seed: Any,
    seats: Any,
    totals: Any,
    places: Any,
    hits: Any,
    rounds: Any,
    faults: Any,
    record: Any = None,
) -> FinishedGame:
    """A stored row as a finished game (the columns of :data:`_COLUMNS`, then the record when read).

    :raises ValueError: a column is not of its shape, named (the database was edited, or damaged).
    """
    if not (isinstance(seats, list) and seats and all(isinstance(seat, str) for seat in seats)):
        raise ValueError("seats is no list of names")
    for column, numbers in (("totals", totals), ("places", places), ("hits", hits)):
        if not (isinstance(numbers, list) and len(numbers) == len(seats) and all(type(n) is int for n in numbers)):
            raise ValueError(f"{column} is no list of {len(seats)} whole numbers, one a seat")
    if type(rounds) is not int or not isinstance(faults, list) or not isinstance(record, dict | None):
        raise ValueError("rounds, faults or record is not of its kind")
    try:
        charged = tuple(map(Fault.from_json, faults))
    except ValueError as error:
        raise ValueError(f"faults: {error}") from None
    figures = Figures(tuple(seats), tuple(totals), tuple(places), tuple(hits), rounds, charged)
    return FinishedGame(index, set_id, seed, figures, record or {})


def _row(league_id: int, game: FinishedGame) -> GameRow:
    if not game.record:
        raise ValueError(f"game {game.index} comes without its record: only a finished game's record is stored")
    return GameRow(
        league_id=league_id,
        index=game.index,
        set_id=game.set_id,
        seed=game.seed,
        **index_row(game.figures),
        record=game.record,
        finished_at=datetime.now(UTC),
    )


def index_row(figures: Figures) -> dict[str, Any]:
    """The index the store keeps beside a game's record: its figures as columns."""
    return {
        "seats": list(figures.seats),
        "totals": list(figures.totals),
        "places": list(figures.places),
        "hits": list(figures.hits),
        "rounds": figures.rounds,
        "faults": [fault.to_json() for fault in figures.faults],
    }


def settings_changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    """The settings that differ between two league keys: ``seed 1, now 2; bots: b "python b.py", now "b2.py"``."""
    changed = []
    for name in sorted(old.keys() | new.keys()):
        before, after = old.get(name), new.get(name)
        if _canonical(before) == _canonical(after):
            continue
        if isinstance(before, dict) and isinstance(after, dict):  # the ruleset: its options
            changed.append(f"{name}: {settings_changed(before, after)}")
        elif name == "bots" and isinstance(before, list) and isinstance(after, list):
            changed.append(f"bots: {_bots_changed(before, after)}")
        else:
            scalar = all(isinstance(value, int | str | bool | None) for value in (before, after))
            changed.append(f"{name} {_short(before)}, now {_short(after)}" if scalar else name)
    return "; ".join(changed)


def _bot_of(item: Any) -> tuple[str, Any]:
    """A key's bot: a ``[name, target]`` pair (a league file's), or a name alone (a hosted league's)."""
    return (str(item[0]), item[1]) if isinstance(item, list) and len(item) == 2 else (str(item), None)


def _bots_changed(before: list[Any], after: list[Any]) -> str:
    """How a key's bots (``[name, target]`` pairs or names, in schedule order) differ: each gone, added or moved."""
    old, new = dict(map(_bot_of, before)), dict(map(_bot_of, after))
    changed = [f"{name} gone" for name in old if name not in new]
    changed += [f"{name} added" for name in new if name not in old]
    changed += [
        f"{name} {_short(old[name], 80)}, now {_short(new[name], 80)}"
        for name in new
        if old.get(name, new[name]) != new[name]
    ]
    return ", ".join(changed) or "their order, which the schedule follows"


def _short(value: Any, longest: int = 40) -> str:
    text = json.dumps(value)
    return text if len(text) <= longest else f"{text[: longest - 3]}..."


def _one_line(error: BaseException) -> str:
    """The database's own words (without SQLAlchemy's wrapping and links), on one line."""
    return " ".join(str(getattr(error, "orig", None) or error).split())


def _shown(url: str) -> str:
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
