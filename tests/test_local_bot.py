"""In-process bots (``FILE.py:CLASS``): whatever the bot's code does, the referee's match goes on."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import rage

GREEDY = f"{Path(__file__).resolve().parents[1] / 'examples' / 'greedy_bot.py'}:GreedyBot"
EXITER = '''
import sys
from rage_sdk import Bot, Play, SeatView

class Exiter(Bot):
    """Calls sys.exit(4) in its 15th bid (in the second game), else the lowest bid and first play."""
    bids = 0

    def bid(self, view: SeatView) -> int:
        Exiter.bids += 1
        if Exiter.bids == 15:
            sys.exit(4)
        return min(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
'''


def test_an_in_process_bot_that_calls_exit_is_charged_a_crash_and_the_match_goes_on(tmp_path: Path) -> None:
    """The bot's sys.exit() ended rage match with its code (4), printing no figures of the games finished."""
    bot = tmp_path / "exiter.py"
    bot.write_text(EXITER)
    result = rage("match", "--bot", f"e={bot}:Exiter", "--bot", f"g={GREEDY}", "--games", "3", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {name: bot["games"] for name, bot in figures["bots"].items()} == {"e": 3, "g": 3}, figures
    assert figures["bots"]["e"]["faults"] == 1
    assert "e crashed (round 5, bidding, decision " in result.stderr, result.stderr
    assert "the bot called exit(4): an in-process bot may not exit" in result.stderr
