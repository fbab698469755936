"""Leagues running inside the server: started, paused, resumed and cancelled by the organizer.

A run plays a league's games not stored yet, ``concurrency`` at a time, each stored the moment it
ends (as :func:`rage_referee.league.runner.run_league` does) and announced to watchers. Pausing
lets the games in progress finish and starts no more; resuming, or the server starting again with
the league marked running, begins a new run from what is stored. Cancelling drops the games in
progress. The referee connects to each bot at the address in the registry, checked against the
allow-list again just before; a bot whose address is refused is played by the fallback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from rage_sdk.deal import key_commitment

from ..bots import BotHandle, BotSpec
from ..connection import HandshakeError, RemoteConnection
from ..game import FaultLedger, GameResult, play_game
from ..league.config import LeagueConfig
from ..league.runner import league_deals, league_game, league_schedule, stored
from ..league.schedule import ScheduledGame
from ..league.store import Store, StoredGame, StoreError
from ..tasks import all_or_cancel
from . import messages
from .addresses import AllowList, callable_address
from .definition import LeagueDefinition, league_config, schedule_key
from .errors import AlreadyExists, ContestError, FailedPrecondition
from .events import EventHub
from .registry import LeagueEntry, LeagueStatus, Registry
from .standings import point_table

log = logging.getLogger(__name__)

STANDINGS_INTERVAL = 0.5
"""Seconds between two live standings events of a league, at least."""
UNUSED_LOG_DIR = Path("logs")
"""Hosted bots are addresses: the referee launches no process and writes no bot log."""

TRANSITIONS: dict[str, tuple[tuple[LeagueStatus, ...], LeagueStatus]] = {
    "start": ((LeagueStatus.CREATED,), LeagueStatus.RUNNING),
    "pause": ((LeagueStatus.RUNNING,), LeagueStatus.PAUSED),
    "resume": ((LeagueStatus.PAUSED,), LeagueStatus.RUNNING),
    "cancel": ((LeagueStatus.CREATED, LeagueStatus.RUNNING, LeagueStatus.PAUSED), LeagueStatus.CANCELLED),
}


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
    ) -> None:
        self.name = name
        self.league_id = league_id
        self.config = config
        self.addresses = dict(addresses)
        """Where to call each bot; ``None`` for a bot whose address the allow-list refused."""
        self.store = store
        self.registry = registry
        self.hub = hub
        self.stopping = False
        """Set to start no more games (a pause, or the server stopping)."""
        self.handles: dict[str, BotHandle] = {}
        self.results: list[StoredGame] = []
        self.total = 0
        self._published_at = 0.0
        self._unpublished = False

    async def play(self) -> bool:
        """Play every game not stored yet (until :attr:`stopping`); whether the league is complete."""
        deals = league_deals(self.config, self.store, self.league_id, create=False)
        schedule = league_schedule(self.config, deals)
        self.total = len(schedule)
        self.results = self.registry.results(self.league_id)
        done = {game.index for game in self.results}
        todo = deque(game for game in schedule if game.index not in done)
        time_control = self.config.time.control()
        ledger = FaultLedger(time_control.max_faults)
        for name, address in self.addresses.items():
            self.handles[name] = BotHandle(BotSpec(name, address or "", "address"), UNUSED_LOG_DIR)
            if address is None:
                ledger.forfeited.add(name)
        try:
            await asyncio.gather(*(self._connect(handle) for handle in self.handles.values()))

            async def worker() -> None:
                while todo and not self.stopping:
                    game = todo.popleft()
                    self._finished(game, await play_game(league_game(self.config, game, deals), self.handles, ledger))

            await all_or_cancel([worker() for _ in range(min(self.config.concurrency, len(todo)))])
        finally:
            await asyncio.gather(*(handle.stop() for handle in self.handles.values()), return_exceptions=True)
            if self._unpublished:
                self._publish_standings()
        return len(self.results) == self.total

    async def _connect(self, handle: BotHandle) -> None:
        if not handle.spec.target:
            return
        try:
            await handle.start()
        except HandshakeError as error:
            message = "league %s: bot %s cannot be reached yet (%s); retried at its next decision"
            log.warning(message, self.name, handle.spec.name, error)

    def _finished(self, game: ScheduledGame, result: GameResult) -> None:
        finished = stored(game, result)
        self.store.add(self.league_id, finished)
        self.results.append(replace(finished, record={}))
        for event in messages.game_events(self.name, finished, len(self.results), self.total):
            self.hub.publish(event)
        self._unpublished = True
        if len(self.results) == self.total or time.monotonic() - self._published_at >= STANDINGS_INTERVAL:
            self._publish_standings()

    def _publish_standings(self) -> None:
        self._unpublished = False
        self._published_at = time.monotonic()
        self.hub.publish(messages.standings_event(self.name, point_table(self.results)))

    def readdress(self, bot: str, address: str) -> None:
        """Call ``bot`` at ``address`` from its next connection on (a reconnection after a failure)."""
        handle = self.handles.get(bot)
        if handle is not None and isinstance(handle.connection, RemoteConnection):
            handle.connection.address = address


class LeagueManager:
    """Every hosted league's state, and the runs of those that are running."""

    def __init__(self, registry: Registry, store: Store, hub: EventHub, allow: AllowList) -> None:
        self.registry = registry
        self.store = store
        self.hub = hub
        self.allow = allow
        self._runs: dict[str, tuple[LeagueRun, asyncio.Task[None]]] = {}
        self._lock = asyncio.Lock()

    def create(self, definition: LeagueDefinition, text: str) -> LeagueEntry:
        """Store a new league (status created) with its schedule's key."""
        if definition.name in self.store.league_names():
            raise AlreadyExists(f"name: a league named {definition.name!r} exists already")
        league_id = self.store.league(definition.name, schedule_key(definition.config))
        config = definition.config
        league_deals(config, self.store, league_id)  # a secret key is drawn now, before anyone can watch
        ruleset = json.dumps(config.ruleset.to_json(), sort_keys=True)
        return self.registry.add_league(
            config.name, league_id, text, definition.bots, ruleset, config.players, len(definition.schedule)
        )

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
                running[0].stopping = True
            elif running is not None and verb in ("resume", "cancel"):
                if verb == "cancel":
                    running[1].cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await running[1]  # a pause's games in progress finish before the league resumes
                self._check(self.registry.league(name), verb)  # the run may have finished the league meanwhile
            entry = self.registry.set_status(name, target)
            if target is LeagueStatus.RUNNING:
                await self._launch(entry)
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
        done = self.registry.games_done(entry.league_id)
        self.hub.publish(messages.status_event(entry.name, entry.status, done, entry.games_total))
        if entry.status.over:
            self.hub.close(entry.name)

    async def resume_running(self) -> None:
        """Start a run for every league marked running (after the server starts)."""
        async with self._lock:
            for entry in self.registry.leagues():
                if entry.status is LeagueStatus.RUNNING and entry.name not in self._runs:
                    log.info("league %s: running when the referee stopped; resuming", entry.name)
                    await self._launch(entry)

    async def _launch(self, entry: LeagueEntry) -> None:
        addresses: dict[str, str | None] = {}
        registered: dict[str, str] = {}
        for name in entry.bots:
            registered[name] = self.registry.bot(name).address
            try:
                addresses[name] = await callable_address(registered[name], self.allow)
            except ContestError as error:
                log.warning("league %s: bot %s refused (%s); the fallback plays for it", entry.name, name, error)
                addresses[name] = None
        config = league_config(entry.definition, entry.name, registered)
        run = LeagueRun(entry.name, entry.league_id, config, addresses, self.store, self.registry, self.hub)
        task = asyncio.create_task(self._run(run), name=f"league {entry.name}")
        self._runs[entry.name] = (run, task)

    async def _run(self, run: LeagueRun) -> None:
        try:
            complete = await run.play()
        except asyncio.CancelledError:
            raise
        except StoreError as error:  # e.g. another referee runs the same league on this database
            log.error("league %s: the run stopped: %s; pause and resume the league to try again", run.name, error)
            return
        except Exception:
            log.exception("league %s: the run failed; pause and resume the league to try again", run.name)
            return
        finally:
            if self._runs.get(run.name, (None,))[0] is run:
                del self._runs[run.name]
        if complete and self.registry.league(run.name).status is not LeagueStatus.CANCELLED:
            entry = self.registry.set_status(run.name, LeagueStatus.FINISHED)
            self._announce(entry)
            log.info("league %s: finished, %d games", run.name, run.total)

    def deal_commitment(self, entry: LeagueEntry) -> str:
        """The commitment to the league's deal key; empty for public deals (an explicit seed)."""
        stored_key = self.store.deal_key(entry.league_id)
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

    def withheld(self, entry: LeagueEntry, index: int) -> str | None:
        """Why finished game ``index``'s record is not shown yet: other games of its duplicate set, dealt
        the same hands, are still to be played (until the league is over)."""
        if entry.status.over or not tomllib.loads(entry.definition).get("duplicate", True):
            return None
        waiting = entry.players - self.registry.set_games(entry.league_id, index)
        if waiting <= 0:
            return None
        return (
            f"game: game {index} of league {entry.name!r} shares its deal with {waiting} games still to be "
            "played; its record is shown once they are"
        )

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
            run.stopping = True
        tasks = [task for _, task in runs]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
