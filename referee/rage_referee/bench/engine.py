"""Benchmarks: figures measured beside a baseline run on the same machine in the same run."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import shlex
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from rage_sdk.examples import example_bot
from rage_sdk.rollout import greedy_policy, playout
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import WorldSampler
from rage_sdk.simulate import random_game
from rage_sdk.state import GameState
from rage_sdk.view import view_for

from ..deals import Deals
from ..finished import FinishedGame
from ..game import FaultLedger
from ..game_spec import GameSpec, TimeControl
from ..league.config import LeagueConfig
from ..league.ratings import rating_table
from ..league.runner import league_game, league_schedule
from ..match import match_specs
from ..runner import GameRunner, LocalRunner
from ..sandbox import Sandbox
from ..seats import BotSpec


@dataclass(frozen=True)
class Rate:
    """Complete games played in ``seconds`` and the decisions (bids and plays) they took."""

    games: int
    decisions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.games + other.games, self.decisions + other.decisions, self.seconds + other.seconds)

    def to_json(self) -> dict[str, float]:
        return {**asdict(self), "games_per_s": self.games_per_s, "decisions_per_s": self.decisions_per_s}


def engine_games(ruleset: Ruleset, players: int) -> Iterator[int]:
    """Random games of the full engine, one after another: the decisions (bids and plays) each took."""
    rng = random.Random(0)
    for seed in itertools.count():
        yield random_game(ruleset, players, seed=seed, rng=rng)[1]


def timed(games: Iterator[int], seconds: float) -> Rate:
    """Games from ``games`` for about ``seconds`` on this core."""
    played = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += next(games)
        played += 1
    return Rate(played, decisions, elapsed)


def take_turns(streams: list[Iterator[int]], seconds: float, turn: float = 0.1) -> list[Rate]:
    """The streams of games in turns of about ``turn`` seconds each, until each ran ``seconds`` in all.

    Taking turns, all see the same load from whatever else runs on the machine, so their ratios hold.
    """
    rates = [Rate(0, 0, 0.0) for _ in streams]
    while any(rate.seconds < seconds for rate in rates):
        rates = [rate + timed(games, min(turn, seconds - rate.seconds)) for rate, games in zip(rates, streams)]
    return rates


def search_worlds(players: int, worlds_per_view: int = 10) -> Iterator[int]:
    """Worlds drawn for the seat to move in random mid-round positions (amigo): ``worlds_per_view`` each."""
    rng = random.Random(0)
    ruleset = Ruleset.of("amigo")
    for seed in itertools.count():
        view = view_for(_random_position(ruleset, players, seed, rng), 0)
        sampler = WorldSampler(view)
        for _ in range(worlds_per_view):
            sampler.sample(rng)
        yield worlds_per_view


def search_playouts(players: int, worlds: int = 200) -> Iterator[int]:
    """Greedy playouts to the round's end, each from a rollout copy of one of ``worlds`` sampled
    worlds (drawn before any timing): the decisions each took."""
    rng = random.Random(0)
    ruleset = Ruleset.of("amigo")
    pool = [
        WorldSampler(view_for(_random_position(ruleset, players, seed, rng), 0)).sample(rng) for seed in range(worlds)
    ]
    return _playouts(pool, rng)


def _playouts(pool: list[GameState], rng: random.Random) -> Iterator[int]:
    for world in itertools.cycle(pool):
        fast = world.copy(history=False)
        decisions = sum(map(len, fast.hands)) + sum(bid is None for bid in fast.bids)
        playout(fast, rng, greedy_policy)
        yield decisions


def _random_position(ruleset: Ruleset, players: int, seed: int, rng: random.Random) -> GameState:
    """A random round (of the ruleset's rounds) dealt from ``seed``, played at random to a random moment."""
    state = GameState(ruleset, players, first_round=1 + seed % len(ruleset.rounds))
    state.deal_seeded(seed)
    for _ in range(rng.randrange(players * (state.cards + 1))):
        state.apply(rng.choice(state.legal_actions()))
    return state


def engine_rate(ruleset: Ruleset, players: int, seconds: float) -> Rate:
    """Random games of the full engine for about ``seconds``."""
    return timed(engine_games(ruleset, players), seconds)


def plain_game(players: int, rng: random.Random) -> int:
    """A bare-bones trick-taking game (no action cards, no options, no checks) as a yardstick.

    Ten rounds of 10..1 cards from 96 coloured cards, trump from the pile's top card,
    random bids, random plays that follow suit, Oh Hell scoring. Returns the decisions taken.
    """
    draw = rng.random
    deck = list(range(96))
    decisions = 0
    totals = [0] * players
    for cards in range(10, 0, -1):
        rng.shuffle(deck)
        hands = [deck[seat * cards : seat * cards + cards] for seat in range(players)]
        trump = deck[players * cards] >> 4
        decisions += players
        bids = [int(draw() * (cards + 1)) for _ in range(players)]
        won = [0] * players
        leader = 0
        for _ in range(cards):
            lead = -1
            best = winner = -1
            for offset in range(players):
                seat = (leader + offset) % players
                hand = hands[seat]
                legal = [card for card in hand if card >> 4 == lead] or hand if lead >= 0 else hand
                card = legal[int(draw() * len(legal))]
                hand.remove(card)
                decisions += 1
                if lead < 0:
                    lead = card >> 4
                rank = (card & 15) + (32 if card >> 4 == trump else 16 if card >> 4 == lead else 0)
                if rank > best:
                    best, winner = rank, seat
            won[winner] += 1
            leader = winner
        for seat in range(players):
            totals[seat] += won[seat] + (10 if won[seat] == bids[seat] else -5)
    return decisions


def baseline_games(players: int) -> Iterator[int]:
    """:func:`plain_game` after :func:`plain_game`: the decisions each took."""
    rng = random.Random(0)
    while True:
        yield plain_game(players, rng)


def baseline_rate(players: int, seconds: float) -> Rate:
    """:func:`plain_game` played for about ``seconds``."""
    return timed(baseline_games(players), seconds)


@dataclass(frozen=True)
class ProtocolRate:
    """Decisions through the referee at one concurrency, over gRPC and in-process."""

    concurrency: int
    grpc: Rate
    grpc_median_ms: float
    in_process: Rate
    unix: tuple[Rate, float] | None = None
    """Over a Unix socket, not sandboxed: the rate and median decision (ms)."""
    sandboxed: tuple[Rate, float] | None = None
    """In the sandbox (over a Unix socket): the rate and median decision (ms)."""

    def to_json(self) -> dict[str, object]:
        figures: dict[str, object] = {
            "concurrency": self.concurrency,
            "grpc": self.grpc.to_json(),
            "grpc_median_decision_ms": self.grpc_median_ms,
            "in_process": self.in_process.to_json(),
        }
        for name, measured in (("unix", self.unix), ("sandboxed", self.sandboxed)):
            if measured is not None:
                figures[name] = measured[0].to_json()
                figures[f"{name}_median_decision_ms"] = measured[1]
        return figures


async def _timed(runner: GameRunner, specs: Iterable[GameSpec]) -> tuple[Rate, list[FinishedGame]]:
    """Play ``specs`` on a started runner: the rate, and the games."""
    finished: list[FinishedGame] = []
    start = time.perf_counter()
    await runner.run(specs, finished.append)
    elapsed = time.perf_counter() - start
    return Rate(len(finished), sum(game.decisions for game in finished), elapsed), finished


async def _rate(runner: GameRunner, ruleset: Ruleset, concurrency: int, games: int) -> tuple[Rate, float]:
    runner.concurrency = concurrency
    specs = match_specs(list(runner.bots), ruleset, games, Deals.public(0), TimeControl())
    rate, finished = await _timed(runner, specs)
    latencies = sorted(ms for game in finished for ms in game.latencies_ms)
    return rate, latencies[len(latencies) // 2]


async def protocol_rates(
    concurrencies: list[int], players: int = 4, rounds: int = 2, sandbox: Sandbox | None = None
) -> list[ProtocolRate]:
    """Random bots, each its own gRPC process, at each concurrency; the same games in-process beside.

    ``rounds`` sets how many games each measurement plays: ``rounds * concurrency`` (at least 8).
    With ``sandbox``, the same bots also over a Unix socket, and in the sandbox (over its socket).
    """
    ruleset = Ruleset.of("amigo")
    random_bot = example_bot("random_bot")
    with tempfile.TemporaryDirectory() as logs:

        def bots(target: str, kind: str, in_sandbox: Sandbox | None = None) -> LocalRunner:
            specs = [BotSpec.of(f"random{k}", target) for k in range(players)]
            return LocalRunner(specs, FaultLedger(10**9), log_dir=Path(logs) / kind, sandbox=in_sandbox)

        sides = [bots(f"python {random_bot}", "tcp"), bots(f"{random_bot}:RandomBot", "local")]
        if sandbox is not None:
            sides += [
                bots(f"python {random_bot} --listen {{listen}}", "unix"),
                bots(f"python {random_bot}", "sandboxed", sandbox),
            ]
        async with contextlib.AsyncExitStack() as started:
            await asyncio.gather(*(started.enter_async_context(side) for side in sides))
            remote, local, *more_sides = sides
            figures = []
            for concurrency in concurrencies:
                games = max(8, rounds * concurrency)
                grpc_rate, median = await _rate(remote, ruleset, concurrency, games)
                local_rate, _ = await _rate(local, ruleset, concurrency, games)
                more = [await _rate(side, ruleset, concurrency, games) for side in more_sides]
                figures.append(ProtocolRate(concurrency, grpc_rate, median, local_rate, *more))
            return figures


@dataclass(frozen=True)
class LeagueRate:
    concurrency: int
    rate: Rate


def _bench_league(
    bots: dict[str, str], players: int, games: int, seed: int = 0, duplicate: bool = True
) -> LeagueConfig:
    """A league of ``bots`` on amigo rules with public deals."""
    ruleset = Ruleset.of("amigo")
    return LeagueConfig(
        name="bench", ruleset=ruleset, bots=bots, players=players, games=games, seed=seed, duplicate=duplicate
    )


def _league_specs(config: LeagueConfig) -> list[GameSpec]:
    deals = Deals.public(config.seed or 0)
    return [league_game(config, game, deals) for game in league_schedule(config, deals)]


async def league_rates(concurrencies: list[int], games: int) -> list[LeagueRate]:
    """A 4-bot, 4-player league of the random and heuristic example bots over gRPC, at each concurrency."""
    bots = {
        "heuristic-1": example_bot("heuristic_bot"),
        "heuristic-2": example_bot("heuristic_bot"),
        "random-1": example_bot("random_bot"),
        "random-2": example_bot("random_bot"),
    }
    config = _bench_league({name: f"python {shlex.quote(str(file))}" for name, file in bots.items()}, 4, games)
    specs = _league_specs(config)
    with tempfile.TemporaryDirectory() as logs:
        async with LocalRunner(config.bot_specs(), FaultLedger(10**9), log_dir=Path(logs)) as runner:
            figures = []
            for concurrency in concurrencies:
                runner.concurrency = concurrency
                rate, _ = await _timed(runner, specs)
                figures.append(LeagueRate(concurrency, rate))
            return figures


@dataclass(frozen=True)
class IntervalWidth:
    duplicate: bool
    mean_width: float
    """Mean width of the bots' 95% rating intervals, in Elo."""


async def interval_widths(games: int, leagues: int) -> list[IntervalWidth]:
    """The same number of games with and without duplicate deals (in-process example bots, several seeds)."""
    bots = {
        "heuristic": f"{example_bot('heuristic_bot')}:HeuristicBot",
        "greedy": f"{example_bot('greedy_bot')}:GreedyBot",
        "random-1": f"{example_bot('random_bot')}:RandomBot",
        "random-2": f"{example_bot('random_bot')}:RandomBot",
    }
    async with LocalRunner([BotSpec.of(name, target) for name, target in bots.items()], FaultLedger(10**9)) as runner:
        runner.concurrency = 8
        widths = []
        for duplicate in (True, False):
            per_league = []
            for seed in range(leagues):
                config = _bench_league(bots, 3, games, seed, duplicate)
                _, finished = await _timed(runner, _league_specs(config))
                finished.sort(key=lambda game: game.index)
                per_league += [row.high - row.low for row in rating_table(finished)]
            widths.append(IntervalWidth(duplicate, sum(per_league) / len(per_league)))
        return widths
