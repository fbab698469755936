"""A bot whose every instance fails to be made (its constructor raises); it bids and plays as a bot must, were it
ever made."""

from __future__ import annotations

from rage_sdk import Bot, Play, SeatView


class UnmadeBot(Bot):
    name = "unmade"

    def __init__(self) -> None:
        raise RuntimeError("cannot make this bot")

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
