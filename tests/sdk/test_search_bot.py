"""The search bot: legal choices within its time budget, a whole game without a fault."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec
from rage_referee.runner import LocalRunner
from rage_referee.seats import BotSpec
from rage_sdk.events import GameInfo
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState, Phase
from rage_sdk.view import view_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

from search_bot import SearchBot  # noqa: E402


def test_each_decision_is_legal_and_within_the_budget() -> None:
    ruleset = Ruleset.of("amigo", rounds=[5, 2])
    bot = SearchBot(budget_ms=20)
    bot.on_game_start(GameInfo(1, 0, ("a", "b", "c", "d"), ruleset, 1, 1000, 0))
    state = GameState(ruleset, 4)
    rng = random.Random(3)
    slowest = 0.0
    while not state.is_terminal():
        if state.phase is Phase.DEAL:
            state.deal_seeded(rng.randrange(100))
            continue
        if state.to_move != 0:
            state.apply(rng.choice(state.legal_actions()))
            continue
        view = view_for(state, 0)
        start = time.perf_counter()
        action = bot.search(view)
        slowest = max(slowest, time.perf_counter() - start)
        assert action in view.legal_actions
        state.apply(action)
    assert slowest < 0.5, f"a 20 ms budget took {slowest * 1000:.0f} ms"


def test_the_budget_stays_within_half_the_referee_deadline() -> None:
    bot = SearchBot(budget_ms=900)
    bot.on_game_start(GameInfo(1, 0, ("a", "b"), Ruleset.of("amigo"), 1, 200, 0))
    assert bot.budget_ms == 100


def test_a_game_against_the_examples_has_no_fault() -> None:
    bots = {
        "search": f"{EXAMPLES / 'search_bot.py'}:SearchBot",
        "heuristic": f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot",
        "greedy": f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot",
    }

    async def play() -> list[FinishedGame]:
        spec = GameSpec(0, Ruleset.of("amigo", rounds=[3, 2, 1]), tuple(bots), 5)
        finished: list[FinishedGame] = []
        async with LocalRunner(
            [BotSpec.of(name, target) for name, target in bots.items()], FaultLedger(10**9)
        ) as runner:
            await runner.run([spec], finished.append)
        return finished

    (result,) = asyncio.run(play())
    assert not result.figures.faults, result.figures.faults


@pytest.mark.parametrize("example", ["search_bot.py", "bid_reading_bot.py"])
def test_help_lists_the_budget_beside_the_serving_options(example: str) -> None:
    shown = subprocess.run(
        [sys.executable, str(EXAMPLES / example), "--help"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert "--budget-ms BUDGET_MS" in shown and "thinking time per decision (default 100 ms)" in shown, shown
    assert "--port PORT" in shown and "--listen unix:PATH" in shown, shown


@pytest.mark.parametrize("example", ["search_bot.py", "bid_reading_bot.py"])
@pytest.mark.parametrize("given", ["-5", "0", "nan", "inf"])
def test_a_budget_that_is_no_time_is_refused(example: str, given: str) -> None:
    """``--budget-ms -5`` (or 0) served a bot that never searched, playing its first legal action."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / example), "--port", "0", "--budget-ms", given],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.endswith(f"argument --budget-ms: {given} is no time in milliseconds (more than 0)"), last
