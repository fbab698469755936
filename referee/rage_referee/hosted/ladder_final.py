"""A ladder's final: a duplicate round robin among its finalists that stops once their order is shown.

``finalize`` freezes the ladder (no version joins any more), pins each finalist's active version and
stores the final as a league of its own (``LADDER.final``) with its own secret deal key: the schedule of
a league of the finalists (in their ladder order) with ``games`` the cap, played one round robin at a
time. After each round the final's standings (:class:`~rage_referee.league.separation.SetWatch`: the
maximum-likelihood Elo over its whole sets) are read; the final stops once every adjacent pair is
separated (its paired duplicate difference's 95% confidence sequence, Holm-corrected, excludes 0), or
at the cap. Its games are a prefix of whole rounds of that schedule, so its bundle (the schedule's
``games`` set to those played) verifies with ``rage league verify-bundle`` once its key is revealed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from pathlib import Path

from rage_sdk.pb import referee_pb2 as pb

from ..league.config import LeagueConfig
from ..league.runner import LeaguePlan, league_deals, league_schedule, run_league
from ..league.schedule import schedule_size
from ..league.separation import SetWatch
from ..league.store import Store
from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..runner.settings import LOCAL, RunnerSettings
from ..sandbox import Sandbox
from ..submissions.store import Submission
from ..submissions.version import short_version
from . import messages
from .events import EventHub
from .ladder_book import ADDRESS_VERSION, LadderFinal
from .ladder_messages import final_event
from .ladder_table import LadderState
from .leagues import FINAL_SUFFIX, UNUSED_LOG_DIR, LeagueRun
from .registry import Registry

log = logging.getLogger(__name__)

DEFAULT_MAX_GAMES = 1000
"""The final's cap on games when the organizer gives none."""


def final_name(ladder: str) -> str:
    """The name the final's games are stored under."""
    return f"{ladder}{FINAL_SUFFIX}"


def round_games(bots: int, players: int) -> int:
    """The games of one duplicate round robin of ``bots`` at tables of ``players``."""
    return schedule_size([f"b{k}" for k in range(bots)], players, games=1)[1]


def final_config(ladder: LeagueConfig, final: LadderFinal, targets: Mapping[str, str], games: int) -> LeagueConfig:
    """The final's league: the ladder's settings, the finalists at ``targets``, ``games`` in whole rounds."""
    return ladder.model_copy(
        update={
            "name": final_name(ladder.name),
            "bots": {bot: targets[bot] for bot in final.bots},
            "games": games,
            "games_per_table": None,
            "keep_going": True,
            "exclude": [],
        }
    )


def capped_games(final: LadderFinal, players: int) -> int:
    """The final's games at most: whole rounds, at least one, within its cap."""
    size = round_games(len(final.bots), players)
    return size * max(1, final.max_games // size)


def final_watch(config: LeagueConfig, store: Store, final: LadderFinal) -> SetWatch:
    """The final's whole sets so far, each pair's figures (blocking)."""
    deals = league_deals(config, store, final.final_league_id, create=False)
    watch = SetWatch(league_schedule(config, deals), config.forfeits)
    watch.add_all(store.games(final.final_league_id, False))
    return watch


def final_ladder(ladder: str, final: LadderFinal, watch: SetWatch, state: LadderState, commitment: str) -> pb.Ladder:
    """The final's standings: the finalists in its order, each adjacent pair marked separated or not; a
    finalist with no whole set yet last, unranked. mu and sigma are those of the pinned version on the ladder.
    ``commitment``: to the final's deal key."""
    order, pairs = watch.pairs()
    by_pair = {(row.a, row.b): row for row in pairs}
    ratings = {(row.version.bot, row.version.version): row for row in state.rows}
    games = {bot: sum(bot in g.figures.seats for g in watch.complete) for bot in final.bots}
    sets = {bot: len({g.set_id for g in watch.complete if bot in g.figures.seats}) for bot in final.bots}
    rows = []
    ranked = [*order, *(bot for bot in final.bots if bot not in order)]
    for place, bot in enumerate(ranked):
        version = final.versions[final.bots.index(bot)]
        rated = ratings.get((bot, version))
        row = pb.LadderRow(
            rank=place + 1 if bot in order else 0,
            bot=bot,
            owner=rated.owner if rated else "",
            version=version if version == ADDRESS_VERSION else short_version(version),
            mu=rated.rating.mu if rated else 0.0,
            sigma=rated.rating.sigma if rated else 0.0,
            rating=rated.rating.conservative if rated else 0.0,
            sets=sets[bot],
            games=games[bot],
            status="final",
        )
        if bot in order and place + 1 < len(order):
            pair = by_pair[(bot, order[place + 1])]
            row.separated = pair.separates(bot)  # in the final's order, not against it
            row.difference = pair.difference
        rows.append(row)
    games_rated = len(watch.complete)
    return pb.Ladder(
        league=ladder, sets=watch.sets, games=games_rated, rows=rows, final=True, deal_commitment=commitment
    )


class FinalRun(LeagueRun):
    """The final of a ladder, played one round robin at a time until separated or capped; complete then.

    Each of its games is announced on the ladder's stream as a game of the final, and after each of its
    whole sets its standings (:func:`final_ladder`)."""

    def __init__(
        self,
        name: str,
        final: LadderFinal,
        config: LeagueConfig,
        store: Store,
        registry: Registry,
        hub: EventHub,
        ladder_state: Callable[[], LadderState],
        submissions: Mapping[str, Submission] | None = None,
        sandbox: Sandbox | None = None,
        log_dir: Path = UNUSED_LOG_DIR,
        runner: RunnerSettings = LOCAL,
    ) -> None:
        config = config.model_copy(update={"runner": runner})
        super().__init__(
            name, final.final_league_id, config, {}, store, registry, hub, submissions, sandbox, log_dir, runner
        )
        self.final = final
        self.ladder_state = ladder_state
        """The frozen ladder's leaderboard (blocking): the finalists' ratings there."""
        self.watch: SetWatch | None = None
        self.state: LadderState | None = None
        self.deals: Deals | None = None
        self.done = 0
        """The final's games stored."""

    async def play(self) -> bool:
        """Play round robins until the finalists' order is shown or the cap; whether the final is over."""
        watch = self.watch = await asyncio.to_thread(final_watch, self.config, self.store, self.final)
        self.state = await asyncio.to_thread(self.ladder_state)
        self.done = await asyncio.to_thread(self.store.count, self.league_id)
        deals = self.deals = league_deals(self.config, self.store, self.league_id, create=False)
        games = league_schedule(self.config, deals)
        self.total = len(games)
        size = round_games(len(self.final.bots), self.config.players)
        for start in range(0, len(games), size):
            part = games[start : start + size]
            done = await asyncio.to_thread(self.store.finished, self.league_id)
            if any(game.index not in done for game in part):
                plan = LeaguePlan(self.league_id, part, done, deals)
                await run_league(
                    self.config,
                    self.store,
                    plan,
                    self.log_dir,
                    on_game=self._final_game,
                    sandbox=self.sandbox,
                    submissions=self.submissions,
                    stop=lambda: self.stopping,
                )
                if self.stopping:
                    return False
                finished = await asyncio.to_thread(self.store.finished, self.league_id)
                unplayed = sum(game.index not in finished for game in part)
                if unplayed:
                    self.failure = f"the final's round from game {start} ended with {unplayed} games unplayed"
                    return False
            if watch.sets and watch.separated():
                log.info("ladder %s: the final's order is shown after %d sets", self.name, watch.sets)
                break
        return True

    def _final_game(self, game: FinishedGame) -> None:
        """A game of the final is stored: announced; the final's standings too when it completes a set."""
        assert self.watch is not None and self.state is not None and self.deals is not None
        self.played += 1
        self.done += 1
        whole = self.watch.add(game)
        for event in messages.game_events(self.name, game, self.done, self.total, final=True):
            self.hub.publish(event)
        if whole:
            standings = final_ladder(self.name, self.final, self.watch, self.state, self.deals.commitment or "")
            self.hub.publish(final_event(self.name, standings))
