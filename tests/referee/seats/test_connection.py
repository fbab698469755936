"""How remote connections pace their writes (the Dispatcher) and time their decisions (one timer for many)."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import grpc
import pytest
from rage_referee.seats import ConnectionLost, HandshakeError, RemoteConnection
from rage_referee.seats.remote import Dispatcher, FloodGauge, _Deadlines, _Flight
from rage_sdk import Bot, Play, SeatView
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.server import BotServicer, start_server


class FirstLegal(Bot):
    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


class Writer:
    """A connection as the dispatcher sees it: how many messages it has waiting."""

    def __init__(self, waiting: int = 1) -> None:
        self.waiting = waiting


def in_loop(test: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
    """Run an async test on a fresh event loop."""

    @functools.wraps(test)
    def run() -> None:
        asyncio.run(test())

    return run


async def turns(dispatcher: Dispatcher, *writers: Writer) -> list[asyncio.Task[None]]:
    tasks = [asyncio.create_task(dispatcher.turn(writer)) for writer in writers]  # type: ignore[arg-type]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return tasks


@in_loop
async def test_a_batch_goes_at_once_when_none_is_in_flight() -> None:
    dispatcher = Dispatcher()
    [first] = await turns(dispatcher, Writer())
    assert first.done()


@in_loop
async def test_the_next_batch_waits_until_the_one_in_flight_has_landed() -> None:
    dispatcher = Dispatcher()
    await turns(dispatcher, Writer())
    [second] = await turns(dispatcher, Writer())
    assert not second.done()
    dispatcher.landed()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert second.done()


@in_loop
async def test_a_full_queue_goes_at_once() -> None:
    dispatcher = Dispatcher()
    await turns(dispatcher, Writer())
    [full] = await turns(dispatcher, Writer(Dispatcher.FULL))
    assert full.done()


@in_loop
async def test_the_fullest_queue_goes_first() -> None:
    dispatcher = Dispatcher()
    await turns(dispatcher, Writer())
    small, larger = await turns(dispatcher, Writer(1), Writer(2))
    dispatcher.landed()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert larger.done() and not small.done()


@in_loop
async def test_nobody_waits_longer_than_hold() -> None:
    dispatcher = Dispatcher()
    await turns(dispatcher, Writer())  # never lands: a bot that does not answer
    [second] = await turns(dispatcher, Writer())
    await asyncio.wait_for(second, Dispatcher.HOLD + 1.0)


@in_loop
async def test_a_turn_given_to_a_writer_that_is_gone_is_handed_on() -> None:
    dispatcher = Dispatcher()
    await turns(dispatcher, Writer())
    gone, next_one = await turns(dispatcher, Writer(2), Writer(1))
    dispatcher.landed()  # the turn goes to the fullest at once, ...
    gone.cancel()  # ... whose writer is cancelled before it could write
    for _ in range(3):
        await asyncio.sleep(0)
    assert gone.cancelled() and next_one.done()


@in_loop
async def test_a_batch_in_flight_lands_when_answered() -> None:
    pacing = Dispatcher()
    await turns(pacing, Writer())
    flight = _Flight({(1, 1), (2, 1)}, pacing)
    flight.answered((1, 1))
    assert not flight.landed.is_set()
    flight.answered((2, 1))
    assert flight.landed.is_set() and pacing._in_flight == 0


@in_loop
async def test_an_unanswered_batch_lands_when_stale_even_if_its_write_never_ended() -> None:
    pacing = Dispatcher()
    await turns(pacing, Writer())
    flight = _Flight({(1, 1)}, pacing)
    await asyncio.sleep(Dispatcher.STALE + 0.05)
    assert flight.landed.is_set() and pacing._in_flight == 0
    flight.land()  # a late answer or the writer's own end: counted once
    assert pacing._in_flight == 0


def decisions(*keys: tuple[int, int]) -> dict[tuple[int, int], asyncio.Future[Any]]:
    loop = asyncio.get_running_loop()
    return {key: loop.create_future() for key in keys}


@in_loop
async def test_deadlines_expire_in_time_order_on_one_timer() -> None:
    expired: list[tuple[int, int]] = []
    deadlines = _Deadlines(lambda key, future: expired.append(key))
    pending = decisions((1, 1), (2, 1), (3, 1))
    deadlines.set((1, 1), pending[1, 1], 0.06)
    deadlines.set((2, 1), pending[2, 1], 0.02)
    deadlines.set((3, 1), pending[3, 1], 0.04)
    await asyncio.sleep(0.03)
    assert expired[:1] == [(2, 1)]  # a loaded machine may have woken later still, past the next
    await asyncio.sleep(0.08)
    assert expired == [(2, 1), (3, 1), (1, 1)]


@in_loop
async def test_a_deadline_ends_with_its_decision() -> None:
    """An answered decision's deadline expires nothing, not even a later decision under the same key."""
    expired: list[asyncio.Future[Any]] = []
    deadlines = _Deadlines(lambda key, future: expired.append(future))
    first = asyncio.get_running_loop().create_future()
    deadlines.set((1, 1), first, 0.02)
    first.set_result("answered")
    again = asyncio.get_running_loop().create_future()
    deadlines.set((1, 1), again, 0.2)
    await asyncio.sleep(0.05)
    assert expired == []
    await asyncio.sleep(0.2)
    assert expired == [again]


@in_loop
async def test_cleared_deadlines_never_expire() -> None:
    expired: list[tuple[int, int]] = []
    deadlines = _Deadlines(lambda key, future: expired.append(key))
    deadlines.set((1, 1), asyncio.get_running_loop().create_future(), 0.01)
    deadlines.clear()
    await asyncio.sleep(0.03)
    assert expired == []


def test_unsolicited_decisions_are_counted_per_window() -> None:
    """A long match's occasional double answer never adds up to a flood; a burst past the limit does."""
    gauge = FloodGauge(limit=3, window=10.0)
    assert not any(gauge.flooded(now) for now in range(0, 10_000, 4))  # one every 4 s, for hours
    burst = FloodGauge(limit=3, window=10.0)
    assert [burst.flooded(100.0 + k / 10) for k in range(4)] == [False, False, False, True]
    assert not burst.flooded(110.5)  # a new window starts afresh


class Chatter(BotServicer):
    """A bot that sends stream messages holding no decision, as fast as the stream takes them."""

    async def Play(
        self, request_iterator: AsyncIterator[pb.RefereeBatch], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.BotBatch]:
        while True:
            yield pb.BotBatch()


@in_loop
async def test_a_bot_sending_messages_of_no_decision_is_cut_as_flooding() -> None:
    """Each one cost the referee a read and a parse, without end: the games of every bot went slower
    (eight games of amigo, 2.3 s, took 7.7 to 29.5 s beside such a bot)."""
    server, port = await start_server(FirstLegal, 0, "127.0.0.1", Chatter(FirstLegal))
    connection = RemoteConnection(f"127.0.0.1:{port}")
    try:
        await connection.open()
        for _ in range(500):
            if not connection.alive:
                break
            await asyncio.sleep(0.01)
        with pytest.raises(ConnectionLost, match=r"messages of none\) within 10 s \(flooding\)"):
            await connection.decide(b"", (1, 1), 1.0)
    finally:
        await connection.close()
        await server.stop(0)


class Foreign(BotServicer):
    """A bot of another protocol, whose name holds a terminal escape and a newline."""

    async def Hello(self, request: pb.HelloRequest, context: grpc.aio.ServicerContext) -> pb.HelloReply:
        return pb.HelloReply(name="\x1b[31mevil\n" + "n" * 5000, version="1", protocol_version=2)


@in_loop
async def test_a_bot_of_another_protocol_is_named_as_names_are_printed() -> None:
    """Escaped once and cut with an ellipsis, as names are printed (repr escaped its escapes again, each
    backslash doubled, and the name was cut with a note of the 4,954 characters more)."""
    server, port = await start_server(FirstLegal, 0, "127.0.0.1", Foreign(FirstLegal))
    connection = RemoteConnection(f"127.0.0.1:{port}")
    try:
        with pytest.raises(HandshakeError) as info:
            await connection.open()
    finally:
        await connection.close()
        await server.stop(0)
    said = str(info.value)
    assert said.startswith(f"127.0.0.1:{port}: bot '\\x1b[31mevil\\nnnn"), said
    assert said.endswith("n…' speaks protocol version 2, this referee speaks 1"), said


class Replayed:
    """A ``Play`` call that gives the reader these stream messages, then ends."""

    def __init__(self, *messages: bytes) -> None:
        self.messages = list(messages)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[bytes]:
        for message in self.messages:
            yield message

    def cancel(self) -> bool:
        return True


@in_loop
async def test_an_answer_to_a_request_not_yet_sent_is_one_nobody_asked_for() -> None:
    """A bot that guesses a game's next decision number answered it before seeing it, and was taken at its word;
    timed from when the request went out, its answer would have taken less than nothing."""
    connection = RemoteConnection("nowhere")
    guessed = pb.BotBatch(decisions=[pb.Decision(game=1, seq=2, action=0)]).SerializeToString()
    connection._call = Replayed(guessed)
    connection._failure = None
    asked = asyncio.ensure_future(connection.decide(b"", (1, 2), None))
    await asyncio.sleep(0)  # queued, not written: there is no writer
    await connection._read()
    with pytest.raises(ConnectionLost, match="the bot closed its stream"):
        await asked
    assert connection.flood.count == 1
