"""Leagues running inside the server: started, paused, resumed and cancelled by the organizer.

A run plays a league's games not stored yet, ``concurrency`` at a time, each stored the moment it
ends and announced to watchers: through :func:`rage_referee.league.runner.run_league`, the loop
``rage league run`` plays too, given the run's bots, ledger and hooks. A league with nothing left to
play is finished at once, no bot started. A run in which
no bot can be reached (every bot forfeited before any decided a move, or games played with no move
decided by a bot) fails, saying so, rather than finish the league on the referee's moves alone. Pausing
lets the games in progress finish and starts no more; resuming, or the server starting again with
the league marked running, begins a new run from what is stored (a resumption while a paused run's
games still finish returns at once, its run starting when they have). Cancelling drops the games in
progress. The referee connects to each bot at the address in the registry, checked against the
allow-list again just before; a bot whose address is refused is played by the fallback. A submitted
bot plays the version the league was pinned to when it first started, launched by the referee in the
sandbox from its own folder (:mod:`.submissions`), its processes kept apart as the definition's
``isolation`` says (``deal`` unless it says otherwise: no process of it plays two games of one set).
The games are played on this machine or, when the referee serves with ``--ray``, on a Ray cluster
(:class:`~rage_referee.runner.ray.RayRunner`, which ships the submitted bots' versions to its workers):
either way only the referee stores them, as they return.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rage_sdk.deal import key_commitment

from ..league.config import LeagueConfig
from ..league.release import SetRelease
from ..league.runner import league_deals, league_ledger, resumed_plan, run_league, with_stored_schedule
from ..league.schedule import ScheduledGame
from ..league.store import Store, StoreError
from ..play.finished import FinishedGame
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec
from ..runner import GameRunner, StartFailure
from ..runner.settings import LOCAL, RunnerSettings
from ..sandbox import Sandbox
from ..seats import SUBMISSION, BotKind, BotSpec
from ..submissions.store import Submission
from . import messages
from .addresses import AllowList, callable_address
from .bot_logs import league_logs
from .checks import name_key, same_name, written_otherwise
from .definition import LeagueDefinition, league_config, schedule_key
from .errors import AlreadyExists, ContestError, FailedPrecondition, InvalidArgument, NotFound
from .events import EventHub
from .registry import LeagueEntry, LeagueStatus, Registry
from .standings import point_table
from .submissions import Submissions

log = logging.getLogger(__name__)

MAX_FAILURES_IN_A_ROW = 3
"""Games failing one after another (none finishing between) before a league is marked failed."""
LONGEST_REASON = 300
STANDINGS_INTERVAL = 0.5
"""Seconds between two live standings events of a league, at least."""
UNUSED_LOG_DIR = Path("logs")
FINAL_SUFFIX = ".final"
"""A ladder's final is stored as the league ``LADDER.final``: no league of its own may take such a name."""
"""Hosted bots are addresses: the referee launches no process and writes no bot log."""

TRANSITIONS: dict[str, tuple[tuple[LeagueStatus, ...], LeagueStatus]] = {
    "start": ((LeagueStatus.CREATED,), LeagueStatus.RUNNING),
    "pause": ((LeagueStatus.RUNNING,), LeagueStatus.PAUSED),
    "resume": ((LeagueStatus.PAUSED, LeagueStatus.FAILED), LeagueStatus.RUNNING),
    "cancel": (
        (LeagueStatus.CREATED, LeagueStatus.RUNNING, LeagueStatus.PAUSED, LeagueStatus.FAILED),
        LeagueStatus.CANCELLED,
    ),
}


def _game_name(entry: LeagueEntry, index: int, final_league_id: int | None) -> str:
    """Game ``index`` of a league, or of a ladder's final (``final_league_id``), as a line names it."""
    if final_league_id is None:
        return f"game {index} of league {entry.name!r}"
    return f"final game {index} of ladder {entry.name!r}"


def release_of(entry: LeagueEntry) -> SetRelease:
    """The league's release check (:mod:`rage_referee.league.release`): which of its games anyone but the
    organizer may see now."""
    duplicate = tomllib.loads(entry.definition).get("duplicate", True)
    return SetRelease.of(entry.players, duplicate is not False, entry.status.over)


def failure_text(error: BaseException) -> str:
    """An error as one short line for a league's failure reason and the log."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= LONGEST_REASON else f"{text[: LONGEST_REASON - 3]}..."


class LeagueRun:
    """One run of a league: its bots connected, its unplayed games played, each stored as it ends."""

    def __init__(
        self,
        name: str,
        league_id: int,
        config: LeagueConfig,
        addresses: Mapping[str, str | None],
        store: Store,
        registry: Registry,
        hub: EventHub,
        submissions: Mapping[str, Submission] | None = None,
        sandbox: Sandbox | None = None,
        log_dir: Path = UNUSED_LOG_DIR,
        runner: RunnerSettings = LOCAL,
    ) -> None:
        self.name = name
        self.league_id = league_id
        self.config = config
        self.addresses = dict(addresses)
        """Where to call each bot; ``None`` for a bot whose address the allow-list refused."""
        self.store = store
        self.registry = registry
        self.hub = hub
        self.submissions = dict(submissions or {})
        """The submitted bots, each at its pinned version: launched in ``sandbox``, logs in ``log_dir``."""
        self.sandbox = sandbox
        self.log_dir = log_dir
        self.runner_settings = runner
        """Where the games are played: this machine, or a Ray cluster (``rage referee serve --ray``)."""
        self.stopping = False
        """Set to start no more games (a pause, or the server stopping)."""
        self.runner: GameRunner | None = None
        self.scheduled: dict[int, ScheduledGame] = {}
        """The games of the league not stored when the run began, by index."""
        self.results: list[FinishedGame] = []
        self.total = 0
        self._published_at = 0.0
        self._unpublished = False
        self._standings: asyncio.Task[None] | None = None
        self.failures_in_a_row = 0
        self.first_failed: str | None = None
        """The first game of the run that failed and why, as ``game N failed: ...``."""
        self.failure: str | None = None
        """Why the run gave up (games kept failing, or it ended with failed games unplayed), or ``None``."""
        self.previous: LeagueRun | None = None
        """The paused run whose games in progress still finish before this one starts, if any."""
        self.ledger: FaultLedger | None = None
        self.played = 0
        """Games finished in this run."""
        self.reached: set[str] = set()
        """Bots that decided a move themselves in a game of this run."""
        self.last_fault: dict[str, str] = {}
        """Each bot's last charged fault in this run, in words."""

    async def play(self) -> bool:
        """Play every game not stored yet (until :attr:`stopping`); whether the league is complete.

        A game that fails (raises) stays unplayed; after :data:`MAX_FAILURES_IN_A_ROW` failed games
        with none finished between them the run stops with :attr:`failure` set, as it does when it
        runs out of games with failed ones unplayed (the league fails rather than stay running).
        """
        self.results = await asyncio.to_thread(self.store.games, self.league_id, False)
        stored = [game.index for game in self.results]
        # a big schedule must not stall the loop
        plan = await asyncio.to_thread(resumed_plan, self.config, self.store, self.league_id, stored)
        self.total = len(plan.games)
        self.scheduled = {game.index: game for game in plan.todo}
        plan = replace(plan, games=list(self.scheduled.values()))  # the stored games' schedule is not held
        # fault counts go on from the games stored, across pauses and restarts
        ledger = self.ledger = league_ledger(self.config, self.results)
        for name, address in self.addresses.items():
            if address is None:
                ledger.forfeit(name, "its address is not one the organizer allows")
        bots = [BotSpec(name, address or "", BotKind.ADDRESS) for name, address in self.addresses.items()]
        bots += [
            BotSpec(name, f"{SUBMISSION}{submission.folder}", BotKind.SUBMISSION)
            for name, submission in self.submissions.items()
        ]
        if not self.scheduled:
            log.info("league %s: all %d games are stored already: nothing left to play", self.name, self.total)
        try:
            await run_league(
                self.config,
                self.store,
                plan,
                self.log_dir,
                on_game=self._finished,
                sandbox=self.sandbox,
                submissions=self.submissions,
                stop=lambda: self.stopping,
                bots=bots,
                ledger=ledger,
                start_failure=StartFailure.RETRY,
                runner=self.runner_settings,
                on_failed=self._failed,
                on_runner=self._made,
                on_started=self._started,
            )
        finally:
            if self._standings is not None:
                await self._standings
            if self._unpublished:
                await self._publish_standings()
        unplayed = self.total - len(self.results)
        if self.played and not self.reached and self.failure is None and not self.stopping:
            self.failure = self._unreachable()
        if unplayed and not self.stopping and self.failure is None:
            self.failure = f"{self.first_failed or 'the run ended'}; {unplayed} of {self.total} games unplayed"
        return unplayed == 0

    def _made(self, runner: GameRunner) -> None:
        """The run's runner, made: a pause or a new address reaches it from now on, its bots not started yet."""
        self.runner = runner
        if self.stopping:
            runner.stop()

    def _started(self, runner: GameRunner) -> None:
        """The runner started the bots it could: a submitted bot that could not is forfeited; a bot at an
        address is tried again at its next decision."""
        assert self.ledger is not None
        for name, why in runner.unstarted.items():
            if name in self.submissions:
                log.warning("league %s: submitted bot %s could not start: %s", self.name, name, why)
                self.ledger.forfeit(name, f"could not start: {why}")
                continue
            message = "league %s: bot %s cannot be reached yet (%s); retried at its next decision"
            log.warning(message, self.name, name, why)

    def stop(self) -> None:
        """Start no more games (a pause, or the server stopping); those in progress finish."""
        self.stopping = True
        if self.runner is not None:
            self.runner.stop()

    def _failed(self, game: GameSpec, error: BaseException) -> None:
        """One game failed: logged in a line (the first with its traceback); too many in a row fail the run."""
        self.failures_in_a_row += 1
        problem = failure_text(error)
        first = self.failures_in_a_row == 1
        self.first_failed = self.first_failed or f"game {game.game_id} failed: {problem}"
        log.warning(
            "league %s: game %d failed: %s", self.name, game.game_id, problem, exc_info=error if first else None
        )
        if self.failures_in_a_row >= MAX_FAILURES_IN_A_ROW and self.failure is None:
            self.failure = f"{self.failures_in_a_row} games failed in a row; the last, game {game.game_id}: {problem}"
            self.stop()

    def _unreachable(self) -> str:
        """Why the run fails when no bot could be reached, naming each bot's last fault."""
        forfeited = {} if self.ledger is None else self.ledger.forfeited
        whys = [
            f"{name}: {_short(self.last_fault.get(name) or forfeited.get(name) or 'never asked')}"
            for name in sorted({*self.addresses, *self.submissions})
        ]
        text = f"no bot could be reached: no move of the {self.played} games played was a bot's ({'; '.join(whys)})"
        return text if len(text) <= LONGEST_REASON else f"{text[: LONGEST_REASON - 3]}..."

    def _finished(self, game: FinishedGame) -> None:
        """A game of the run is stored: counted, announced to watchers, the standings published when due."""
        self.failures_in_a_row = 0
        self.played += 1
        for seat, name in enumerate(game.figures.seats):
            if decided_itself(game, seat):
                self.reached.add(name)
        for fault in game.figures.faults:
            if fault.charged and (bot := game.figures.bot_at(fault.seat)) is not None:
                self.last_fault[bot] = f"{fault.kind.value}: {fault.detail}"
        bots = {*self.addresses, *self.submissions}
        if self.ledger is not None and not self.reached and self.failure is None and bots <= set(self.ledger.forfeited):
            self.failure = self._unreachable()
            self.stop()  # the rest would be the referee's moves alone
        self.results.append(game.without_record())
        for event in messages.game_events(self.name, game, len(self.results), self.total):
            self.hub.publish(event)
        self._unpublished = True
        due = len(self.results) == self.total or time.monotonic() - self._published_at >= STANDINGS_INTERVAL
        if due and self._standings is None:
            self._standings = asyncio.create_task(self._publish_standings())

    async def _publish_standings(self) -> None:
        """Live standings of the games so far, fitted off the event loop (seconds, for 100,000 games).

        While one fit runs no other starts, so in a big league the events come as often as the fit allows;
        the last game's standings are always published.
        """
        try:
            while self._unpublished:
                self._unpublished = False
                table = await asyncio.to_thread(point_table, list(self.results), self.config.forfeits)
                self._published_at = time.monotonic()
                versions = {name: submission.version for name, submission in self.submissions.items()}
                owners = {bot.name: bot.entrant for bot in self.registry.bots()}
                self.hub.publish(messages.standings_event(self.name, table, versions, owners))
                if len(self.results) < self.total:
                    break  # the next game to finish asks again
        finally:
            self._standings = None

    def readdress(self, bot: str, address: str) -> None:
        """Call ``bot`` at ``address`` from its next connection on (a reconnection after a failure)."""
        self.addresses[bot] = address  # a runner not made yet starts there
        if self.runner is not None:
            self.runner.readdress(bot, address)
        if self.previous is not None:
            self.previous.readdress(bot, address)


def memory_notice(definition: LeagueDefinition, targets: Mapping[str, str]) -> str:
    """For a league of duplicate deals with bots at addresses (``targets``: every registered bot's, as
    :meth:`LeagueManager.targets` gives them), the line saying they can recognise repeated deals; else empty.

    A bot served at its own address runs where the referee cannot reset it, so it may keep the hands of a
    deal and know them when the set deals it again; the memory audit (:mod:`..league.audit`) is what
    notices it.
    """
    remote = [name for name in definition.bots if not targets.get(name, "").startswith(SUBMISSION)]
    if not definition.config.duplicate or not remote:
        return ""
    return (
        f"duplicate deals with bots at addresses ({', '.join(remote)}): they can recognise a deal repeated "
        "within its set, and only the memory audit (rage ratings, the report's standings) guards against it"
    )


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else f"{text[: most - 3]}..."


def decided_itself(game: FinishedGame, seat: int) -> bool:
    """Whether the bot at ``seat`` decided a move of ``game`` itself: it had more decisions (a bid and a play
    per card of each round) than the referee took for it; a record it cannot be told from says yes."""
    try:
        decisions = sum(1 + len(round_["hands"][seat]) for round_ in game.record["rounds"])
    except (KeyError, IndexError, TypeError):
        return True
    return decisions > sum(fault.seat == seat for fault in game.figures.faults)


class LeagueManager:
    """Every hosted league's state, and the runs of those that are running."""

    def __init__(
        self,
        registry: Registry,
        store: Store,
        hub: EventHub,
        allow: AllowList,
        submissions: Submissions | None = None,
        runner: RunnerSettings = LOCAL,
    ) -> None:
        self.registry = registry
        self.store = store
        self.hub = hub
        self.allow = allow
        self.submissions = submissions
        self.runner = runner
        """Where every league's games are played."""
        self._runs: dict[str, tuple[LeagueRun, asyncio.Task[None]]] = {}
        self._lock = asyncio.Lock()

    def check_new_name(self, name: str) -> None:
        """Refuse ``name`` for a new league or ladder: taken, or a ladder's final's (:data:`FINAL_SUFFIX`)."""
        if name_key(name).endswith(FINAL_SUFFIX):  # cup.FINAL too: names compare without case
            raise InvalidArgument("name", f"{name!r} ends with {FINAL_SUFFIX!r}, kept for the finals of ladders")
        taken = same_name(self.store.league_names(), name)
        if taken is not None:
            raise AlreadyExists(f"name: a league named {taken!r} exists already{written_otherwise(taken, name)}")

    def create(self, definition: LeagueDefinition, text: str) -> LeagueEntry:
        """Store a new league (status created) with its schedule's key; log its :func:`memory_notice`, if any."""
        self.check_new_name(definition.name)
        league_id = self.store.league(definition.name, schedule_key(definition.config))
        config = definition.config
        league_deals(config, self.store, league_id)  # a secret key is drawn now, before anyone can watch
        ruleset = json.dumps(config.ruleset.to_json(), sort_keys=True)
        entry = self.registry.add_league(
            config.name, league_id, text, definition.bots, ruleset, config.players, len(definition.schedule)
        )
        notice = memory_notice(definition, self.targets())
        if notice:
            log.warning("league %s: %s", entry.name, notice)
        return entry

    def targets(self) -> dict[str, str]:
        """Every registered bot, by name: its address, or ``submission:NAME`` for a submitted bot."""
        submitted = set() if self.submissions is None else self.submissions.versions.submitted()
        return {
            bot.name: f"{SUBMISSION}{bot.name}" if bot.name in submitted else bot.address
            for bot in self.registry.bots()
        }

    async def start(self, name: str) -> LeagueEntry:
        return await self._change(name, "start")

    async def pause(self, name: str) -> LeagueEntry:
        return await self._change(name, "pause")

    async def resume(self, name: str) -> LeagueEntry:
        return await self._change(name, "resume")

    async def cancel(self, name: str) -> LeagueEntry:
        return await self._change(name, "cancel")

    async def _change(self, name: str, verb: str) -> LeagueEntry:
        _, target = TRANSITIONS[verb]
        async with self._lock:
            self._check(self.registry.league(name), verb)
            running = self._runs.get(name)
            if running is not None and verb == "pause":
                running[0].stop()
            elif running is not None and verb == "cancel":
                running[1].cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running[1]
                self._check(self.registry.league(name), verb)  # the run may have finished the league meanwhile
            if target is LeagueStatus.RUNNING:
                submitted = self._submitted(self.registry.league(name))  # refused before the status changes
            entry = self.registry.set_status(name, target)
            if target is LeagueStatus.RUNNING:
                # A paused run's games in progress finish first: the new run waits for it, this call does not.
                await self._launch(entry, submitted, after=running)
            self._announce(entry)
            log.info("league %s: %s", name, target.value)
            return entry

    @staticmethod
    def _check(entry: LeagueEntry, verb: str) -> None:
        allowed, _ = TRANSITIONS[verb]
        if entry.status not in allowed:
            states = " or ".join(status.value for status in allowed)
            raise FailedPrecondition(
                f"league {entry.name!r} is {entry.status.value}; only a {states} league can {verb}"
            )

    def _announce(self, entry: LeagueEntry) -> None:
        done = self.store.count(entry.league_id)
        self.hub.publish(messages.status_event(entry.name, entry.status, done, entry.games_total, entry.reason))
        if entry.status.ends_watch:
            self.hub.close(entry.name)

    async def resume_running(self) -> None:
        """Start a run for every league marked running (after the server starts)."""
        async with self._lock:
            for entry in self.registry.leagues():
                if entry.status is LeagueStatus.RUNNING and entry.name not in self._runs:
                    log.info("league %s: running when the referee stopped; resuming", entry.name)
                    try:
                        submitted = self._submitted(entry)
                    except ContestError as error:
                        self._announce(self.registry.set_status(entry.name, LeagueStatus.FAILED, str(error)))
                        log.error("league %s: failed: %s", entry.name, error)
                        continue
                    await self._launch(entry, submitted)

    def _submitted(self, entry: LeagueEntry) -> dict[str, Submission]:
        """The league's submitted bots at their pinned versions (pinned now, at its first start).

        :raises FailedPrecondition: the referee may not run them (no sandbox), or one has no version that built.
        """
        if self.submissions is None or not self.submissions.versions.submitted().intersection(entry.bots):
            return {}
        self.submissions.policy.require()
        pins = self.submissions.pins_for(entry.league_id, entry.bots)
        return {name: self.submissions.submission(name, version) for name, version in pins.items()}

    async def _launch(
        self,
        entry: LeagueEntry,
        submitted: dict[str, Submission],
        after: tuple[LeagueRun, asyncio.Task[None]] | None = None,
    ) -> None:
        """Start a run of the league, once the run ``after`` (the paused one, finishing its games) has ended."""
        addresses: dict[str, str | None] = {}
        registered: dict[str, str] = {}
        for name in entry.bots:
            if name in submitted:
                registered[name] = f"{SUBMISSION}{name}"
                continue
            registered[name] = self.registry.bot(name).address
            try:
                addresses[name] = await callable_address(registered[name], self.allow)
            except ContestError as error:
                log.warning("league %s: bot %s refused (%s); the fallback plays for it", entry.name, name, error)
                addresses[name] = None
        config = with_stored_schedule(league_config(entry.definition, entry.name, registered), self.store)
        sandbox, log_dir = None, UNUSED_LOG_DIR
        if submitted:
            assert self.submissions is not None
            sandbox = self.submissions.policy.for_league(config.sandbox)
            log_dir = league_logs(self.submissions.root, entry.name)
            log.info(
                "league %s: submitted bots %s, %s", entry.name, ", ".join(submitted), self.submissions.policy.describe()
            )
        run = LeagueRun(
            entry.name,
            entry.league_id,
            config,
            addresses,
            self.store,
            self.registry,
            self.hub,
            submitted,
            sandbox,
            log_dir,
            self.runner,
        )
        if after is not None:
            run.previous = after[0]
        task = asyncio.create_task(self._run(run, None if after is None else after[1]), name=f"league {entry.name}")
        self._runs[entry.name] = (run, task)

    async def _run(self, run: LeagueRun, after: asyncio.Task[None] | None = None) -> None:
        """Play ``run`` (after the run ``after``; cancelled, it cancels that one too), then mark the league
        finished or failed, unless a newer run has taken the league over meanwhile."""
        try:
            if after is not None:
                try:
                    await asyncio.wait([after])
                except asyncio.CancelledError:
                    after.cancel()
                    await asyncio.wait([after])
                    raise
                run.previous = None
            complete = await run.play()
        except asyncio.CancelledError:
            raise
        except StoreError as error:  # e.g. another referee runs the same league on this database
            log.error("league %s: the run stopped: %s", run.name, error)
            run.failure = failure_text(error)
            complete = False
        except Exception as error:
            log.exception("league %s: the run failed", run.name)
            run.failure = failure_text(error)
            complete = False
        finally:
            latest = self._runs.get(run.name, (run,))[0]
            if latest is run and run.name in self._runs:
                del self._runs[run.name]
        if latest is not run:
            return  # resumed while its games in progress finished: the newer run decides
        status = self.registry.league(run.name).status
        if run.failure is not None and status is LeagueStatus.RUNNING:
            entry = self.registry.set_status(run.name, LeagueStatus.FAILED, run.failure)
            self._announce(entry)
            log.error("league %s: failed: %s (resume it to try again)", run.name, run.failure)
        elif complete and status is not LeagueStatus.CANCELLED:
            entry = self.registry.set_status(run.name, LeagueStatus.FINISHED)
            self._announce(entry)
            log.info("league %s: finished, %d games", run.name, run.total)

    def playing(self, name: str) -> bool:
        """Whether a run of league ``name`` still plays (after a pause, until its games in progress end)."""
        return name in self._runs

    def deal_commitment(self, entry: LeagueEntry) -> str:
        """The commitment to the league's deal key; empty for public deals (an explicit seed)."""
        return self.commitment(entry.league_id)

    def commitment(self, league_id: int) -> str:
        """The commitment to the deal key of the stored league ``league_id``; empty for public deals."""
        stored_key = self.store.deal_key(league_id)
        return "" if stored_key is None else key_commitment(stored_key.key)

    def reveal(self, name: str) -> bytes:
        """The deal key of a finished or cancelled league, marked revealed."""
        entry = self.registry.league(name)
        if not entry.status.over:
            raise FailedPrecondition(
                f"league {name!r} is {entry.status.value}; its deal key is revealed once it is finished or cancelled"
            )
        if self.store.deal_key(entry.league_id) is None:
            raise FailedPrecondition(f"league {name!r} deals from an explicit seed: its deals are public, with no key")
        log.info("league %s: deal key revealed", name)
        return self.store.reveal(entry.league_id)

    def withheld(self, entry: LeagueEntry, index: int, final_league_id: int | None = None) -> str | None:
        """Why finished game ``index``'s record is not shown yet: other games of its duplicate set, dealt
        the same hands, are still to be played (until the league is over). ``final_league_id``: a game of
        the ladder's final, stored apart."""
        league_id = entry.league_id if final_league_id is None else final_league_id
        waiting = release_of(entry).waiting(self.store.set_games(league_id, index))
        if waiting <= 0:
            return None
        game = _game_name(entry, index, final_league_id)
        return f"game: {game} shares its deal with {waiting} games still to be played; its record is shown then"

    def shown_record(self, entry: LeagueEntry, index: int, final_league_id: int | None = None) -> dict[str, Any]:
        """Finished game ``index``'s record, once anyone may read it (blocking). :class:`NotFound` otherwise, in
        one line whether the game is still to finish or waits for its set (which of the two, or how many games
        its set waits for, would tell how far a set being played has gone)."""
        league_id = entry.league_id if final_league_id is None else final_league_id
        record = self.store.record(league_id, index)
        if record is None or self.withheld(entry, index, final_league_id) is not None:
            game = _game_name(entry, index, final_league_id)
            raise NotFound(
                f"game: {game} is not shown: it has not finished, or games dealt the same hands are still to be played"
            )
        return record

    def readdress(self, bot: str, address: str) -> None:
        """A bot's new address, for the runs that play it."""
        for run, _ in self._runs.values():
            if bot in run.addresses:
                run.readdress(bot, address)

    async def close(self, grace: float) -> None:
        """Stop every run: no new games, ``grace`` seconds for those in progress, then cancel the rest.

        Leagues stay marked running, so they resume when the server starts again.
        """
        runs = list(self._runs.values())
        for run, _ in runs:
            run.stop()
        tasks = [task for _, task in runs]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
