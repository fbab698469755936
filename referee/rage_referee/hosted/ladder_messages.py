"""A ladder's leaderboard as the wire gives it (``Ladder``), and the rows' text for the CLI."""

from __future__ import annotations

from typing import Any

from rage_sdk.pb import referee_pb2 as pb

from ..submissions.version import short_version
from .ladder_book import ADDRESS_VERSION
from .ladder_table import LadderState

COLUMNS = ("rank", "bot", "owner", "version", "mu", "sigma", "rating", "sets", "games", "last_game", "status")


def ladder(league: str, state: LadderState) -> pb.Ladder:
    rows = [
        pb.LadderRow(
            rank=row.rank,
            bot=row.version.bot,
            owner=row.owner,
            version=row.version.version
            if row.version.version == ADDRESS_VERSION
            else short_version(row.version.version),
            mu=row.rating.mu,
            sigma=row.rating.sigma,
            rating=row.rating.conservative,
            sets=row.rating.sets,
            games=row.rating.games,
            last_game_unix=int(row.rating.last_played or 0),
            status=row.status,
        )
        for row in state.rows
    ]
    return pb.Ladder(league=league, sets=state.sets, games=state.games, rows=rows)


def ladder_event(league: str, state: LadderState) -> pb.LeagueEvent:
    return pb.LeagueEvent(league=league, ladder_changed=ladder(league, state))


def final_event(league: str, final: pb.Ladder) -> pb.LeagueEvent:
    """The ladder ``league``'s final's standings (``final_ladder``) as an event of its stream."""
    return pb.LeagueEvent(league=league, final_changed=final)


def row_fields(row: pb.LadderRow, final: bool = False) -> dict[str, Any]:
    """One row as plain values, by :data:`COLUMNS` (``last_game`` in UTC, empty before the first set). A row of
    the ``final``: ranked by the final, its sets and games the final's, and mu, sigma and rating its pinned
    version's on the ladder, named so (``ladder_mu`` ...), beside whether it is separated from the next."""
    from datetime import UTC, datetime

    if final:
        fields: dict[str, Any] = {"rank": row.rank or None, "bot": row.bot, "owner": row.owner, "version": row.version}
        fields |= {"sets": row.sets, "games": row.games}
        fields |= {"ladder_mu": round(row.mu, 3), "ladder_sigma": round(row.sigma, 3)}
        fields["ladder_rating"] = round(row.rating, 3)
    else:
        last = (
            datetime.fromtimestamp(row.last_game_unix, UTC).strftime("%Y-%m-%d %H:%M:%S") if row.last_game_unix else ""
        )
        fields = {
            "rank": row.rank or None,
            "bot": row.bot,
            "owner": row.owner,
            "version": row.version,
            "mu": round(row.mu, 3),
            "sigma": round(row.sigma, 3),
            "rating": round(row.rating, 3),
            "sets": row.sets,
            "games": row.games,
            "last_game": last,
            "status": row.status,
        }
    if row.HasField("separated"):
        fields["separated"] = row.separated
        fields["difference"] = round(row.difference, 2)
    return fields
