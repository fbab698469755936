"""``rage bench``: speed figures, each beside a baseline measured in the same run."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Annotated

import typer
from rage_sdk.rules import PRESETS, Ruleset, RulesetError
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from .. import bench

app = typer.Typer(help="Measure speed (figures beside a baseline from the same run).", no_args_is_help=True)
err = Console(stderr=True, highlight=False)


@app.command("engine")
def engine_command(
    players: Annotated[int, typer.Option(help="Players at the table (2-10).")] = 4,
    ruleset: Annotated[str, typer.Option(help=f"A preset: {', '.join(PRESETS)}.")] = "amigo",
    seconds: Annotated[float, typer.Option(help="How long to play, per measurement.", min=0.1)] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Complete games with uniformly random legal decisions, in one process on one core."""
    if ruleset not in PRESETS:
        err.print(f"--ruleset: unknown preset {ruleset!r} (one of {', '.join(PRESETS)})")
        raise typer.Exit(2)
    from .. import bench

    rules = Ruleset.of(ruleset)
    try:
        rules.check_players(players)
    except RulesetError as error:
        err.print(f"--players: {error}")
        raise typer.Exit(2) from None
    engine = bench.engine_rate(rules, players, seconds)
    baseline = bench.baseline_rate(players, seconds)
    if as_json:
        print(json.dumps({"ruleset": ruleset, "players": players, **engine.to_json(), "baseline": baseline.to_json()}))
        return
    table = Table(title=f"rage bench engine: {ruleset}, {players} players, random legal decisions")
    for column in ("", "games", "games_per_s", "decisions_per_s"):
        table.add_column(column, justify="right" if column else "left")
    table.add_row(
        "engine (all rules, every action checked)",
        str(engine.games),
        f"{engine.games_per_s:,.0f}",
        f"{engine.decisions_per_s:,.0f}",
    )
    table.add_row(
        "baseline: bare trick-taking, no action cards",
        str(baseline.games),
        f"{baseline.games_per_s:,.0f}",
        f"{baseline.decisions_per_s:,.0f}",
    )
    Console().print(table)
    Console().print(f"engine / baseline: {engine.decisions_per_s / baseline.decisions_per_s:.2f}x decisions per second")


@app.command("protocol")
def protocol_command(
    matches: Annotated[str, typer.Option(help="Concurrent games to measure at, comma-separated.")] = "1,8,32",
    sandbox: Annotated[
        bool, typer.Option("--sandbox", help="Also over a Unix socket, and in the sandbox (over its socket).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Decisions per second through the referee with random bots as gRPC processes, beside the same games in-process."""
    try:
        levels = [int(part) for part in matches.split(",") if part.strip()]
    except ValueError:
        err.print(f"--matches: expected numbers like 1,8,32, not {matches!r}")
        raise typer.Exit(2) from None
    if not levels or min(levels) < 1:
        err.print("--matches: give at least one concurrency, each 1 or more")
        raise typer.Exit(2)
    from .. import bench
    from ..sandbox import Sandbox, SandboxError, SandboxSettings

    try:
        jail = Sandbox.available(SandboxSettings(enabled=True)) if sandbox else None
    except SandboxError as error:
        err.print(f"--sandbox: {error}")
        raise typer.Exit(1) from None
    figures = asyncio.run(bench.protocol_rates(levels, sandbox=jail))
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    table = Table(title="rage bench protocol: 4 random bots, each its own gRPC process, amigo")
    for column in ("concurrent games", "gRPC decisions/s", "gRPC median decision", "in-process decisions/s"):
        table.add_column(column, justify="right")
    for figure in figures:
        table.add_row(
            str(figure.concurrency),
            f"{figure.grpc.decisions_per_s:,.0f}",
            f"{figure.grpc_median_ms:.2f} ms",
            f"{figure.in_process.decisions_per_s:,.0f}",
        )
    Console().print(table)
    if jail is not None:
        Console().print(sandbox_table(figures))
        Console().print(jail.describe())


def sandbox_table(figures: list[bench.ProtocolRate]) -> Table:
    """The same bots over a Unix socket, plain and in the sandbox: what the sandbox costs per decision."""
    table = Table(title="the sandbox's cost: the same bots over a Unix socket, plain and sandboxed")
    for column in ("concurrent games", "plain decisions/s", "plain median", "sandboxed decisions/s"):
        table.add_column(column, justify="right")
    table.add_column("sandboxed median", justify="right")
    table.add_column("cost per decision (medians)", justify="right")
    for figure in figures:
        assert figure.unix is not None and figure.sandboxed is not None
        (plain, plain_ms), (boxed, boxed_ms) = figure.unix, figure.sandboxed
        table.add_row(
            str(figure.concurrency),
            f"{plain.decisions_per_s:,.0f}",
            f"{plain_ms:.3f} ms",
            f"{boxed.decisions_per_s:,.0f}",
            f"{boxed_ms:.3f} ms",
            f"{(boxed_ms - plain_ms) * 1000:+.0f} µs",
        )
    return table


@app.command("league")
def league_command(
    matches: Annotated[str, typer.Option(help="Concurrent games to measure at, comma-separated.")] = "1,4,16",
    games: Annotated[int, typer.Option(min=4, help="Games per measurement.")] = 48,
    seconds: Annotated[float, typer.Option(min=0.1, help="Time for the engine-alone baseline.")] = 2.0,
    leagues: Annotated[int, typer.Option(min=1, help="Leagues per side for the duplicate-deal comparison.")] = 4,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """A 4-player league of the example bots over gRPC at each concurrency, beside the engine alone;
    then how much duplicate deals narrow the rating intervals for the same number of games."""
    try:
        levels = [int(part) for part in matches.split(",") if part.strip()]
    except ValueError:
        err.print(f"--matches: expected numbers like 1,4,16, not {matches!r}")
        raise typer.Exit(2) from None
    from .. import bench

    engine = bench.engine_rate(Ruleset.of("amigo"), 4, seconds)
    figures = asyncio.run(bench.league_rates(levels, games))
    widths = asyncio.run(bench.interval_widths(games * 2, leagues))
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
    table = Table(title="rage bench league: heuristic x2 + random x2 over gRPC, 4 players, amigo")
    for column in ("", "games/s", "decisions/s"):
        table.add_column(column, justify="right" if column else "left")
    table.add_row("engine alone (random decisions)", f"{engine.games_per_s:,.1f}", f"{engine.decisions_per_s:,.0f}")
    for figure in figures:
        table.add_row(
            f"league, {figure.concurrency} at once",
            f"{figure.rate.games_per_s:,.1f}",
            f"{figure.rate.decisions_per_s:,.0f}",
        )
    Console().print(table)
    with_dup, without = widths
    Console().print(
        f"95% rating interval, mean width over {leagues} leagues of {games * 2} games (in-process): "
        f"duplicate deals {with_dup.mean_width:.0f} Elo, random deals {without.mean_width:.0f} Elo "
        f"({1 - with_dup.mean_width / without.mean_width:.0%} narrower)"
    )
