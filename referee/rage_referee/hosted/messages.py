"""The ``rage.v1.Referee`` messages built from the referee's own values."""

from __future__ import annotations

import math
from collections.abc import Mapping

from rage_sdk.pb import referee_pb2 as pb

from ..faults import Fault
from ..league.audit import Audit
from ..league.pairs import PairRow
from ..league.ratings import RatingRow
from ..play.finished import FinishedGame
from ..submissions.version import short_version
from ..text import bot_text
from .registry import BotEntry, EntrantEntry, LeagueEntry, LeagueStatus
from .standings import Table
from .versions import VersionEntry

MAX_LOG_LINES = 400
MAX_LOG_LINE = 300

STATUS = {
    LeagueStatus.CREATED: pb.LEAGUE_STATUS_CREATED,
    LeagueStatus.RUNNING: pb.LEAGUE_STATUS_RUNNING,
    LeagueStatus.PAUSED: pb.LEAGUE_STATUS_PAUSED,
    LeagueStatus.FINISHED: pb.LEAGUE_STATUS_FINISHED,
    LeagueStatus.CANCELLED: pb.LEAGUE_STATUS_CANCELLED,
    LeagueStatus.FAILED: pb.LEAGUE_STATUS_FAILED,
}


def bot_info(bot: BotEntry, show_address: bool, version: str = "") -> pb.BotInfo:
    return pb.BotInfo(
        name=bot.name,
        address=bot.address if show_address else "",
        owner=bot.owner,
        registered_unix=int(bot.registered_at.timestamp()),
        version=version,
        entrant=bot.entrant,
    )


def entrant_info(entrant: EntrantEntry, versions: int, size: int) -> pb.EntrantInfo:
    """An entrant, with its bots' versions and their bytes together."""
    return pb.EntrantInfo(
        name=entrant.name,
        disabled=entrant.disabled,
        bots=len(entrant.bots),
        versions=versions,
        bytes=size,
        added_unix=int(entrant.added_at.timestamp()),
    )


def version_info(entry: VersionEntry, current: bool, log: str = "") -> pb.VersionInfo:
    """A submitted bot's version; ``log`` (its build's, escaped here) only for who may see it."""
    return pb.VersionInfo(
        version=entry.version,
        submitted_unix=int(entry.submitted_at.timestamp()),
        bytes=entry.bytes,
        build=pb.BUILD_STATE_OK if entry.ok else pb.BUILD_STATE_FAILED,
        build_detail=entry.detail,
        build_log=build_log_text(log),
        build_seconds=entry.seconds,
        current=current,
    )


def build_log_text(log: str) -> str:
    """A build's log as the entrant sees it: its last lines, each escaped and capped (the bot wrote them)."""
    return "\n".join(bot_text(line, MAX_LOG_LINE) for line in log.splitlines()[-MAX_LOG_LINES:])


def league_info(
    league: LeagueEntry,
    games_done: int,
    deal_commitment: str = "",
    sandbox: str = "",
    versions: Mapping[str, str] | None = None,
) -> pb.LeagueInfo:
    return pb.LeagueInfo(
        sandbox=sandbox,
        versions={bot: short_version(version) for bot, version in (versions or {}).items()},
        name=league.name,
        status=STATUS[league.status],
        bots=list(league.bots),
        games_total=league.games_total,
        games_done=games_done,
        ruleset=league.ruleset,
        players=league.players,
        deal_commitment=deal_commitment,
        reason=league.reason,
    )


def standings_row(row: RatingRow, intervals: bool) -> pb.StandingsRow:
    message = pb.StandingsRow(
        bot=row.name,
        elo=row.elo,
        games=row.games,
        mean_score=row.mean_score,
        mean_place=row.mean_place,
        bid_accuracy=row.bid_accuracy,
        faults=row.faults,
        forfeited=row.forfeited,
    )
    if intervals:
        if row.has_interval:
            message.low, message.high = row.low, row.high
        if row.los_next is not None:
            message.los_next = row.los_next
        if not math.isnan(row.skill):
            message.skill = row.skill
    return message


def standings_pair(row: PairRow) -> pb.StandingsPair:
    """A pair's row; an interval the sets bound not yet (infinite) is left unset."""
    message = pb.StandingsPair(
        a=row.a,
        b=row.b,
        sets=row.sets,
        difference=row.difference,
        los=row.los_shown,
        p=row.p,
        p_corrected=row.p_corrected,
        separated=row.separated,
    )
    if not math.isinf(row.low):
        message.low, message.high = row.low, row.high
    if not math.isinf(row.low_corrected):
        message.low_corrected, message.high_corrected = row.low_corrected, row.high_corrected
    return message


def standings(
    league: str,
    table: Table,
    deal_commitment: str = "",
    versions: Mapping[str, str] | None = None,
    owners: Mapping[str, str] | None = None,
) -> pb.Standings:
    """The league's table and its pairs; ``versions`` names each submitted bot's pinned version in its row,
    ``owners`` each bot's entrant."""
    rows = [standings_row(row, table.intervals) for row in table.rows]
    for row in rows:
        row.version = short_version((versions or {}).get(row.bot, ""))
        row.owner = (owners or {}).get(row.bot, "")
        if row.bot in table.audits:
            row.memory_audit.CopyFrom(memory_audit(table.audits[row.bot]))
    return pb.Standings(
        league=league,
        deal_commitment=deal_commitment,
        games=table.games,
        intervals=table.intervals,
        rows=rows,
        pairs=[standings_pair(pair) for pair in table.pairs],
    )


def memory_audit(audit: Audit) -> pb.MemoryAudit:
    message = pb.MemoryAudit(sets=audit.sets, estimate=audit.estimate, p_value=audit.p_value, flagged=audit.flagged)
    if not math.isinf(audit.high):
        message.low, message.high = audit.low, audit.high
    return message


def audit_of(row: pb.StandingsRow) -> Audit | None:
    """A row's memory audit back as the audit's own; ``None`` for a row without one."""
    if not row.HasField("memory_audit"):
        return None
    audit = row.memory_audit
    low = audit.low if audit.HasField("low") else -math.inf
    high = audit.high if audit.HasField("high") else math.inf
    return Audit(audit.sets, audit.estimate, low, high, audit.p_value, audit.flagged)


def rating_row(row: pb.StandingsRow) -> RatingRow:
    """A row back as the rating table's own (for printing it as ``rage ratings`` does); a row without an
    interval (point estimates, or a single duplicate set) has none (NaN), as the table's own has."""
    return RatingRow(
        row.bot,
        row.elo,
        row.low if row.HasField("low") else math.nan,
        row.high if row.HasField("high") else math.nan,
        row.los_next if row.HasField("los_next") else None,
        row.games,
        row.mean_score,
        row.mean_place,
        row.bid_accuracy,
        row.faults,
        row.skill if row.HasField("skill") else math.nan,
        row.forfeited,
    )


def status_event(league: str, status: LeagueStatus, done: int, total: int, reason: str = "") -> pb.LeagueEvent:
    changed = pb.StatusChanged(status=STATUS[status], games_done=done, games_total=total, reason=reason)
    return pb.LeagueEvent(league=league, status_changed=changed)


def standings_event(
    league: str, table: Table, versions: Mapping[str, str] | None = None, owners: Mapping[str, str] | None = None
) -> pb.LeagueEvent:
    return pb.LeagueEvent(league=league, standings_changed=standings(league, table, "", versions, owners))


def game_events(league: str, game: FinishedGame, done: int, total: int, final: bool = False) -> list[pb.LeagueEvent]:
    """A game's end, then each charged fault, then one ``forfeited`` event per seat the referee played for;
    ``final``: a game of the ladder ``league``'s final, counted among the final's games."""
    figures = game.figures
    forfeited = sorted(figures.forfeited)
    finished = pb.GameFinished(
        game=game.index,
        seats=list(figures.seats),
        totals=list(figures.totals),
        places=list(figures.places),
        faults=sum(fault.charged for fault in figures.faults),
        games_done=done,
        games_total=total,
        forfeited=[name for name in map(figures.bot_at, forfeited) if name is not None],
        final=final,
    )
    events = [pb.LeagueEvent(league=league, game_finished=finished)]
    decisions: dict[int, list[Fault]] = {}
    for fault in figures.faults:
        if not fault.charged:
            decisions.setdefault(fault.seat, []).append(fault)
            continue
        events.append(pb.LeagueEvent(league=league, bot_faulted=_faulted(game, fault, fault.detail)))
    for entries in decisions.values():
        detail = f"{entries[0].detail}: the referee played its {len(entries)} decisions"
        events.append(pb.LeagueEvent(league=league, bot_faulted=_faulted(game, entries[0], detail)))
    for event in events[1:]:
        event.bot_faulted.final = final
    return events


def _faulted(game: FinishedGame, fault: Fault, detail: str) -> pb.BotFaulted:
    seat = fault.seat
    return pb.BotFaulted(
        game=game.index,
        bot=game.figures.bot_at(seat) or "",
        seat=seat,
        kind=fault.kind.value,
        round=fault.round,
        trick=fault.trick,
        detail=bot_text(detail),
    )
