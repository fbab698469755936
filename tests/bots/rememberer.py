"""The search bot with a memory: the attack duplicate deals invite, for the isolation tests.

After each round it has seen every hand (every card is played), and it keeps them all, under each
seat's hands of the game up to that round, in its process (every game it plays there, at once or
later, shares the memory). When the hands it has been dealt so far are those of a seat it has seen
(a later game of the same duplicate set, so the same deal; one round's hand alone, of a card or two,
recurs in other deals), it knows every other seat's hand, and its search plays out that one world
instead of sampled ones. Each such round it writes ``rememberer: knew every hand:
game INDEX round R`` to stderr (its log): the tests count those lines.

    python tests/bots/rememberer.py --port N [--budget-ms MS] [--forget]

``--forget`` makes it its honest twin: the same search, never told what it saw.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rage_sdk import Action, Bot, Play, SeatView
from rage_sdk.events import CardPlayed, Event, GameInfo, RoundScored, RoundStarted
from rage_sdk.rollout import aiming_policy, playout
from rage_sdk.sampling import PILE, SamplingError, WorldSampler
from rage_sdk.server import main

KNEW = "rememberer: knew every hand"


Hand = tuple[int, ...]
"""A hand as dealt: its card ids in order (a deck may hold a card twice)."""


def hand_of(cards: Iterable[int]) -> Hand:
    return tuple(sorted(cards))


@dataclass(frozen=True)
class Seen:
    """A round's deal as one game showed it: every seat's hand, and the seat that held the hand it is kept under."""

    seat: int
    hands: tuple[Hand, ...]


MEMORY: dict[tuple[Hand, ...], Seen] = {}
"""Every round this process has seen played out, under each seat's hands of the game up to it: shared by all
its games."""
LOCK = threading.Lock()


class KnownWorld(WorldSampler):
    """Draws the one world there is: the other hands as remembered, less what they have played."""

    def __init__(self, view: SeatView, hands: list[Hand]) -> None:
        super().__init__(view)
        self.hands = hands

    def deal_unseen(self, rng: random.Random) -> list[list[int]]:
        dealt: list[list[int]] = []
        unseen = list(self._unseen)
        for holder in self.holders:
            if holder == PILE:
                dealt.append(unseen)
                continue
            held = Counter(self.hands[holder]) - Counter(self._played[holder])
            for card in held.elements():
                unseen.remove(card)
            dealt.append(list(held.elements()))
        return dealt


class RemembererBot(Bot):
    """The example search bot's determinized Monte Carlo (examples/search_bot.py, kept here so the bot
    runs in the sandbox, which shows it only its own folder and the SDK), over the one known world when
    it remembers the deal."""

    name = "rememberer"
    version = "1"

    def __init__(self, budget_ms: float = 100, remember: bool = True) -> None:
        self.budget_ms = budget_ms
        self.rng = random.Random()
        self.remember = remember
        self.info: GameInfo | None = None
        self.dealt: list[Hand] = []
        """This seat's hands so far, a round each: together they tell the deal (one round's few cards may not)."""
        self.rounds: list[tuple[Hand, ...]] = []
        """Every seat's hands of the rounds played out so far."""
        self.played: list[list[int]] = []
        self.known: list[Hand] | None = None
        """Every seat's hand this round, when this round's deal was seen before."""

    def on_game_start(self, game: GameInfo) -> None:
        self.rng.seed(game.game)
        self.budget_ms = min(self.budget_ms, game.decision_ms / 2)
        self.info = game

    def bid(self, view: SeatView) -> int:
        return self.search(view).tricks  # type: ignore[union-attr]

    def play(self, view: SeatView) -> Play:
        return self.search(view)  # type: ignore[return-value]

    def search(self, view: SeatView) -> Action:
        """The legal action with the best mean round score for this seat over the worlds drawn."""
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        stop = time.perf_counter() + self.budget_ms / 1000
        scores = [0] * len(legal)
        try:
            sampler = self.sampler(view)
            while time.perf_counter() < stop:
                world = sampler.sample(self.rng)
                for index, action in enumerate(legal):
                    scores[index] += playout(world.copy(history=False), self.rng, aiming_policy, action)[view.seat]
        except SamplingError:
            pass
        return legal[max(range(len(legal)), key=scores.__getitem__)]

    def on_event(self, event: Event) -> None:
        if self.info is None or not self.remember:
            return
        players = len(self.info.players)
        if isinstance(event, RoundStarted):
            self.dealt.append(hand_of(card.id for card in event.hand))
            self.played = [[] for _ in range(players)]
            with LOCK:
                seen = MEMORY.get(tuple(self.dealt))
            self.known = None if seen is None else self._hands(seen, players)
            if self.known is not None:
                print(f"{KNEW}: game {self.info.index} round {event.round_number}", file=sys.stderr, flush=True)
        elif isinstance(event, CardPlayed):
            self.played[event.seat].append(event.play.card.id)
        elif isinstance(event, RoundScored) and self.dealt:
            self.rounds.append(tuple(map(hand_of, self.played)))
            with LOCK:  # under every seat's hands: a later game of the set may deal this bot any of them
                for seat in range(players):
                    MEMORY[tuple(hands[seat] for hands in self.rounds)] = Seen(seat, self.rounds[-1])

    def _hands(self, seen: Seen, players: int) -> list[Hand]:
        """This game's hands by seat, the remembered deal turned so this seat holds its own hand."""
        assert self.info is not None
        turn = self.info.seat - seen.seat
        return [seen.hands[(seat - turn) % players] for seat in range(players)]

    def sampler(self, view: SeatView) -> WorldSampler:
        known = self.known
        if known is None or any(not self._fits(view, seat, known[seat]) for seat in range(view.players)):
            return WorldSampler(view)
        return KnownWorld(view, known)

    def _fits(self, view: SeatView, seat: int, hand: Hand) -> bool:
        """Whether the cards ``seat`` has played this round (and this seat's own, held) are in the hand it is given."""
        cards = Counter(self.played[seat]) + Counter(card.id for card in view.hand if seat == view.seat)
        return not cards - Counter(hand)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--budget-ms", type=float, default=100, help="thinking time per decision")
    parser.add_argument("--forget", action="store_true", help="the honest twin: remember nothing")
    known, rest = parser.parse_known_args()
    main(functools.partial(RemembererBot, known.budget_ms, not known.forget), rest)
