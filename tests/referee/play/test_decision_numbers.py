"""A game's decision numbers (``seq``, a fault's ``decision``) count every seat's decisions, the ones the
referee takes for a forfeited bot too: each names its own moment of the game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rage_referee.faults import FaultKind
from rage_referee.play.game import FaultLedger, play_game
from rage_referee.play.spec import GameSpec
from rage_referee.seats import Answer, BotHandle, BotSpec, LocalConnection
from rage_sdk import Bot, Play, SeatView
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import Ruleset

SEATS = ("asked", "forfeited")


class Lowest(Bot):
    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


class Counting(LocalConnection):
    """Notes the ``seq`` of every request it is sent."""

    def __init__(self) -> None:
        super().__init__(Lowest)
        self.seqs: list[int] = []

    async def decide(self, message: bytes, key: tuple[int, int], timeout: float | None) -> Answer:
        self.seqs.append(pb.GameMessage.FromString(message).request.seq)
        return await super().decide(message, key, timeout)


def test_decisions_taken_for_a_forfeited_bot_are_numbered_in_the_game(tmp_path: Path) -> None:
    """They all carried the number of the last decision asked, and the other seat's seqs did not skip."""
    asked = Counting()
    ledger = FaultLedger(20)
    ledger.forfeit("forfeited", "excluded by the organizer")

    async def run() -> list[int]:
        handles = {}
        for name in SEATS:
            connection = asked if name == "asked" else LocalConnection(Lowest)
            handles[name] = BotHandle(
                BotSpec.of(name, "tests/referee/play/test_decision_numbers.py:Lowest"), tmp_path, connection
            )
            await connection.open()
        finished = await play_game(GameSpec(3, Ruleset.of("amigo"), SEATS, 3), handles, ledger)
        assert {fault.kind for fault in finished.figures.faults} == {FaultKind.FORFEITED}
        return [fault.decision for fault in finished.figures.faults]

    taken = asyncio.run(run())
    assert len(taken) == len(asked.seqs) == 65  # 10 bids and 55 cards each
    assert sorted(taken + asked.seqs) == list(range(1, 131))
