"""World sampling: full game states consistent with everything one seat knows.

A search bot cannot see the other hands or the pile, so it plays out *worlds*: deals of the
unseen cards that agree with its :class:`SeatView`. ::

    sampler = WorldSampler(view)
    world = sampler.sample(rng)          # a GameState at the view's moment, every hand filled

A world agrees with the seat's hand, every card turned up or played this round (with its
declaration), the trump history, the hand sizes, the bids the seat can see, and each seat's
voids: a seat that did not follow the lead colour holds none of it (only a coloured card of
another colour says so under ``action_cards_anytime``). Bids the seat cannot see (hidden or
secret bidding) are drawn uniformly from the legal bids.

**Uniform, by a constraint-respecting deal and an exact check.** The unseen cards go to the
other hands and the pile with exactly the probability of a uniform shuffle given the voids:
colours some holder is void in are placed first, each split drawn in proportion to the exact
number of completions (multinomials over the remaining room, summed by dynamic programming),
then the rest is shuffled into the room left, and the pile is shuffled. The world's state is
then built from its deal: the round's bids and plays taken on the engine's unchecked path, each
play checked first; a world the rules reject (a choose-mode change that named no colour says
the pile then held none it could name, and the seat's own change to play names the colours the pile
holds now) is drawn again. Rejection from a uniform proposal keeps
the result uniform over the worlds the rules accept. One approximation: a choose-mode change
also hints that its colour lay deep in the pile, which the pile order here ignores.

**Big tables.** Where the splits are too many to count (9 or 10 players with many voids), the
cards of void colours are dealt one at a time, each to a holder chosen in proportion to its
room among those that keep the rest dealable (Hall's condition, checked over the sets of void
colours), and random swaps that keep every void mix the deal: it never fails when a deal
exists, and is close to uniform (not exactly: where the voids bind, the one-at-a-time deal
leans, and the swaps only reduce that).

**Weighting.** ``weight(world)``, a number in [0, 1], keeps each drawn world with that
probability, so worlds are drawn in proportion to it: a bot can favour deals that explain the
opponents' bids. A weight of 0 everywhere ends in :class:`SamplingError`.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from math import comb
from typing import cast

from .actions import BIDS, Play
from .cards import CHANGE, NUM_COLOURED
from .compiled import mypyc_attr
from .state import GameState, Phase
from .view import SeatView

Weight = Callable[[GameState], float]
"""How much to favour a world: kept with this probability (0..1)."""

PILE = -1
"""The pile, as a holder of unseen cards."""


_MAX_SPLITS = 3_000
"""Splits counted before exact counting gives way to a deal that keeps the voids (big tables, many
voids): this bounds the time a sampler takes to build and each exact deal."""


class _TooMany(Exception):
    pass


class SamplingError(ValueError):
    """No consistent world could be drawn: a view no deal explains, or weights that reject all."""


@cache
def _choose(n: int, k: int) -> int:
    return comb(n, k)


def _takes(room: int, remaining: tuple[int, ...], allowed: tuple[bool, ...]) -> Iterator[tuple[int, ...]]:
    """Every count of cards to take from each group, at most ``room`` in all, none where not ``allowed``."""
    if not remaining:
        yield ()
        return
    top = min(room, remaining[0]) if allowed[0] else 0
    for here in range(top + 1):
        for rest in _takes(room - here, remaining[1:], allowed[1:]):
            yield (here, *rest)


def _shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place: Fisher-Yates on ``rng.random()`` (``random.shuffle`` draws exact
    integers at a Python call each, twice the cost; the bias here is below 2**-45)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """A shuffled copy of ``cards``."""
    copy = cards[:]
    _shuffle(copy, rng)
    return copy


def _check_view(view: SeatView) -> None:
    """A view put together by hand holds together: one entry a seat, its seat among them, hands the round can hold.

    :raises SamplingError: naming the first field that does not.
    """
    players, rules = view.players, view.ruleset
    if not rules.min_players <= players <= rules.max_players:
        raise SamplingError(f"players: {players}, but {rules.preset} is for {rules.min_players}-{rules.max_players}")
    if not 0 <= view.seat < players:
        raise SamplingError(f"seat: {view.seat} is not one of the seats 0-{players - 1}")
    for name in ("hand_sizes", "bids", "tricks_won", "totals"):
        if len(getattr(view, name)) != players:
            raise SamplingError(f"{name}: {len(getattr(view, name))} entries for {players} players")
    if not all(0 <= size <= view.cards for size in view.hand_sizes):
        raise SamplingError(f"hand_sizes: {list(view.hand_sizes)}, but a hand holds 0-{view.cards} cards this round")
    if len(view.hand) != view.hand_sizes[view.seat]:
        raise SamplingError(
            f"hand: {len(view.hand)} cards, but hand_sizes says seat {view.seat} holds {view.hand_sizes[view.seat]}"
        )


@mypyc_attr(allow_interpreted_subclasses=True)  # an extension point: search bots subclass it
class WorldSampler:
    """Draws worlds for one view; build one per decision and call :meth:`sample` as often as wanted."""

    def __init__(self, view: SeatView, weight: object = None, max_tries: object = 1000) -> None:
        if not isinstance(view, SeatView):
            hint = ": WorldSampler(view_for(state, seat))" if isinstance(view, GameState) else ""
            raise TypeError(f"WorldSampler takes a SeatView, not a {type(view).__name__}{hint}")
        # object, not int: a value of another type gets this ValueError in both builds (compiled, the
        # annotation would be checked at the call, with a TypeError)
        if type(max_tries) is not int or max_tries < 1:
            raise ValueError(f"max_tries is a whole number of draws, at least 1, not {max_tries!r}")
        if weight is not None and not callable(weight):
            raise TypeError(f"weight is a function of a world (a GameState) to its weight 0..1, not {weight!r}")
        if view.phase is not Phase.BID and view.phase is not Phase.PLAY:
            raise ValueError(f"worlds are drawn while a round is played, not in phase {view.phase.value}")
        _check_view(view)
        self.view = view
        self.weight = cast(Weight | None, weight)
        self.max_tries = max_tries
        seat, players = view.seat, view.players
        self._played: list[list[int]] = [[] for _ in range(players)]  # by seat, this round's cards in order of play
        for trick_plays in [trick.plays for trick in view.tricks] + [view.trick]:
            for who, play in trick_plays:
                self._played[who].append(play.card.id)
        unseen = Counter(view.ruleset.deck)
        unseen.subtract(card.id for card in view.hand)
        unseen.subtract(card.id for card in view.turned)
        for cards in self._played:
            unseen.subtract(cards)
        if min(unseen.values(), default=0) < 0:
            raise SamplingError(f"seat {seat}'s view shows more of some card than the deck holds")
        self._unseen = sorted(unseen.elements())
        self._hand = [card.id for card in view.hand]
        self._turned = [card.id for card in view.turned]
        self._plays = [seated for trick in view.tricks for seated in trick.plays] + list(view.trick)
        """This round's ``(seat, play)`` in order."""
        self._hits = [sum(result.tricks_won[s] == result.bids[s] for result in view.results) for s in range(players)]
        names = any(isinstance(action, Play) and action.card.id == CHANGE for action in view.legal_actions)
        self._legal = view.legal_actions if names else None
        """The seat's own legal actions, when a choose-mode change among them names the colours the pile holds."""
        self.holders = [other for other in range(players) if other != seat] + [PILE]
        """Where unseen cards go: the other seats, then the pile."""
        self._room = [view.hand_sizes[other] for other in self.holders[:-1]]
        self._room.append(len(self._unseen) - sum(self._room))
        if self._room[-1] < 0:
            raise SamplingError("the other hands hold more cards than are unseen")
        # Seats void in some colour still unseen are dealt first, by exact counting over the
        # colours any of them is void in; everything else is then dealt freely.
        voids = view.voids()
        held = {card >> 4 for card in self._unseen if card < NUM_COLOURED}
        void_of = {h: held & {int(c) for c in voids.get(holder, ())} for h, holder in enumerate(self.holders[:-1])}
        self._colours = sorted(set().union(*void_of.values())) if void_of else []
        self._void_holders = [h for h, colours in void_of.items() if colours]
        self._allowed = [tuple(c not in void_of[h] for c in self._colours) for h in self._void_holders]
        self._groups = [
            [card for card in self._unseen if card < NUM_COLOURED and card >> 4 == c] for c in self._colours
        ]
        self._free = [card for card in self._unseen if card >= NUM_COLOURED or card >> 4 not in self._colours]
        """The unseen cards of no colour a holder is void in."""
        self._free_count = len(self._free)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._splits: dict[tuple[int, tuple[int, ...]], tuple[list[int], list[tuple[int, ...]]]] = {}
        """By void seat and groups left, the running total of ways over each split, and the groups it leaves."""
        self._splits_left = _MAX_SPLITS
        self.exact = True
        """Whether worlds come from exact counting; else from a deal that keeps the voids (big tables, many voids)."""
        try:
            ways = self._ways(0, tuple(map(len, self._groups)))
        except _TooMany:  # too many splits to count: a deal that keeps the voids, when one exists
            self.exact, ways = False, int(min(self._slack()) >= 0)
        if ways == 0:
            raise SamplingError(f"no deal of the unseen cards fits the voids seat {seat} has seen")

    def _free_left(self, index: int, remaining: tuple[int, ...]) -> int:
        """Free cards still undealt once the void seats before ``index`` took their hands."""
        taken = sum(self._room[h] for h in self._void_holders[:index])
        return self._free_count - (taken - sum(len(g) - r for g, r in zip(self._groups, remaining)))

    def _options(self, index: int, remaining: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Each way void seat ``index`` can take its hand from the groups: (ways, groups left after)."""
        room, free = self._room[self._void_holders[index]], self._free_left(index, remaining)
        for take in _takes(room, remaining, self._allowed[index]):
            from_free = room - sum(take)
            if from_free > free:
                continue
            ways = _choose(free, from_free)
            for left, count in zip(remaining, take):
                ways *= _choose(left, count)
            yield ways, tuple(left - count for left, count in zip(remaining, take))

    def _ways(self, index: int, remaining: tuple[int, ...]) -> int:
        """Hands for void seats ``index``.. from what is left (the rest of the deal then always fits)."""
        if index == len(self._void_holders):
            return 1
        key = (index, remaining)
        if key not in self._memo:
            total = 0
            upto: list[int] = []
            lefts: list[tuple[int, ...]] = []
            for ways, left in self._options(index, remaining):
                self._splits_left -= 1
                if self._splits_left < 0:
                    raise _TooMany
                total += ways * self._ways(index + 1, left)
                upto.append(total)
                lefts.append(left)
            self._memo[key] = total
            self._splits[key] = (upto, lefts)
        return self._memo[key]

    def deal_unseen(self, rng: random.Random) -> list[list[int]]:
        """The unseen cards dealt to :attr:`holders` (the pile last, top first), uniform given the voids."""
        if not self.exact:
            return self._deal_constrained(rng)
        dealt: list[list[int]] = [[] for _ in self.holders]
        groups = [_shuffled(group, rng) for group in self._groups]
        remaining = tuple(map(len, groups))
        free = self._free[:]
        if self._void_holders:  # they take free cards at random; the rest is shuffled below
            _shuffle(free, rng)
        for index, holder in enumerate(self._void_holders):
            upto, lefts = self._splits[(index, remaining)]
            left = lefts[bisect_right(upto, rng.randrange(upto[-1]))]
            hand = dealt[holder]
            for group, count in zip(groups, left):
                hand += group[count:]
                del group[count:]
            hand += [free.pop() for _ in range(self._room[holder] - len(hand))]
            remaining = left
        rest = free + [card for group in groups for card in group]
        _shuffle(rest, rng)
        for holder, room in enumerate(self._room):
            if holder not in self._void_holders:
                dealt[holder] = rest[-room:] if room else []
                del rest[len(rest) - room :]
        return dealt

    def _allowed_masks(self) -> list[int]:
        """By holder, a bit for each void colour (in :attr:`_colours` order) it may hold."""
        masks = [(1 << len(self._colours)) - 1] * len(self._room)
        for index, holder in enumerate(self._void_holders):
            masks[holder] = sum(1 << c for c, ok in enumerate(self._allowed[index]) if ok)
        return masks

    def _slack(self) -> list[int]:
        """For each set S of void colours (a bit mask), the room of the holders that may hold some
        colour of S less the cards of S: the voids can all be kept if and only if none is negative."""
        allowed = self._allowed_masks()
        slack = [sum(r for h, r in enumerate(self._room) if allowed[h] & s) for s in range(1 << len(self._colours))]
        for c, group in enumerate(self._groups):
            for s in range(len(slack)):
                if s >> c & 1:
                    slack[s] -= len(group)
        return slack

    def _deal_constrained(self, rng: random.Random) -> list[list[int]]:
        """A deal that keeps every void, for tables too big to count: never fails when one exists.

        The cards of colours someone is void in go one at a time, in random order, each to a
        holder with room that may hold its colour, chosen in proportion to that room among those
        that leave the rest dealable (Hall's condition over the sets of void colours); the free
        cards fill the room left. Random swaps that keep every void then mix the deal.
        """
        holders, allowed = len(self._room), self._allowed_masks()
        subsets = range(1, 1 << len(self._colours))
        slack, room = self._slack(), self._room[:]
        dealt: list[list[int]] = [[] for _ in self.holders]
        cards = [(card, c) for c, group in enumerate(self._groups) for card in group]
        rng.shuffle(cards)
        for card, c in cards:
            bit = 1 << c
            choices = [h for h in range(holders) if room[h] and allowed[h] & bit]
            while True:  # a feasible holder exists while slack holds, so this ends
                holder = rng.choices(choices, [room[h] for h in choices])[0]
                mask = allowed[holder]
                if all(slack[s] - (s & mask != 0) + (s & bit != 0) >= 0 for s in subsets):
                    break
                choices.remove(holder)
            for s in subsets:
                slack[s] += (s & bit != 0) - (s & mask != 0)
            room[holder] -= 1
            dealt[holder].append(card)
        free = self._free[:]
        rng.shuffle(free)
        for holder in range(holders):
            dealt[holder] += free[len(free) - room[holder] :]
            del free[len(free) - room[holder] :]
        self._mix(dealt, allowed, rng)
        return dealt

    def _mix(self, dealt: list[list[int]], allowed: list[int], rng: random.Random) -> None:
        """Swap random pairs of cards between holders where both may hold what they get (in place)."""
        index = {c: k for k, c in enumerate(self._colours)}
        places = [(holder, at) for holder, hand in enumerate(dealt) for at in range(len(hand))]

        def fits(card: int, holder: int) -> bool:
            colour = index.get(card >> 4) if card < NUM_COLOURED else None
            return colour is None or allowed[holder] >> colour & 1 == 1

        for _ in range(2 * len(places)):
            (h1, a1), (h2, a2) = rng.choice(places), rng.choice(places)
            one, two = dealt[h1][a1], dealt[h2][a2]
            if h1 != h2 and fits(one, h2) and fits(two, h1):
                dealt[h1][a1], dealt[h2][a2] = two, one

    def sample(self, rng: object) -> GameState:
        """A world at the view's moment, built from a deal of the unseen cards, every play checked; ``rng`` a
        :class:`random.Random`.

        :raises SamplingError: if ``max_tries`` draws in a row are rejected.
        """
        if not isinstance(rng, random.Random):  # object, not Random: the same TypeError in both builds
            raise TypeError(f"sample takes a random.Random (random.Random(seed) once, reused), not {rng!r}")
        for _ in range(self.max_tries):
            world = self._replay(self.deal_unseen(rng), rng)
            if world is not None and (self.weight is None or rng.random() < self._weight_of(world)):
                return world
        raise SamplingError(f"no world kept in {self.max_tries} draws for seat {self.view.seat}")

    def _weight_of(self, world: GameState) -> float:
        assert self.weight is not None
        weigh: Callable[[GameState], object] = self.weight  # a bot's function may return anything: checked here
        weight = weigh(world)
        if not isinstance(weight, int | float) or isinstance(weight, bool) or not 0 <= weight <= 1:
            raise ValueError(f"a world's weight is a number in [0, 1]; the weight function gave {weight!r}")
        return weight

    def _replay(self, dealt: list[list[int]], rng: random.Random) -> GameState | None:
        """The world of a deal of the unseen cards: the round's deal, then its bids and plays, each play
        checked (a deal can break a void, or leave a colour in the pile a change named none of) and
        taken on the unchecked path; ``None`` if the rules reject one."""
        view = self.view
        hands = [cards + played for cards, played in zip(self._held(dealt), self._played)]  # as dealt
        state = GameState(view.ruleset, view.players, first_round=view.round_number, dealer=view.dealer)
        state.results = list(view.results)
        state.totals = list(view.totals)
        state.hits = self._hits[:]
        state.deal_unchecked(hands, self._turned + dealt[-1])
        while state.phase is Phase.BID and (state.to_move != view.to_move or view.phase is not Phase.BID):
            bid = view.bids[state.to_move]
            state.apply_unchecked(BIDS[bid] if bid is not None else rng.choice(state.legal_bids()))
        for seat, play in self._plays:
            if state.violation(play, seat) is not None:
                return None
            state.apply_unchecked(play)
        if self._legal is not None and tuple(state.legal_actions()) != self._legal:
            return None  # its change names other colours: the pile holds others than the seat's does
        return state

    def _held(self, dealt: list[list[int]]) -> list[list[int]]:
        """By seat, the cards held now: the seat's own hand and the others' from ``dealt``."""
        held = [self._hand] * self.view.players
        for holder, cards in zip(self.holders, dealt):
            if holder != PILE:
                held[holder] = cards
        return held


__all__ = ["PILE", "SamplingError", "Weight", "WorldSampler"]
