"""``rage replay ask``: put a recorded game's decisions to a bot again, each with the view its seat had then.

The record is played again through the referee's own game (:class:`rage_referee.play.game.RefereedGame`), every
bid and play taken from the record, so the asked bot is sent exactly the messages the seat was
sent during the game (the start, every event it was entitled to, each decision request with its
view) and is asked as the referee asks: with its deadline, over its connection, faults and all.
Its answers never change the game; the record's actions are played whatever it says.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rage_sdk.actions import Action
from rage_sdk.decisions import Decision, decisions
from rage_sdk.record import GameRecord
from rage_sdk.state import CHANCE
from rage_sdk.walk import deal_round

from ..faults import Fault
from ..limits import MAX_BANK_MS, MAX_DECISION_MS
from ..play.game import RefereedGame
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec, TimeControl
from ..seats import BotHandle, BotIdentity, BotSpec

_NAMED = re.compile(r"^[A-Za-z0-9_.-]+=\S")


def asked_spec(text: str) -> BotSpec:
    """A bot as ``rage match --bot`` takes it, with or without ``NAME=`` in front."""
    if _NAMED.match(text):
        return BotSpec.parse(text)
    return BotSpec.of("asked", text.strip())


@dataclass(frozen=True)
class Answer:
    """What the bot chose at one recorded decision."""

    decision: Decision
    action: Action
    """The bot's choice (the referee's fallback when it faulted)."""
    fault: Fault | None
    ms: int

    @property
    def differs(self) -> bool:
        """The bot chose another action than the recorded one (a fault is told apart: :attr:`verdict`)."""
        return self.fault is None and self.action != self.decision.action

    @property
    def verdict(self) -> str:
        """``faulted`` (the referee's fallback stood in, whatever it was), ``differs`` or ``same``."""
        return "faulted" if self.fault is not None else "differs" if self.differs else "same"


def time_control_of(meta: dict[str, Any] | None) -> TimeControl:
    """The game's time control from its ``meta``, or the referee's default."""
    time = (meta or {}).get("time")
    if not isinstance(time, dict):
        return TimeControl()
    highest = {"decision_ms": MAX_DECISION_MS, "bank_ms": MAX_BANK_MS}  # past them no league ran, nor gRPC can say
    values = {key: time[key] for key, most in highest.items() if type(time.get(key)) is int and 0 <= time[key] <= most}
    return TimeControl(**values, max_faults=NEVER_FORFEIT)


def game_index_of(meta: dict[str, Any] | None) -> int:
    """The game's index from its ``meta`` (a bot may seed itself from its game id), else 0."""
    index = (meta or {}).get("game")
    return index if type(index) is int and 0 <= index < 2**40 else 0


async def rerun_answers(
    record: GameRecord, handle: BotHandle, seat: int, wanted: Callable[[Decision], bool]
) -> AsyncIterator[Answer]:
    """The bot's answer at each of ``seat``'s decisions that ``wanted`` picks, in the game's order: the
    record played again by the referee's own game, every action from the record."""
    players = tuple(record.players)
    spec = GameSpec(game_index_of(record.meta), record.ruleset, players, seed=0, time=time_control_of(record.meta))
    game = RefereedGame(spec, dict.fromkeys(players, handle), FaultLedger(NEVER_FORFEIT), record.start_state())
    clock = asyncio.get_running_loop().time
    rounds = iter(record.rounds)
    for decision in decisions(record):
        if game.state.current_player() == CHANCE:
            game.round_started(deal_round(game.state, next(rounds)))
        if decision.seat == seat and wanted(decision):
            faults, started = len(game.faults), clock()
            action = await game.ask(seat)
            ms = round((clock() - started) * 1000)
            yield Answer(decision, action, game.faults[-1] if len(game.faults) > faults else None, ms)
        game.apply(decision.seat, decision.action)


async def ask_bot(
    record: GameRecord,
    spec: BotSpec,
    seat: int,
    wanted: Callable[[Decision], bool],
    log_dir: Path = Path("logs"),
) -> tuple[BotIdentity, list[Answer]]:
    """Start the bot, put to it every decision of ``seat`` that ``wanted`` picks, stop it.

    :raises BotSpecError, HandshakeError: when the bot cannot be started.
    :raises rage_sdk.errors.IllegalActionError: when the record breaks a rule.
    """
    handle = BotHandle(spec, log_dir)
    try:
        identity = await handle.start()
        return identity, [answer async for answer in rerun_answers(record, handle, seat, wanted)]
    finally:
        await handle.stop()
