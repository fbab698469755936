"""Ladders beside leagues: the :class:`~.leagues.LeagueManager` that also creates, runs and finalizes ladders.

A ladder is a hosted league whose definition is a contest file (:mod:`.ladder_definition`): it is
stored, listed, started, paused, resumed and cancelled as a league is, its games kept under its
league row; its run is a :class:`~.ladder_run.LadderRun`. It has no schedule (``games_total`` 0) and no
pinned versions: every bot plays its newest version that built.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from rage_sdk.pb import referee_pb2 as pb

from ..ladder.final import finalists
from ..league.bundle import write_bundle
from ..league.config import LeagueConfig
from ..league.runner import league_deals
from ..league.store import Store
from ..play.deals import Deals
from ..runner.settings import LOCAL, RunnerSettings
from ..seats import SUBMISSION
from ..submissions.store import Submission
from .addresses import AllowList, callable_address
from .bot_logs import league_logs
from .errors import AlreadyExists, FailedPrecondition, InvalidArgument
from .events import EventHub
from .ladder_book import ADDRESS_VERSION, LadderBook, LadderFinal
from .ladder_definition import LadderDefinition, is_ladder, ladder_definition
from .ladder_final import (
    DEFAULT_MAX_GAMES,
    FinalRun,
    capped_games,
    final_config,
    final_ladder,
    final_name,
    final_watch,
)
from .ladder_run import LadderRun, read_state
from .ladder_table import PLAYING, LadderState
from .leagues import UNUSED_LOG_DIR, LeagueManager, LeagueRun
from .registry import LeagueEntry, LeagueStatus, Registry
from .submissions import Submissions

log = logging.getLogger(__name__)


class LadderManager(LeagueManager):
    """Every hosted league and ladder, and the runs of those running."""

    def __init__(
        self,
        registry: Registry,
        store: Store,
        hub: EventHub,
        allow: AllowList,
        submissions: Submissions | None = None,
        runner: RunnerSettings = LOCAL,
    ) -> None:
        super().__init__(registry, store, hub, allow, submissions, runner)
        self.book = LadderBook(store.engine)

    def create_ladder(self, definition: LadderDefinition, text: str) -> LeagueEntry:
        """Store a new ladder (status created); its secret deal key is drawn now, before anyone can watch."""
        self.check_new_name(definition.name)
        config = definition.config
        league_id = self.store.league(definition.name, {"ladder": True, "players": config.players})
        league_deals(config, self.store, league_id)
        ruleset = json.dumps(config.ruleset.to_json(), sort_keys=True)
        return self.registry.add_league(config.name, league_id, text, [], ruleset, config.players, 0)

    def definition(self, entry: LeagueEntry) -> LadderDefinition:
        return ladder_definition(entry.definition, entry.name)

    def state(self, entry: LeagueEntry) -> LadderState:
        """The ladder's leaderboard now (blocking: off the event loop)."""
        settings = self.definition(entry).settings
        return read_state(self.store, self.book, self.registry, entry.league_id, settings)

    def held_versions(self, entry: LeagueEntry, bot: str) -> set[str]:
        """The versions of ``bot`` the ladder still plays (blocking): in placement or active on its
        leaderboard, and the one its final pins."""
        held = {
            row.version.version for row in self.state(entry).rows if row.version.bot == bot and row.status in PLAYING
        }
        final = self.book.final(entry.league_id)
        if final is not None and bot in final.bots:
            held.add(final.versions[final.bots.index(bot)])
        return held

    async def finalize(self, name: str, top: int | None, max_games: int | None) -> LeagueEntry:
        """Freeze the ladder ``name``, pin its ``top`` bots' active versions (all when None) and play its final.

        The ladder's run stops first (its sets in progress finish); the final runs as the ladder's run from
        then on (after a restart too), and the ladder is finished when the final is.

        :raises FailedPrecondition: not a ladder, over or finalized already, or fewer than two bots to play.
        """
        async with self._lock:
            entry = self.registry.league(name)
            if not is_ladder(entry.definition):
                raise FailedPrecondition(f"league {name!r} has a schedule: only a ladder has a final")
            if self.book.final(entry.league_id) is not None:
                raise FailedPrecondition(f"ladder {name!r} is finalized already")
            if entry.status.over or entry.status is LeagueStatus.CREATED:
                raise FailedPrecondition(
                    f"ladder {name!r} is {entry.status.value}; only a ladder that has run has a final"
                )
            if final_name(name) in self.store.league_names():
                raise AlreadyExists(f"name: a league named {final_name(name)!r} exists already")
            running = self._runs.get(name)
            if running is not None:
                running[0].stop()  # its sets in progress finish: they count on the ladder
                await asyncio.wait([running[1]])
            definition = self.definition(entry)
            state = await asyncio.to_thread(self.state, entry)
            active = {bot: row.key for bot, row in state.active().items()}
            try:
                keys = finalists({row.key: row.rating for row in state.rows}, active, top)
            except ValueError as error:
                raise FailedPrecondition(f"ladder {name!r}: {error}") from None
            rows = {row.key: row for row in state.rows}
            bots = tuple(rows[key].version.bot for key in keys)
            versions = tuple(rows[key].version.version for key in keys)
            final_id = self.store.league(final_name(name), {"final_of": name, "bots": list(bots)})
            final = self.book.add_final(
                LadderFinal(entry.league_id, final_id, bots, versions, max_games or DEFAULT_MAX_GAMES)
            )
            league_deals(definition.config.model_copy(update={"seed": None}), self.store, final_id)  # its own key
            if self.submissions is not None:
                pins = {bot: v for bot, v in zip(final.bots, final.versions) if v != ADDRESS_VERSION}
                self.submissions.versions.pin(entry.league_id, pins)
            entry = self.registry.set_status(name, LeagueStatus.RUNNING)
            await self._launch(entry, {})
            self._announce(entry)
            log.info("ladder %s: finalized: %s", name, ", ".join(bots))
            return entry

    async def _final_bots(
        self, definition: LadderDefinition, final: LadderFinal
    ) -> tuple[LeagueConfig, dict[str, Submission]]:
        """The final's league config (its bots where the referee finds them) and its submitted bots' pinned versions."""
        targets: dict[str, str] = {}
        submitted: dict[str, Submission] = {}
        for bot, version in zip(final.bots, final.versions):
            if version == ADDRESS_VERSION:
                targets[bot] = await callable_address(self.registry.bot(bot).address, self.allow)
                continue
            assert self.submissions is not None
            submitted[bot] = await asyncio.to_thread(self.submissions.submission, bot, version)
            targets[bot] = f"{SUBMISSION}{bot}"
        config = final_config(definition.config, final, targets, capped_games(final, definition.config.players))
        return config, submitted

    def final_standings(self, entry: LeagueEntry, state: LadderState) -> pb.Ladder | None:
        """The final's standings, once the ladder is finalized (blocking)."""
        final = self.book.final(entry.league_id)
        if final is None:
            return None
        definition = self.definition(entry)
        targets = {bot: f"{SUBMISSION}{bot}" for bot in final.bots}
        config = final_config(definition.config, final, targets, capped_games(final, definition.config.players))
        watch = final_watch(config, self.store, final)
        return final_ladder(entry.name, final, watch, state, self.commitment(final.final_league_id))

    def final_record(self, entry: LeagueEntry, index: int) -> dict[str, Any]:
        """Finished game ``index`` of the ladder's final, once anyone may read it (as ``withheld`` says; blocking).

        :raises ContestError: the league is no ladder, it has no final, or the game is not there or withheld.
        """
        if not is_ladder(entry.definition):
            raise InvalidArgument("final", f"league {entry.name!r} is not a ladder: it has no final")
        final = self.book.final(entry.league_id)
        if final is None:
            raise FailedPrecondition(f"final: ladder {entry.name!r} has no final yet (rage referee finalize makes it)")
        total = capped_games(final, entry.players)
        if index >= total:
            raise InvalidArgument("game", f"the final of ladder {entry.name!r} has games 0-{total - 1}")
        return self.shown_record(entry, index, final.final_league_id)

    def final_bundle(self, entry: LeagueEntry, folder: Path) -> int:
        """Write the finished ladder's final as a contest bundle into ``folder``, its deal key revealed; its games.

        :raises FailedPrecondition: the ladder has no final, or it is not finished yet.
        """
        if not is_ladder(entry.definition):
            raise FailedPrecondition(f"league {entry.name!r} has a schedule: only a ladder has a final")
        final = self.book.final(entry.league_id)
        if final is None:
            raise FailedPrecondition(f"ladder {entry.name!r} has no final yet: finalize it first")
        if entry.status is not LeagueStatus.FINISHED:
            raise FailedPrecondition(
                f"ladder {entry.name!r} is {entry.status.value}; its final's bundle is written once it is finished"
            )
        definition = self.definition(entry)
        games = self.store.games(final.final_league_id)
        targets = {bot: f"{SUBMISSION}{bot}" for bot in final.bots}
        config = final_config(definition.config, final, targets, len(games))
        key = self.store.reveal(final.final_league_id)
        write_bundle(folder, config, Deals(key), True, games)
        log.info("ladder %s: the final's deal key revealed, its bundle written", entry.name)
        return len(games)

    def _submitted(self, entry: LeagueEntry) -> dict[str, Submission]:
        if not is_ladder(entry.definition):
            return super()._submitted(entry)
        if self.submissions is not None and self.submissions.versions.submitted():
            self.submissions.policy.require()  # refused before the status changes
        return {}

    async def _launch(
        self,
        entry: LeagueEntry,
        submitted: dict[str, Submission],
        after: tuple[LeagueRun, asyncio.Task[None]] | None = None,
    ) -> None:
        if not is_ladder(entry.definition):
            await super()._launch(entry, submitted, after)
            return
        definition = self.definition(entry)
        sandbox, log_dir = None, UNUSED_LOG_DIR
        if self.submissions is not None:
            sandbox = self.submissions.policy.for_league(definition.config.sandbox)
            log_dir = league_logs(self.submissions.root, entry.name)
        final = self.book.final(entry.league_id)
        run: LeagueRun
        if final is not None:
            config, submitted = await self._final_bots(definition, final)
            run = FinalRun(
                entry.name,
                final,
                config,
                self.store,
                self.registry,
                self.hub,
                lambda: self.state(entry),
                submitted,
                sandbox,
                league_logs(self.submissions.root, final_name(entry.name)) if self.submissions is not None else log_dir,
                self.runner,
            )
        else:
            run = LadderRun(
                entry.name,
                entry.league_id,
                definition.config,
                definition.settings,
                self.store,
                self.registry,
                self.hub,
                self.book,
                self.allow,
                self.submissions,
                sandbox,
                log_dir,
                self.runner,
            )
        if after is not None:
            run.previous = after[0]
        task = asyncio.create_task(self._run(run, None if after is None else after[1]), name=f"ladder {entry.name}")
        self._runs[entry.name] = (run, task)
