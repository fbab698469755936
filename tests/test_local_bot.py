"""In-process bots (``FILE.py:CLASS``): whatever the bot's code does, the referee's match goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import rage

GREEDY = f"{Path(__file__).resolve().parents[1] / 'examples' / 'greedy_bot.py'}:GreedyBot"
EXITER = """
import asyncio, sys
from rage_sdk import Bot, Play, SeatView

class Exiter(Bot):
    \"\"\"Raises {raised} in its 15th bid (in the second game), else the lowest bid and first play.\"\"\"
    bids = 0

    def bid(self, view: SeatView) -> int:
        Exiter.bids += 1
        if Exiter.bids == 15:
            {raised}
        return min(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
"""


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        ("sys.exit(4)", "the bot called exit(4): an in-process bot may not exit"),
        ("raise asyncio.CancelledError('mine')", "the bot failed: CancelledError: mine"),
        ("raise GeneratorExit('mine')", "the bot failed: GeneratorExit: mine"),
    ],
    ids=["exit", "cancelled", "generator-exit"],
)
def test_an_in_process_bot_that_exits_is_charged_a_crash_and_the_match_goes_on(
    tmp_path: Path, raised: str, said: str
) -> None:
    """sys.exit() ended rage match with the bot's code (4), printing none of the figures of the games finished;
    a CancelledError or GeneratorExit ended it in a traceback."""
    bot = tmp_path / "exiter.py"
    bot.write_text(EXITER.format(raised=raised))
    result = rage("match", "--bot", f"e={bot}:Exiter", "--bot", f"g={GREEDY}", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {name: bot["games"] for name, bot in figures["bots"].items()} == {"e": 3, "g": 3}, figures
    assert figures["bots"]["e"]["faults"] == 1
    assert f"e crashed (round 5, bidding, decision 77): {said}" in result.stderr, result.stderr
