"""``rage bench``: speed figures, each beside a baseline measured in the same run, printed in one table shape."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from .common import PRESET_NAMES, err, fail, number_list, out
from .errors import saying
from .options import FiguresJsonOption

if TYPE_CHECKING:
    from ..bench.protocol import ProtocolRate
    from ..bench.report import ReportFigures

app = typer.Typer(help="Measure speed (figures beside a baseline from the same run).", no_args_is_help=True)


def figures_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]]) -> Table:
    """A table of figures: the column headed ``""`` holds the rows' labels, left-justified; figures go right."""
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="right" if column else "left")
    for row in rows:
        table.add_row(*row)
    return table


def print_figures(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], *notes: str) -> None:
    """Print :func:`figures_table` and after it each of ``notes``, a line each."""
    out.print(figures_table(title, columns, rows))
    for note in notes:
        out.print(note)


@app.command("engine")
def engine_command(
    players: Annotated[int, typer.Option(help="Players at the table (2-10).")] = 4,
    ruleset: Annotated[str, typer.Option(help=f"A preset: {PRESET_NAMES}.")] = "amigo",
    seconds: Annotated[float, typer.Option(help="How long to play, per measurement.", min=0.1)] = 5.0,
    as_json: FiguresJsonOption = False,
) -> None:
    """Complete games with uniformly random legal decisions, in one process on one core.

    The engine and the baseline take turns of a tenth of a second, so both see the same machine load."""
    from rage_sdk.rules import PRESETS, Ruleset, RulesetError, unknown_preset

    if ruleset not in PRESETS:
        fail(f"--ruleset: {unknown_preset(ruleset)}")
    from ..bench.engine import baseline_games, engine_games, take_turns

    rules = Ruleset.of(ruleset)
    with saying({RulesetError: ("--players: {error}", 2)}):
        rules.check_players(players)
    from rage_sdk.compiled import is_compiled

    engine, baseline = take_turns([engine_games(rules, players), baseline_games(players)], seconds)
    compiled = is_compiled()
    if as_json:
        figures = {"ruleset": ruleset, "players": players, "compiled": compiled, **engine.to_json()}
        print(json.dumps({**figures, "baseline": baseline.to_json()}))
        return
    print_figures(
        f"rage bench engine: {ruleset}, {players} players, random legal decisions, {_build(compiled)}",
        ("", "games", "games_per_s", "decisions_per_s"),
        [
            (label, str(rate.games), f"{rate.games_per_s:,.0f}", f"{rate.decisions_per_s:,.0f}")
            for label, rate in (
                ("engine (all rules, every action checked)", engine),
                ("baseline: bare trick-taking, no action cards", baseline),
            )
        ],
        f"engine / baseline: {engine.decisions_per_s / baseline.decisions_per_s:.2f}x decisions per second",
    )


@app.command("search")
def search_command(
    players: Annotated[int, typer.Option(help="Players at the table (2-10).", min=2, max=10)] = 4,
    seconds: Annotated[float, typer.Option(help="How long to run, per measurement.", min=0.1)] = 3.0,
    as_json: FiguresJsonOption = False,
) -> None:
    """The search toolkit: worlds sampled per second and greedy playout decisions per second (amigo),
    beside the engine's random games and the bare-bones baseline, all taking turns in one run."""
    from rage_sdk.compiled import is_compiled
    from rage_sdk.rules import Ruleset

    from ..bench.engine import baseline_games, engine_games, take_turns
    from ..bench.search import search_playouts, search_worlds

    rules = Ruleset.of("amigo")
    compiled = is_compiled()
    worlds, playouts, engine, baseline = take_turns(
        [
            search_worlds(players),
            search_playouts(players),
            engine_games(rules, players),
            baseline_games(players),
        ],
        seconds,
    )
    if as_json:
        figures = {"worlds": worlds, "playouts": playouts, "engine": engine, "baseline": baseline}
        rates = {name: rate.to_json() for name, rate in figures.items()}
        print(json.dumps({"players": players, "compiled": compiled, **rates}))
        return
    ratio = baseline.decisions_per_s
    print_figures(
        f"rage bench search: amigo, {players} players, the seat to move at random moments, {_build(compiled)}",
        ("", "per second", "vs baseline decisions/s"),
        [
            ("worlds sampled (consistent with the view)", f"{worlds.decisions_per_s:,.0f}", ""),
            *(
                (label, f"{rate.decisions_per_s:,.0f}", f"{rate.decisions_per_s / ratio:.2f}x")
                for label, rate in (
                    ("playout decisions (greedy policy, rollout copy)", playouts),
                    ("engine decisions (random, every action checked)", engine),
                )
            ),
            ("baseline decisions (bare trick-taking)", f"{baseline.decisions_per_s:,.0f}", "1.00x"),
        ],
    )


def _build(compiled: bool) -> str:
    """The engine build measured, for a table's title."""
    return "compiled engine" if compiled else "pure-Python engine"


@app.command("protocol")
def protocol_command(
    matches: Annotated[str, typer.Option(help="Concurrent games to measure at, comma-separated.")] = "1,8,32",
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Also over a Unix socket, and in the sandbox (over its socket).")
    ] = False,
    as_json: FiguresJsonOption = False,
) -> None:
    """Decisions per second through the referee with random bots as gRPC processes, beside the same games in-process."""
    levels = number_list("--matches", matches, "1,8,32")
    from ..bench.protocol import protocol_rates
    from ..sandbox import Sandbox, SandboxError, SandboxSettings

    with saying({SandboxError: ("--sandbox: {error}", 1)}):
        jail = Sandbox.available(SandboxSettings(enabled=True)) if sandbox else None
    figures = asyncio.run(protocol_rates(levels, sandbox=jail))
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    print_figures(
        "rage bench protocol: 4 random bots, each its own gRPC process, amigo",
        ("concurrent games", "gRPC decisions/s", "gRPC median decision", "in-process decisions/s"),
        [
            (
                str(figure.concurrency),
                f"{figure.grpc.decisions_per_s:,.0f}",
                f"{figure.grpc_median_ms:.2f} ms",
                f"{figure.in_process.decisions_per_s:,.0f}",
            )
            for figure in figures
        ],
    )
    if jail is not None:
        out.print(sandbox_table(figures))
        out.print(jail.describe())


def sandbox_table(figures: list[ProtocolRate]) -> Table:
    """The same bots over a Unix socket, plain and in the sandbox: what the sandbox costs per decision."""
    rows = []
    for figure in figures:
        assert figure.unix is not None and figure.sandboxed is not None
        (plain, plain_ms), (boxed, boxed_ms) = figure.unix, figure.sandboxed
        rows.append(
            (
                str(figure.concurrency),
                f"{plain.decisions_per_s:,.0f}",
                f"{plain_ms:.3f} ms",
                f"{boxed.decisions_per_s:,.0f}",
                f"{boxed_ms:.3f} ms",
                f"{(boxed_ms - plain_ms) * 1000:+.0f} µs",
            )
        )
    columns = ("concurrent games", "plain decisions/s", "plain median", "sandboxed decisions/s", "sandboxed median")
    return figures_table(
        "the sandbox's cost: the same bots over a Unix socket, plain and sandboxed",
        (*columns, "cost per decision (medians)"),
        rows,
    )


@app.command("league")
def league_command(
    matches: Annotated[str, typer.Option(help="Concurrent games to measure at, comma-separated.")] = "1,4,16",
    games: Annotated[int, typer.Option(min=4, help="Games per measurement.")] = 48,
    seconds: Annotated[float, typer.Option(min=0.1, help="Time for the engine-alone baseline.")] = 2.0,
    leagues: Annotated[int, typer.Option(min=1, help="Leagues per side for the duplicate-deal comparison.")] = 4,
    as_json: FiguresJsonOption = False,
) -> None:
    """A 4-player league of the example bots over gRPC at each concurrency, beside the engine alone;
    then how much duplicate deals narrow the rating intervals for the same number of games."""
    levels = number_list("--matches", matches, "1,4,16")
    from rage_sdk.rules import Ruleset

    from ..bench.engine import engine_rate
    from ..bench.league import interval_widths, league_rates

    engine = engine_rate(Ruleset.of("amigo"), 4, seconds)
    figures = asyncio.run(league_rates(levels, games))
    widths = asyncio.run(interval_widths(games * 2, leagues))
    if as_json:
        print(
            json.dumps(
                {
                    "engine": engine.to_json(),
                    "league": [{"concurrency": f.concurrency, **f.rate.to_json()} for f in figures],
                    "interval_width": [{"duplicate": w.duplicate, "mean_width_elo": w.mean_width} for w in widths],
                }
            )
        )
        return
    with_dup, without = widths
    rates = [("engine alone (random decisions)", engine)]
    rates += [(f"league, {figure.concurrency} at once", figure.rate) for figure in figures]
    print_figures(
        "rage bench league: heuristic x2 + random x2 over gRPC, 4 players, amigo",
        ("", "games/s", "decisions/s"),
        [(label, f"{rate.games_per_s:,.1f}", f"{rate.decisions_per_s:,.0f}") for label, rate in rates],
        f"95% rating interval, mean width over {leagues} leagues of {games * 2} games (in-process): "
        f"duplicate deals {with_dup.mean_width:.0f} Elo, random deals {without.mean_width:.0f} Elo "
        f"({1 - with_dup.mean_width / without.mean_width:.0%} narrower)",
    )


@app.command("test")
def trial_bench_command(
    runs: Annotated[int, typer.Option(min=1, help="Runs of heuristic against the same bot with 10% random moves.")] = 4,
    equal_runs: Annotated[int, typer.Option(min=0, help="Runs of that sloppy bot against itself.")] = 4,
    cap: Annotated[int, typer.Option(min=6, help="Games at most in one run.")] = 3000,
    elo1: Annotated[float | None, typer.Option(help="H1's margin in Elo.", show_default="rage test's")] = None,
    as_json: FiguresJsonOption = False,
) -> None:
    """Games rage test needs at 3 players (greedy the field), beside the GSPRT it used before and a head-to-head
    win/draw/loss SPRT on the same games; and how often each accepts H1 when NEW and BASE are the same bot."""
    from ..bench import trial as trial_bench
    from ..matches.trial import DEFAULT_ELO1

    margin = DEFAULT_ELO1 if elo1 is None else elo1
    figures = trial_bench.measure(runs, equal_runs, cap, margin).figures()
    if as_json:
        print(json.dumps(figures))
        return
    rows = [
        (
            f"H1 accepted, of {runs} runs",
            f"{figures['paired_h1_share']:.0%}",
            f"{figures['earlier_h1_share']:.0%}",
            f"{figures['baseline_h1_share']:.0%}",
        ),
        (
            "mean games to the verdict",
            f"{figures['paired_mean_games']:.0f}",
            f"{figures['earlier_mean_games']:.0f}",
            f"{figures['baseline_mean_games']:.0f}",
        ),
    ]
    if equal_runs:
        rows.append(
            (
                f"H1 accepted with NEW = BASE, of {equal_runs} runs",
                f"{figures['paired_false_h1_share']:.0%} ({figures['paired_equal_mean_games']:.0f} games)",
                f"{figures['earlier_false_h1_share']:.0%} ({figures['earlier_equal_mean_games']:.0f} games)",
                "",
            )
        )
    print_figures(
        f"rage bench test: heuristic against itself with 10% random moves, 3 players, amigo, H1 {margin:+g} Elo",
        ("", "rage test (anytime interval)", "earlier: GSPRT, normal model", "baseline: head-to-head W/D/L SPRT"),
        rows,
    )


@app.command("sprt")
def sprt_command(
    figures: Annotated[str, typer.Option(help="Stream lengths to time verdicts on, comma-separated.")] = "1000,4000",
    runs: Annotated[int, typer.Option(min=0, max=100_000, help="Runs per scenario of set differences.")] = 400,
    pair_sets: Annotated[
        int, typer.Option(min=0, max=10_000, help="Sets of a real pair to resample (heuristic against sloppy).")
    ] = 200,
    seed: Annotated[int, typer.Option(min=0, help="The scenarios' random seed.")] = 1,
    as_json: FiguresJsonOption = False,
) -> None:
    """rage test's sequential test beside the GSPRT it used before: H1 and H0 accepted and sets taken on synthetic
    set differences (normal, zero-inflated, skewed) and on a real pair's resampled; and each test's time per
    verdict over a long stream of figures (running sums, and the GSPRT summing every figure again)."""
    from ..bench import trial as trial_bench
    from ..seats import load_bot_class

    counts = number_list("--figures", figures, "1000,4000", most=100_000)
    speeds = [trial_bench.verdict_speed(count) for count in counts]
    pair = None
    if runs and pair_sets:
        heuristic, sloppy = load_bot_class(trial_bench.HEURISTIC), load_bot_class(trial_bench.SLOPPY)
        pair = trial_bench.set_pool(heuristic, sloppy, pair_sets, seed)
    comparisons = (
        [trial_bench.compare(scenario, runs, seed) for scenario in trial_bench.scenarios(pair)] if runs else []
    )
    if as_json:
        print(
            json.dumps(
                {
                    "speeds": [vars(speed) for speed in speeds],
                    "scenarios": [
                        {"scenario": c.scenario.name, "null": c.scenario.null, "margin": c.scenario.margin}
                        | {"anytime": vars(c.anytime), "earlier": vars(c.earlier)}
                        for c in comparisons
                    ],
                }
            )
        )
        return
    if comparisons:
        print_figures(
            f"rage bench sprt: H1 accepted (false when the mean is 0) and sets taken, {runs} runs a scenario, "
            "alpha = beta = 5%",
            ("set differences", "rage test: H1", "sets", "earlier GSPRT: H1", "sets"),
            [
                (
                    c.scenario.name,
                    f"{c.anytime.h1:.1%}",
                    f"{c.anytime.mean_figures:.0f}",
                    f"{c.earlier.h1:.1%}",
                    f"{c.earlier.mean_figures:.0f}",
                )
                for c in comparisons
            ],
        )
    print_figures(
        "rage bench sprt: a verdict after each figure of a stream",
        (
            "figures",
            "rage test, us a verdict",
            "earlier GSPRT, running sums",
            "GSPRT summed again",
            "summed again / running",
        ),
        [
            (
                f"{s.figures:,}",
                f"{s.anytime_us:.1f}",
                f"{s.running_us:.1f}",
                f"{s.resummed_us:.1f}",
                f"{s.resummed_us / s.running_us:.1f}x",
            )
            for s in speeds
        ],
    )


@app.command("create-league")
def create_league_command(
    games: Annotated[
        int, typer.Option(min=1, help="Games in the league created, rounded up to whole rounds (840 games).")
    ] = 99_960,
    as_json: FiguresJsonOption = False,
) -> None:
    """How long the hosted referee's event loop stalls while a league of GAMES games is created."""
    from ..bench.stall import league_games, measure
    from ..limits import MAX_HOSTED_GAMES

    played = league_games(games)
    if played > MAX_HOSTED_GAMES:
        most = MAX_HOSTED_GAMES
        fail(f"--games: {games:,} in whole rounds is {played:,} games; a hosted league holds at most {most:,}")
    baseline, created = asyncio.run(measure(games))
    if as_json:
        print(json.dumps({"games": games, "create_league": created.to_json(), "baseline": baseline.to_json()}))
        return
    print_figures(
        f"rage bench create-league: {games:,} games, 8 bots, 4 per table",
        ("", "seconds", "longest event-loop stall (ms)"),
        [
            (label, f"{stall.seconds:.2f}", f"{stall.longest_stall * 1000:.0f}")
            for label, stall in (
                ("CreateLeague over gRPC", created),
                ("baseline: the definition read on the loop", baseline),
            )
        ],
    )


@app.command("runner")
def runner_command(
    games: Annotated[int, typer.Option(min=4, help="Games per side (whole duplicate sets: 12 at a time).")] = 48,
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="Games at once per process.")] = 4,
    submitted: Annotated[
        bool,
        typer.Option(
            "--submitted",
            help="Submitted versions of the bots, built and played in the sandbox, shipped to the Ray workers.",
        ),
    ] = False,
    as_json: FiguresJsonOption = False,
) -> None:
    """The same 4-player league of the example bots over gRPC on LocalRunner and on Ray with 1 and 2 workers,
    and what Ray costs per game."""
    from ..runner.base import RunnerError
    from ..runner.settings import ray_available
    from ..sandbox import SandboxError

    if not ray_available():
        fail(str(RunnerError("rage bench runner needs Ray: pip install 'rage-arena[ray]'")), 1)
    from ..bench.runner import runner_figures

    try:
        figures = asyncio.run(runner_figures(games, concurrency, submitted=submitted))
    except SandboxError as error:
        fail(f"--submitted: {error}", 1)
    if as_json:
        print(json.dumps({"games": games, "concurrency": concurrency, "submitted": submitted, **figures.to_json()}))
        return
    played = figures.sides[0].rate.games
    local = figures.sides[0].rate.games_per_s
    kind = "submitted versions in the sandbox" if submitted else "over gRPC"
    print_figures(
        f"rage bench runner: {played} games, heuristic x2 + random x2 {kind}, {concurrency} at once",
        (
            "",
            "start s",
            "games/s",
            "decisions/s",
            "games/s per worker",
            "of local",
            *(("ship s",) if submitted else ()),
        ),
        [
            (
                side.label,
                f"{side.start_s:.1f}",
                f"{side.rate.games_per_s:,.1f}",
                f"{side.rate.decisions_per_s:,.0f}",
                f"{side.rate.games_per_s / side.workers:,.1f}" if side.workers else "",
                f"{side.rate.games_per_s / side.workers / local:.0%}" if side.workers else "",
                *((f"{side.ship_s:.2f}" if side.workers else "",) if submitted else ()),
            )
            for side in figures.sides
        ],
        f"Ray's overhead per game: {figures.overhead_ms:+.1f} ms (1 worker against the local loop, same concurrency); "
        f"a finished game's round trip through an actor: {figures.round_trip_ms:.2f} ms; "
        f"starting Ray here: {figures.ray_start_s:.1f} s"
        + (
            "; ship s: the longest a worker took to take the 4 versions (fetched, unpacked and checked into an "
            "empty cache on the first Ray side, from the cache after)"
            if submitted
            else ""
        ),
    )


@app.command("ladder")
def ladder_command(
    bot: Annotated[str, typer.Option(help="The example bot measured (a module of rage_sdk.examples).")] = "search_bot",
    field: Annotated[str, typer.Option(help="The other seats, comma-separated example bots.")] = (
        "heuristic_bot,heuristic_bot,greedy_bot"
    ),
    reference: Annotated[str, typer.Option(help="Strength is over this bot's seats (its mean Elo).")] = "heuristic",
    budgets: Annotated[str, typer.Option(help="Budgets per decision (ms) for bots that take one, comma-separated.")] = (
        "10,30,100,300"
    ),
    games: Annotated[int, typer.Option(min=1, help="Games per budget (whole duplicate sets of 12).")] = 96,
    seed: Annotated[int, typer.Option(help="The league's deal seed.")] = 100,
    clock: Annotated[str, typer.Option(help="A search bot's budget clock: cpu (its own thread's) or wall.")] = "cpu",
) -> None:
    """A duplicate league (amigo, 4 players) per budget, bots in-process: the measured bot's Elo over
    the reference with its 95% interval, and bid accuracy. With --clock cpu the figures do not
    depend on machine load."""
    from rage_sdk.examples import EXAMPLE_BOTS

    from ..bench import ladder

    if clock not in ladder.CLOCKS:
        fail(f"--clock: {clock!r} is not one of {', '.join(ladder.CLOCKS)}")
    modules = [bot, *(part.strip() for part in field.split(",") if part.strip())]
    unknown = [module for module in modules if module not in EXAMPLE_BOTS]
    if unknown:
        fail(f"--bot/--field: no example bot {unknown[0]!r} (one of {', '.join(EXAMPLE_BOTS)})")
    if len(modules) != 4:
        fail(f"--field: three bots beside --bot make the table of 4, not {len(modules) - 1}")
    try:
        levels = [float(part) for part in budgets.split(",") if part.strip()]
        if not levels or not all(0 < level <= 60_000 for level in levels):
            raise ValueError
    except ValueError:
        fail(f"--budgets: expected milliseconds like 10,30,100 (each above 0, at most 60000), not {budgets!r}")
    names = ladder.seat_names(modules)
    refs = ladder.reference_seats(names[1:], reference)
    if not refs:
        fail(f"--reference: no {reference!r} seat in --field")
    rows = []
    for budget in levels:
        factories = {name: ladder.factory_for(m, budget, clock) for name, m in zip(names, modules)}
        played = []
        for game in ladder.play_league(factories, games, seed):
            played.append(game)
            if len(played) % 12 == 0:
                figure = ladder.strength(played, names[0], refs, samples=0)
                err.print(f"{budget:g} ms: {len(played)} games, {figure.elo:+.0f} Elo, bids {figure.bid_accuracy:.1%}")
        s = ladder.strength(played, names[0], refs)
        rows.append(
            (
                f"{budget:g} ms",
                str(s.games),
                f"{s.elo:+.0f}",
                f"{s.low:+.0f} to {s.high:+.0f}",
                f"{s.bid_accuracy:.1%} / {s.reference_bid_accuracy:.1%}",
            )
        )
    print_figures(
        f"rage bench ladder: {names[0]} against {', '.join(names[1:])} (amigo, duplicate, {clock} clock)",
        ("budget", "games", f"Elo over {reference}", "95% interval", f"bid accuracy: {names[0]} / {reference}"),
        rows,
    )


@app.command("report")
def report_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "360,10000",
    replays: Annotated[
        int | None, typer.Option(min=0, help="Replays per build: the N most recent games and those with faults.")
    ] = 200,
    as_json: FiguresJsonOption = False,
) -> None:
    """Build the report of synthetic leagues: seconds, pages, bytes; the rating table alone as the baseline."""
    from ..bench.report import measure

    figures = [measure(size, replays) for size in number_list("--games", games, "360,10000")]
    if as_json:
        print(json.dumps([{"games": f.games, "ratings_s": f.ratings_seconds, **f.built.__dict__} for f in figures]))
        return
    columns = ("games", "ratings s", "report s", "replays", "ms/replay", "KiB/replay", "index KiB", "site MiB")
    print_figures(
        f"rage bench report: synthetic amigo leagues, 8 bots, 3 a table, replays for {replays}",
        (*columns, "all replays s, MiB (est.)"),
        [_report_row(figure) for figure in figures],
        "ratings: the rating table alone (the baseline, as rage ratings computes it); report: the site built from it; "
        "the last column extrapolates to a replay for every game",
    )


def _report_row(figure: ReportFigures) -> tuple[str, ...]:
    """One league size's figures, the last column extrapolated to a replay for every game."""
    built = figure.built
    count = max(built.replays, 1)
    seconds_each, bytes_each = built.replay_seconds / count, built.replay_bytes / count
    missing = figure.games - built.replays
    return (
        str(figure.games),
        f"{figure.ratings_seconds:.2f}",
        f"{built.seconds:.2f}",
        str(built.replays),
        f"{seconds_each * 1000:.1f}",
        f"{bytes_each / 1024:.0f}",
        f"{built.index_bytes / 1024:.0f}",
        f"{built.total_bytes / 1024 / 1024:.1f}",
        f"{built.seconds + missing * seconds_each:.0f}, {(built.total_bytes + missing * bytes_each) / 2**20:.0f}",
    )


@app.command("ratings")
def ratings_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "1000,10000",
    as_json: FiguresJsonOption = False,
) -> None:
    """The rating table of synthetic leagues (200 bootstrap resamples), beside the same resamples fitted one
    by one from pair lists, as before (timed on a few and scaled)."""
    from ..bench.ratings import measure
    from ..league.ratings import BOOTSTRAP_SAMPLES

    figures = [measure(size) for size in number_list("--games", games, "1000,10000")]
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    print_figures(
        f"rage bench ratings: synthetic amigo leagues, 8 bots, 3 a table, {BOOTSTRAP_SAMPLES} resamples",
        ("games", "rating table s", "bootstrap s", "baseline: bootstrap one fit at a time s", "speed-up"),
        [
            (
                str(figure.games),
                f"{figure.table_seconds:.2f}",
                f"{figure.bootstrap_seconds:.2f}",
                f"{figure.baseline_seconds:.1f} (from {figure.baseline_fits} fits)",
                f"{figure.baseline_seconds / figure.bootstrap_seconds:.0f}x",
            )
            for figure in figures
        ],
    )


@app.command("store")
def store_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "1000,10000",
    as_json: FiguresJsonOption = False,
) -> None:
    """Every game's figures (seats, totals, places, hits, rounds, faults) of synthetic leagues on SQLite, read
    from the store's index (best of 3 reads), beside reading every record once and deriving them from it."""
    from ..bench.store import measure

    figures = [measure(size) for size in number_list("--games", games, "1000,10000")]
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    print_figures(
        "rage bench store: synthetic amigo leagues on SQLite, 3 a table",
        ("games", "record KB", "database MB", "index s", "baseline: from the records s", "speed-up"),
        [
            (
                str(figure.games),
                f"{figure.record_kb:.1f}",
                f"{figure.database_mb:.0f}",
                f"{figure.index_seconds:.2f}",
                f"{figure.records_seconds:.2f}",
                f"{figure.records_seconds / figure.index_seconds:.0f}x",
            )
            for figure in figures
        ],
    )


@app.command("contest")
def contest_command(
    games: Annotated[int, typer.Option(min=12, max=1_000_000, help="Games each system plays.")] = 9000,
    players: Annotated[int, typer.Option(min=2, max=8, help="Players at each table.")] = 4,
    step: Annotated[int, typer.Option(min=1, help="Games between two points of the tau curve.")] = 96,
    seed: Annotated[int, typer.Option(min=0, help="The seed of deals and matchmaking.")] = 1,
    as_json: FiguresJsonOption = False,
) -> None:
    """A live contest simulated in-process (amigo): 16 heuristic bots each taking random moves at its
    own rate, 4 of them resubmitting a stronger version at a third of the games, 2 of one owner. The
    ladder (duplicate sets at its matchmaker's tables, rated once per set) beside Kaggle-style
    matchmaking (single games at tables of rating neighbours, rated once per game): Kendall's tau of the
    leaderboard against the true order, games until each new version's rank settles, games per bot."""
    from rage_sdk.rules import Ruleset

    from ..bench import contest

    if step > games:
        fail(f"--step: {step} games between points of the curve, more than the {games} --games")
    figures = contest.measure(games, players, seed, step, Ruleset.of("amigo"), err.print)
    if as_json:
        print(json.dumps(figures))
        return
    sides = (figures["ladder"], figures["baseline"])

    def shown(value: object, absent: str) -> str:
        return absent if value is None else str(value)

    spread = "{min} / {median:g} / {max}"
    rows = [
        (
            f"games until the top {contest.TOP} stay at tau >= {contest.TARGET_TAU}",
            *(shown(s["games_to_tau"], "not reached") for s in sides),
        ),
        ("tau at the end, all bots", *(f"{s['tau_all']:.3f}" for s in sides)),
        (f"tau at the end, top {contest.TOP}", *(f"{s['tau_top8']:.3f}" for s in sides)),
        ("games per bot: min / median / max", *(spread.format(**s["games_per_bot"]) for s in sides)),
        ("tables with two bots of one owner", *(str(s["owner_clashes"]) for s in sides)),
    ]
    rows += [
        (
            f"games until {version} settles (rank within 1)",
            *(shown(s["settled_after"][version], "not settled") for s in sides),
        )
        for version in sides[0]["settled_after"]
    ]
    print_figures(
        f"rage bench contest: 16 bots, {games} games each, tables of {players}, seed {seed}",
        ("", "ladder (duplicate sets)", "baseline (single games)"),
        rows,
        "top 8 tau against games (ladder / baseline): "
        + ", ".join(f"{g}: {a:.2f}/{b:.2f}" for g, a, b in contest.curve_points(figures)),
    )
