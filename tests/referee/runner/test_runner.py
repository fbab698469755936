"""The runner seam: games taken lazily, stopped without starting more, failures and refusals handled."""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.runner import LocalRunner, StartFailure
from rage_referee.seats import BotSpec
from rage_sdk.rules import Ruleset

RANDOM = "examples/random_bot.py:RandomBot"
BOTS = [BotSpec.of("a", RANDOM), BotSpec.of("b", RANDOM)]
RULES = Ruleset.of("amigo", rounds=(3, 2, 1))


def specs(count: int, taken: list[int] | None = None) -> Iterator[GameSpec]:
    for index in range(count):
        if taken is not None:
            taken.append(index)
        yield GameSpec(index, RULES, ("a", "b") if index % 2 else ("b", "a"), index, TimeControl())


def play(runner: LocalRunner, games: Iterator[GameSpec], **hooks: object) -> list[FinishedGame]:
    finished: list[FinishedGame] = []

    async def go() -> None:
        async with runner:
            await runner.run(games, hooks.get("on_finished", finished.append), hooks.get("on_failed"))  # type: ignore[arg-type]

    asyncio.run(go())
    return finished


def test_every_game_finishes_once_and_pickles(tmp_path: Path) -> None:
    finished = play(LocalRunner(BOTS, FaultLedger(20), 3, tmp_path), specs(7))
    assert sorted(game.index for game in finished) == list(range(7))
    again = pickle.loads(pickle.dumps(finished[0]))
    assert again == finished[0]


def test_stop_takes_no_more_games(tmp_path: Path) -> None:
    runner = LocalRunner(BOTS, FaultLedger(20), 2, tmp_path)
    taken: list[int] = []
    finished: list[FinishedGame] = []

    def on_finished(game: FinishedGame) -> None:
        finished.append(game)
        runner.stop()

    play(runner, specs(50, taken), on_finished=on_finished)
    assert len(finished) <= 2 and len(taken) <= 2


def test_a_refused_game_cancels_the_games_in_flight(tmp_path: Path) -> None:
    finished: list[FinishedGame] = []

    def on_finished(game: FinishedGame) -> None:
        finished.append(game)
        raise RuntimeError("stored already")

    with pytest.raises(RuntimeError, match="stored already"):
        play(LocalRunner(BOTS, FaultLedger(20), 4, tmp_path), specs(20), on_finished=on_finished)
    assert len(finished) == 1


def test_a_failed_game_goes_to_on_failed_and_the_rest_play(tmp_path: Path) -> None:
    failed: list[int] = []
    games = [*specs(3), GameSpec(3, RULES, ("a", "nobody"), 3), *specs(2)]
    finished = play(
        LocalRunner(BOTS, FaultLedger(20), 1, tmp_path),
        iter(games),
        on_failed=lambda spec, error: failed.append(spec.game_id),
    )
    assert failed == [3] and len(finished) == 5


def test_a_bot_that_cannot_start_is_forfeited_or_raises(tmp_path: Path) -> None:
    broken = [BOTS[0], BotSpec.of("b", "tests/no_such_bot.py:Nothing")]
    ledger = FaultLedger(20)
    finished = play(LocalRunner(broken, ledger, 1, tmp_path, start_failure=StartFailure.FORFEIT), specs(2))
    assert len(finished) == 2 and "b" in ledger.forfeited
    assert all(fault.kind == "forfeited" for game in finished for fault in game.figures.faults)
    with pytest.raises(Exception, match="no file"):
        play(LocalRunner(broken, FaultLedger(20), 1, tmp_path), specs(2))


def test_each_runner_paces_its_own_bots(tmp_path: Path) -> None:
    """Two runners on one loop (two hosted leagues) each have their own batch in flight, not one between them."""

    async def go() -> list[set[int]]:
        first = LocalRunner([BotSpec.of("a", "127.0.0.1:1"), BotSpec.of("b", "127.0.0.1:2")], FaultLedger(20))
        second = LocalRunner([BotSpec.of("c", "127.0.0.1:3")], FaultLedger(20))
        paced = []
        for runner in (first, second):
            runner.start_failure = StartFailure.RETRY  # nobody serves there: connected at the next decision
            async with runner:
                paced.append({id(handle.dispatcher) for handle in runner.handles.values()})
                connections = [handle.connection for handle in runner.handles.values()]
                assert all(
                    getattr(c, "dispatcher", None) is handle.dispatcher
                    for c, handle in zip(connections, runner.handles.values())
                )
        return paced

    first, second = asyncio.run(go())
    assert len(first) == 1 and len(second) == 1 and first != second


def test_the_loop_runs_between_in_process_games(tmp_path: Path) -> None:
    """In-process games never wait, yet a stop (or Ctrl-C) from elsewhere on the loop is heard between them."""
    finished: list[FinishedGame] = []

    async def go() -> None:
        async with LocalRunner(BOTS, FaultLedger(20), 1, tmp_path) as runner:

            async def stop_soon() -> None:
                while not finished:
                    await asyncio.sleep(0)
                runner.stop()

            stopper = asyncio.create_task(stop_soon())
            await runner.run(specs(40), finished.append)
            await stopper

    asyncio.run(go())
    assert len(finished) < 40
