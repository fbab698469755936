"""A ladder's book, kept in the contest's database: the versions that joined it, and its duplicate sets.

Tables of their own (their own declarative base), so a database made before them needs no migration. A
set's row is committed before its first game is played: the seats and deal of every game of it follow
from the row (its bots in table order, its versions, its first game's index), so a referee killed while
the set plays finishes it when it starts again, no game lost or played twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, Integer, String, UniqueConstraint, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..league.schema import create_tables
from ..league.store import StoreError
from ..submissions.version import short_version

ADDRESS_VERSION = "address"
"""The one version of a bot serving at an address: the referee cannot tell its versions apart."""


class LadderBase(DeclarativeBase):
    pass


class LadderVersionRow(LadderBase):
    __tablename__ = "hosted_ladder_versions"
    __table_args__ = (UniqueConstraint("league_id", "bot", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(Integer, index=True)
    bot: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(80))
    """``sha256:HEX`` of a submitted bot's files, or :data:`ADDRESS_VERSION`."""
    number: Mapped[int] = mapped_column(Integer)
    """Its place among its bot's versions in this ladder, from 1: a higher number is newer."""
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LadderSetRow(LadderBase):
    __tablename__ = "hosted_ladder_sets"

    league_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    set_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    first: Mapped[int] = mapped_column(Integer)
    """The index of the set's first game in the league; its games are numbered on from it."""
    size: Mapped[int] = mapped_column(Integer)
    bots: Mapped[list[str]] = mapped_column(JSON)
    versions: Mapped[list[str]] = mapped_column(JSON)
    """Each bot's version, in the order of ``bots``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LadderFinalRow(LadderBase):
    """A ladder's final (finalize): once there, submissions are frozen and the finalists pinned."""

    __tablename__ = "hosted_ladder_finals"

    league_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    final_league_id: Mapped[int] = mapped_column(Integer, unique=True)
    """The final's own row in ``leagues``: its games, and its own secret deal key."""
    bots: Mapped[list[str]] = mapped_column(JSON)
    """The finalists, best first on the ladder's leaderboard when it was finalized."""
    versions: Mapped[list[str]] = mapped_column(JSON)
    max_games: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class LadderFinal:
    league_id: int
    final_league_id: int
    bots: tuple[str, ...]
    versions: tuple[str, ...]
    max_games: int


@dataclass(frozen=True)
class LadderVersion:
    bot: str
    version: str
    number: int
    joined_at: datetime

    @property
    def key(self) -> str:
        """The version's id in the ratings: ``BOT@SHORT``."""
        return version_key(self.bot, self.version)


@dataclass(frozen=True)
class LadderSet:
    set_id: int
    first: int
    size: int
    bots: tuple[str, ...]
    versions: tuple[str, ...]

    @property
    def indices(self) -> range:
        return range(self.first, self.first + self.size)

    @property
    def keys(self) -> tuple[str, ...]:
        """The versions' ids, in table order."""
        return tuple(version_key(bot, version) for bot, version in zip(self.bots, self.versions))


def version_key(bot: str, version: str) -> str:
    """A version's id in the ratings: ``BOT@SHORT`` (``BOT@address`` for a bot at an address)."""
    return f"{bot}@{version if version == ADDRESS_VERSION else short_version(version)}"


def _version(row: LadderVersionRow) -> LadderVersion:
    return LadderVersion(row.bot, row.version, row.number, row.joined_at)


def _set(row: LadderSetRow) -> LadderSet:
    return LadderSet(row.set_id, row.first, row.size, tuple(row.bots), tuple(row.versions))


class LadderBook:
    """Every ladder's versions and sets."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, LadderBase.metadata)

    def join(self, league_id: int, bot: str, version: str) -> LadderVersion:
        """The ladder's entry of ``version`` of ``bot``: added as the bot's newest when new."""
        with Session(self.engine) as session:
            where = (LadderVersionRow.league_id == league_id, LadderVersionRow.bot == bot)
            row = session.scalar(select(LadderVersionRow).where(*where, LadderVersionRow.version == version))
            if row is not None:
                return _version(row)
            number = (session.scalar(select(func.max(LadderVersionRow.number)).where(*where)) or 0) + 1
            row = LadderVersionRow(
                league_id=league_id, bot=bot, version=version, number=number, joined_at=datetime.now(UTC)
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                raise StoreError(f"ladder {league_id}: another referee adds its versions: run one at a time") from None
            return _version(row)

    def versions(self, league_id: int) -> list[LadderVersion]:
        """The ladder's versions in the order they joined."""
        with Session(self.engine) as session:
            query = select(LadderVersionRow).where(LadderVersionRow.league_id == league_id)
            return [_version(row) for row in session.scalars(query.order_by(LadderVersionRow.id))]

    def add_set(self, league_id: int, bots: tuple[str, ...], versions: tuple[str, ...], size: int) -> LadderSet:
        """A new set of ``size`` games at a table of ``bots`` (at ``versions``), committed before it is played."""
        with Session(self.engine) as session:
            last = session.scalar(
                select(LadderSetRow).where(LadderSetRow.league_id == league_id).order_by(LadderSetRow.set_id.desc())
            )
            set_id, first = (0, 0) if last is None else (last.set_id + 1, last.first + last.size)
            row = LadderSetRow(
                league_id=league_id,
                set_id=set_id,
                first=first,
                size=size,
                bots=list(bots),
                versions=list(versions),
                created_at=datetime.now(UTC),
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                raise StoreError(f"ladder {league_id}: another referee adds its sets: run one at a time") from None
            return _set(row)

    def add_final(self, final: LadderFinal) -> LadderFinal:
        """Freeze the ladder for its final; the final it has already when there is one."""
        with Session(self.engine) as session:
            row = LadderFinalRow(
                league_id=final.league_id,
                final_league_id=final.final_league_id,
                bots=list(final.bots),
                versions=list(final.versions),
                max_games=final.max_games,
                created_at=datetime.now(UTC),
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
        stored = self.final(final.league_id)
        assert stored is not None
        return stored

    def final(self, league_id: int) -> LadderFinal | None:
        """The ladder's final, once it is finalized."""
        with Session(self.engine) as session:
            row = session.get(LadderFinalRow, league_id)
            if row is None:
                return None
            return LadderFinal(row.league_id, row.final_league_id, tuple(row.bots), tuple(row.versions), row.max_games)

    def sets(self, league_id: int) -> list[LadderSet]:
        """The ladder's sets by id."""
        with Session(self.engine) as session:
            query = select(LadderSetRow).where(LadderSetRow.league_id == league_id).order_by(LadderSetRow.set_id)
            return [_set(row) for row in session.scalars(query)]
