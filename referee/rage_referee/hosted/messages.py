"""The ``rage.v1.Referee`` messages built from the referee's own values."""

from __future__ import annotations

import math

from rage_sdk.pb import referee_pb2 as pb

from ..league.ratings import RatingRow
from ..league.store import StoredGame
from .registry import BotEntry, LeagueEntry, LeagueStatus
from .standings import Table

STATUS = {
    LeagueStatus.CREATED: pb.LEAGUE_STATUS_CREATED,
    LeagueStatus.RUNNING: pb.LEAGUE_STATUS_RUNNING,
    LeagueStatus.PAUSED: pb.LEAGUE_STATUS_PAUSED,
    LeagueStatus.FINISHED: pb.LEAGUE_STATUS_FINISHED,
    LeagueStatus.CANCELLED: pb.LEAGUE_STATUS_CANCELLED,
    LeagueStatus.FAILED: pb.LEAGUE_STATUS_FAILED,
}


def bot_info(bot: BotEntry, show_address: bool) -> pb.BotInfo:
    return pb.BotInfo(
        name=bot.name,
        address=bot.address if show_address else "",
        owner=bot.owner,
        registered_unix=int(bot.registered_at.timestamp()),
    )


def league_info(league: LeagueEntry, games_done: int) -> pb.LeagueInfo:
    return pb.LeagueInfo(
        name=league.name,
        status=STATUS[league.status],
        bots=list(league.bots),
        games_total=league.games_total,
        games_done=games_done,
        ruleset=league.ruleset,
        players=league.players,
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
    )
    if intervals:
        message.low, message.high = row.low, row.high
        if row.los_next is not None:
            message.los_next = row.los_next
        if not math.isnan(row.skill):
            message.skill = row.skill
    return message


def standings(league: str, table: Table) -> pb.Standings:
    return pb.Standings(
        league=league,
        games=table.games,
        intervals=table.intervals,
        rows=[standings_row(row, table.intervals) for row in table.rows],
    )


def rating_row(row: pb.StandingsRow) -> RatingRow:
    """A row back as the rating table's own (for printing it as ``rage ratings`` does)."""
    return RatingRow(
        row.bot,
        row.elo,
        row.low if row.HasField("low") else row.elo,
        row.high if row.HasField("high") else row.elo,
        row.los_next if row.HasField("los_next") else None,
        row.games,
        row.mean_score,
        row.mean_place,
        row.bid_accuracy,
        row.faults,
        row.skill if row.HasField("skill") else math.nan,
    )


def status_event(league: str, status: LeagueStatus, done: int, total: int, reason: str = "") -> pb.LeagueEvent:
    changed = pb.StatusChanged(status=STATUS[status], games_done=done, games_total=total, reason=reason)
    return pb.LeagueEvent(league=league, status_changed=changed)


def standings_event(league: str, table: Table) -> pb.LeagueEvent:
    return pb.LeagueEvent(league=league, standings_changed=standings(league, table))


def game_events(league: str, game: StoredGame, done: int, total: int) -> list[pb.LeagueEvent]:
    """A game's end, then each of its faults."""
    finished = pb.GameFinished(
        game=game.index,
        seats=list(game.seats),
        totals=list(game.totals),
        places=list(game.places),
        faults=len(game.faults),
        games_done=done,
        games_total=total,
    )
    events = [pb.LeagueEvent(league=league, game_finished=finished)]
    for fault in game.faults:
        seat = int(fault.get("seat", 0))
        faulted = pb.BotFaulted(
            game=game.index,
            bot=game.seats[seat] if seat < len(game.seats) else "",
            seat=seat,
            kind=str(fault.get("kind", "")),
            round=int(fault.get("round", 0)),
            trick=int(fault.get("trick", 0)),
            detail=str(fault.get("detail", ""))[:500],
        )
        events.append(pb.LeagueEvent(league=league, bot_faulted=faulted))
    return events
