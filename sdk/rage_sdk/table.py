"""Bots at one table in this process: a whole game dealt from a seed, each seat's bot asked its decisions.

No referee, no clock, no faults: each bot gets :func:`rage_sdk.view.view_for` of its seat, its answer is read
as the referee reads it (:func:`rage_sdk.bot.decide`) and applied as it is (an illegal one raises), and it hears
the events its seat may see and the game's end, as a served bot does. For benchmarks and simulations of bots
whose code is trusted (what a bot raises is raised); a contest referees its bots (``rage_referee.play.game``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from . import wire
from .bot import AnswerError, Bot, decide
from .engine_events import EVERYONE, Events
from .errors import IllegalActionError, InvalidActionError
from .events import GameInfo, GameOver
from .pb import bot_pb2 as pb
from .rules import Ruleset
from .state import CHANCE, GameState, Phase
from .view import view_for


def play_table(
    ruleset: Ruleset,
    bots: Iterable[Bot],
    seed: int,
    *,
    game: int = 0,
    names: Sequence[str] | None = None,
    decision_ms: int = 1000,
    bank_ms: int = 0,
) -> GameState:
    """Play one game dealt from ``seed`` among ``bots`` (seat by seat) and return its finished state.

    Each bot is first told the game (:meth:`Bot.on_game_start`, with ``game``, the seats' ``names``,
    default ``seat-N``, and the time control it is told of), then asked for every decision of its seat,
    told each event its seat may see (:meth:`Bot.on_event`) and at last the game's end (:meth:`Bot.on_game_end`).

    :raises rage_sdk.errors.InvalidActionError: a bot's answer is no bid or play (``bid()`` returned ``2.7``).
    :raises rage_sdk.errors.IllegalActionError: a bot's answer breaks a rule.
    :raises TypeError: a bot is no :class:`Bot` (its class given for it), the ruleset is no :class:`Ruleset`, or
        ``names`` is a text.
    :raises ValueError: one bot sits in two seats (it would see both hands), ``names`` does not name every seat,
        or ``decision_ms`` or ``bank_ms`` is below 0.
    """
    bots = tuple(bots)  # read once: a generator of bots is taken too
    for label, ms in (("decision_ms", decision_ms), ("bank_ms", bank_ms)):
        if not ms >= 0:  # NaN too
            raise ValueError(f"{label} is a time in milliseconds, 0 or more, not {ms!r}")
    for seat, bot in enumerate(bots):
        if isinstance(bot, type):
            raise TypeError(f"seat {seat}: {bot.__name__} is a class, and play_table takes bots: {bot.__name__}()")
        if not isinstance(bot, Bot):
            raise TypeError(f"seat {seat}: {bot!r} is no rage_sdk.Bot")
        if (first := next(earlier for earlier, other in enumerate(bots) if other is bot)) != seat:
            name = type(bot).__name__
            raise ValueError(
                f"seats {first} and {seat} hold one {name}, which would see both hands: give each seat "
                f"its own ([{name}() for _ in range(n)], not [{name}()] * n)"
            )
    if isinstance(names, str):
        raise TypeError(f"names is a list of the seats' names, not the text {names!r}")
    if names is not None and len(names) != len(bots):
        raise ValueError(f"names: {len(names)} names for {len(bots)} bots")
    state = GameState(ruleset, len(bots))
    seats = tuple(names) if names is not None else tuple(f"seat-{seat}" for seat in range(len(bots)))
    for seat, bot in enumerate(bots):
        bot.on_game_start(GameInfo(game, seat, seats, ruleset, 1, decision_ms, bank_ms))
    listening = [type(bot).on_event is not Bot.on_event for bot in bots]
    told = any(listening)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            events = state.deal_seeded(seed, events=told)
        else:
            bot = bots[seat]
            who = bot.display_name() if names is None else seats[seat]
            try:
                action = decide(bot, view_for(state, seat))
            except AnswerError as error:
                trick = state.trick_number if state.phase is Phase.PLAY else None
                detail = f"seat {seat} ({who}): {error}"
                raise InvalidActionError(detail, round_number=state.round_number, trick=trick, seat=seat) from None
            try:
                events = state.apply(action, seat, events=told)
            except IllegalActionError as error:  # the rule's words, the seat named by its bot as well
                detail = error.detail.replace(f"seat {seat} ", f"seat {seat} ({who}) ", 1)
                raise type(error)(detail, round_number=error.round_number, trick=error.trick, seat=seat) from None
        _tell(bots, listening, events)
    outcome = state.outcome()
    for bot in bots:
        bot.on_game_end(GameOver(outcome.totals, outcome.places, ()))
    return state


def _tell(bots: Sequence[Bot], listening: list[bool], events: Events) -> None:
    """Each listening bot the events its seat may see, decoded from the messages a served bot receives."""
    for event in events:
        heard = wire.event_of(pb.Event.FromString(wire.event_bytes(event)))
        for seat, bot in enumerate(bots):
            if listening[seat] and event.to in (EVERYONE, seat):
                bot.on_event(heard)
