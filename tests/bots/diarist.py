"""Writes one line to its stderr as each game starts (the game and its seat, with a ``<b>`` a page must show
as text), then bids and plays the first legal action.

    python tests/bots/diarist.py --port N
"""

from __future__ import annotations

import sys

from rage_sdk import Bot, Play, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.server import main


def diary_line(game: int, seat: int) -> str:
    return f"diarist <b>: game {game} at seat {seat}"


class DiaristBot(Bot):
    name = "diarist"
    version = "1"

    def on_game_start(self, game: GameInfo) -> None:
        print(diary_line(game.index, game.seat), file=sys.stderr, flush=True)

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


if __name__ == "__main__":
    main(DiaristBot)
