"""Running a league: the games not stored yet, concurrently, each stored the moment it ends.

:func:`run_league` is the one loop that plays a league, for ``rage league run`` and for the hosted
referee alike (:class:`rage_referee.hosted.leagues.LeagueRun`, which gives its own bots, ledger, start
failures and hooks). A league with nothing left to play starts no runner and no bot.

A bot forfeited (by its faults so far, or excluded in the league file) is not started: the
referee plays its remaining games, each of its decisions a ``forfeited`` entry of the record. With
``keep_going`` a bot that cannot start is forfeited the same way instead of stopping the league.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec, Occasion
from ..runner import GameRunner, StartFailure
from ..runner.base import OnFailed
from ..runner.settings import RunnerSettings
from ..sandbox import Sandbox
from ..seats import BotKind, BotSpec
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


def submitted_bots(config: LeagueConfig) -> bool:
    """Whether any bot of the league is a submitted one (``submission:PATH``)."""
    return any(spec.kind is BotKind.SUBMISSION for spec in config.bot_specs())


def league_key(config: LeagueConfig, store: Store, versions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings the league is stored under: its schedule's, and the ``versions`` its submitted bots are pinned
    to. Without ``versions`` a league of submitted bots keeps those it is stored with (none for a new one): its
    bots are not built yet, and :func:`pin_league` checks them once they are."""
    if versions is None and submitted_bots(config):
        versions = (store.league_key(config.name) or {}).get("versions")
    return config.schedule_key() | ({"versions": dict(versions)} if versions else {})


def plan_league(config: LeagueConfig, store: Store, versions: dict[str, str] | None = None) -> LeaguePlan:
    """The league's schedule and which of its games are stored already; ``versions`` pins submitted bots
    (without them, see :func:`league_key`)."""
    config = with_stored_schedule(config, store)
    league_id = store.league(config.name, league_key(config, store, versions))
    deals = league_deals(config, store, league_id)
    return LeaguePlan(league_id, league_schedule(config, deals), store.finished(league_id), deals)


def pin_league(config: LeagueConfig, store: Store, versions: Mapping[str, str]) -> None:
    """Pin the league to the ``versions`` of its submitted bots, as built for this run: a league with no game
    stored takes them; one stored under other versions is refused (:class:`StoreError` naming the settings)."""
    store.league(config.name, league_key(with_stored_schedule(config, store), store, versions))


def resumed_plan(config: LeagueConfig, store: Store, league_id: int, stored: Iterable[int]) -> LeaguePlan:
    """The plan of a league stored already (as the hosted referee keeps it), its games ``stored`` done: no key
    is checked or drawn."""
    deals = league_deals(config, store, league_id, create=False)
    return LeaguePlan(league_id, league_schedule(config, deals), set(stored), deals)


def stored_league_id(config: LeagueConfig, store: Store) -> int:
    """The id of the league of ``config`` in ``store``, for reading: :class:`StoreError` when it is not there,
    or is stored under other settings. A league of submitted bots is stored under their versions too
    (:func:`plan_league`), which its file does not name: it is found by its name alone."""
    key = with_stored_schedule(config, store).schedule_key()
    return store.league(config.name, None if submitted_bots(config) else key, create=False)


EXCLUDED = "excluded by the organizer"


def league_ledger(config: LeagueConfig, stored: Iterable[FinishedGame]) -> FaultLedger:
    """Who is forfeited before the next game: the faults of the games ``stored`` go on counting, and the
    entrants the league file excludes play no more (the referee plays their remaining games)."""
    ledger = FaultLedger(config.time.max_faults)
    for game in stored:
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
    submissions: Mapping[str, Submission] | None = None,
    stop: Callable[[], bool] | None = None,
    *,
    bots: Sequence[BotSpec] | None = None,
    ledger: FaultLedger | None = None,
    start_failure: StartFailure | None = None,
    runner: RunnerSettings | None = None,
    on_failed: OnFailed | None = None,
    on_runner: Callable[[GameRunner], None] | None = None,
    on_started: Callable[[GameRunner], None] | None = None,
) -> int:
    """Play every game of ``plan`` not stored yet, each stored as it ends; return how many were started now.

    With nothing left to play no runner is made and no bot started. With ``records``, each duplicate set's
    record files are written once the set is complete; ``on_game`` is called with each game once stored;
    with ``sandbox``, every bot the league launches runs in it; with ``stop``, no game is started once it
    says so (the games in flight finish).

    What the hosted referee gives its own way: ``bots`` (default: the league file's), the ``ledger``
    (default: :func:`league_ledger` of the games stored), ``start_failure`` (default: forfeit under
    ``keep_going``, else raise), the ``runner`` (default: the league file's), ``on_failed`` for a game that
    raises (default: the error goes on), ``on_runner`` called with the runner once made (before its bots
    start: it may be stopped or readdressed from then on) and ``on_started`` once its bots have started.
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

    if ledger is None:
        ledger = league_ledger(config, store.games(plan.league_id, records=False))
    if start_failure is None:
        start_failure = StartFailure.FORFEIT if config.keep_going else StartFailure.RAISE
    made = (runner or config.runner).make(
        config.bot_specs() if bots is None else bots,
        ledger,
        concurrency=config.concurrency,
        log_dir=log_dir,
        start_failure=start_failure,
        sandbox=sandbox,
        submissions=submissions,
        isolation=config.isolation_for(untrusted=sandbox is not None or bool(submissions)),
    )
    if on_runner is not None:
        on_runner(made)
    async with made:
        if on_started is not None:
            on_started(made)
        await made.run(specs(), finished, on_failed)
    return started
