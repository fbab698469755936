"""Submitted bots' versions and the versions each hosted league is pinned to, kept in the contest's database.

Tables of their own (their own declarative base), so a database made before them needs no migration.
A version's files live on disk (:mod:`.submissions`); a row says where, how big, and how its build went.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, Float, Integer, String, Text, UniqueConstraint, delete, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..league.schema import create_tables
from ..submissions.version import short_version


class VersionsBase(DeclarativeBase):
    pass


class VersionRow(VersionsBase):
    __tablename__ = "hosted_versions"
    __table_args__ = (UniqueConstraint("bot", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot: Mapped[str] = mapped_column(String(64), index=True)
    version: Mapped[str] = mapped_column(String(80))
    """``sha256:HEX`` of its files."""
    folder: Mapped[str] = mapped_column(Text)
    bytes: Mapped[int] = mapped_column(Integer)
    ok: Mapped[bool] = mapped_column(Boolean)
    detail: Mapped[str] = mapped_column(String(200))
    seconds: Mapped[float] = mapped_column(Float)
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PinRow(VersionsBase):
    __tablename__ = "hosted_league_versions"

    league_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot: Mapped[str] = mapped_column(String(64), primary_key=True)
    version: Mapped[str] = mapped_column(String(80))


@dataclass(frozen=True)
class VersionEntry:
    bot: str
    version: str
    folder: str
    bytes: int
    ok: bool
    detail: str
    seconds: float
    submitted_at: datetime

    @property
    def short(self) -> str:
        return short_version(self.version)


def _entry(row: VersionRow) -> VersionEntry:
    return VersionEntry(row.bot, row.version, row.folder, row.bytes, row.ok, row.detail, row.seconds, row.submitted_at)


class Versions:
    """Every submitted bot's versions, and the leagues' pins."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, VersionsBase.metadata)

    def add(self, entry: VersionEntry) -> VersionEntry:
        """Keep a version, or mark an upload of one kept already as its newest (it becomes current again)."""
        with Session(self.engine) as session:
            row = session.scalar(
                select(VersionRow).where(VersionRow.bot == entry.bot, VersionRow.version == entry.version)
            )
            if row is None:
                row = VersionRow(**{key: getattr(entry, key) for key in VersionEntry.__dataclass_fields__})
                session.add(row)
            else:
                row.submitted_at = entry.submitted_at
            session.commit()
            return _entry(row)

    def of(self, bot: str) -> list[VersionEntry]:
        """A bot's versions, newest first."""
        with Session(self.engine) as session:
            query = select(VersionRow).where(VersionRow.bot == bot)
            return [
                _entry(row)
                for row in session.scalars(query.order_by(VersionRow.submitted_at.desc(), VersionRow.id.desc()))
            ]

    def get(self, bot: str, version: str) -> VersionEntry | None:
        with Session(self.engine) as session:
            row = session.scalar(select(VersionRow).where(VersionRow.bot == bot, VersionRow.version == version))
            return None if row is None else _entry(row)

    def current(self, bot: str) -> VersionEntry | None:
        """The newest version of ``bot`` that built: what a league starting now plays."""
        return next((entry for entry in self.of(bot) if entry.ok), None)

    def submitted(self) -> set[str]:
        """The bots that have a version."""
        with Session(self.engine) as session:
            return set(session.scalars(select(VersionRow.bot).distinct()))

    def usage(self, bot: str) -> tuple[int, int]:
        """How many versions ``bot`` keeps, and their bytes."""
        with Session(self.engine) as session:
            count, size = session.execute(
                select(func.count(), func.coalesce(func.sum(VersionRow.bytes), 0)).where(VersionRow.bot == bot)
            ).one()
            return int(count), int(size)

    def remove(self, bot: str) -> None:
        """Forget every version of ``bot``."""
        with Session(self.engine) as session:
            session.execute(delete(VersionRow).where(VersionRow.bot == bot))
            session.commit()

    def forget(self, bot: str, version: str) -> None:
        """Forget one version of ``bot``."""
        with Session(self.engine) as session:
            session.execute(delete(VersionRow).where(VersionRow.bot == bot, VersionRow.version == version))
            session.commit()

    def total_bytes(self) -> int:
        """Every version's bytes together."""
        with Session(self.engine) as session:
            return int(session.scalar(select(func.coalesce(func.sum(VersionRow.bytes), 0))) or 0)

    def pins(self, league_id: int) -> dict[str, str]:
        """The versions a league plays, by bot; empty before it first starts."""
        with Session(self.engine) as session:
            rows = session.scalars(select(PinRow).where(PinRow.league_id == league_id))
            return {row.bot: row.version for row in rows}

    def pin(self, league_id: int, versions: dict[str, str]) -> dict[str, str]:
        """Pin the league to ``versions`` unless it is pinned already; return its pins."""
        with Session(self.engine) as session:
            pinned = {
                row.bot: row.version for row in session.scalars(select(PinRow).where(PinRow.league_id == league_id))
            }
            if pinned:
                return pinned
            session.add_all(PinRow(league_id=league_id, bot=bot, version=version) for bot, version in versions.items())
            session.commit()
            return dict(versions)


def now() -> datetime:
    return datetime.now(UTC)
