"""Running a league: the games not stored yet, concurrently, each stored the moment it ends.

A bot forfeited (by its faults so far, or excluded in the league file) is not started: the
referee plays its remaining games, each of its decisions a ``forfeited`` entry of the record. With
``keep_going`` a bot that cannot start is forfeited the same way instead of stopping the league.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..play.game import FaultLedger
from ..play.spec import GameSpec, Occasion
from ..runner import StartFailure
from ..sandbox import Sandbox
from ..seats import BotKind
from ..submissions.store import Submission
from .config import LeagueConfig
from .record_files import RecordFiles
from .schedule import ScheduledGame, schedule
from .store import Store, StoreError


@dataclass(frozen=True)
class LeaguePlan:
    league_id: int
    games: list[ScheduledGame]
    done: set[int]
    deals: Deals

    @property
    def todo(self) -> list[ScheduledGame]:
        return [game for game in self.games if game.index not in self.done]


def league_schedule(config: LeagueConfig, deals: Deals | None = None) -> list[ScheduledGame]:
    """The league's games, dealt from ``deals``; without, from the league's explicit seed."""
    if deals is None:
        if config.seed is None:
            raise ValueError(f"league {config.name!r} deals from a secret key: give its deals")
        deals = Deals.public(config.seed)
    return schedule(
        list(config.bots),
        config.players,
        games=config.games,
        games_per_table=config.games_per_table,
        seed=config.seed or 0,
        duplicate=config.duplicate,
        deal_key=deals.key,
        version=config.schedule,
    )


def with_stored_schedule(config: LeagueConfig, store: Store) -> LeagueConfig:
    """``config`` under the schedule design its league was stored with, unless its file names one: a league
    begun under version 1 (whose stored settings name no version) keeps that schedule; a new league takes
    the file's."""
    stored = store.league_key(config.name)
    if stored is None or "schedule" in config.model_fields_set:
        return config
    return config.model_copy(update={"schedule": stored.get("schedule", 1)})


def league_deals(config: LeagueConfig, store: Store, league_id: int, create: bool = True) -> Deals:
    """Public deals for an explicit seed; otherwise the league's secret key, drawn when it has none."""
    if config.seed is not None:
        return Deals.public(config.seed)
    stored_key = store.deal_key(league_id, create=create)
    if stored_key is None:
        raise StoreError(f"league {config.name!r} has no deal key in {store.url}")
    return Deals(stored_key.key)


def league_game(config: LeagueConfig, game: ScheduledGame, deals: Deals) -> GameSpec:
    """What the referee needs to play one scheduled game of the league."""
    occasion = Occasion("league", config.name, game.set_id, deals.commitment)
    return GameSpec(game.index, config.ruleset, game.seats, game.seed, config.time.control(), occasion)


def plan_league(config: LeagueConfig, store: Store, versions: dict[str, str] | None = None) -> LeaguePlan:
    """The league's schedule and which of its games are stored already; ``versions`` pins submitted bots."""
    config = with_stored_schedule(config, store)
    key = config.schedule_key() | ({"versions": versions} if versions else {})
    league_id = store.league(config.name, key)
    deals = league_deals(config, store, league_id)
    return LeaguePlan(league_id, league_schedule(config, deals), store.finished(league_id), deals)


def stored_league_id(config: LeagueConfig, store: Store) -> int:
    """The id of the league of ``config`` in ``store``, for reading: :class:`StoreError` when it is not there,
    or is stored under other settings. A league of submitted bots is stored under their versions too
    (:func:`plan_league`), which its file does not name: it is found by its name alone."""
    submitted = any(spec.kind is BotKind.SUBMISSION for spec in config.bot_specs())
    key = with_stored_schedule(config, store).schedule_key()
    return store.league(config.name, None if submitted else key, create=False)


EXCLUDED = "excluded by the organizer"


def league_ledger(config: LeagueConfig, store: Store, league_id: int) -> FaultLedger:
    """Who is forfeited before the next game: the faults of the games stored go on counting, and the
    entrants the league file excludes play no more (the referee plays their remaining games)."""
    ledger = FaultLedger(config.time.max_faults)
    for game in store.games(league_id, records=False):
        ledger.add_stored(game)
    for name in config.exclude:
        ledger.forfeit(name, EXCLUDED)
    return ledger


async def run_league(
    config: LeagueConfig,
    store: Store,
    plan: LeaguePlan,
    log_dir: Path,
    records: Path | None = None,
    on_game: Callable[[FinishedGame], None] | None = None,
    sandbox: Sandbox | None = None,
    submissions: dict[str, Submission] | None = None,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Play every game of ``plan`` not stored yet; return how many were started now.

    With ``records``, each duplicate set's record files are written once the set is complete;
    with ``sandbox``, every bot the league launches runs in it; with ``stop``, no game is started
    once it says so (the games in flight finish).
    """
    files = None if records is None else RecordFiles(records, store, plan.league_id, plan.games)
    if files is not None:
        files.catch_up()
    todo = plan.todo
    if not todo:
        return 0
    started = 0

    def specs() -> Iterator[GameSpec]:
        nonlocal started
        for game in todo:
            if stop is not None and stop():
                return
            started += 1
            yield league_game(config, game, plan.deals)

    def finished(result: FinishedGame) -> None:
        store.add(plan.league_id, result)
        if files is not None:
            files.stored_game(result)
        if on_game is not None:
            on_game(result)

    ledger = league_ledger(config, store, plan.league_id)
    start_failure = StartFailure.FORFEIT if config.keep_going else StartFailure.RAISE
    runner = config.runner.make(
        config.bot_specs(),
        ledger,
        concurrency=config.concurrency,
        log_dir=log_dir,
        start_failure=start_failure,
        sandbox=sandbox,
        submissions=submissions,
        isolation=config.isolation_for(untrusted=sandbox is not None or bool(submissions)),
    )
    async with runner:
        await runner.run(specs(), finished)
    return started
