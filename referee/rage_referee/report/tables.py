"""The figures of a league report, from its stored games: crosstable, rating history, a bot's record.

Pure functions over :class:`~rage_referee.league.store.FinishedGame` values; the pages and the
``rage`` commands print what these return.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..league.ratings import fit_elo
from ..play.finished import FinishedGame

HISTORY_STEPS = 24
"""Refits of the rating history, at most (each a fit over the games so far)."""
MAX_ELO_GAP = 800.0
"""The implied Elo difference of a pair that always (or never) won, where the formula is infinite."""
MAX_CHARGED_LISTED = 1000
"""Charged faults listed on a bot's page, at most (the last: those that led to a forfeit); ``max_faults``
caps them in a league at 20 unless set higher."""
MAX_FORFEITS_LISTED = 200
"""Forfeited decisions listed on a bot's page, at most (the first): each says the same, why it was forfeited."""


@dataclass
class Pairing:
    """One bot's head-to-head record against another, from each shared game's finishing order."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game (0.5 with no games)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        """The Elo difference this score implies, capped at :data:`MAX_ELO_GAP` either way."""
        score = self.score
        if score <= 0 or score >= 1:
            return math.copysign(MAX_ELO_GAP, score - 0.5)
        return max(-MAX_ELO_GAP, min(MAX_ELO_GAP, -400 * math.log10(1 / score - 1))) + 0.0  # never -0


def crosstable(games: Sequence[FinishedGame]) -> dict[str, dict[str, Pairing]]:
    """``table[a][b]``: how ``a`` did against ``b`` in the games both played (a better place wins)."""
    table: dict[str, dict[str, Pairing]] = defaultdict(lambda: defaultdict(Pairing))
    for game in games:
        seated = list(zip(game.figures.seats, game.figures.places))
        for a, place_a in seated:
            for b, place_b in seated:
                if a == b:
                    continue
                pairing = table[a][b]
                if place_a < place_b:
                    pairing.wins += 1
                elif place_a > place_b:
                    pairing.losses += 1
                else:
                    pairing.draws += 1
    return {a: dict(row) for a, row in table.items()}


def rating_history(games: Sequence[FinishedGame], steps: int = HISTORY_STEPS) -> list[tuple[int, dict[str, float]]]:
    """Ratings refitted on the first k games (in league order) at up to ``steps`` evenly spaced k."""
    ordered = sorted(games, key=lambda game: game.index)
    names = sorted({name for game in ordered for name in game.figures.seats})
    if not ordered:
        return []
    counts = sorted({max(1, round(len(ordered) * (k + 1) / steps)) for k in range(steps)})
    history = []
    for count in counts:
        elo = fit_elo(ordered[:count], names)
        history.append((count, {name: float(elo[k]) for k, name in enumerate(names)}))
    return history


def is_forfeit(fault: Mapping[str, Any]) -> bool:
    """A fault entry that marks a forfeit (``"kind": "forfeit"``/``"forfeited"`` or ``"forfeit": true``)."""
    return str(fault.get("kind", "")).startswith("forfeit") or fault.get("forfeit") is True


@dataclass(frozen=True)
class ListedFaults:
    """A bot's faults as its page lists them, and what is left out."""

    rows: list[tuple[int, dict[str, Any]]]
    """(game index, fault) in game order."""
    charged_left_out: int
    """Earlier charged faults not listed."""
    forfeits_left_out: int
    """Later forfeited decisions not listed."""


@dataclass
class BotRecord:
    """What one bot's page shows: its games, bid accuracy by round size, its faults."""

    name: str
    games: list[FinishedGame] = field(default_factory=list)
    bids_by_size: dict[int, list[int]] = field(default_factory=dict)
    """Cards dealt -> [rounds bid exactly, rounds], of the games it was not forfeited in."""
    faults: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """(game index, fault) in game order."""
    forfeited_games: int = 0
    """Games in which the referee played for the bot, at least in part, after it was forfeited."""

    def accuracy(self) -> list[tuple[int, int, int]]:
        """(cards dealt, rounds bid exactly, rounds), biggest rounds first."""
        return [(size, hit, total) for size, (hit, total) in sorted(self.bids_by_size.items(), reverse=True)]

    def listed_faults(self) -> ListedFaults:
        """The faults its page lists: the last :data:`MAX_CHARGED_LISTED` charged and the first
        :data:`MAX_FORFEITS_LISTED` forfeited decisions, in game order, and how many of each are left out."""
        charged = [k for k, (_, fault) in enumerate(self.faults) if not is_forfeit(fault)]
        forfeited = [k for k, (_, fault) in enumerate(self.faults) if is_forfeit(fault)]
        shown = sorted(charged[-MAX_CHARGED_LISTED:] + forfeited[:MAX_FORFEITS_LISTED])
        return ListedFaults(
            [self.faults[k] for k in shown],
            max(0, len(charged) - MAX_CHARGED_LISTED),
            max(0, len(forfeited) - MAX_FORFEITS_LISTED),
        )


def _round_hits(record: Mapping[str, Any], seat: int) -> list[tuple[int, bool]]:
    """(cards dealt, bid exactly?) for each round of a stored record, read defensively."""
    rounds = record.get("rounds") or []
    results = (record.get("result") or {}).get("rounds") or []
    out = []
    for round_, result in zip(rounds, results):
        try:
            size = len(round_["hands"][seat])
            out.append((size, round_["bids"][seat] == result["tricks_won"][seat]))
        except (KeyError, IndexError, TypeError):
            continue
    return out


def bot_records(games: Sequence[FinishedGame]) -> dict[str, BotRecord]:
    """Every bot's :class:`BotRecord`, by name."""
    records: dict[str, BotRecord] = {}
    for game in sorted(games, key=lambda g: g.index):
        forfeited = game.figures.forfeited
        for seat, name in enumerate(game.figures.seats):
            bot = records.setdefault(name, BotRecord(name))
            bot.games.append(game)
            bot.forfeited_games += seat in forfeited
            if seat in forfeited:  # the referee bid for it, some rounds or all: not its accuracy
                continue
            for size, hit in _round_hits(game.record, seat):
                tally = bot.bids_by_size.setdefault(size, [0, 0])
                tally[0] += hit
                tally[1] += 1
        for fault in game.figures.faults:
            if (faulted := game.figures.bot_at(fault.seat)) is not None:
                records[faulted].faults.append((game.index, fault.to_json()))  # as the record has it, for the page
    return records
