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

import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from . import wire
from .actions import Bid, Play
from .events import Event, GameInfo, GameOver, RoundScored, RoundStarted, TrickWon
from .pb import bot_pb2 as pb
from .state import NO_TRUMP, RoundResult
from .view import SeatView


class Bot:
    """A Rage player. Override :meth:`bid` and :meth:`play`; the ``on_*`` hooks are optional."""

    name: ClassVar[str] = ""
    """Shown in tables and logs; the class name when empty."""
    version: ClassVar[str] = "0"

    def bid(self, view: SeatView) -> int:
        """How many tricks to bid: one of ``view.legal_bids``."""
        raise NotImplementedError

    def play(self, view: SeatView) -> Play:
        """The card to play, with its declaration: one of ``view.legal_plays``."""
        raise NotImplementedError

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


@dataclass
class _Game:
    bot: Bot
    info: GameInfo
    results: list[RoundResult] = field(default_factory=list)
    started: RoundStarted | None = None
    winners: list[int] = field(default_factory=list)
    first_trump: int = NO_TRUMP

    def track(self, event: Event) -> None:
        """Keep the finished rounds a view needs."""
        if isinstance(event, RoundStarted):
            self.started, self.winners = event, []
            self.first_trump = NO_TRUMP if event.trump is None else int(event.trump)
        elif isinstance(event, TrickWon):
            self.winners.append(event.winner)
        elif isinstance(event, RoundScored) and self.started is not None:
            self.results.append(
                RoundResult(
                    event.round_number,
                    self.started.cards,
                    self.started.dealer,
                    self.first_trump,
                    event.bids,
                    tuple(self.winners),
                    event.tricks_won,
                    event.points,
                )
            )


class BotRunner:
    """One connection's games: turns referee messages into calls on bots, and their answers into decisions."""

    def __init__(self, factory: BotFactory) -> None:
        self.factory = factory
        self.games: dict[int, _Game] = {}

    def handle(self, messages: list[pb.GameMessage]) -> list[pb.Decision]:
        """Process a batch in order; return a decision for every request in it."""
        decisions = []
        for message in messages:
            body = message.WhichOneof("body")
            if body == "request":
                decisions.append(self._decide(message.game, message.request))
            elif body == "event":
                self._event(message.game, message.event)
            elif body == "start":
                self._start(message.game, message.start)
            elif body == "end":
                self._end(message.game, message.end)
        return decisions

    def _start(self, game: int, start: pb.GameStart) -> None:
        info = wire.game_info_of(game, start)
        bot = self.factory()
        self.games[game] = _Game(bot, info)
        _guard(bot.on_game_start, info)

    def _event(self, game: int, message: pb.Event) -> None:
        state = self.games.get(game)
        if state is None:
            return
        event = wire.event_of(message)
        state.track(event)
        _guard(state.bot.on_event, event)

    def _end(self, game: int, message: pb.GameEnd) -> None:
        state = self.games.pop(game, None)
        if state is not None:
            _guard(state.bot.on_game_end, wire.game_over_of(message))

    def _decide(self, game: int, request: pb.DecisionRequest) -> pb.Decision:
        state = self.games.get(game)
        if state is None:
            return pb.Decision(game=game, seq=request.seq, error=f"unknown game {game}")
        try:
            view = wire.view_of(request, state.info, tuple(state.results))
            if request.kind == wire.BID:
                answer: Bid | Play = Bid.of(int(state.bot.bid(view)))
            else:
                answer = state.bot.play(view)
                if not isinstance(answer, Play):
                    raise TypeError(f"play() returned {answer!r}, not a Play")
            code = wire.action_code(answer)
            if code < 0:
                raise ValueError(f"{answer!r} is no play in any ruleset (check its declaration)")
            return pb.Decision(game=game, seq=request.seq, action=code)
        except Exception as error:  # the bot's own code failed: say so, the referee falls back
            detail = "".join(traceback.format_exception_only(error)).strip()
            print(f"bot error in game {game}, decision {request.seq}: {detail}", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            return pb.Decision(game=game, seq=request.seq, error=detail[:500])


def _guard(hook: Callable[..., None], *args: object) -> None:
    """Run an optional hook; its failure is the bot's business, logged, never the game's."""
    try:
        hook(*args)
    except Exception:
        traceback.print_exc(file=sys.stderr)
