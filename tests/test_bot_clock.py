"""A bot's clock: what the referee counts against a bot's decision time and bank, and what it does not."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rage_referee.faults import FaultKind
from rage_referee.finished import FinishedGame
from rage_referee.game import play_game
from rage_referee.game_spec import GameSpec, TimeControl
from rage_referee.seats import BotHandle, BotIdentity, BotSpec, ConnectionLost, LocalConnection
from rage_sdk import Bot, Play, SeatView
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import Ruleset

SEATS = ("slow", "b")
REOPEN_S = 0.4


class Lowest(Bot):
    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


class SlowToReopen(LocalConnection):
    """Loses its stream at its third decision; greeting it again takes :data:`REOPEN_S` seconds."""

    def __init__(self) -> None:
        super().__init__(Lowest)
        self.banks: list[int] = []
        self._alive = True

    async def open(self) -> BotIdentity:
        if not self._alive:
            await asyncio.sleep(REOPEN_S)
            self._alive = True
        return await super().open()

    async def decide(self, message: bytes, key: tuple[int, int], timeout: float | None) -> pb.Decision:
        self.banks.append(pb.GameMessage.FromString(message).request.bank_ms)
        if len(self.banks) == 3:
            self._alive = False
            raise ConnectionLost("the bot closed its stream")
        return await super().decide(message, key, timeout)

    @property
    def alive(self) -> bool:
        return self._alive


def test_the_time_a_bot_takes_to_be_greeted_again_is_not_the_bots(tmp_path: Path) -> None:
    """Reconnecting after a crash is the referee's time: the bot's bank is the same before and after it, and
    the record's decision times leave it out."""
    slow = SlowToReopen()

    async def run() -> FinishedGame:
        handles = {}
        for name in SEATS:
            connection = slow if name == "slow" else LocalConnection(Lowest)
            handles[name] = BotHandle(BotSpec.of(name, "tests/test_bot_clock.py:Lowest"), tmp_path, connection)
            await connection.open()
        spec = GameSpec(1, Ruleset.of("amigo"), SEATS, 1, TimeControl(decision_ms=100, bank_ms=1000))
        return await play_game(spec, handles)

    finished = asyncio.run(run())
    assert [fault.kind for fault in finished.figures.faults] == [FaultKind.CRASHED]
    assert slow.banks[3:] == [1000] * len(slow.banks[3:])
    recorded = [ms for ms_by_seat in finished.record["meta"]["bid_ms"] for ms in ms_by_seat]
    recorded += [play["ms"] for round_ in finished.record["rounds"] for play in round_["plays"]]
    assert max(recorded) < REOPEN_S * 1000 / 2, "the record counts the reconnection as the bot's time"
