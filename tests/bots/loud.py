"""A bot announcing a long name full of terminal escapes and a two-line version; it plays the first legal action."""

from __future__ import annotations

from rage_sdk import Bot, Play, SeatView


class LoudBot(Bot):
    name = "loud\x1b[31m" + "!" * 300
    version = "2\nrm -rf"

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
