"""A bot that always bids one more trick than it holds cards (illegal) and fails in every third play (a bot error).

The referee plays the fallback in its place each time, so its games are full of faults.
"""

from __future__ import annotations

from rage_sdk import Bot, Play, SeatView


class BlunderBot(Bot):
    name = "blunder"
    version = "3"

    def __init__(self) -> None:
        self.plays = 0

    def bid(self, view: SeatView) -> int:
        return view.cards + 1

    def play(self, view: SeatView) -> Play:
        self.plays += 1
        if self.plays % 3 == 0:
            raise RuntimeError(f"no idea what to play, \x1b[31m[bold]help[/bold] {'!' * 400}")
        return view.legal_plays[-1]
