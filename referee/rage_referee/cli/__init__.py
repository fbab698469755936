"""The ``rage`` command: one Typer sub-app per noun.

Every command module is imported to build the command tree, so ``rage`` and each ``--help`` load
them all: at its top a module imports only Typer, Rich, the standard library and the light modules
its options are declared with (``limits``, ``text``, ``options``). What a command needs to run (the
rules, pydantic, gRPC, SQLAlchemy, the referee's modules) it imports inside its function. Help text
that names the presets reads ``common.PRESET_NAMES``, not the rules. tests/referee/cli/test_cli.py checks that
``rage --help`` imports none of them.
"""

from __future__ import annotations

import typer
from rage_sdk.gc_tuning import tune_gc

from . import bench, bot, league, referee, replay
from .errors import OneLineErrors
from .match import match_command
from .ratings import ratings_command
from .report import report_command
from .signals import stop_on_signals_as_on_ctrl_c
from .trial import trial_command

app = typer.Typer(
    help="Rage Arena: referee, records and benchmarks for bots playing Rage.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    cls=OneLineErrors,
)
app.add_typer(replay.app, name="replay")
app.command("match")(match_command)
app.add_typer(league.app, name="league")
league.app.command("report")(report_command)
app.command("ratings")(ratings_command)
app.command("test")(trial_command)
app.add_typer(bot.app, name="bot")
app.add_typer(bench.app, name="bench")
app.add_typer(referee.app, name="referee")


def main() -> None:
    tune_gc()
    stop_on_signals_as_on_ctrl_c()
    app()
