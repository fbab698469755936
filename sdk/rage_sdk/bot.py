"""The :class:`Bot` a bot author subclasses, and the runner that feeds it protocol messages.

::

    class MyBot(Bot):
        def bid(self, view: SeatView) -> int:
            return 1

        def play(self, view: SeatView) -> Play:
            return view.legal_plays[0]

A new instance plays each game, so per-game state can live on ``self``. The same
:class:`BotRunner` serves a bot over gRPC (:mod:`rage_sdk.server`) and in-process
inside the referee, so a bot sees exactly the same thing either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import operator
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, TextIO

from . import wire
from .actions import Action, Bid, Play
from .errors import RageError
from .events import Event, GameInfo, GameOver
from .history import GameHistory
from .pb import bot_pb2 as pb
from .state import Phase
from .view import SeatView

FAILURES = (Exception, asyncio.CancelledError, GeneratorExit)
"""What a bot's own code may raise that is its failure. It runs with no await in it, so even a
``CancelledError`` is its own, never a cancelled call; the server would take one for that, and leave
the stream hanging."""


HOOK_FAILURE = re.compile(r"bot error in game \d+ \(id \d+\): (?P<hook>on_\w+) failed: (?P<error>.*)")
"""The line a failed hook (``on_game_start``, ``on_event``, ``on_game_end``) is told with, before its traceback:
the bot plays on, so no fault shows it; ``rage bot check`` reads the bot's log for these."""


class TextSink(Protocol):
    """Where text can be written: a text file, a stream, or a log that opens itself."""

    def write(self, text: str, /) -> int: ...


class Bot:
    """A Rage player. Override :meth:`bid` and :meth:`play`; the ``on_*`` hooks are optional."""

    name: ClassVar[str] = ""
    """Shown in tables and logs; the class name when empty."""
    version: ClassVar[str] = "0"

    def bid(self, view: SeatView) -> int:
        """How many tricks to bid: one of ``view.legal_bids``."""
        raise NotImplementedError(not_overridden(type(self), "bid"))

    def play(self, view: SeatView) -> Play:
        """The card to play, with its declaration: one of ``view.legal_plays``."""
        raise NotImplementedError(not_overridden(type(self), "play"))

    def on_game_start(self, game: GameInfo) -> None:
        """A game begins: the seat, the table, the ruleset and the time control."""

    def on_event(self, event: Event) -> None:
        """Something this seat may see happened: a deal, a bid, a card, a trick, a score."""

    def on_game_end(self, over: GameOver) -> None:
        """The game is over: totals, places and any faults this seat was charged with."""

    @classmethod
    def display_name(cls) -> str:
        return cls.name or cls.__name__


BotFactory = Callable[[], Bot]


def not_overridden(bot_class: type[Bot], *methods: str) -> str:
    """The line that says ``bot_class`` lacks ``methods`` (``bid``, ``play`` or both), which every bot overrides."""
    lacking = " and ".join(f"{method}()" for method in methods)
    return f"{bot_class.__name__} does not override {lacking}, which every Bot must"


def unfinished(bot_class: type[Bot]) -> str | None:
    """Why ``bot_class`` cannot play (:func:`unplayable`), or cannot be made without arguments (a bot is made
    for each game with none); else none."""
    unfit = unplayable(bot_class)
    if unfit is not None:
        return unfit
    needed = arguments_needed(bot_class)
    if needed:
        name = bot_class.__name__
        return (
            f"{name}() needs {', '.join(needed)}, and a bot is made for each game with no arguments: give them defaults"
        )
    return None


def unplayable(bot_class: type[Bot]) -> str | None:
    """Why a bot of ``bot_class`` cannot play once made: it does not override :meth:`Bot.bid` or :meth:`Bot.play`
    (both named when it overrides neither, :class:`Bot` itself among them), or its ``name`` or ``version`` is no
    text (the handshake tells them); else none."""
    missing = [method for method in ("bid", "play") if getattr(bot_class, method) is getattr(Bot, method)]
    if missing:
        return not_overridden(bot_class, *missing)
    for label in ("name", "version"):
        value = getattr(bot_class, label)
        if not isinstance(value, str):
            return f"{bot_class.__name__}.{label} must be text (a str), not {value!r:.80}"
    return None


def made_refusal(factory: Callable[[], object]) -> str | None:
    """Why the bots a function ``factory`` makes cannot play: making one raised, or made no :class:`Bot`, or
    one that cannot play (:func:`unplayable`); else none. It makes one bot to see."""
    try:
        made = factory()
    except FAILURES as error:
        return f"making a bot failed: {_detail(error)}"
    if not isinstance(made, Bot):
        return f"the function makes {made!r:.80}, not a rage_sdk.Bot"
    return unplayable(type(made))


def arguments_needed(bot_class: type[Bot]) -> list[str]:
    """The arguments without a default that making a ``bot_class`` takes (none when its signature is unknown)."""
    try:
        parameters = inspect.signature(bot_class).parameters.values()
    except (TypeError, ValueError):
        return []
    optional = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in parameters if p.default is inspect.Parameter.empty and p.kind not in optional]


def bot_class_of(factory: BotFactory) -> type[Bot]:
    """The :class:`Bot` class a factory makes (the factory itself when it is the class)."""
    return factory if isinstance(factory, type) else type(factory())


@dataclass
class _Game:
    """One game of one seat on the bot side: its bot, and the history its events tell."""

    bot: Bot
    info: GameInfo
    wants_events: bool
    history: GameHistory = field(default_factory=GameHistory)


class BotNotMade(RageError):
    """The bot of a game could not be made (its class raised as it was made): ``str(error)`` says so, with
    the bot's own error line. A served bot's stream ends with it; an in-process bot's decision fails."""

    exit_code = 1


class BotRunner:
    """One connection's games: turns referee messages into calls on bots, and their answers into decisions."""

    def __init__(self, factory: BotFactory, log: TextIO | None = None, failures: TextSink | None = None) -> None:
        self.factory = factory
        self.games: dict[int, _Game] = {}
        self.log = log
        """Where a served bot's log goes (its stderr): a header per game starts each game's lines."""
        self.failures = failures
        """Where the bot's failures are told, with their tracebacks; the process's stderr when none."""
        self.unmade: dict[int, str] = {}
        """The games whose bot could not be made, with why, until their end: each request of one says so."""

    def handle(self, messages: list[pb.GameMessage]) -> list[pb.Decision]:
        """Process a batch in order; return a decision for every request in it."""
        decisions = []
        for message in messages:
            game = message.game
            if message.HasField("start"):
                self._start(game, message.start)
            state = self.games.get(game)
            if state is not None:
                state.history.add(message)
                if state.wants_events:
                    for event in message.events:
                        self._guard(state.info, "on_event", state.bot.on_event, wire.event_of(event))
            if message.HasField("request"):
                decisions.append(self._decide(game, state, message.request))
            elif message.HasField("end") and state is None:
                self.unmade.pop(game, None)
            elif message.HasField("end") and state is not None:
                del self.games[game]
                self._guard(state.info, "on_game_end", state.bot.on_game_end, wire.game_over_of(message.end))
                history, state = state.history, None  # the bot goes first, and any view only it kept
                history.close()
        return decisions

    def _start(self, game: int, start: pb.GameStart) -> None:
        info = wire.game_info_of(game, start)
        if self.log is not None:
            print(game_header(info), file=self.log, flush=True)
        try:
            bot = self.factory()
        except FAILURES as error:  # told, then raised: it ends a served bot's stream, an in-process bot's decision
            self.unmade[game] = f"the bot of this game could not be made: {_detail(error)}"
            failures = self.failures or sys.stderr
            print(_failed(info, "making the bot", error), file=failures)
            traceback.print_exc(file=failures)
            raise BotNotMade(self.unmade[game]) from error
        self.unmade.pop(game, None)
        self.games[game] = _Game(bot, info, wants_events=type(bot).on_event is not Bot.on_event)
        self._guard(info, "on_game_start", bot.on_game_start, info)

    def _guard(self, info: GameInfo, name: str, hook: Callable[..., None], *args: object) -> None:
        """Run an optional hook; its failure is the bot's business, told with the others (a
        :data:`HOOK_FAILURE` line, then the traceback), never the game's."""
        try:
            hook(*args)
        except FAILURES as error:
            failures = self.failures or sys.stderr
            print(_failed(info, name, error), file=failures)
            traceback.print_exc(file=failures)

    def _decide(self, game: int, state: _Game | None, request: pb.DecisionRequest) -> pb.Decision:
        if state is None:
            error = self.unmade.get(game, f"unknown game {game}")
            return pb.Decision(game=game, seq=request.seq, error=error[:500])
        try:
            view = wire.view_of(request, state.info, state.history)
            return pb.Decision(game=game, seq=request.seq, action=wire.action_code(decide(state.bot, view)))
        except FAILURES as error:  # the bot's own code failed, or its answer is none: say so, the referee falls back
            answered = isinstance(error, AnswerError)  # read here: a traceback would show the SDK, not the bot
            detail = str(error) if answered else _detail(error)
            index = "" if state is None else f"{state.info.index} "
            failures = self.failures or sys.stderr
            print(f"bot error in game {index}(id {game}), decision {request.seq}: {detail}", file=failures)
            if not answered:
                traceback.print_exc(file=failures)
            return pb.Decision(game=game, seq=request.seq, error=detail[:500])


class AnswerError(RageError, ValueError):
    """What a bot's ``bid()`` or ``play()`` returned is no answer; the message says what it returned and why."""

    exit_code = 1


def decide(bot: Bot, view: SeatView) -> Action:
    """Ask ``bot`` the decision ``view`` is for (a bid or a play) and read its answer as the referee takes it.

    A bid is a whole number of tricks, 0 or more (an ``int`` of any integer type) or a :class:`Bid`; a play is a
    :class:`Play` of some ruleset (a declaration that fits its card). Whether it is legal now is the rules' to say.

    :raises AnswerError: the answer is none of these.
    """
    if view.phase is Phase.BID:
        return Bid.of(_tricks(bot.bid(view)))
    play = bot.play(view)
    if not isinstance(play, Play):
        raise AnswerError(f"play() returned {play!r}, not a Play")
    if play.code < 0:
        raise AnswerError(f"play() returned {play!r}: no play in any ruleset (check its declaration)")
    return play


def _failed(info: GameInfo, what: str, error: BaseException) -> str:
    """The line a failure of the bot's code outside a decision is told with (:data:`HOOK_FAILURE` reads it)."""
    return f"bot error in game {info.index} (id {info.game}): {what} failed: {_detail(error)}"


def _detail(error: BaseException) -> str:
    """A failure as its traceback's last line says it: ``TypeError: ...``."""
    return "".join(traceback.format_exception_only(error)).strip()


def _tricks(answer: object) -> int:
    """What ``bid()`` returned as a number of tricks: a whole number (any integer type) or a ``Bid``.

    :raises AnswerError: anything else, such as ``2.7`` or ``"3"``, which ``int()`` would have turned into a
        bid the bot never chose, or a number no decision carries (``-1``).
    """
    value, tricks = answer.tricks if isinstance(answer, Bid) else answer, None
    if not isinstance(value, bool):
        with contextlib.suppress(TypeError):
            tricks = operator.index(value)  # type: ignore[arg-type]
    if tricks is None:
        raise AnswerError(f"bid() returned {answer!r}, not a whole number of tricks")
    if tricks < 0:
        raise AnswerError(f"bid() returned {answer!r}: a bid is a number of tricks, 0 or more")
    if tricks > wire.MAX_ACTION:
        limit = wire.MAX_ACTION
        raise AnswerError(f"bid() returned {answer!r}: more tricks than a decision can carry (at most {limit})")
    return tricks


def game_header(info: GameInfo) -> str:
    """The log line that opens a game: its index (as in its record's name), the seat and the ruleset."""
    where = f"record game-{info.index:05d}.json, id {info.game}"
    return f"--- game {info.index} ({where}), seat {info.seat} of {len(info.players)}, {info.ruleset.describe()}"
