"""A record's ``meta`` names each seat's bot as it was when the game was played: a bot at an address
moved to another (as a hosted entrant's ``UpdateBot`` does mid-league), whose handshake there
reports a new name and version, is named so in the games played after the move; a bot that could not
be reached at the start, and was reached later, is named too (not ``null``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.runner import LocalRunner, StartFailure
from rage_referee.seats import BotSpec, backoff
from rage_referee.seats.local import load_bot_class
from rage_sdk.rules import Ruleset
from rage_sdk.server import BotServicer, start_server

RANDOM = "examples/random_bot.py:RandomBot"
RULES = Ruleset.of("amigo", rounds=(2, 1))
NOBODY = "127.0.0.1:9"
"""An address nobody serves."""


def spec(index: int) -> GameSpec:
    return GameSpec(index, RULES, ("moved", "local"), index, TimeControl())


def servicer(name: str, version: str) -> BotServicer:
    serving = BotServicer(load_bot_class(RANDOM))
    serving.name, serving.version = name, version
    return serving


def announced(game: FinishedGame) -> dict[str, str]:
    bot = game.record["meta"]["bots"][0]
    return {"name": bot["name"], "version": bot["version"]}


def play_moved(tmp_path: Path, first: str, old_stays: bool = False) -> list[FinishedGame]:
    """Game 0 with bot ``moved`` at ``first`` (``old`` there, or :data:`NOBODY`), game 1 after its move to
    ``new`` (the old server stopped first, or still serving with ``old_stays``)."""

    async def go() -> list[FinishedGame]:
        old, new = servicer("old-name", "1"), servicer("new-name", "2")
        old_server, old_port = await start_server(old.factory, 0, "127.0.0.1", old)
        new_server, new_port = await start_server(new.factory, 0, "127.0.0.1", new)
        finished: list[FinishedGame] = []
        start = f"127.0.0.1:{old_port}" if first == "old" else NOBODY
        bots = [BotSpec.of("moved", start), BotSpec.of("local", RANDOM)]
        try:
            async with LocalRunner(bots, FaultLedger(100), 1, tmp_path, start_failure=StartFailure.RETRY) as runner:
                await runner.run([spec(0)], finished.append)
                if not old_stays:
                    await old_server.stop(0)
                runner.readdress("moved", f"127.0.0.1:{new_port}")
                await runner.run([spec(1)], finished.append)
        finally:
            await asyncio.gather(old_server.stop(0), new_server.stop(0))
        return finished

    return asyncio.run(go())


@pytest.mark.parametrize("old_stays", [False, True], ids=["old-stopped", "old-still-serving"])
def test_a_moved_bot_is_named_as_it_answered_after_the_move(tmp_path: Path, old_stays: bool) -> None:
    """Still serving, the old address is not called for the games after the move either (its open
    stream went on taking every game)."""
    before, after = play_moved(tmp_path, "old", old_stays)
    assert announced(before) == {"name": "old-name", "version": "1"}
    assert announced(after) == {"name": "new-name", "version": "2"}
    assert not [fault for fault in after.figures.faults if fault.seat == 0]


def test_a_bot_reached_only_after_the_start_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backoff, "FIRST_WAIT", 0.01)  # each call of game 0 at nobody waits longer: briefly here
    unreached, reached = play_moved(tmp_path, "nobody")
    assert announced(unreached) == {"name": None, "version": None}
    assert announced(reached) == {"name": "new-name", "version": "2"}
    assert not [fault for fault in reached.figures.faults if fault.seat == 0]
