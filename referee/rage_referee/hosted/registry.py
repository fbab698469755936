"""Bots and hosted leagues, kept in the database that holds the league games (the same engine).

These tables have their own declarative base beside :mod:`rage_referee.league.store`'s; a hosted
league points at its row in ``leagues`` (by id), where its finished games are stored as any
league's are. Bot tokens are kept as SHA-256 hashes only. Every change is committed at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import JSON, DateTime, Integer, String, Text, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..league.schema import create_tables
from .checks import MAX_BOTS, MAX_BOTS_PER_TOKEN
from .errors import AlreadyExists, NotFound, ResourceExhausted


class LeagueStatus(StrEnum):
    CREATED = "created"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    FAILED = "failed"
    """Its games kept failing; the reason is kept beside it, and resuming tries again."""

    @property
    def over(self) -> bool:
        return self in (LeagueStatus.FINISHED, LeagueStatus.CANCELLED)

    @property
    def ends_watch(self) -> bool:
        """Whether a Watch stream ends once it is told this state: the league is over, or failed (no run
        plays it until the organizer resumes it). A paused league's watchers stay for its resumption."""
        return self.over or self is LeagueStatus.FAILED


class HostedBase(DeclarativeBase):
    pass


class BotRow(HostedBase):
    __tablename__ = "hosted_bots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    address: Mapped[str] = mapped_column(String(300))
    owner: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BotHolderRow(HostedBase):
    """Which entry token registered a bot: a table of its own, so databases made before it need no migration."""

    __tablename__ = "hosted_bot_holders"

    bot_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    holder: Mapped[str] = mapped_column(String(64), index=True)
    """The hash of the token that registered it."""


class BotSeatRow(HostedBase):
    """The socket a registered bot listens on (:func:`~rage_referee.seats.spec.seat_address`), one bot's at
    most: a table of its own, so databases made before it need no migration."""

    __tablename__ = "hosted_bot_seats"

    bot_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(300), unique=True)


class HostedLeagueRow(HostedBase):
    __tablename__ = "hosted_leagues"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    league_id: Mapped[int] = mapped_column(Integer, unique=True)
    """The league's row in ``leagues`` (the store's table), where its games are."""
    definition: Mapped[str] = mapped_column(Text)
    """The league TOML as it was sent."""
    bots: Mapped[list[str]] = mapped_column(JSON)
    """The bots taking part, in schedule order (fixed when the league is created)."""
    ruleset: Mapped[str] = mapped_column(Text)
    """The ruleset as JSON (as in a rage-record/1)."""
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))
    games_total: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeagueFailureRow(HostedBase):
    """Why a failed league failed: a table of its own, so databases made before it need no migration."""

    __tablename__ = "hosted_league_failures"

    league_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reason: Mapped[str] = mapped_column(Text)
    failed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class BotEntry:
    name: str
    address: str
    owner: str
    registered_at: datetime


@dataclass(frozen=True)
class LeagueEntry:
    name: str
    league_id: int
    definition: str
    bots: tuple[str, ...]
    ruleset: str
    players: int
    status: LeagueStatus
    games_total: int
    reason: str = ""
    """Why the league failed (status failed), else empty."""


def _bot(row: BotRow) -> BotEntry:
    return BotEntry(row.name, row.address, row.owner, row.registered_at)


def _league(row: HostedLeagueRow, reason: str = "") -> LeagueEntry:
    return LeagueEntry(
        row.name,
        row.league_id,
        row.definition,
        tuple(row.bots),
        row.ruleset,
        row.players,
        LeagueStatus(row.status),
        row.games_total,
        reason if row.status == LeagueStatus.FAILED else "",
    )


class Registry:
    """Registered bots and hosted leagues."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, HostedBase.metadata)

    # ------------------------------------------------------------------ bots
    def add_bot(
        self, name: str, address: str, owner: str, token_hash: str, holder: str = "", seat: str = ""
    ) -> BotEntry:
        """Register a bot for the token whose hash is ``holder`` (none: the organizer's, bounded by the
        referee's limit alone), listening on ``seat`` (none: a submitted bot); :class:`AlreadyExists` for a
        name or seat taken, :class:`ResourceExhausted` past a limit."""
        now = datetime.now(UTC)
        with Session(self.engine) as session:
            self._check_room(session, holder)
            if session.scalar(select(BotRow.id).where(BotRow.name == name)) is not None:
                raise AlreadyExists(f"name: a bot named {name!r} is registered already")
            _check_seat(session, seat, address)
            row = BotRow(
                name=name, address=address, owner=owner, token_hash=token_hash, registered_at=now, updated_at=now
            )
            session.add(row)
            try:
                session.flush()
                if holder:
                    session.add(BotHolderRow(bot_id=row.id, holder=holder))
                if seat:
                    session.add(BotSeatRow(bot_id=row.id, seat=seat))
                session.commit()
            except IntegrityError:
                raise AlreadyExists(f"name: a bot named {name!r}, or one at {address}, is registered already") from None
            return _bot(row)

    def check_room(self, holder: str = "") -> None:
        """:class:`ResourceExhausted` when the token whose hash is ``holder`` (none: the organizer's) may
        register no more bots: before an upload is received and built for a new one."""
        with Session(self.engine) as session:
            self._check_room(session, holder)

    @staticmethod
    def _check_room(session: Session, holder: str) -> None:
        if (session.scalar(select(func.count()).select_from(BotRow)) or 0) >= MAX_BOTS:
            raise ResourceExhausted(f"the referee holds {MAX_BOTS} bots already")
        if not holder:
            return
        held = session.scalar(select(func.count()).select_from(BotHolderRow).where(BotHolderRow.holder == holder))
        if (held or 0) >= MAX_BOTS_PER_TOKEN:
            raise ResourceExhausted(
                f"this token has registered {MAX_BOTS_PER_TOKEN} bots, the most one token may: ask the organizer"
            )

    def bot_of_hash(self, token_hash: str) -> str | None:
        """The name of the bot whose token has this hash."""
        with Session(self.engine) as session:
            return session.scalar(select(BotRow.name).where(BotRow.token_hash == token_hash))

    def bot(self, name: str) -> BotEntry:
        with Session(self.engine) as session:
            return _bot(_bot_row(session, name))

    def set_address(self, name: str, address: str, seat: str = "") -> BotEntry:
        """Move the bot ``name`` to ``address``, listening on ``seat``; :class:`AlreadyExists` for another's seat."""
        with Session(self.engine) as session:
            row = _bot_row(session, name)
            _check_seat(session, seat, address, row.id)
            row.address = address
            row.updated_at = datetime.now(UTC)
            held = session.get(BotSeatRow, row.id)
            if held is not None:
                session.delete(held)
                session.flush()
            if seat:
                session.add(BotSeatRow(bot_id=row.id, seat=seat))
            try:
                session.commit()
            except IntegrityError:
                raise AlreadyExists(f"address: another bot is registered at {address}") from None
            return _bot(row)

    def bots(self) -> list[BotEntry]:
        """Every registered bot, in registration order."""
        with Session(self.engine) as session:
            return [_bot(row) for row in session.scalars(select(BotRow).order_by(BotRow.id))]

    # ------------------------------------------------------------------ leagues
    def add_league(
        self, name: str, league_id: int, definition: str, bots: list[str], ruleset: str, players: int, games_total: int
    ) -> LeagueEntry:
        now = datetime.now(UTC)
        with Session(self.engine) as session:
            row = HostedLeagueRow(
                name=name,
                league_id=league_id,
                definition=definition,
                bots=bots,
                ruleset=ruleset,
                players=players,
                status=LeagueStatus.CREATED.value,
                games_total=games_total,
                created_at=now,
                updated_at=now,
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                raise AlreadyExists(f"name: a league named {name!r} exists already") from None
            return _league(row)

    def league(self, name: str) -> LeagueEntry:
        with Session(self.engine) as session:
            row = session.scalar(select(HostedLeagueRow).where(HostedLeagueRow.name == name))
            if row is None:
                raise NotFound(f"league: no league {name!r}")
            return _league(row, _reason(session, row.league_id))

    def leagues(self) -> list[LeagueEntry]:
        with Session(self.engine) as session:
            reasons = {row.league_id: row.reason for row in session.scalars(select(LeagueFailureRow))}
            rows = session.scalars(select(HostedLeagueRow).order_by(HostedLeagueRow.id))
            return [_league(row, reasons.get(row.league_id, "")) for row in rows]

    def set_status(self, name: str, status: LeagueStatus, reason: str = "") -> LeagueEntry:
        """A league's new status; ``reason`` says why, for :attr:`LeagueStatus.FAILED` (kept until it leaves it)."""
        now = datetime.now(UTC)
        with Session(self.engine) as session:
            row = session.scalar(select(HostedLeagueRow).where(HostedLeagueRow.name == name))
            if row is None:
                raise NotFound(f"league: no league {name!r}")
            row.status = status.value
            row.updated_at = now
            failure = session.get(LeagueFailureRow, row.league_id)
            if status is LeagueStatus.FAILED:
                failure = failure or LeagueFailureRow(league_id=row.league_id)
                failure.reason, failure.failed_at = reason, now
                session.add(failure)
            elif failure is not None:
                session.delete(failure)
            session.commit()
            return _league(row, reason)


def _check_seat(session: Session, seat: str, address: str, bot_id: int | None = None) -> None:
    """:class:`AlreadyExists` when another bot than ``bot_id`` listens on ``seat`` (``address`` as given):
    one process in two seats of a game would know both hands."""
    if not seat:
        return
    held = session.scalar(select(BotSeatRow.bot_id).where(BotSeatRow.seat == seat))
    if held is not None and held != bot_id:
        other = session.scalar(select(BotRow.name).where(BotRow.id == held))
        raise AlreadyExists(
            f"address: {address} is where bot {other!r} is registered: one process may hold one seat of a game"
        )


def _reason(session: Session, league_id: int) -> str:
    failure = session.get(LeagueFailureRow, league_id)
    return "" if failure is None else failure.reason


def _bot_row(session: Session, name: str) -> BotRow:
    row = session.scalar(select(BotRow).where(BotRow.name == name))
    if row is None:
        raise NotFound(f"name: no bot {name!r} is registered")
    return row
