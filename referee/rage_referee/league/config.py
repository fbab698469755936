"""The league file: a TOML document, validated by pydantic.

::

    name = "demo"
    players = 3               # per table
    games_per_table = 12      # or: games = 48 (in all)
    # seed = 1              # only for reproducible experiments: it makes every deal public
    duplicate = true          # replay each deal in every seating of a balanced set (6 at 3 players)
    # schedule = 2            # the schedule's design; a league begun under 1 keeps it (league.schedule)
    concurrency = 8
    database = "demo/league.sqlite"   # a path, or an SQLAlchemy URL
    forfeits = "unrated"      # or "loss" (the default with [sandbox] enabled): how ratings count a game the
                              # referee played for a forfeited bot
    exclude = []              # entrants taken out: the referee plays their remaining games (forfeited)
    keep_going = false        # a bot that cannot start is forfeited instead of stopping the league
    isolation = "deal"        # a launched bot's process never plays two games of one set; or "game" (a fresh
                              # process every game) or "league" (one for the league); the default: "deal" for bots
                              # in the sandbox or submitted, else "league". Bots at an address or in-process: one

    [ruleset]
    preset = "amigo"

    [time]
    decision_ms = 1000
    bank_ms = 10000
    max_faults = 20

    [sandbox]                 # run every launched bot in the sandbox (rage_referee.sandbox)
    enabled = true
    memory_mb = 1024          # and cpu_seconds, processes, file_size_mb, tmp_mb

    [runner]                  # where the games are played (rage_referee.runner.settings)
    kind = "local"            # or "ray", with address, workers and working_dir

    [bots]
    heuristic = "python heuristic_bot.py"   # paths are relative to the league file's folder
    random = "python random_bot.py"
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)
from rage_sdk.errors import RageError
from rage_sdk.record import ruleset_of
from rage_sdk.rules import Ruleset

from ..faults import Forfeits
from ..limits import (
    MAX_BANK_MS,
    MAX_CONCURRENCY,
    MAX_DECISION_MS,
    MAX_FAULTS,
    MAX_GAMES,
    MAX_LEAGUE_FILE_BYTES,
    MAX_SEED,
)
from ..play.spec import TimeControl
from ..problems import first_problem
from ..records.file import UnreadableFileError, read_regular
from ..runner.isolation import Isolation
from ..runner.settings import RunnerSettings
from ..sandbox import SandboxSettings
from ..seats import BotSpec
from ..text import names_alike
from .schedule import SCHEDULE_VERSION, schedule_size
from .seatings import seatings

CONTEST_FORFEITS = Forfeits.LOSS
"""How a contest (a league with the sandbox enabled, a hosted league) counts a forfeited seat's game unless its
file says otherwise: a bot that forfeits on purpose once it falls behind would keep the rating it had."""


class LeagueConfigError(RageError, ValueError):
    """A league file that cannot be used; the message names the key."""


class TimeSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decision_ms: StrictInt = Field(1000, ge=1, le=MAX_DECISION_MS)
    bank_ms: StrictInt = Field(10_000, ge=0, le=MAX_BANK_MS)
    max_faults: StrictInt = Field(20, ge=1, le=MAX_FAULTS)

    def control(self) -> TimeControl:
        return TimeControl(self.decision_ms, self.bank_ms, self.max_faults)


class LeagueConfig(BaseModel):
    """Everything that defines a league; the schedule follows from it alone."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    name: str = Field(min_length=1)
    bots: dict[str, str] = Field(
        description="name = command (run with --port N appended, or N in place of {port}), HOST:PORT or FILE.py:CLASS"
    )
    ruleset: Ruleset
    players: StrictInt = Field(ge=2, le=10, description="players at each table")
    games: StrictInt | None = Field(None, ge=1, le=MAX_GAMES, description="games in all")
    games_per_table: StrictInt | None = Field(None, ge=1, le=MAX_GAMES, description="games for each table of bots")
    seed: StrictInt | None = Field(None, ge=0, le=MAX_SEED, description="public deals; none: a secret deal key")
    duplicate: StrictBool = True
    schedule: StrictInt = Field(
        SCHEDULE_VERSION, ge=1, le=SCHEDULE_VERSION, description="the schedule's design (rage_referee.league.schedule)"
    )
    concurrency: StrictInt = Field(4, ge=1, le=MAX_CONCURRENCY)
    database: str = "league.sqlite"
    records: str | None = None
    time: TimeSettings = TimeSettings()
    forfeits: Forfeits = Field(
        Forfeits.UNRATED,
        description="how ratings count a forfeited seat's game: unrated (for local testing: a bot that forfeits "
        "keeps the rating of its games so far), or loss (the default of a league with the sandbox enabled)",
    )
    exclude: list[str] = Field(default_factory=list, description="bots whose remaining games are forfeited")
    keep_going: StrictBool = Field(False, description="forfeit a bot that cannot start instead of stopping")
    sandbox: SandboxSettings = SandboxSettings()
    runner: RunnerSettings = RunnerSettings()
    isolation: Isolation | None = Field(
        None, description='"deal", "game" or "league"; none: "deal" for sandboxed or submitted bots, else "league"'
    )
    _folder: Path | None = PrivateAttr(None)

    @property
    def folder(self) -> Path | None:
        """The league file's folder, which every path of the file is relative to (bot commands and files
        included); none for a league that has no file (a hosted one)."""
        return self._folder

    @field_validator("ruleset", mode="before")
    @classmethod
    def _ruleset(cls, value: Any) -> Ruleset:
        return ruleset_of(value)

    @field_validator("bots")
    @classmethod
    def _bots(cls, bots: dict[str, str]) -> dict[str, str]:
        for name, target in bots.items():
            if not name.strip() or not target.strip():
                raise ValueError(f"bot {name!r}: needs a name and a command, HOST:PORT or FILE.py:CLASS")
            BotSpec.of(name, target)  # a command that cannot be split is refused here, naming the bot
        alike = names_alike(bots)
        if alike is not None:
            raise ValueError(alike)
        return bots

    @model_validator(mode="after")
    def _consistent(self) -> LeagueConfig:
        if (self.games is None) == (self.games_per_table is None):
            raise ValueError("give exactly one of games (in all) and games_per_table")
        rules = self.ruleset
        if not rules.min_players <= self.players <= rules.max_players:
            raise ValueError(
                f"players: {rules.preset} seats {rules.min_players}-{rules.max_players}, not {self.players}"
            )
        if len(self.bots) < self.players:
            raise ValueError(f"bots: {len(self.bots)} bots cannot fill a table of {self.players}")
        tables, games = self.schedule_size()
        if games > MAX_GAMES:
            asked = (
                f"games: {self.games:,} in whole {'rounds' if self.schedule > 1 else 'sets'}"
                if self.games is not None
                else f"games_per_table: {self.games_per_table:,} at each of {tables:,} tables"
            )
            raise ValueError(f"{asked} is {games:,} games; a league holds at most {MAX_GAMES:,}")
        unknown = [name for name in self.exclude if name not in self.bots]
        if unknown:
            raise ValueError(f"exclude: no bot named {', '.join(map(repr, unknown))} in [bots]")
        if "forfeits" not in self.model_fields_set and self.sandbox.enabled:
            self.forfeits = CONTEST_FORFEITS  # a contest: quitting when behind keeps no rating
        return self

    def isolation_for(self, untrusted: bool) -> Isolation:
        """The league's isolation; unset, ``deal`` for ``untrusted`` bots (launched in the sandbox, or
        submitted by entrants), else ``league``."""
        if self.isolation is not None:
            return self.isolation
        return Isolation.DEAL if untrusted else Isolation.LEAGUE

    def schedule_size(self) -> tuple[int, int]:
        """The tables its schedule seats and the games it plays in all, counted without building it."""
        return schedule_size(
            list(self.bots),
            self.players,
            games=self.games,
            games_per_table=self.games_per_table,
            duplicate=self.duplicate,
            version=self.schedule,
        )

    def rounding(self) -> str | None:
        """Why the league plays more games than its file asks (to fill whole rounds), in one line; else none."""
        tables, games = self.schedule_size()
        asked = self.games if self.games is not None else (self.games_per_table or 0) * tables
        if games == asked:
            return None
        if tables == 1 or self.schedule == 1:  # version 1 shares whole sets out among the tables unevenly
            return f"{games:,} games, not the {asked:,} asked: whole duplicate sets of {len(seatings(self.players))}"
        return (
            f"{games:,} games, not the {asked:,} asked: the league plays whole rounds, "
            f"{games // tables:,} games at each of its {tables:,} tables, so every bot plays as often"
        )

    def bot_specs(self) -> list[BotSpec]:
        """The bots, their relative paths read from the league file's folder; on Ray with a ``working_dir``,
        from that folder as Ray ships it to each worker, which runs the commands inside it."""
        folder = None if self.runner.working_dir is not None else self.folder
        return [BotSpec.of(name, target, folder) for name, target in self.bots.items()]

    def database_url(self, base: Path) -> str:
        """The SQLAlchemy URL; a plain path is an SQLite file relative to the league file."""
        if "://" in self.database:
            return self.database
        path = Path(self.database)
        return f"sqlite:///{path if path.is_absolute() else base / path}"

    def database_dir(self, base: Path) -> Path | None:
        """The folder of an SQLite database file (with its journals); none for another kind of database."""
        if "://" in self.database:
            return None
        path = Path(self.database)
        return (path if path.is_absolute() else base / path).parent

    def schedule_key(self) -> dict[str, Any]:
        """What the schedule and the games depend on: a stored league must match it to resume."""
        settings = self.model_dump(mode="json", include={"players", "games", "games_per_table", "seed", "duplicate"})
        if self.schedule > 1:  # a league stored under version 1 named none
            settings["schedule"] = self.schedule
        return settings | {
            "ruleset": self.ruleset.to_json(),
            "bots": [[name, target] for name, target in self.bots.items()],  # in order: the schedule follows it
        }


def load_league(path: Path) -> LeagueConfig:
    """Read and check a league file; :class:`LeagueConfigError` names the key that is wrong."""
    try:
        data = tomllib.loads(read_regular(path, MAX_LEAGUE_FILE_BYTES).decode("utf-8-sig"))  # an editor's BOM too
    except UnreadableFileError as error:
        raise LeagueConfigError(f"{path}: cannot read: {error}") from None
    except UnicodeDecodeError as error:
        raise LeagueConfigError(f"{path}: not valid TOML: not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise LeagueConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise LeagueConfigError(f"{path}: not valid TOML: nested too deeply") from None
    if not data:
        raise LeagueConfigError(f"{path}: the file is empty; a league file names its bots in [bots] at least")
    data.setdefault("name", path.stem)
    try:
        config = LeagueConfig.model_validate(data)
    except ValidationError as error:
        where, message, _ = first_problem(error, LeagueConfig)
        raise LeagueConfigError(f"{path}: {where + ': ' if where else ''}{message}") from None
    config._folder = path.parent.absolute()
    return config
