"""One game, refereed: from a :class:`GameSpec` and the bots' connections to a :class:`FinishedGame`.

Every decision goes to the seat's bot with a deadline; a bot that times out, crashes, answers
garbage or breaks a rule is charged a :class:`Fault` and the referee plays the fallback (the
lowest legal bid, or the first legal play) in its place, so a game always finishes. A forfeited
bot is not asked: each of its decisions is the fallback, recorded as a ``forfeited`` entry. What a
bot is sent is what :mod:`rage_sdk.visibility` lets its seat see, encoded by :mod:`rage_sdk.wire`:
its view at each decision, and the events the engine returned that are its to see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from rage_sdk import wire
from rage_sdk.actions import Action, Bid
from rage_sdk.engine_events import EVERYONE, Events
from rage_sdk.events import FaultNote, GameInfo, GameOver
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.pb import frames_pb2 as frames
from rage_sdk.state import CHANCE, GameState, Phase
from rage_sdk.visibility import seen

from ..faults import Fault, FaultKind
from ..seats import BotHandle, SeatError, SeatTimeout
from ..text import bot_text
from .finished import FinishedGame
from .ledger import FaultLedger as FaultLedger  # also imported from here by the Ray runner and hosted leagues
from .meta import DecisionTimes, game_meta, utc_now
from .record import finished_game
from .spec import GameSpec

MAX_SEATS = 16  # wire game ids are game * MAX_SEATS + seat, unique per connection


def fallback_for(legal: tuple[Action, ...]) -> Action:
    """The documented fallback: the lowest legal bid, or the first legal play (lowest card)."""
    return legal[0]


class RefereedGame:
    """One game between started bots: :meth:`run` plays it dealt from the spec's seed.

    A game can also be driven from outside (``rage replay ask`` plays a record again): give it the
    ``state`` to start from, deal with :meth:`round_started`, ask a seat with :meth:`ask` and apply
    each action with :meth:`apply`; every seat is sent what it would have been sent.
    """

    def __init__(
        self, spec: GameSpec, bots: Mapping[str, BotHandle], ledger: FaultLedger, state: GameState | None = None
    ) -> None:
        self.spec = spec
        self.bots = [bots[name] for name in spec.seats]
        self.ledger = ledger
        self.state = GameState(spec.ruleset, len(spec.seats)) if state is None else state
        self.first_round = self.state.round_number
        self.bank_ms = [spec.time.bank_ms] * len(spec.seats)
        self.faults: list[Fault] = []
        self.decisions = 0
        self.latencies_ms: list[float] = []
        self.seq = 0
        players = len(spec.seats)
        self.times = DecisionTimes(players)
        self.date = utc_now()
        self.told: list[list[bytes]] = [[] for _ in range(players)]
        """Every event each seat is entitled to, in order, encoded (shared by the seats that see it)."""
        self.sent = [0] * players  # how many of them have gone out
        self.generation = [-1] * players  # the bot's restart count when the seat's start went out
        self.asked_at = 0.0
        """When the decision being taken was asked (after bringing its bot back, if it had to be)."""
        self.answer_ms: float | None = None
        """What the bot's answer to the decision being taken is charged with, once it has answered."""

    def wire_id(self, seat: int) -> int:
        return self.spec.game_id * MAX_SEATS + seat

    def info(self, seat: int) -> GameInfo:
        spec, time = self.spec, self.spec.time
        return GameInfo(
            self.wire_id(seat),
            seat,
            spec.seats,
            spec.ruleset,
            self.first_round,
            time.decision_ms,
            time.bank_ms,
            index=spec.game_id,
        )

    def tell(self, events: Events) -> None:
        """The engine's events, each for the seat it is tagged with or for every seat; they go out
        with each seat's next message (an event for every seat is encoded once, its bytes shared)."""
        told = self.told
        for event in events:
            encoded = wire.event_bytes(event)
            if event.to == EVERYONE:
                for seat_told in told:
                    seat_told.append(encoded)
            else:
                told[event.to].append(encoded)

    def message(self, seat: int, *, request: bytes | None = None, end: bytes | None = None) -> bytes:
        """The seat's next ``GameMessage``, encoded: the events it has not been sent yet, then the request or end.

        The first message starts the game; after the bot was restarted, the next one starts it
        again and repeats every event so far, so the new process knows the whole game.
        """
        restarts, start = self.bots[seat].restarts, None
        if self.generation[seat] != restarts:
            self.generation[seat] = restarts
            start = wire.game_start_message(self.info(seat)).SerializeToString()
            self.sent[seat] = 0
        told = self.told[seat]
        events = told[self.sent[seat] :]
        self.sent[seat] = len(told)
        framed = frames.GameMessageFrames(game=self.wire_id(seat), start=start, events=events, request=request, end=end)
        encoded: bytes = framed.SerializeToString()
        return encoded

    # ------------------------------------------------------------------ the game
    async def run(self) -> FinishedGame:
        launched = [handle.process for handle in self.bots if handle.process is not None]
        for process in launched:  # its CPU time is counted per game
            process.game_started(self.spec.game_id)
        try:
            return await self._play()
        finally:
            for process in launched:
                process.game_ended(self.spec.game_id)

    async def _play(self) -> FinishedGame:
        state, clock = self.state, asyncio.get_running_loop().time
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                self.round_started(state.deal_seeded(self.spec.seed))
                continue
            seat = state.to_move
            self.asked_at, self.answer_ms = clock(), None
            action = await self.ask(seat)
            self._timed(seat, (clock() - self.asked_at) * 1000 if self.answer_ms is None else self.answer_ms)
            self.apply(seat, action)
        return self._finish()

    def _timed(self, seat: int, ms: float) -> None:
        """Note how long the decision about to be applied took."""
        if self.state.phase is Phase.BID:
            self.times.bid(seat, ms)
        else:
            self.times.play(ms)

    def round_started(self, dealt: Events) -> None:
        """A round was dealt: its events go out with each seat's next message."""
        self.times.new_round()
        self.tell(dealt)

    def apply(self, seat: int, action: Action) -> None:
        """Apply the seat's action; its events go out with each seat's next message."""
        self.tell(self.state.apply(action))

    async def ask(self, seat: int) -> Action:
        """The seat's decision, or the fallback with a fault charged."""
        state, handle = self.state, self.bots[seat]
        legal = tuple(state.legal_actions())
        fallback = fallback_for(legal)
        name = self.spec.seats[seat]
        self.seq += 1  # every decision's number, the ones taken without asking too
        if name in self.ledger.forfeited:
            return self._fault(seat, FaultKind.FORFEITED, self.ledger.forfeited[name], fallback)
        kind = wire.BID if state.phase is Phase.BID else wire.PLAY
        codes = list(map(wire.action_code, legal))
        time = self.spec.time
        allowed_ms = time.decision_ms + self.bank_ms[seat]
        self.decisions += 1
        key = (self.wire_id(seat), self.seq)
        request = pb.DecisionRequest(
            seq=self.seq,
            kind=kind,
            view=wire.view_message(seen(state, seat)),
            legal=codes,
            time_ms=allowed_ms,
            bank_ms=self.bank_ms[seat],
        ).SerializeToString()
        loop = asyncio.get_running_loop()
        try:
            connection = handle.connection
            if connection is None or not connection.alive:
                await handle.restart_once()  # the referee's time, not the bot's
                connection = handle.connection
                assert connection is not None
            started = self.asked_at = loop.time()
            message = self.message(seat, request=request)
            answer = await connection.decide(message, key, allowed_ms / 1000)
        except SeatTimeout:
            self.latencies_ms.append((loop.time() - started) * 1000)
            self.bank_ms[seat] = 0
            return self._fault(seat, FaultKind.TIMEOUT, f"no decision within {allowed_ms} ms", fallback)
        except SeatError as error:  # lost, or could not be brought back
            detail = str(error) if handle.process is None else await handle.process.why_lost(str(error))
            return self._fault(seat, error.kind, detail, fallback)
        self.ledger.answered(name)
        decision, used = answer.decision, answer.seconds * 1000  # the bot's time, not the referee's around it
        self.latencies_ms.append(used)
        self.answer_ms = used
        self.bank_ms[seat] = max(0, self.bank_ms[seat] - max(0, int(used) - time.decision_ms))
        if decision.error:
            return self._fault(seat, FaultKind.BOT_ERROR, decision.error, fallback)
        if decision.action in codes:  # the legal actions' codes, so legal by the engine's own check
            return legal[codes.index(decision.action)]
        try:
            action = wire.action_of(kind, decision.action)
        except ValueError as error:
            return self._fault(seat, FaultKind.MALFORMED, str(error), fallback)
        reason = state.violation(action)
        if reason is not None:
            return self._fault(seat, FaultKind.ILLEGAL, reason, fallback)
        return action

    def _fault(self, seat: int, kind: FaultKind, detail: str, fallback: Action) -> Action:
        state = self.state
        why = self.ledger.forfeited.get(self.spec.seats[seat])
        if why is not None and kind is not FaultKind.FORFEITED:  # forfeited by another game while it was asked
            kind, detail = FaultKind.FORFEITED, f"{why}; this decision: {kind.value}: {detail}"
        trick = state.trick_number if state.phase is Phase.PLAY else 0
        shown = f"bid {fallback.tricks}" if isinstance(fallback, Bid) else str(fallback)
        fault = Fault(seat, kind, state.round_number, trick, bot_text(detail), shown, self.seq)
        self.faults.append(fault)
        if fault.charged:
            self.ledger.charge(self.spec.seats[seat], kind)
        return fallback

    def _finish(self) -> FinishedGame:
        state, spec = self.state, self.spec
        outcome = state.outcome()
        for seat in range(len(self.bots)):
            notes = tuple(FaultNote(f.kind.value, f.round, f.trick, f.detail) for f in self.faults if f.seat == seat)
            handle = self.bots[seat]
            if handle.connection is not None and handle.connection.alive:
                end = wire.game_end_message(GameOver(outcome.totals, outcome.places, notes))
                handle.connection.send(self.message(seat, end=end.SerializeToString()))
        versions = [None if bot.submission is None else bot.submission.version for bot in self.bots]
        meta = game_meta(spec, [bot.identity for bot in self.bots], self.times, self.date, versions)
        return finished_game(spec, state, self.faults, self.times, meta, self.decisions, tuple(self.latencies_ms))


async def play_game(spec: GameSpec, bots: Mapping[str, BotHandle], ledger: FaultLedger | None = None) -> FinishedGame:
    """Referee one game among started bots (by name); never raises for anything a bot does."""
    return await RefereedGame(spec, bots, ledger or FaultLedger(spec.time.max_faults)).run()
