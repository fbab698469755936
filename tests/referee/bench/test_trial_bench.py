"""``rage bench test``: its engine-only games agree with the referee's, and the command runs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from rage_referee.bench.trial import GREEDY, HEURISTIC, play_direct
from rage_referee.cli import app
from rage_referee.league.schedule import ScheduledGame
from rage_referee.play.game import FaultLedger, play_game
from rage_referee.play.spec import GameSpec
from rage_referee.seats import BotHandle, BotSpec, load_bot_class, start_all
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner


def test_a_direct_game_is_the_referees_game(tmp_path: Path) -> None:
    ruleset = Ruleset.of("amigo", rounds=[5, 4, 3])
    targets = {"h": HEURISTIC, "g": GREEDY, "h2": HEURISTIC}
    game = ScheduledGame(3, ("g", "h", "h2"), 12345, 0)
    direct = play_direct(game, ruleset, {name: load_bot_class(target) for name, target in targets.items()})

    async def refereed() -> tuple[int, ...]:
        handles = {name: BotHandle(BotSpec.of(name, target), tmp_path) for name, target in targets.items()}
        await start_all(handles.values())
        try:
            result = await play_game(GameSpec(3, ruleset, game.seats, game.seed), handles, FaultLedger(10))
        finally:
            await asyncio.gather(*(handle.stop() for handle in handles.values()))
        return result.figures.totals

    assert direct.figures.totals == asyncio.run(refereed())


def test_bench_test_json() -> None:
    result = CliRunner().invoke(app, ["bench", "test", "--runs", "1", "--equal-runs", "1", "--cap", "12", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["runs"] == 1 and figures["cap"] == 12 and figures["elo1"] > 0
    assert 0 < figures["paired_mean_games"] <= 12 and 0 < figures["baseline_mean_games"] <= 12
    assert 0 < figures["earlier_mean_games"] <= 12
    assert figures["paired_false_h1_share"] in (0.0, 1.0) and figures["earlier_false_h1_share"] in (0.0, 1.0)
