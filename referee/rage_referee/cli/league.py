"""``rage league``: run a league from its file (resuming where it stopped), export its results."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from ..text import name_text, one_line, plural
from .common import Format, err, fail, out, refusing_unwritable, told_made_folder
from .errors import saying
from .options import RayOption, RayWorkersOption, ray_settings
from .ratings import NO_SETS, render
from .standings_view import LiveStandings, RateColumn, RemainingColumn, StandingsProgress

if TYPE_CHECKING:
    from ..league.config import LeagueConfig
    from ..league.runner import LeaguePlan
    from ..league.separation import SetWatch
    from ..league.store import Store
    from ..play.finished import FinishedGame
    from ..sandbox import Sandbox, SandboxSettings
    from ..submissions.store import Submission

app = typer.Typer(
    help="Round-robin leagues: run one from its file, reveal its deal key, export and verify its results.",
    no_args_is_help=True,
)
MAX_PROBLEMS = 20
PROBLEM_LIMIT = 500
"""Longest problem line verify-bundle prints: a line can quote a record's own text."""
"""Problems a bundle check prints, one per line, before it counts the rest."""
LeagueFile = Annotated[
    Path,
    typer.Argument(
        help="The league's TOML file; its paths, bot commands and files included, are read from its folder.",
        show_default=False,
    ),
]


@app.command("run")
def run_command(
    file: LeagueFile,
    logs: Annotated[
        Path | None,
        typer.Option(help="Folder for the bots' logs (default: logs/STEM beside the league file STEM.toml)."),
    ] = None,
    keep_going: Annotated[
        bool,
        typer.Option(
            "--keep-going", help="Forfeit a bot that cannot start instead of stopping (as keep_going = true does)."
        ),
    ] = False,
    standings_every: Annotated[
        int, typer.Option(min=0, help="Refresh the standings under the progress bar every N games (0: none).")
    ] = 10,
    standings_top: Annotated[int, typer.Option(min=1, help="Bots shown in those standings.")] = 8,
    no_sandbox: Annotated[
        bool, typer.Option("--no-sandbox", help="Run the bots without the sandbox the league file asks for.")
    ] = False,
    ray: RayOption = None,
    ray_workers: RayWorkersOption = None,
    until_separated: Annotated[
        bool,
        typer.Option(
            "--until-separated",
            help="Stop once every bot is separated from the next one down in the standings (the pairs' "
            "Holm-corrected confidence sequences, checked after each complete duplicate set), or at the "
            "league's games.",
        ),
    ] = False,
) -> None:
    """Play the league's games not played yet, then print the rating table. Safe to stop and run again."""

    from ..faults import fault_lines
    from ..league.record_files import RecordFileError
    from ..league.runner import run_league
    from ..league.store import StoreError
    from ..runner.base import RunnerError
    from ..sandbox import SandboxError
    from ..seats import BotSpecError, HandshakeError

    league = prepare_league(file, logs, keep_going, no_sandbox, ray, ray_workers)
    config, store, plan, records, log_dir = league.config, league.store, league.plan, league.records, league.log_dir
    if until_separated and not config.duplicate:
        no_sets = f"{file} deals no duplicate sets (duplicate = false)"
        fail(f"--until-separated: {no_sets}, and bots are separated by {NO_SETS}")
    if not plan.todo:  # no bot is started, built or sandboxed for no game
        out.print(f"{name_text(config.name)}: all {len(plan.games)} games are stored already: nothing left to play")
        try:
            asyncio.run(run_league(config, store, plan, log_dir, records))  # a finished set's record files, if missing
        except RecordFileError as error:
            fail(f"stopped: {error}; every finished game is stored in {store.url}: run again to resume", 1)
        print_standings(config, store, plan.league_id, "")
        return
    total, already = len(plan.games), len(plan.done)
    out.print(plan.deals.describe())
    rounding = config.rounding()
    if rounding is not None:
        out.print(f"{name_text(config.name)}: {rounding}", markup=False)
    if config.runner.kind != "local":
        out.print(f"{name_text(config.name)}: {config.runner.describe()}")
    if already:
        out.print(
            f"{name_text(config.name)}: {already} of {total} games stored already; playing the other {total - already}"
        )
    progress = StandingsProgress(
        TextColumn("{task.description}", style="bold", markup=False),  # the league's name, as written
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        RemainingColumn(),
        console=err,
    )
    stored_games = store.games(plan.league_id) if already else []
    if standings_every:
        progress.standings = LiveStandings(stored_games, standings_every, standings_top)
    watch = None
    if until_separated:
        from ..league.separation import SetWatch

        watch = SetWatch(plan.games, config.forfeits)
        watch.add_all(stored_games)
    shown = watch is not None and watch.sets > 0 and watch.separated()
    forfeits_told: set[str] = set()
    with progress:
        task = progress.add_task(name_text(config.name), total=total, completed=already, already=already)

        def advance(game: FinishedGame) -> None:
            nonlocal shown
            if progress.standings is not None:
                progress.standings.add(game)
            if watch is not None and watch.add(game) and not shown:
                shown = watch.separated()
            progress.update(task, advance=1)
            for line in fault_lines(game.index, game.figures.seats, game.figures.faults, forfeits_told):
                progress.console.print(line, style="yellow", markup=False)

        resume = f"every finished game is stored in {store.url}: run again to resume"
        with saying(
            {
                (BotSpecError, HandshakeError, SandboxError): (
                    "cannot run the league: {error} (--keep-going forfeits a bot that cannot start)",
                    1,
                ),
                StoreError: ("stopped: {error}; every game stored before it is kept: run again to resume", 1),
                RecordFileError: (f"stopped: {{error}}; {resume}", 1),
                RunnerError: ("cannot run the league: {error}", 1),
                KeyboardInterrupt: (f"stopped; {resume}", 130),
            }
        ):
            asyncio.run(
                run_league(
                    config, store, plan, log_dir, records, advance, league.sandbox, league.submissions, lambda: shown
                )
            )
    separation = None if watch is None else separation_line(watch, shown, store.count(plan.league_id), total)
    print_standings(config, store, plan.league_id, separation)


@dataclass(frozen=True)
class PreparedLeague:
    """A league file made ready to run: its settings, store and plan; with games left to play, its sandbox and
    its submitted bots built (none when nothing is left: no sandbox or build for no game)."""

    config: LeagueConfig
    store: Store
    plan: LeaguePlan
    records: Path | None
    log_dir: Path
    sandbox: Sandbox | None = None
    submissions: dict[str, Submission] = field(default_factory=dict)


def prepare_league(
    file: Path,
    logs: Path | None = None,
    keep_going: bool = False,
    no_sandbox: bool = False,
    ray: str | None = None,
    ray_workers: int | None = None,
) -> PreparedLeague:
    """Everything ``rage league run`` sets up before its first game, the store opened and the league planned once:
    the league file read (with the command line's ``keep_going`` and runner), its bots checked, the records
    folder made; then, with games left to play, the sandbox (hiding the logs, records, database and
    submissions from the bots), the submitted bots stored, built and pinned, and the records folder checked
    to be the league's own. A problem ends the command in one line naming the file or bot."""
    from ..league.config import load_league
    from ..league.record_files import RecordFileError, foreign_record, make_records_folder
    from ..league.runner import pin_league, plan_league, with_stored_schedule
    from ..league.store import Store
    from ..league.submitted import pins, prepare_submissions
    from ..seats.spec import shared_seat, untrusted_refusal

    config = load_league(file)
    if keep_going:
        config = config.model_copy(update={"keep_going": True})
    runner = ray_settings(ray, ray_workers, config.runner)
    if runner is not None:
        config = config.model_copy(update={"runner": runner})
    store = told_made_folder(Store(config.database_url(file.parent)))
    config = with_stored_schedule(config, store)
    plan = plan_league(config, store)
    if (shared := shared_seat(config.bot_specs())) is not None:
        fail(f"{file}: bots: {shared}")
    if config.sandbox.enabled and not no_sandbox:
        refusal = untrusted_refusal(config.bot_specs(), "the sandbox")
        if refusal is not None:
            fail(f"{file}: bots: {refusal}")
    records = None if config.records is None else file.parent / config.records
    if records is not None:
        with saying({RecordFileError: (f"{file}: records: {{error}}", 2)}):
            make_records_folder(records)
    log_dir = logs or league_logs(file)
    if not plan.todo:
        return PreparedLeague(config, store, plan, records, log_dir)
    sandbox = league_sandbox(config.sandbox, no_sandbox)
    if sandbox is not None:
        every_log = log_dir if logs else log_dir.parent  # other leagues' logs too
        hidden = (every_log, records, config.database_dir(file.parent), file.parent / "submissions")
        sandbox.hidden = [path.resolve() for path in hidden if path]
    submissions = prepare_submissions(config, file.parent, sandbox)
    for name, submission in submissions.items():
        out.print(f"{name_text(name)}: submitted {name_text(submission.manifest.name)}, version {submission.short}")
    if submissions:
        pin_league(config, store, pins(submissions))
    held = None if records is None else foreign_record(records, config.name, plan.deals.commitment)
    if held is not None:
        fail(f"{file}: records: {records} holds {held}; give the league a records folder of its own")
    return PreparedLeague(config, store, plan, records, log_dir, sandbox, submissions)


def print_standings(config: LeagueConfig, store: Store, league_id: int, separation: str | None) -> None:
    """The league's rating table from its stored games, after why ``--until-separated`` stopped (if given)."""
    from ..league.audit import memory_audit
    from ..league.ratings import rating_table
    from ..league.submitted import versions_line

    games = store.games(league_id)
    if separation:
        out.print(separation)
    title = f"{name_text(config.name)}: {plural(len(games), 'game')}, {config.ruleset.describe()}"
    audits = memory_audit(games, store.play_order(league_id))
    sets = len({game.set_id for game in games})
    render(rating_table(games, forfeits=config.forfeits), Format.TABLE, title, config.forfeits, sets, audits=audits)
    versions = versions_line(games)
    if versions is not None:
        out.print(versions, markup=False)


def separation_line(watch: SetWatch, shown: bool, played: int, total: int) -> str:
    """Why ``--until-separated`` stopped where it did, in one line."""
    sets = f"{watch.sets} complete duplicate set{'s' if watch.sets != 1 else ''}"
    if shown:
        return (
            f"stopped: every bot separated from the next one down after {sets} ({played} of {total} games; "
            "95% confidence sequences, Holm-corrected)"
        )
    return f"stopped at the league's {total} games: after {sets} not every bot is separated from the next one down"


def league_logs(file: Path) -> Path:
    """Where a league's bots' logs go by default: a folder of the league file's own, so two leagues in one
    folder write no log file in common."""
    return file.parent / "logs" / file.stem


def league_sandbox(settings: SandboxSettings, no_sandbox: bool) -> Sandbox | None:
    """The sandbox the league file asks for, or a one-line refusal when the machine cannot give it."""
    from ..sandbox import Sandbox, SandboxError

    if not settings.enabled:
        return None
    if no_sandbox:
        err.print("--no-sandbox: the league's bots run WITHOUT a sandbox, with your full rights", style="bold red")
        return None
    with saying(
        {SandboxError: ("cannot run the league's bots in a sandbox: {error} (--no-sandbox runs them without one)", 1)}
    ):
        sandbox = Sandbox.available(settings)
    out.print(sandbox.describe())
    return sandbox


@app.command("reveal")
def reveal_command(file: LeagueFile) -> None:
    """Reveal the deal key of a finished league, so anyone can check its deals (the key then goes into exports)."""
    from ..league.config import load_league
    from ..league.runner import league_deals, league_schedule, stored_league_id, with_stored_schedule
    from ..league.store import Store

    config = load_league(file)
    store = Store(config.database_url(file.parent), create=False)
    config = with_stored_schedule(config, store)
    league_id = stored_league_id(config, store)
    deals = league_deals(config, store, league_id, create=False)
    todo = len(league_schedule(config, deals)) - len(store.finished(league_id))
    if deals.key is None:
        fail(f"{name_text(config.name)}: deals from seed {config.seed} are public already: there is no key to reveal")
    if todo:
        fail(f"{name_text(config.name)}: {todo} games are not played yet; reveal the key after the last")
    store.reveal(league_id)
    out.print(f"{name_text(config.name)}: deal key {deals.key.hex()} (commitment {deals.commitment})")
    out.print(f"write the contest bundle with: rage league export {file} --out DIR")


@app.command("export")
@refusing_unwritable("--out")
def export_command(
    file: LeagueFile,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write into.")] = Path("export"),
) -> None:
    """Write a contest bundle: definition, records, games, standings (JSON, CSV), the key once revealed, a manifest."""
    from ..league.bundle import foreign_contents, write_bundle
    from ..league.config import load_league
    from ..league.runner import league_deals, stored_league_id, with_stored_schedule
    from ..league.store import Store

    config = load_league(file)
    store = Store(config.database_url(file.parent), create=False)
    config = with_stored_schedule(config, store)
    league_id = stored_league_id(config, store)
    games = store.games(league_id)
    deals = league_deals(config, store, league_id, create=False)
    stored_key = store.deal_key(league_id)
    revealed = stored_key is not None and stored_key.revealed
    held = foreign_contents(out_dir, config.name)
    if held is not None:
        fail(f"--out: {out_dir} holds {held}: give a new or empty folder, or this league's own bundle")
    try:
        write_bundle(out_dir, config, deals, revealed, games)
    except OSError as error:
        fail(f"--out: cannot write {out_dir}: {error.strerror or error}")
    out.print(
        f"{len(games)} games of {name_text(config.name)} written to {out_dir}/ (games, standings, records/, manifest)"
    )
    if deals.key is not None and not revealed:
        out.print(f"the deal key is not revealed yet: run rage league reveal {file}, then export again to verify")
    else:
        out.print(f"check it with: rage league verify-bundle {out_dir}")


@app.command("verify-bundle")
def verify_bundle_command(
    directory: Annotated[
        Path, typer.Argument(help="A contest bundle's folder (rage league export).", show_default=False)
    ],
) -> None:
    """Check a contest bundle offline: key and commitment, every deal, every record's replay, the standings."""
    from ..league.bundle import MalformedBundleError, verify_bundle
    from ..league.ratings import METHOD as RATING_METHOD

    with saying({MalformedBundleError: (f"{directory}: not a contest bundle: {{error}}", 2)}):
        problems, games, method = verify_bundle(directory)
    for line in problems[:MAX_PROBLEMS]:
        err.print(one_line(line, PROBLEM_LIMIT))
    if len(problems) > MAX_PROBLEMS:
        err.print(f"... and {len(problems) - MAX_PROBLEMS} more problems")
    if problems:
        raise typer.Exit(1)
    out.print(f"{directory}: verified: {games} games of the schedule, dealt as committed, replay to the standings")
    if method != RATING_METHOD:
        out.print(f"  (its intervals and LOS are of {one_line(method, 40)}, not recomputed: this is {RATING_METHOD})")
