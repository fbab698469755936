"""A bot's clock: what the referee counts against a bot's decision time and bank, and what it does not."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from rage_referee.faults import FaultKind
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import play_game
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.seats import (
    Answer,
    BotHandle,
    BotIdentity,
    BotSpec,
    ConnectionLost,
    Key,
    LocalConnection,
    RemoteConnection,
)
from rage_sdk import Bot, Play, SeatView
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import Ruleset
from rage_sdk.server import start_server

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

    async def decide(self, message: bytes, key: tuple[int, int], timeout: float | None) -> Answer:
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
            handles[name] = BotHandle(
                BotSpec.of(name, "tests/referee/play/test_bot_clock.py:Lowest"), tmp_path, connection
            )
            await connection.open()
        spec = GameSpec(1, Ruleset.of("amigo"), SEATS, 1, TimeControl(decision_ms=100, bank_ms=1000))
        return await play_game(spec, handles)

    finished = asyncio.run(run())
    assert [fault.kind for fault in finished.figures.faults] == [FaultKind.CRASHED]
    assert slow.banks[3:] == [1000] * len(slow.banks[3:])
    recorded = [ms for ms_by_seat in finished.record["meta"]["bid_ms"] for ms in ms_by_seat]
    recorded += [play["ms"] for round_ in finished.record["rounds"] for play in round_["plays"]]
    assert max(recorded) < REOPEN_S * 1000 / 2, "the record counts the reconnection as the bot's time"


class HeldUp(RemoteConnection):
    """A served bot in a referee whose event loop is held up by other work: ``before`` seconds while the
    request waits to go out, ``after`` seconds once the answer has come in."""

    def __init__(self, address: str, before: float, after: float) -> None:
        super().__init__(address)
        self.before, self.after = before, after
        self.banks: list[int] = []

    async def decide(self, message: bytes, key: Key, timeout: float | None) -> Answer:
        self.banks.append(pb.GameMessage.FromString(message).request.bank_ms)
        asked = asyncio.ensure_future(super().decide(message, key, timeout))
        await asyncio.sleep(0)  # the request is queued
        time.sleep(self.before)
        answer = await asked
        time.sleep(self.after)
        return answer


def play_held_up(tmp_path: Path, before: float, after: float, clock: TimeControl) -> tuple[FinishedGame, HeldUp]:
    async def run() -> tuple[FinishedGame, HeldUp]:
        server, port = await start_server(Lowest, 0, "127.0.0.1")
        held = HeldUp(f"127.0.0.1:{port}", before, after)
        try:
            await held.open()
            local = LocalConnection(Lowest)
            handles = {
                "slow": BotHandle(BotSpec.of("slow", f"127.0.0.1:{port}"), tmp_path, held),
                "b": BotHandle(BotSpec.of("b", "tests/referee/play/test_bot_clock.py:Lowest"), tmp_path, local),
            }
            spec = GameSpec(1, Ruleset.of("amigo", rounds=[1]), SEATS, 1, clock)
            return await play_game(spec, handles), held
        finally:
            await held.close()
            await server.stop(0)

    return asyncio.run(run())


def test_the_referees_own_lag_around_a_decision_is_not_the_bots(tmp_path: Path) -> None:
    """Only the time from the request's going out to the answer's coming in is charged: the bank is the same
    at every decision and the record's times are the bot's (they counted 160 ms of the referee's a decision)."""
    finished, held = play_held_up(tmp_path, 0.08, 0.08, TimeControl(decision_ms=100, bank_ms=1000))
    assert not finished.figures.faults
    assert held.banks == [1000, 1000]
    (round_,) = finished.record["rounds"]
    recorded = [finished.record["meta"]["bid_ms"][0][0]] + [play["ms"] for play in round_["plays"] if play["seat"] == 0]
    assert max(recorded) < 100, recorded


def test_a_deadline_counts_from_when_the_request_went_out(tmp_path: Path) -> None:
    """A request held in the referee past its bot's time is not a timeout of the bot's (it was)."""
    finished, held = play_held_up(tmp_path, 0.15, 0.0, TimeControl(decision_ms=100, bank_ms=0))
    assert not finished.figures.faults, finished.figures.faults
    assert len(held.banks) == 2


class SlowFirstBid(Lowest):
    """Takes 0.2 s over its first bid, then answers at once."""

    slept = False

    def bid(self, view: SeatView) -> int:
        if not SlowFirstBid.slept:
            SlowFirstBid.slept = True
            time.sleep(0.2)
        return view.legal_bids[-1]  # the fallback is the lowest bid: a late answer taken would show


def test_an_in_process_bots_answer_past_its_deadline_is_a_timeout(tmp_path: Path) -> None:
    """A bot in the referee's process answered 6 times past the deadline and was charged nothing: nothing can
    stop its code, but its late answer is a timeout once it comes, as a served bot's is."""

    async def run() -> FinishedGame:
        handles = {}
        for name, bot in (("slow", SlowFirstBid), ("b", Lowest)):
            connection = LocalConnection(bot)
            handles[name] = BotHandle(
                BotSpec.of(name, f"tests/referee/play/test_bot_clock.py:{bot.__name__}"), tmp_path, connection
            )
            await connection.open()
        spec = GameSpec(1, Ruleset.of("amigo"), SEATS, 1, TimeControl(decision_ms=50, bank_ms=0))
        return await play_game(spec, handles)

    finished = asyncio.run(run())
    (fault,) = finished.figures.faults
    assert (fault.kind, fault.seat, fault.detail) == (FaultKind.TIMEOUT, 0, "no decision within 50 ms")
    assert fault.fallback == "bid 0"
    assert finished.record["meta"]["bid_ms"][0][0] >= 200  # the time it took, counted
