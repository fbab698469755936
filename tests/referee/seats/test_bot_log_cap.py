"""A launched bot's log holds at most MAX_BOT_LOG_BYTES a run, ending in a line saying how much was cut,
and the referee plays on while the bot floods its stdout and stderr."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
from pathlib import Path

from rage_referee.limits import MAX_BOT_LOG_BYTES
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.seats import BotSpec
from rage_referee.seats.log_drain import LogDrain
from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

HOSTILE = Path(__file__).resolve().parents[2] / "bots" / "hostile.py"
SECTION_SLACK = 4096
"""The referee's launch line, the SDK's greeting and game headers, the note of what was cut."""


def cut_bytes(log: str) -> list[int]:
    return [int(n.replace(",", "")) for n in re.findall(r"^=== the referee cut ([\d,]+) bytes of this run", log, re.M)]


def test_a_bot_flooding_its_output_keeps_playing_and_its_log_stops_at_the_cap(tmp_path: Path) -> None:
    flood = 3 * MAX_BOT_LOG_BYTES // 2**20
    specs = [
        BotSpec.of("flooder", f"python {shlex.quote(str(HOSTILE))} flood {flood}"),
        BotSpec.of("random", f"python {shlex.quote(str(example_bot('random_bot')))}"),
    ]
    result = asyncio.run(
        run_match(specs, Ruleset.of("amigo", rounds=[3, 2, 1]), games=3, deals=Deals.public(1), log_dir=tmp_path)
    )
    assert len(result.games) == 3
    assert not [fault for game in result.games for fault in game.figures.faults]
    log = tmp_path / "flooder.log"
    assert log.stat().st_size <= MAX_BOT_LOG_BYTES + SECTION_SLACK
    text = log.read_text()
    assert text.splitlines()[-1].startswith("=== the referee cut ")
    (cut,) = cut_bytes(text)
    assert flood * 2**19 - MAX_BOT_LOG_BYTES <= cut <= flood * 2**20 + SECTION_SLACK - MAX_BOT_LOG_BYTES


def test_each_run_has_a_cap_of_its_own_and_a_short_run_is_not_cut(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    for size in (100, 300, 50):
        with log.open("ab", buffering=0) as out:
            drain = LogDrain(out, limit=200)
            drain.start()
            os.write(drain.writer, b"y" * size)
            drain.finish()
    lines = log.read_bytes().splitlines()
    assert lines[0] == b"y" * 100 + b"y" * 200
    assert lines[1] == b"=== the referee cut 100 bytes of this run's output: a run keeps its first 200 bytes"
    assert lines[2] == b"y" * 50
    assert len(lines) == 3


def test_a_child_holding_the_pipe_does_not_hold_up_the_bots_stop(tmp_path: Path) -> None:
    """A process the bot left behind (out of its group) keeps its end open: the drain stops reading regardless."""
    with (tmp_path / "bot.log").open("ab", buffering=0) as out:
        drain = LogDrain(out)
        drain.start()
        keeper = os.dup(drain.writer)  # stands for the child's copy
        try:
            drain.finish(timeout=0.1)
            assert not drain.is_alive()
        finally:
            os.close(keeper)


def test_a_log_that_cannot_be_written_still_drains_the_pipe(tmp_path: Path) -> None:
    """A full disk: the bot's writes never block, they are counted as cut."""
    out = (tmp_path / "bot.log").open("ab", buffering=0)
    out.close()
    drain = LogDrain(out, limit=10)
    drain.start()
    for _ in range(64):
        os.write(drain.writer, b"z" * 65536)  # four pipes' worth: blocks unless drained
    drain.finish()
    assert drain.cut == 64 * 65536
