"""The bot ladder: a duplicate league of example bots played in-process, and its strength table.

No gRPC and no referee deadline: each game is dealt from its scheduled seed and every bot is
asked :func:`rage_sdk.view.view_for` directly, so a search bot's budget is the only clock that
matters. A search bot given ``clock=time.thread_time`` counts its budget in its own CPU time, so
the figures do not depend on how loaded the machine is.

Strength is the Elo of the measured bot less the mean Elo of the reference bot's seats, with a
95% interval from a bootstrap over duplicate sets of that same difference.
"""

from __future__ import annotations

import importlib
import inspect
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
from rage_sdk.bot import Bot, BotFactory
from rage_sdk.examples import EXAMPLE_BOTS, example_bot
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState
from rage_sdk.table import play_table

from ..league.ratings import bootstrap, fit_elo
from ..league.schedule import schedule
from ..play.finished import FinishedGame, figures_played

DECISION_MS = 60_000
"""The deadline bots are told (a search bot caps its budget at half of it)."""

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
"""How a search bot counts its budget: its own CPU time, or the wall clock."""


def load_example(module: str) -> type[Bot]:
    """The class of an example bot, by module name (``search_bot``)."""
    example_bot(module)  # a clear error for a name that is no example
    cls: type[Bot] = getattr(importlib.import_module(f"rage_sdk.examples.{module}"), EXAMPLE_BOTS[module])
    return cls


def factory_for(module: str, budget_ms: float, clock: str) -> BotFactory:
    """A factory for an example bot; a bot that takes a budget gets ``budget_ms`` on ``clock``."""
    cls: Callable[..., Bot] = load_example(module)
    if "budget_ms" in inspect.signature(cls).parameters:
        return partial(cls, budget_ms=budget_ms, clock=CLOCKS[clock])
    return cls


def seat_names(modules: Sequence[str]) -> list[str]:
    """A league name per seat: the module less ``_bot``, numbered from the second of a kind."""
    names: list[str] = []
    for module in modules:
        base = module.removesuffix("_bot")
        names.append(base if base not in names else f"{base}-{sum(n.split('-')[0] == base for n in names) + 1}")
    return names


def play_game(ruleset: Ruleset, seats: Sequence[BotFactory], seed: int, game: int) -> GameState:
    """One game dealt from ``seed``, each seat's bot asked for every decision of its seat (at one in-process table)."""
    return play_table(ruleset, [factory() for factory in seats], seed, game=game, decision_ms=DECISION_MS)


def play_league(
    factories: dict[str, BotFactory], games: int, seed: int, ruleset: Ruleset | None = None
) -> Iterator[FinishedGame]:
    """A duplicate league of one table with every bot seated: each game as it finishes."""
    ruleset = ruleset or Ruleset.of("amigo")
    for scheduled in schedule(list(factories), len(factories), games=games, seed=seed, duplicate=True):
        state = play_game(ruleset, [factories[name] for name in scheduled.seats], scheduled.seed, scheduled.index)
        yield FinishedGame(
            scheduled.index,
            scheduled.set_id,
            scheduled.seed,
            figures_played(scheduled.seats, state),
        )


@dataclass(frozen=True)
class Strength:
    """One bot measured against a reference over a league's games."""

    games: int
    elo: float
    """Elo over the reference (its seats' mean)."""
    low: float
    high: float
    """The 95% interval of ``elo``."""
    bid_accuracy: float
    reference_bid_accuracy: float


def bid_accuracy(games: Sequence[FinishedGame], names: Sequence[str]) -> float:
    """Rounds bid exactly, as a share of the rounds the ``names`` seats played."""
    hits = rounds = 0
    for game in games:
        for seat, name in enumerate(game.figures.seats):
            if name in names:
                hits, rounds = hits + game.figures.hits[seat], rounds + game.figures.rounds
    return hits / rounds if rounds else 0.0


def strength(games: Sequence[FinishedGame], bot: str, reference: Sequence[str], samples: int = 200) -> Strength:
    """``bot``'s Elo over the mean of the ``reference`` seats, with a bootstrap interval over sets."""
    names = sorted({name for game in games for name in game.figures.seats})
    at, refs = names.index(bot), [names.index(name) for name in reference]

    def over(fits: np.ndarray) -> np.ndarray:
        return fits[..., at] - fits[..., refs].mean(axis=-1)  # type: ignore[no-any-return]

    point = float(over(fit_elo(games, names)))
    low, high = np.percentile(over(bootstrap(games, names, samples)), [2.5, 97.5]) if samples else (point, point)
    return Strength(
        len(games), point, float(low), float(high), bid_accuracy(games, [bot]), bid_accuracy(games, reference)
    )


def reference_seats(names: Sequence[str], reference: str) -> list[str]:
    """The seats of the reference kind (``heuristic``, ``heuristic-2``, ...)."""
    return [name for name in names if name.split("-")[0] == reference]
