"""The options several ``rage`` commands take, each declared once: its name, help and range, and, where
its values need more than a range, the one function that reads them into settings or refuses them in
one line naming the option (exit 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..limits import MAX_BANK_MS, MAX_CONCURRENCY, MAX_DECISION_MS, MAX_FAULTS, MAX_WORKERS
from .common import RULESET_HELP, fail

if TYPE_CHECKING:
    from ..runner.settings import RunnerSettings

RulesetOption = Annotated[str, typer.Option(help=RULESET_HELP)]
DecisionMsOption = Annotated[int, typer.Option(min=1, max=MAX_DECISION_MS, help="Time for each decision.")]
BankMsOption = Annotated[
    int, typer.Option(min=0, max=MAX_BANK_MS, help="Extra time per game for decisions that run over.")
]
MaxFaultsOption = Annotated[
    int, typer.Option(min=1, max=MAX_FAULTS, help="Faults before a bot is forfeited (the fallback plays for it).")
]
ConcurrencyOption = Annotated[int, typer.Option(min=1, max=MAX_CONCURRENCY, help="Games played at once.")]
FiguresJsonOption = Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")]
DatabaseOption = Annotated[
    str | None, typer.Option("--db", help="A database URL (or SQLite path) instead of a league file.")
]
LeagueNameOption = Annotated[
    str | None, typer.Option("--name", help="The league's name in --db (needed when it holds several).")
]
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="auto|ADDRESS",
        help="Play the games on a Ray cluster (auto: the one Ray finds), as a league file's runner table "
        'of kind = "ray" does.',
        show_default=False,
    ),
]
RayWorkersOption = Annotated[
    int | None,
    typer.Option(
        "--ray-workers",
        min=1,
        max=MAX_WORKERS,
        help="With --ray: Ray worker processes (default: one per CPU).",
        show_default=False,
    ),
]


def ray_settings(ray: str | None, workers: int | None, settings: RunnerSettings | None = None) -> RunnerSettings | None:
    """The runner settings ``--ray`` and ``--ray-workers`` ask for, over ``settings`` (a league file's ``[runner]``);
    ``None`` when neither is given. A value the settings refuse is one line naming its option (exit 2)."""
    if ray is None:
        if workers is not None:
            fail("--ray-workers: only with --ray")
        return None
    from pydantic import ValidationError

    from ..problems import first_problem
    from ..runner.settings import RunnerSettings

    try:
        return RunnerSettings.ray(ray, settings, workers)
    except ValidationError as error:  # the workers' range is the option's own, so the address is what is refused
        fail(f"--ray: {first_problem(error).message.removeprefix('address: ')}")
