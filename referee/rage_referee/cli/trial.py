"""``rage test NEW BASE``: duplicate sets against a field until a sequential test says whether NEW is stronger."""

from __future__ import annotations

import asyncio
import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.live import Live
from rich.text import Text

from ..limits import MAX_GAMES, MAX_SEED
from ..text import los_text, name_text, plural
from .common import err, fail, out, parse_ruleset, told_made_folder
from .errors import saying
from .options import BankMsOption, ConcurrencyOption, DecisionMsOption, MaxFaultsOption, RulesetOption

if TYPE_CHECKING:
    from ..matches.trial import TrialConfig, TrialStatus
    from ..play.deals import Deals
    from ..play.finished import BotTotals

EXIT_CODES = {"H1": 0, "H0": 1, "undecided": 2}


def _signed(value: float, digits: int) -> str:
    return f"{value:+.{digits}f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def figures_text(status: TrialStatus) -> str:
    """The difference with the test's interval (valid at any stopping time), the Elo they imply, LOS."""
    low, high = status.elo_interval
    return (
        f"{status.difference:+.2f} points a game [{_signed(status.low, 2)}, {_signed(status.high, 2)}] "
        f"({status.level:.0%} at any stopping time), {_signed(status.elo, 1)} Elo "
        f"[{_signed(low, 0)}, {_signed(high, 0)}], LOS {los_text(status.los_shown)}"
    )


def live_text(config: TrialConfig, status: TrialStatus, rate: float) -> Text:
    new, base = name_text(config.new.name), name_text(config.base.name)
    return Text(
        f"{status.games} games ({status.sets} sets of {config.set_size}), {new} - {base}: "
        f"{figures_text(status)}; H1 once the interval is above 0, H0 once below {status.margin:+.2f}, "
        f"{rate:.1f} games/s"
    )


def margin_text(config: TrialConfig, status: TrialStatus) -> str:
    """H1's margin, and the table it belongs to: the same pair differs by other margins at another size or field."""
    margin = (
        f"{config.points:g} points a game"
        if config.points is not None
        else f"{config.elo1:g} Elo ({status.margin:.2f} points a game)"
    )
    field = ", ".join(name_text(spec.name) for spec in config.field)
    return f"{margin} at this table size and field ({config.players} players, field {field})"


def counted_text(status: TrialStatus, stored: int) -> str:
    """The games the test counted, and beside them those stored, when more are: the test counts whole sets in
    order, up to its verdict (a batch of sets may end past it) or ``--max-games``."""
    if stored <= status.games:
        return f"{status.games} games"
    if status.verdict.value != "undecided":
        return f"{status.games} games ({stored} stored: those past the verdict's set are not counted)"
    return f"{status.games} games ({stored} stored: the test counts whole sets, in order, up to --max-games)"


def resumed_line(status: TrialStatus, stored: int, db: Path, max_games: int | None) -> str:
    """What a test run again finds stored: how many games, and how many of them the test counts; ``max_games``
    when the test has played as many sets as that allows."""
    if status.verdict.value != "undecided":
        return f"{stored} games stored already in {db}; the test was decided after {status.games} of them"
    counted = "" if stored == status.games else f" ({status.games} of them counted: whole sets, in order)"
    if max_games is not None:
        return f"{stored} games stored already in {db}{counted}: --max-games {max_games} reached"
    return f"{stored} games stored already in {db}{counted}; going on from there"


def faults_line(totals: BotTotals, role: str, log: Path) -> str | None:
    """What a bot of the test was charged with and whether the referee played for it (its figures then being
    partly the referee's), and where its ``log`` is when it has one; ``None`` for a bot with neither."""
    if not totals.faults and not totals.forfeited_games:
        return None
    parts = [f"{plural(totals.faults, 'fault')} charged"] if totals.faults else []
    if totals.forfeited_games:
        parts.append(
            f"forfeited: the referee played for it in {plural(totals.forfeited_games, 'game')}, which the test counts"
        )
    where = f" (its log: {log})" if log.is_file() else ""
    return f"{role} {name_text(totals.name)}: {', '.join(parts)}{where}"


def closing_line(config: TrialConfig, status: TrialStatus, max_games: int, stored: int) -> str:
    """The verdict and what it shows: H1, that NEW is stronger (the interval is above 0), not that it is
    stronger by the margin; H0, that it is not stronger by the margin (the interval is below it)."""
    new, base = name_text(config.new.name), name_text(config.base.name)
    tail = f"difference {figures_text(status)}, after {counted_text(status, stored)}"
    if status.verdict.value == "H1":
        return (
            f"H1 accepted: evidence that {new} is stronger than {base} (the interval is above 0; "
            f"H1 was at least {margin_text(config, status)}): {tail}"
        )
    if status.verdict.value == "H0":
        return (
            f"H0 accepted: evidence that {new} is not stronger than {base} by {margin_text(config, status)} "
            f"(the interval is below it): {tail}"
        )
    from ..matches.sprt import MIN_FIGURES

    if status.sets < MIN_FIGURES:
        why = f"no verdict is taken before {MIN_FIGURES} complete sets ({status.sets} so far)"
    else:
        why = f"the interval is neither above 0 nor below the margin {status.margin:+.2f}"
    return f"undecided after {status.games} games (--max-games {max_games}): {tail}; {why}"


def trial_command(
    new: Annotated[str, typer.Argument(help="NAME=BOT: the bot under test (a command, HOST:PORT or FILE.py:CLASS).")],
    base: Annotated[str, typer.Argument(help="NAME=BOT: the bot to beat.")],
    field: Annotated[
        list[str], typer.Option("--field", help="NAME=BOT at the table with both (repeat: combinations in turn).")
    ],
    players: Annotated[int, typer.Option(min=2, max=10, help="Players at the table.")] = 3,
    ruleset: RulesetOption = "amigo",
    elo1: Annotated[
        float | None,
        typer.Option(
            help="The margin, of this table size and field (the same pair differs by another at others); "
            "H1: NEW is stronger by this many Elo.",
            show_default="25",
        ),
    ] = None,
    points: Annotated[
        float | None, typer.Option(help="H1: NEW scores this many more points a game, at this table size and field.")
    ] = None,
    alpha: Annotated[float, typer.Option(help="The chance of accepting H1 when NEW is no stronger.")] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of accepting H0 when NEW is better by the margin.")] = 0.05,
    max_games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Stop undecided after this many games.")] = 6000,
    concurrency: ConcurrencyOption = 8,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=MAX_SEED,
            help="Public deals for a repeatable run (set s from (seed << 32) + s); without it, a secret deal key "
            "stored with the test's games and revealed with its verdict.",
        ),
    ] = None,
    db: Annotated[Path, typer.Option(help="SQLite file the games are stored in (resumes from it).")] = Path(
        "rage-test/tests.sqlite"
    ),
    name: Annotated[str | None, typer.Option(help="The test's name in --db.", show_default="NEW-vs-BASE")] = None,
    decision_ms: DecisionMsOption = 1000,
    bank_ms: BankMsOption = 10_000,
    max_faults: MaxFaultsOption = 20,
    logs: Annotated[Path | None, typer.Option(help="Folder for the bots' logs.", show_default="beside --db")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict and figures as JSON.")] = False,
) -> None:
    """Is NEW stronger than BASE? Duplicate sets until a sequential test accepts H1 or H0.

    NEW and BASE play the same hands against the same field in the same seats, set after set.
    The test keeps an interval for the difference that holds at any stopping time:
    H1 (evidence NEW is stronger) once it is above 0, H0 (NEW is not stronger by the margin) once below the margin.
    A margin belongs to its table size and field: the same pair differs by other margins at others.
    Exit 0: H1, 1: H0, 2: undecided (or bad input), 3: a bot that cannot start."""
    from ..faults import fault_lines
    from ..league.store import Store, StoreError, sqlite_url
    from ..matches.trial import (
        DEFAULT_ELO1,
        TrialConfig,
        first_status,
        max_sets_for,
        run_trial,
        set_figures,
        trial_deals,
    )
    from ..play.finished import FinishedGame, bot_totals
    from ..play.spec import TimeControl
    from ..seats import BotSpec, BotSpecError, HandshakeError
    from ..seats.transports import log_file_name

    specs = []
    for role, text in [("NEW", new), ("BASE", base), *(("--field", text) for text in field)]:
        try:
            specs.append(BotSpec.parse(text))
        except BotSpecError as error:
            fail(f"{role}: {str(error).removeprefix('--bot ')}")
    if elo1 is not None and points is not None:
        fail("--elo1, --points: give the margin of H1 one way, not both")
    rules = parse_ruleset(ruleset)
    try:
        config = TrialConfig(
            specs[0],
            specs[1],
            tuple(specs[2:]),
            players,
            rules,
            seed,
            elo1=None if points is not None else (DEFAULT_ELO1 if elo1 is None else elo1),
            points=points,
            alpha=alpha,
            beta=beta,
            time=TimeControl(decision_ms, bank_ms, max_faults),
        )
    except ValueError as error:
        fail(str(error))
    try:
        store = told_made_folder(Store(sqlite_url(db)))
        trial_id = store.league(name or f"{config.new.name}-vs-{config.base.name}", config.key())
        deals = trial_deals(config, store, trial_id)
    except StoreError as error:  # the store speaks of leagues; the same words for a test
        fail(str(error).replace("give the league a new name", "give the test a new --name"))
    err.print(deals.describe(), markup=False)
    stored, max_sets = store.games(trial_id), max_sets_for(config, max_games)
    already = first_status(config, set_figures(config, stored), max_sets)
    if stored:
        reached = max_games if already.sets >= max_sets else None
        err.print(resumed_line(already, len(stored), db, reached), markup=False)
    started, played = time.perf_counter(), 0
    log_dir = logs or db.parent / "logs"
    forfeits_told: set[str] = set()
    with Live(live_text(config, already, 0.0), console=err, transient=True, refresh_per_second=4) as live:

        def counted(game: FinishedGame) -> None:
            nonlocal played
            played += 1
            for line in fault_lines(game.index, game.figures.seats, game.figures.faults, forfeits_told):
                live.console.print(line, markup=False)

        def show(status: TrialStatus) -> None:
            live.update(live_text(config, status, played / max(time.perf_counter() - started, 1e-9)))

        resume = f"every finished game is stored in {db}: run again to resume"
        with saying(
            {
                (BotSpecError, HandshakeError): ("cannot run the test: {error}", 3),
                StoreError: (
                    "stopped, undecided: {error}; every game stored before it is kept: run again to resume",
                    2,
                ),
                KeyboardInterrupt: (f"stopped; {resume}", 130),
            }
        ):
            status = asyncio.run(
                run_trial(
                    config,
                    store,
                    trial_id,
                    max_games,
                    concurrency,
                    log_dir,
                    on_status=show,
                    on_game=counted,
                )
            )
    decided = status.verdict.value != "undecided"
    with saying({StoreError: (f"stopped, {status.verdict.value}: {{error}}", 2)}):
        games = store.games(trial_id)
    count = len(games)
    totals = bot_totals(games, (config.new.name, config.base.name))
    new_totals, base_totals = totals[config.new.name], totals[config.base.name]
    if decided and deals.key is not None:
        with saying({StoreError: ("the test is decided, but its deal key cannot be marked revealed: {error}", 2)}):
            store.reveal(trial_id)
    if as_json:
        print(
            json.dumps(
                {
                    "new": config.new.name,
                    "base": config.base.name,
                    **status.to_json(),
                    "stored": count,
                    "faults": {"new": new_totals.faults, "base": base_totals.faults},
                    "forfeited_games": {"new": new_totals.forfeited_games, "base": base_totals.forfeited_games},
                    **deals_json(deals, decided),
                }
            )
        )
    else:
        out.print(closing_line(config, status, max_games, count))
        for role, bot in (("NEW", new_totals), ("BASE", base_totals)):
            line = faults_line(bot, role, log_dir / log_file_name(bot.name))
            if line is not None:
                out.print(line, markup=False, soft_wrap=True)
        if deals.key is not None:
            out.print(deals_line(deals, decided), soft_wrap=True)  # the key on one line, to copy
    raise typer.Exit(EXIT_CODES[status.verdict.value])


def deals_json(deals: Deals, decided: bool) -> dict[str, object]:
    """The deals in the JSON verdict: the seed, or the commitment and, once decided, the key."""
    if deals.key is None:
        return {"seed": deals.seed}
    shown: dict[str, object] = {"deal_commitment": deals.commitment}
    if decided:
        shown["deal_key"] = deals.key.hex()
    return shown


def deals_line(deals: Deals, decided: bool) -> str:
    """The secret deal key revealed with the verdict, or why it is kept."""
    assert deals.key is not None
    if decided:
        return f"deal key (revealed now the test is decided): {deals.key.hex()}"
    return "deal key kept secret: the test can go on (again with a larger --max-games); it is revealed with the verdict"
