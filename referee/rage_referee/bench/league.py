"""``rage bench league``: a league over gRPC at each concurrency, and how much duplicate deals narrow its intervals."""

from __future__ import annotations

import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

from ..league.config import LeagueConfig
from ..league.ratings import rating_table
from ..league.runner import league_game, league_schedule
from ..play.deals import Deals
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec
from ..runner import LocalRunner
from ..seats import BotSpec
from .engine import Rate
from .protocol import timed_games


@dataclass(frozen=True)
class LeagueRate:
    concurrency: int
    rate: Rate


def _bench_league(
    bots: dict[str, str], players: int, games: int, seed: int = 0, duplicate: bool = True
) -> LeagueConfig:
    """A league of ``bots`` on amigo rules with public deals."""
    ruleset = Ruleset.of("amigo")
    return LeagueConfig(
        name="bench", ruleset=ruleset, bots=bots, players=players, games=games, seed=seed, duplicate=duplicate
    )


def _league_specs(config: LeagueConfig) -> list[GameSpec]:
    deals = Deals.public(config.seed or 0)
    return [league_game(config, game, deals) for game in league_schedule(config, deals)]


async def league_rates(concurrencies: list[int], games: int) -> list[LeagueRate]:
    """A 4-bot, 4-player league of the random and heuristic example bots over gRPC, at each concurrency."""
    bots = {
        "heuristic-1": example_bot("heuristic_bot"),
        "heuristic-2": example_bot("heuristic_bot"),
        "random-1": example_bot("random_bot"),
        "random-2": example_bot("random_bot"),
    }
    config = _bench_league({name: f"python {shlex.quote(str(file))}" for name, file in bots.items()}, 4, games)
    specs = _league_specs(config)
    with tempfile.TemporaryDirectory() as logs:
        async with LocalRunner(config.bot_specs(), FaultLedger(NEVER_FORFEIT), log_dir=Path(logs)) as runner:
            figures = []
            for concurrency in concurrencies:
                runner.concurrency = concurrency
                rate, _ = await timed_games(runner, specs)
                figures.append(LeagueRate(concurrency, rate))
            return figures


@dataclass(frozen=True)
class IntervalWidth:
    duplicate: bool
    mean_width: float
    """Mean width of the bots' 95% rating intervals, in Elo."""


async def interval_widths(games: int, leagues: int) -> list[IntervalWidth]:
    """The same number of games with and without duplicate deals (in-process example bots, several seeds)."""
    bots = {
        "heuristic": f"{example_bot('heuristic_bot')}:HeuristicBot",
        "greedy": f"{example_bot('greedy_bot')}:GreedyBot",
        "random-1": f"{example_bot('random_bot')}:RandomBot",
        "random-2": f"{example_bot('random_bot')}:RandomBot",
    }
    async with LocalRunner(
        [BotSpec.of(name, target) for name, target in bots.items()], FaultLedger(NEVER_FORFEIT)
    ) as runner:
        runner.concurrency = 8
        widths = []
        for duplicate in (True, False):
            per_league = []
            for seed in range(leagues):
                config = _bench_league(bots, 3, games, seed, duplicate)
                _, finished = await timed_games(runner, _league_specs(config))
                finished.sort(key=lambda game: game.index)
                per_league += [row.high - row.low for row in rating_table(finished)]
            widths.append(IntervalWidth(duplicate, sum(per_league) / len(per_league)))
        return widths
