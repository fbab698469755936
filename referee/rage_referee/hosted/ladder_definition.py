"""A contest file over the wire: a league file with a ``[ladder]`` table in place of a schedule.

Its ruleset, players, time, sandbox limits, isolation and seed (none: a secret deal key) are a league
file's; its ``[ladder]`` table is :class:`~rage_referee.ladder.settings.LadderSettings`. It names no bots
and no schedule: every bot registered or submitted, now or later, plays (a submitted bot at its newest
version that built), and the matchmaker makes the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ladder.settings import LadderSettings, LadderSettingsError, ladder_settings
from ..league.config import LeagueConfig
from ..limits import MAX_LEAGUE_NAME
from ..seats.spec import SUBMISSION
from .checks import check_name
from .definition import FIELD, _parse, _validated
from .errors import InvalidArgument

LADDER = "ladder"
TABLES = "a ladder makes its own tables"
NOT_IN_A_CONTEST = {
    "games": TABLES,
    "games_per_table": TABLES,
    "schedule": TABLES,
    "bots": TABLES,
    "exclude": TABLES,
    "runner": "where games are played is the referee's",
    "duplicate": "a ladder plays duplicate sets, and so does its final",
    "concurrency": "the sets a ladder plays at once are [ladder] concurrency",
    "keep_going": "a bot that cannot start is forfeited for the rest of its set, and the ladder plays on",
}
"""Keys of a league file a ladder does not use, each refused in a contest file with why (its ruleset, players,
time, sandbox, isolation, seed and forfeits, the final's, are a league file's)."""
REFUSED_SINCE = ("duplicate", "concurrency", "keep_going")
"""Those a ladder stored before they were refused may hold: dropped when it is read (its final duplicate)."""


@dataclass(frozen=True)
class LadderDefinition:
    config: LeagueConfig
    """The league settings its games are played under (its ``bots`` stand for seats only)."""
    settings: LadderSettings

    @property
    def name(self) -> str:
        return self.config.name


def is_ladder(text: str) -> bool:
    """Whether a stored definition is a contest file's (it has a ``[ladder]`` table)."""
    return LADDER in _parse(text)


def read_ladder(text: str, name: str) -> LadderDefinition:
    """A new ladder from its contest file ``text`` (``name`` when the text has none).

    :raises InvalidArgument: naming ``definition.KEY`` (or ``name``) for anything wrong.
    """
    data = _parse(text)
    _refuse_league_keys(data)
    stated = data.get("name")
    if stated is None:
        if not name:
            raise InvalidArgument("name", "missing: the definition has no name, so the request must give one")
        check_name(name, "name", MAX_LEAGUE_NAME)
    elif not isinstance(stated, str):
        raise InvalidArgument(f"{FIELD}.name", "a string")
    else:
        check_name(stated, f"{FIELD}.name", MAX_LEAGUE_NAME)
        if name and name != stated:
            raise InvalidArgument("name", f"{name!r}, but the definition names the ladder {stated!r}")
    return ladder_definition(text, stated if isinstance(stated, str) else name)


def ladder_definition(text: str, name: str) -> LadderDefinition:
    """A stored ladder's definition (named ``name``), checked as :func:`read_ladder` does but for the keys
    :data:`REFUSED_SINCE`, which a ladder stored before may hold and which are dropped."""
    data = _parse(text)
    for key in REFUSED_SINCE:
        data.pop(key, None)
    _refuse_league_keys(data)
    try:
        settings = ladder_settings(data.pop(LADDER))
    except LadderSettingsError as error:
        raise InvalidArgument(f"{FIELD}.{str(error).split(':')[0]}", str(error).split(": ", 1)[-1]) from None
    data["name"] = name
    data["bots"], data["games"] = _seats(data.get("players")), 1
    return LadderDefinition(_validated(data), settings)


def _refuse_league_keys(data: dict[str, Any]) -> None:
    """The first key of :data:`NOT_IN_A_CONTEST` that ``data`` holds, refused naming it and why."""
    for key, why in NOT_IN_A_CONTEST.items():
        if key in data:
            raise InvalidArgument(f"{FIELD}.{key}", f"not in a contest file: {why}")


def _seats(players: Any) -> dict[str, str]:
    """Stand-ins for the bots of one table, so the league settings are checked as a league file's."""
    count = players if isinstance(players, int) and 2 <= players <= 10 else 2
    return {f"seat-{k}": f"{SUBMISSION}seat-{k}" for k in range(count)}
