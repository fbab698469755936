"""A league definition over the wire: the league TOML, its bots resolved against the registry.

The text is a league file (:mod:`rage_referee.league.config`). Its ``[bots]`` table (values ignored)
or a ``bots`` array names registered bots; without either, every bot registered at creation takes
part. The bots are fixed when the league is created; their addresses come from the registry each
time the league (re)connects. ``database`` and ``records`` are ignored: the referee keeps every
league in its own database. Where the games are played is the referee's (``rage referee serve --ray``):
a ``[runner]`` table is refused. ``isolation`` (``deal`` by default, ``game`` or ``league``) says how far
the submitted bots' processes are kept apart; a registered bot at an address is one server, whatever it says.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..faults import Forfeits
from ..league.config import CONTEST_FORFEITS, LeagueConfig
from ..league.runner import league_schedule
from ..league.schedule import ScheduledGame
from ..limits import MAX_DEFINITION_BYTES, MAX_HOSTED_GAMES, MAX_LEAGUE_NAME
from ..play.deals import Deals
from ..problems import first_problem
from ..seats.spec import BotSpec, kind_of, shared_seat
from .checks import check_name
from .errors import InvalidArgument

IGNORED_KEYS = ("database", "records")
FIELD = "definition"


@dataclass(frozen=True)
class LeagueDefinition:
    config: LeagueConfig
    schedule: list[ScheduledGame]

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def bots(self) -> list[str]:
        return list(self.config.bots)


def read_definition(text: str, name: str, registered: Mapping[str, str]) -> LeagueDefinition:
    """A new league from its TOML ``text`` (``name`` when the text has none) among ``registered`` bots.

    :raises InvalidArgument: naming ``definition.KEY`` (or ``name``) for anything wrong.
    """
    data = _parse(text)
    if "runner" in data:
        raise InvalidArgument(f"{FIELD}.runner", "where the games are played is the referee's (serve --ray)")
    stated = data.get("name")
    if stated is None:
        if not name:
            raise InvalidArgument("name", "missing: the definition has no name, so the request must give one")
        data["name"] = check_name(name, "name", MAX_LEAGUE_NAME)
    else:
        if not isinstance(stated, str):
            raise InvalidArgument(f"{FIELD}.name", "a string")
        check_name(stated, f"{FIELD}.name", MAX_LEAGUE_NAME)
        if name and name != stated:
            raise InvalidArgument("name", f"{name!r}, but the definition names the league {stated!r}")
    names = _bot_names(data.pop("bots", None), registered)
    data["bots"] = {bot: registered[bot] for bot in names}
    shared = shared_seat([BotSpec(bot, target, kind_of(target)) for bot, target in data["bots"].items()], False)
    if shared is not None:  # registered before the registry refused a second bot at an address
        raise InvalidArgument(f"{FIELD}.bots", shared)
    config = _validated(data)
    return LeagueDefinition(config, _bounded_schedule(config))


def league_config(text: str, name: str, addresses: Mapping[str, str]) -> LeagueConfig:
    """A stored league's config, its bots (in order) at ``addresses``."""
    data = _parse(text)
    data.pop("bots", None)
    data["name"] = name
    data["bots"] = dict(addresses)
    return _validated(data)


def forfeits_of(text: str) -> Forfeits:
    """How a stored league's ratings count a game the referee played for a forfeited bot (a contest's
    default: as a loss)."""
    return Forfeits(_parse(text).get("forfeits", CONTEST_FORFEITS))


def schedule_key(config: LeagueConfig) -> dict[str, Any]:
    """What a hosted league's games depend on: its bots by name, not by the addresses they may change."""
    return config.schedule_key() | {"bots": list(config.bots)}


def _parse(text: str) -> dict[str, Any]:
    if not text.strip():
        raise InvalidArgument(FIELD, "missing")
    if len(text.encode()) > MAX_DEFINITION_BYTES:
        raise InvalidArgument(FIELD, f"at most {MAX_DEFINITION_BYTES // 1024} KiB")
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))  # an editor's byte order mark, sent as it was
    except tomllib.TOMLDecodeError as error:
        raise InvalidArgument(FIELD, f"not valid TOML: {error}") from None
    except RecursionError:
        raise InvalidArgument(FIELD, "not valid TOML: nested too deeply") from None
    for key in IGNORED_KEYS:
        data.pop(key, None)
    return data


def _bot_names(value: object, registered: Mapping[str, str]) -> list[str]:
    if value is None:
        names = list(registered)
    elif isinstance(value, dict) or (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        names = list(value)
    else:
        raise InvalidArgument(f"{FIELD}.bots", "a table or an array of registered bot names")
    for name in names:
        if name not in registered:
            raise InvalidArgument(f"{FIELD}.bots", f"no bot {name!r} is registered")
    if len(set(names)) != len(names):
        raise InvalidArgument(f"{FIELD}.bots", "a bot is named twice")
    return names


def _validated(data: dict[str, Any]) -> LeagueConfig:
    try:
        return LeagueConfig.model_validate({"forfeits": CONTEST_FORFEITS.value} | data)
    except ValidationError as error:
        where, message, _ = first_problem(error, LeagueConfig)
        raise InvalidArgument(f"{FIELD}.{where}" if where else FIELD, message) from None


def _bounded_schedule(config: LeagueConfig) -> list[ScheduledGame]:
    """The schedule, refused before it is built when it would pass MAX_HOSTED_GAMES games."""
    _, games = config.schedule_size()
    if games > MAX_HOSTED_GAMES:
        key = "games" if config.games is not None else "games_per_table"
        raise InvalidArgument(f"{FIELD}.{key}", f"at most {MAX_HOSTED_GAMES:,} games in a league, not {games:,}")
    return league_schedule(config, Deals.public(config.seed or 0))  # for its seats and size: seeds come at creation
