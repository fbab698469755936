"""A game's history on the bot side: its finished rounds and tricks, as the referee's events tell them.

The events are kept as they arrive and decoded only when a view's ``tricks`` or ``results`` is
first read. Following every event as it came took about a third of a served bot's own time per
decision under load (``rage bench protocol``), and most bots never read the history.

A view shows the history of its own moment, however late it is read: decoding stops at each
view still waiting for its history and hands it over there, and when the game ends every view
still kept is given its history and the messages are let go (until then they keep the batches
they came in).
"""

from __future__ import annotations

import weakref
from collections import deque
from typing import Protocol

from .actions import PLAYS, Play
from .pb import bot_pb2 as pb
from .state import NO_TRUMP, RoundResult, Trick, round_result, trick_of

Snapshot = tuple[tuple[RoundResult, ...], tuple[Trick, ...]]
"""The finished rounds, and the current round's finished tricks."""


class HistoryReader(Protocol):
    """A view waiting for its history."""

    def give_history(self, history: Snapshot) -> None: ...


class GameHistory:
    """One game's events as sent to one seat, decoded on demand."""

    def __init__(self) -> None:
        self._messages: list[pb.GameMessage] = []
        self._decoded = 0  # messages followed so far
        self._waiting: deque[tuple[int, weakref.ref[HistoryReader]]] = deque()
        self._results: list[RoundResult] = []
        self._tricks: tuple[Trick, ...] = ()
        self._trick: list[tuple[int, Play]] = []
        self._trick_trump = NO_TRUMP
        self._cards = self._dealer = 0
        self._first_trump = NO_TRUMP

    def add(self, message: pb.GameMessage) -> None:
        """Keep a message for its events (it is read in full only if the history is)."""
        self._messages.append(message)

    def wait(self, reader: HistoryReader) -> int:
        """Register a view made now; it gets the history up to here when it first asks (see :meth:`read`)."""
        moment = len(self._messages)
        self._waiting.append((moment, weakref.ref(reader)))
        return moment

    def read(self, moment: int) -> None:
        """Follow the events up to ``moment``, giving every waiting view up to there its history."""
        waiting = self._waiting
        while True:
            while waiting and waiting[0][0] <= self._decoded:
                reader = waiting.popleft()[1]()
                if reader is not None:
                    reader.give_history((tuple(self._results), self._tricks))
            if self._decoded >= moment or self._decoded >= len(self._messages):
                return
            for event in self._messages[self._decoded].events:
                self._follow(event)
            self._decoded += 1

    def close(self) -> None:
        """The game is over: give the views still kept their history, then let the messages go."""
        kept = [moment for moment, reader in self._waiting if reader() is not None]
        if kept:
            self.read(kept[-1])
        self._waiting.clear()
        self._messages = []

    def _follow(self, event: pb.Event) -> None:
        kind = event.WhichOneof("kind")
        if kind == "card_played":
            played = event.card_played
            self._trick.append((played.seat, PLAYS[played.play]))
            self._trick_trump = played.trump
        elif kind == "trick_won":
            won = event.trick_won
            self._tricks += (trick_of(self._trick, won.winner, self._trick_trump, tuple(won.turned)),)
            self._trick = []
        elif kind == "round_started":
            started = event.round_started
            self._cards, self._dealer, self._first_trump = started.cards, started.dealer, started.trump
            self._tricks, self._trick = (), []
        elif kind == "round_scored":
            scored = event.round_scored
            bids, tricks_won, points = tuple(scored.bids), tuple(scored.tricks_won), tuple(scored.points)
            head = (scored.round, self._cards, self._dealer, self._first_trump)
            self._results.append(round_result(*head, bids, self._tricks, tricks_won, points))
