"""Entrants, bots and hosted leagues, kept in the database that holds the league games (the same engine).

These tables have their own declarative base beside :mod:`rage_referee.league.store`'s; a hosted
league points at its row in ``leagues`` (by id), where its finished games are stored as any
league's are. Entrants' and bots' tokens are kept as SHA-256 hashes only. Every change is committed
at once.

A bot's row names its entrant (``hosted_bots.entrant``, empty for the organizer's bots). A database
made before entrants were accounts gets the column in place as it opens: the bots the shared entry
token registered (listed in ``hosted_bot_holders`` then) become the entrant :data:`ENTRY_ENTRANT`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import NoReturn

from sqlalchemy import JSON, Boolean, DateTime, Integer, String, Text, func, inspect, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..league.schema import create_tables, schema_change
from ..limits import MAX_HOSTED_BOTS
from .checks import MAX_BOTS_PER_ENTRANT, MAX_ENTRANTS, same_name, written_otherwise
from .errors import AlreadyExists, NotFound, ResourceExhausted

ENTRY_ENTRANT = "entry"
"""The entrant whose token is the referee's shared entry token (``--entry-token-file``)."""


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
    entrant: Mapped[str] = mapped_column(String(64), index=True, default="", server_default="")
    """The name of the entrant whose bot it is; empty for the organizer's."""


class EntrantRow(HostedBase):
    __tablename__ = "hosted_entrants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
    entrant: str = ""
    """The entrant whose bot it is; empty for the organizer's."""


@dataclass(frozen=True)
class EntrantEntry:
    name: str
    disabled: bool
    added_at: datetime
    bots: tuple[str, ...] = ()
    """Its bots, in registration order."""


@dataclass(frozen=True)
class TokenHolder:
    """Whose a token is: an entrant's own (``bot`` empty) or one of its bots' (``entrant`` empty: the
    organizer's bot)."""

    entrant: str
    bot: str = ""
    disabled: bool = False
    """Whether its entrant is disabled."""


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
    return BotEntry(row.name, row.address, row.owner, row.registered_at, row.entrant)


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
    """Entrants, registered bots and hosted leagues."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(engine, HostedBase.metadata)
        _add_entrant_column(engine)

    # ------------------------------------------------------------------ entrants
    def add_entrant(self, name: str, token_hash: str, bounded: bool = False) -> EntrantEntry:
        """A new entrant; :class:`AlreadyExists` for a name taken (compared by :func:`~.checks.name_key`: ``Ann``
        is ``ann``), :class:`ResourceExhausted` past :data:`MAX_ENTRANTS` when ``bounded`` (a sign-up: the
        organizer adds entrants past it)."""
        with Session(self.engine) as session:
            if bounded and (session.scalar(select(func.count()).select_from(EntrantRow)) or 0) >= MAX_ENTRANTS:
                raise ResourceExhausted(f"the referee holds {MAX_ENTRANTS} entrants already")
            taken = _same_name(session, EntrantRow.name, name)
            if taken is not None:
                _entrant_taken(taken, name)
            row = EntrantRow(name=name, token_hash=token_hash, disabled=False, added_at=datetime.now(UTC))
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                _entrant_taken(name, name)
            return EntrantEntry(row.name, row.disabled, row.added_at)

    def keep_entry_token(self, token_hash: str) -> None:
        """Make ``token_hash`` the token of the entrant :data:`ENTRY_ENTRANT` (added when missing)."""
        with Session(self.engine) as session:
            row = session.scalar(select(EntrantRow).where(EntrantRow.name == ENTRY_ENTRANT))
            if row is None:
                session.add(
                    EntrantRow(name=ENTRY_ENTRANT, token_hash=token_hash, disabled=False, added_at=datetime.now(UTC))
                )
            elif row.token_hash != token_hash:
                row.token_hash = token_hash
            else:
                return
            try:
                session.commit()
            except IntegrityError:  # another referee on this database added it meanwhile
                session.rollback()

    def entrants(self) -> list[EntrantEntry]:
        """Every entrant with its bots, in the order they were added."""
        with Session(self.engine) as session:
            bots: dict[str, list[str]] = {}
            for entrant, bot in session.execute(select(BotRow.entrant, BotRow.name).order_by(BotRow.id)):
                bots.setdefault(entrant, []).append(bot)
            return [
                EntrantEntry(row.name, row.disabled, row.added_at, tuple(bots.get(row.name, ())))
                for row in session.scalars(select(EntrantRow).order_by(EntrantRow.id))
            ]

    def entrant(self, name: str) -> EntrantEntry:
        for entry in self.entrants():
            if entry.name == name:
                return entry
        _no_entrant(name)

    def disable_entrant(self, name: str) -> EntrantEntry:
        with Session(self.engine) as session:
            row = session.scalar(select(EntrantRow).where(EntrantRow.name == name))
            if row is None:
                _no_entrant(name)
            row.disabled = True
            session.commit()
        return self.entrant(name)

    def bots_of(self, entrant: str) -> list[str]:
        """The names of an entrant's bots (empty ``entrant``: none)."""
        if not entrant:
            return []
        with Session(self.engine) as session:
            return list(session.scalars(select(BotRow.name).where(BotRow.entrant == entrant).order_by(BotRow.id)))

    def holder_of_hash(self, token_hash: str) -> TokenHolder | None:
        """Whose the token with this hash is: an entrant's or a bot's; ``None`` for neither."""
        with Session(self.engine) as session:
            entrant = session.scalar(select(EntrantRow).where(EntrantRow.token_hash == token_hash))
            if entrant is not None:
                return TokenHolder(entrant.name, disabled=entrant.disabled)
            bot = session.scalar(select(BotRow).where(BotRow.token_hash == token_hash))
            if bot is None:
                return None
            disabled = bot.entrant and session.scalar(select(EntrantRow.disabled).where(EntrantRow.name == bot.entrant))
            return TokenHolder(bot.entrant, bot.name, bool(disabled))

    # ------------------------------------------------------------------ bots
    def add_bot(
        self, name: str, address: str, owner: str, token_hash: str, entrant: str = "", seat: str = ""
    ) -> BotEntry:
        """Register a bot of ``entrant`` (none: the organizer's, bounded by the referee's limit alone),
        listening on ``seat`` (none: a submitted bot); :class:`AlreadyExists` for a name taken (compared by
        :func:`~.checks.name_key`: ``Rnd`` is ``rnd``) or a seat taken, :class:`ResourceExhausted` past a limit."""
        now = datetime.now(UTC)
        with Session(self.engine) as session:
            self._check_room(session, entrant)
            taken = _same_name(session, BotRow.name, name)
            if taken is not None:
                also = written_otherwise(taken, name)
                raise AlreadyExists(f"name: a bot named {taken!r} is registered already{also}")
            _check_seat(session, seat, address)
            row = BotRow(
                name=name,
                address=address,
                owner=owner,
                token_hash=token_hash,
                registered_at=now,
                updated_at=now,
                entrant=entrant,
            )
            session.add(row)
            try:
                if seat:
                    session.flush()
                    session.add(BotSeatRow(bot_id=row.id, seat=seat))
                session.commit()
            except IntegrityError:
                raise AlreadyExists(f"name: a bot named {name!r}, or one at {address}, is registered already") from None
            return _bot(row)

    def check_room(self, entrant: str = "") -> None:
        """:class:`ResourceExhausted` when ``entrant`` (none: the organizer) may register no more bots: before
        an upload is received and built for a new one."""
        with Session(self.engine) as session:
            self._check_room(session, entrant)

    @staticmethod
    def _check_room(session: Session, entrant: str) -> None:
        if (session.scalar(select(func.count()).select_from(BotRow)) or 0) >= MAX_HOSTED_BOTS:
            raise ResourceExhausted(f"the referee holds {MAX_HOSTED_BOTS} bots already")
        if not entrant:
            return
        held = session.scalar(select(func.count()).select_from(BotRow).where(BotRow.entrant == entrant))
        if (held or 0) >= MAX_BOTS_PER_ENTRANT:
            raise ResourceExhausted(
                f"entrant {entrant!r} has {MAX_BOTS_PER_ENTRANT} bots, the most one entrant may: ask the organizer"
            )

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


def _same_name(session: Session, names: Mapped[str], name: str) -> str | None:
    """The name in the column ``names`` that is ``name`` (:func:`~.checks.same_name`), if one is."""
    return same_name(session.scalars(select(names)), name)


def _entrant_taken(taken: str, name: str) -> NoReturn:
    """Refuse entrant ``name``: entrant ``taken`` is the same name."""
    raise AlreadyExists(f"name: an entrant named {taken!r} exists already{written_otherwise(taken, name)}") from None


def _no_entrant(name: str) -> NoReturn:
    raise NotFound(f"name: no entrant {name!r}")


def _add_entrant_column(engine: Engine) -> None:
    """Give ``hosted_bots`` of a database made before entrants were accounts its ``entrant`` column, the
    bots the shared entry token registered then (``hosted_bot_holders``) the entrant :data:`ENTRY_ENTRANT`'s."""

    def missing(connection: Connection) -> bool:
        return "entrant" not in {column["name"] for column in inspect(connection).get_columns("hosted_bots")}

    with engine.connect() as connection:
        if not missing(connection):
            return
    with schema_change(engine) as connection:
        if not missing(connection):
            return
        connection.execute(text("ALTER TABLE hosted_bots ADD COLUMN entrant VARCHAR(64) NOT NULL DEFAULT ''"))
        connection.execute(text("CREATE INDEX ix_hosted_bots_entrant ON hosted_bots (entrant)"))
        if inspect(connection).has_table("hosted_bot_holders"):
            connection.execute(
                text("UPDATE hosted_bots SET entrant = :entry WHERE id IN (SELECT bot_id FROM hosted_bot_holders)"),
                {"entry": ENTRY_ENTRANT},
            )


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
