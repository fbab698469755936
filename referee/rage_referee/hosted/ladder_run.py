"""A ladder running inside the server: the matchmaker's tables, one duplicate set each, as long as it runs.

The run asks the matchmaker (:mod:`rage_referee.ladder.matchmaker`) for tables while fewer than
``concurrency`` sets play, writes each set in the ladder's book before its first game (:mod:`.ladder_book`)
and plays it through the runner seam with a runner of its own: the same deal in every seating of the
balanced design, one game after another, each game's bots launched afresh under ``deal`` isolation (no
process plays two games of one deal), a bot that cannot start forfeited (the referee plays its seats). A
slow set holds up no other: each plays on as the others end and new ones start. Every game is stored the
moment it ends; when a set's last game is stored the leaderboard (:mod:`.ladder_table`) is computed again
from the stored games and announced. A set the book holds with games unstored (the referee stopped, or
a game failed) is played to its end before any new table.

On Ray a set's runner places one worker, whatever ``--ray-workers`` says: the set's games play one after
another, so a second worker would only start, take the versions and launch every bot of the set again, and
hold a CPU another set waits for. ``concurrency`` sets at once take ``concurrency`` workers.

Before each round of matchmaking the run takes in every bot's newest version that built: a new version
joins the ladder and replaces the previous one at the tables; a version that failed to build is never
seen, so the previous one plays on. The run is a :class:`~.leagues.LeagueRun` (its stopping, failure
count and readdressing), its games played by :meth:`LadderRun.play`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from pathlib import Path

from ..ladder.matchmaker import pick_tables
from ..ladder.settings import LadderSettings
from ..league.config import LeagueConfig
from ..league.runner import league_deals
from ..league.schedule import SCHEDULE_VERSION, ScheduledGame, duplicate_set, secret_order
from ..league.seatings import seatings
from ..league.store import Store
from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..play.game import FaultLedger
from ..play.spec import GameSpec, Occasion
from ..runner import GameRunner, StartFailure
from ..runner.settings import LOCAL, RunnerSettings
from ..sandbox import Sandbox
from ..seats import SUBMISSION, BotKind, BotSpec
from ..submissions.store import Submission
from . import messages
from .addresses import AllowList, callable_address
from .errors import ContestError
from .events import EventHub
from .ladder_book import ADDRESS_VERSION, LadderBook, LadderSet
from .ladder_messages import ladder_event
from .ladder_table import LadderState, ladder_state, owner_of, set_results
from .leagues import UNUSED_LOG_DIR, LeagueRun
from .registry import Registry
from .submissions import Submissions

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
"""How often an idle ladder looks for new versions (a set ending looks at once)."""


def read_state(
    store: Store, book: LadderBook, registry: Registry, league_id: int, settings: LadderSettings
) -> LadderState:
    """The ladder's leaderboard as its book and stored games give it now (blocking: call it off the loop)."""
    results = set_results(book.sets(league_id), store.games(league_id, False), store.finish_times(league_id))
    owners = {bot.name: owner_of(bot) for bot in registry.bots()}
    return ladder_state(book.versions(league_id), results, owners, settings)


def join_newest(book: LadderBook, registry: Registry, submissions: Submissions | None, league_id: int) -> None:
    """Enter every registered bot's newest version that built (a bot at an address: its one version)."""
    submitted = set() if submissions is None else submissions.versions.submitted()
    for bot in registry.bots():
        if bot.name not in submitted:
            book.join(league_id, bot.name, ADDRESS_VERSION)
            continue
        assert submissions is not None
        current = submissions.versions.current(bot.name)
        if current is not None:
            book.join(league_id, bot.name, current.version)


def ladder_games(ladder_set: LadderSet, seed: int) -> list[ScheduledGame]:
    """The games of a set dealt ``seed``: its bots in every seating of the balanced design, in an order drawn
    from the deal (as a league's sets are), so no bot knows from its seat which game of the set it plays."""
    plan = secret_order(seatings(len(ladder_set.bots)), seed, SCHEDULE_VERSION)
    return duplicate_set(ladder_set.bots, seed, ladder_set.set_id, ladder_set.first, plan)


class LadderRun(LeagueRun):
    """One run of a ladder: sets at the matchmaker's tables until it stops."""

    def __init__(
        self,
        name: str,
        league_id: int,
        config: LeagueConfig,
        settings: LadderSettings,
        store: Store,
        registry: Registry,
        hub: EventHub,
        book: LadderBook,
        allow: AllowList,
        submissions: Submissions | None = None,
        sandbox: Sandbox | None = None,
        log_dir: Path = UNUSED_LOG_DIR,
        runner: RunnerSettings = LOCAL,
    ) -> None:
        super().__init__(name, league_id, config, {}, store, registry, hub, None, sandbox, log_dir, runner)
        self.settings = settings
        self.book = book
        self.allow = allow
        self.hosted = submissions
        self.rng = random.Random()
        self.set_size = len(seatings(config.players))
        self.playing: dict[int, LadderSet] = {}
        """The sets being played, by id."""
        self.set_runners: dict[int, GameRunner] = {}
        self.stored: set[int] = set()
        """The indices of the ladder's stored games."""
        self.wake = asyncio.Event()
        self.deals: Deals | None = None
        self.announcing: set[asyncio.Task[None]] = set()
        """Leaderboards being computed, to announce once a set has ended."""

    async def play(self) -> bool:
        """Play sets until :meth:`stop`; a ladder is never complete (it ends with its final or a cancel)."""
        self.deals = league_deals(self.config, self.store, self.league_id, create=False)
        self.stored = await asyncio.to_thread(self.store.finished, self.league_id)
        self.ledger = FaultLedger(self.config.time.max_faults)
        tasks: set[asyncio.Task[None]] = set()
        try:
            while not self.stopping:
                self.wake.clear()
                playing, stored = list(self.playing.values()), set(self.stored)  # the thread reads copies
                for ladder_set in await asyncio.to_thread(self._next_sets, playing, stored):
                    self.playing[ladder_set.set_id] = ladder_set
                    task = asyncio.create_task(self._play_set(ladder_set), name=f"{self.name} set {ladder_set.set_id}")
                    tasks.add(task)
                    task.add_done_callback(self._set_done(tasks))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), POLL_SECONDS)
            if tasks:
                await asyncio.wait(tasks)  # the sets in progress finish (a pause, the server stopping)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return False

    def _set_done(self, tasks: set[asyncio.Task[None]]) -> Callable[[asyncio.Task[None]], None]:
        def done(task: asyncio.Task[None]) -> None:
            tasks.discard(task)
            self.wake.set()

        return done

    def _next_sets(self, playing: list[LadderSet], stored: set[int]) -> list[LadderSet]:
        """The sets to start now, besides those ``playing`` (blocking; ``stored``: the games stored): the
        book's unfinished ones first, then the matchmaker's tables."""
        free = self.settings.concurrency - len(playing)
        busy_sets = {s.set_id for s in playing}
        unfinished = [
            s for s in self.book.sets(self.league_id) if s.set_id not in busy_sets and not set(s.indices) <= stored
        ]
        chosen = unfinished[:free]
        busy = {bot for s in [*playing, *chosen] for bot in s.bots}
        free -= len(chosen)
        if free > 0:
            join_newest(self.book, self.registry, self.hosted, self.league_id)
            state = read_state(self.store, self.book, self.registry, self.league_id, self.settings)
            versions = {row.key: row.version for row in state.rows}
            candidates = state.candidates(self.settings, busy)
            for table in pick_tables(candidates, self.config.players, self.settings, self.rng, free):
                bots = tuple(versions[key].bot for key in table)
                chosen.append(
                    self.book.add_set(
                        self.league_id, bots, tuple(versions[key].version for key in table), self.set_size
                    )
                )
        return chosen

    async def _play_set(self, ladder_set: LadderSet) -> None:
        """Play the set's games not stored yet, one after another, with a runner of its own."""
        try:
            await self._run_set(ladder_set)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the set stays unfinished: the next round plays it again
            spec = GameSpec(ladder_set.first, self.config.ruleset, ladder_set.bots, 0)
            self._failed(spec, error)
        finally:
            self.playing.pop(ladder_set.set_id, None)
            self.set_runners.pop(ladder_set.set_id, None)

    async def _run_set(self, ladder_set: LadderSet) -> None:
        assert self.deals is not None
        seed = self.deals.seed_for(ladder_set.set_id)
        occasion = Occasion("league", self.name, ladder_set.set_id, self.deals.commitment)
        control = self.config.time.control()
        games = ladder_games(ladder_set, seed)
        specs = [
            GameSpec(game.index, self.config.ruleset, game.seats, game.seed, control, occasion)
            for game in games
            if game.index not in self.stored
        ]
        if not specs:
            return
        ledger = FaultLedger(control.max_faults)
        stored = await asyncio.to_thread(self.store.games, self.league_id, False)
        for game in stored:
            if game.set_id == ladder_set.set_id:
                ledger.add_stored(game)  # a resumed set's fault counts go on
        bots, submitted = await self._bots(ladder_set, ledger)
        runner = self.runner_settings.one_worker().make(
            bots,
            ledger,
            concurrency=1,
            log_dir=self.log_dir,
            start_failure=StartFailure.FORFEIT,
            sandbox=self.sandbox,
            submissions=submitted,
            isolation=self.config.isolation_for(untrusted=True),
        )
        self.set_runners[ladder_set.set_id] = runner
        if self.stopping:
            runner.stop()
        async with runner:
            for bot, why in runner.unstarted.items():
                log.warning("ladder %s: bot %s could not start: %s", self.name, bot, why)
                ledger.forfeit(bot, f"could not start: {why}")
            await runner.run(specs, lambda game: self._stored(ladder_set, game), self._failed)

    async def _bots(self, ladder_set: LadderSet, ledger: FaultLedger) -> tuple[list[BotSpec], dict[str, Submission]]:
        """The set's bots as the runner starts them: submitted ones at the set's versions, the others at
        their addresses (one the allow-list refuses is forfeited)."""
        bots: list[BotSpec] = []
        submitted: dict[str, Submission] = {}
        for bot, version in zip(ladder_set.bots, ladder_set.versions):
            address = ""
            if version != ADDRESS_VERSION:
                assert self.hosted is not None
                try:
                    submission = await asyncio.to_thread(self.hosted.submission, bot, version)
                except ContestError as error:  # deleted meanwhile: the referee plays its seats
                    log.warning("ladder %s: bot %s cannot play: %s", self.name, bot, error)
                    ledger.forfeit(bot, f"its version cannot be launched: {error}")
                    bots.append(BotSpec(bot, address, BotKind.ADDRESS))
                    continue
                submitted[bot] = submission
                bots.append(BotSpec(bot, f"{SUBMISSION}{submission.folder}", BotKind.SUBMISSION))
                continue
            try:
                address = await callable_address(self.registry.bot(bot).address, self.allow)
            except ContestError as error:
                log.warning("ladder %s: bot %s refused (%s); the fallback plays for it", self.name, bot, error)
                ledger.forfeit(bot, "its address is not one the organizer allows")
            bots.append(BotSpec(bot, address, BotKind.ADDRESS))
        return bots, submitted

    def _stored(self, ladder_set: LadderSet, game: FinishedGame) -> None:
        """One game of ``ladder_set`` ended: stored, announced; the set's last, the leaderboard too."""
        self.store.add(self.league_id, game)
        self.stored.add(game.index)
        self.failures_in_a_row = 0
        self.played += 1
        for event in messages.game_events(self.name, game, len(self.stored), 0):
            self.hub.publish(event)
        if set(ladder_set.indices) <= self.stored:
            task = asyncio.create_task(self._announce_ladder())
            self.announcing.add(task)
            task.add_done_callback(self.announcing.discard)

    async def _announce_ladder(self) -> None:
        state = await asyncio.to_thread(read_state, self.store, self.book, self.registry, self.league_id, self.settings)
        self.hub.publish(ladder_event(self.name, state))

    def stop(self) -> None:
        """Start no more sets nor games; those in progress finish."""
        super().stop()
        for runner in self.set_runners.values():
            runner.stop()
        self.wake.set()
