"""A search bot that remembers every deal it has played and recognises it when dealt it again.

:class:`CountedSearchBot` is the example search bot thinking a fixed number of worlds per decision
(its clock ticks once per world drawn), so its games are the same on any machine: the honest twin.
:class:`MemorizerBot` is the same bot with a memory shared by its instances (a process's, as a
bot served at an address keeps it): for each game, the cards it saw each seat play in each round
and its own hands. When a round's hand holds every card it once saw the same seat play in the same
round, the deal is one it has met (a duplicate set replays it in every seating), and from then on its
worlds put the remembered cards in the hands that hold them: it searches the real deal.
"""

from __future__ import annotations

import itertools
import random
from typing import ClassVar

from rage_sdk import Action, SeatView
from rage_sdk.events import GameInfo
from rage_sdk.examples.search_bot import SearchBot
from rage_sdk.sampling import PILE, WorldSampler

WORLDS = 6
"""Worlds per decision."""
MATCH = 3
"""Cards a remembered hand must share with this one to recognise the deal (rounds of fewer keep the game's)."""

Memory = dict[int, dict[int, set[int]]]
"""Round number -> seat -> the cards seen in that seat's hand that round."""


class CountedSearchBot(SearchBot):
    """The example search bot, :data:`WORLDS` worlds per decision whatever the machine."""

    name = "counted-search"

    def __init__(self) -> None:
        ticks = itertools.count()
        super().__init__(budget_ms=WORLDS, clock=lambda: next(ticks) / 1000)

    def on_game_start(self, game: GameInfo) -> None:
        self.rng.seed(game.game)  # the budget is worlds, never cut to half the deadline


class MemorizerBot(CountedSearchBot):
    """:class:`CountedSearchBot` that searches the real deal when it has seen the deal before."""

    name = "memorizer"
    memories: ClassVar[list[Memory]] = []
    """Every game this bot's process has played, oldest first."""

    def on_game_start(self, game: GameInfo) -> None:
        super().on_game_start(game)
        self.memory: Memory = {}
        self.known: Memory | None = None
        type(self).memories.append(self.memory)

    @classmethod
    def forget(cls) -> None:
        cls.memories = []

    def search(self, view: SeatView) -> Action:
        self.remember(view)
        if self.known is None:
            self.known = self.recognised(view)
        return super().search(view)

    def remember(self, view: SeatView) -> None:
        seen = self.memory.setdefault(view.round_number, {})
        seen.setdefault(view.seat, set()).update(card.id for card in view.hand)
        for trick_plays in [trick.plays for trick in view.tricks] + [view.trick]:
            for seat, play in trick_plays:
                seen.setdefault(seat, set()).add(play.card.id)

    def recognised(self, view: SeatView) -> Memory | None:
        """A remembered game of this deal: the same seat held at least :data:`MATCH` of this hand's cards."""
        hand = self.memory[view.round_number][view.seat]
        for memory in type(self).memories:
            held = memory.get(view.round_number, {}).get(view.seat, set())
            if memory is not self.memory and len(held) >= min(MATCH, view.cards) and held <= hand:
                return memory
        return None

    def sampler(self, view: SeatView) -> WorldSampler:
        if self.known is None or view.round_number not in self.known:
            return WorldSampler(view)
        return KnownSampler(view, self.known[view.round_number])


class KnownSampler(WorldSampler):
    """Worlds with every remembered card still unseen in the hand that held it."""

    def __init__(self, view: SeatView, held: dict[int, set[int]]) -> None:
        super().__init__(view)
        self.held = held

    def deal_unseen(self, rng: random.Random) -> list[list[int]]:
        dealt = super().deal_unseen(rng)
        where = {card: holder for holder, cards in enumerate(dealt) for card in cards}
        for holder, seat in enumerate(self.holders):
            if seat == PILE:
                continue
            wanted = self.held.get(seat, set())
            spare = [card for card in dealt[holder] if card not in wanted]
            for card in wanted:
                other = where.get(card)
                if other is None or other == holder or not spare:
                    continue
                swap = spare.pop()
                dealt[other][dealt[other].index(card)] = swap
                dealt[holder][dealt[holder].index(swap)] = card
                where[card], where[swap] = holder, other
        return dealt
