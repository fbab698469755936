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

from ..league.runner import league_deals
from ..league.store import Store
from ..runner.settings import LOCAL, RunnerSettings
from ..submissions.store import Submission
from .addresses import AllowList
from .bot_logs import league_logs
from .errors import AlreadyExists
from .events import EventHub
from .ladder_book import LadderBook
from .ladder_definition import LadderDefinition, is_ladder, ladder_definition
from .ladder_run import LadderRun, read_state
from .ladder_table import LadderState
from .leagues import UNUSED_LOG_DIR, LeagueManager, LeagueRun
from .registry import LeagueEntry, Registry
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
        if definition.name in self.store.league_names():
            raise AlreadyExists(f"name: a league named {definition.name!r} exists already")
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
