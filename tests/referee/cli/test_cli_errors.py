"""A bad command line is one line naming the option and what it takes (exit 2), never Typer's usage box."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from rage_referee.cli import app
from typer.testing import CliRunner

runner = CliRunner()
BOTS = ["--bot", "a=x", "--bot", "b=y"]
HUGE = "99999999999999999999"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["match", "--games", "0", *BOTS], "--games: 0 is out of range; it takes 1 to 1,000,000"),
        (["match", "--seed", "-1", *BOTS], "--seed: -1 is out of range; it takes 0 to 2,147,483,647"),
        (["match", "--games", "ten", *BOTS], "--games: ten is not a whole number; it takes 1 to 1,000,000"),
        (["bench", "engine", "--seconds", "0"], "--seconds: 0 is out of range; it takes at least 0.1"),
        (["bench", "search", "--players", "11"], "--players: 11 is out of range; it takes 2 to 10"),
        (["bench", "league", "--games", "3"], "--games: 3 is out of range; it takes at least 4"),
        (
            ["test", "a=x", "b=y", "--field", "c=z", "--max-games", "0"],
            "--max-games: 0 is out of range; it takes 1 to 1,000,000",
        ),
        (["test", "a=x", "b=y"], "--field: required, and not given"),
        (["replay", "show"], "FILE: required, and not given"),
        (["match", "--gmaes", "3"], "No such option: --gmaes"),
        (["ratings", "--db", "x", "--format", "bogus"], "--format: 'bogus' is not one of 'table', 'markdown'"),
        (
            ["ratings", "--db", "x", "--pairs", "--crosstable"],
            "--pairs, --crosstable and --collusion: give one of them",
        ),
        (["match", "--concurrency", "100000", *BOTS], "--concurrency: 100000 is out of range; it takes 1 to 256"),
        (["test", "a=x", "b=y", "--field", "c=z", "--concurrency", "1000"], "--concurrency: 1000 is out of range"),
        (["test", "a=x", "b=y", "--field", "c=z", "--decision-ms", HUGE], f"--decision-ms: {HUGE} is out of range"),
        (["test", "a=x", "b=y", "--field", "c=z", "--bank-ms", HUGE], f"--bank-ms: {HUGE} is out of range"),
        (["test", "a=x", "b=y", "--field", "c=z", "--max-games", HUGE], f"--max-games: {HUGE} is out of range"),
        (["bot", "serve", "x.py:X", "--port", "99999"], "--port: 99999 is out of range; it takes 0 to 65,535"),
        (["referee", "record", "cup", HUGE], f"GAME: {HUGE} is out of range; it takes 0 to 999,999"),
        (["referee", "record", "cup", "-1"], "GAME: -1 is out of range; it takes 0 to 999,999"),  # No such option
        (
            ["referee", "finalize", "cup", "--top", "4294967296"],
            "--top: 4294967296 is out of range; it takes 2 to 1,000",
        ),
        (
            ["referee", "finalize", "cup", "--max-games", "99999999999"],
            "--max-games: 99999999999 is out of range; it takes 1 to 100,000",
        ),
        (  # a bad --port after it, so that a serve taking it refuses rather than serves
            ["referee", "serve", "--http-max-connections", HUGE, "--port", "99999"],
            f"--http-max-connections: {HUGE} is out of range",
        ),
        (
            ["referee", "serve", "--http-max-per-address", HUGE, "--port", "99999"],
            f"--http-max-per-address: {HUGE} is out of range",
        ),
        (["ratings", "--league", "x.toml", "--name", "cup"], "--name: only with --db"),
        *[
            (
                ["referee", "serve", option, value, "--port", "99999"],
                f"--{option[2:]}: {value} is out of range; {takes}",
            )
            for option, takes, values in [
                ("--grace", "it takes 0 to 3,600", ["inf", "nan", "3601", "-1", "1e400"]),
                ("--http-header-timeout", "it takes 0.1 to 600", ["inf", "nan", "600.5", "0.05", "-inf"]),
            ]
            for value in values
        ],
    ],
)
def test_a_bad_command_line_is_one_line_naming_the_option(args: list[str], line: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(line), lines[0]


def test_every_whole_number_of_the_referee_commands_has_both_bounds() -> None:
    """``finalize --top 4294967296`` passed the command line and ended in protobuf's traceback (a uint32 field):
    a number a referee command takes is bounded at both ends, so a value past it is one line naming the option."""
    unbounded = [
        f"{' '.join(path)} {param.name}"
        for path, command in commands(typer.main.get_command(app), [])
        if path[0] == "referee"
        for param in command.params
        if getattr(param, "type_descriptor", None) is not None
        and param.type_descriptor.annotation is int
        and None in (getattr(param, "min", None), getattr(param, "max", None))
    ]
    assert unbounded == []


def test_every_fractional_number_of_the_referee_commands_has_both_bounds() -> None:
    """``serve --grace inf`` and ``--http-header-timeout 1e300`` passed the command line: a fractional number a referee
    command takes is bounded at both ends too, so inf, nan and a value past a bound are one line naming the option."""
    floats = [
        (f"{' '.join(path)} {param.name}", getattr(param, "min", None), getattr(param, "max", None))
        for path, command in commands(typer.main.get_command(app), [])
        if path[0] == "referee"
        for param in command.params
        if getattr(param, "type_descriptor", None) is not None
        and param.type_descriptor.annotation in (float, float | None)
    ]
    assert floats and [name for name, low, high in floats if None in (low, high)] == []


def commands(group: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    """Every command under ``group``, with its path of names."""
    for name, command in getattr(group, "commands", {}).items():
        yield [*path, name], command
        yield from commands(command, [*path, name])


def test_a_refused_value_is_quoted_back_printable_and_capped() -> None:
    result = runner.invoke(app, ["match", "--games", "\x1b[2J" + "9x" * 200, *BOTS])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "\x1b" not in line and line.startswith("--games: '\\x1b[2J9x9x") and len(line) < 160, line


def test_a_command_group_alone_still_shows_its_help() -> None:
    result = runner.invoke(app, ["bench"])
    assert "Usage:" in result.output and "engine" in result.output and "create-league" in result.output


def test_the_usage_errors_come_from_typers_own_click_not_plain_click() -> None:
    """Why errors.py imports typer._click: plain click's UsageError would catch none of Typer's errors."""
    click = pytest.importorskip("click")
    from rage_referee.cli.errors import UsageError

    assert not issubclass(UsageError, click.UsageError)


ENGINE_ERRORS = {"RulesetError", "SamplingError"}
"""The rules' and the sampler's errors: a command says them as an option's problem where it meets them."""


def project_exceptions() -> list[type[BaseException]]:
    """Every public exception class defined in the referee's and the SDK's modules."""
    import importlib
    import inspect
    import pkgutil

    import rage_referee
    import rage_sdk

    found: list[type[BaseException]] = []
    for package in (rage_referee, rage_sdk):
        for module_info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".pb." in module_info.name or module_info.name.endswith(".__main__"):
                continue
            module = importlib.import_module(module_info.name)
            for name, value in vars(module).items():
                if (
                    inspect.isclass(value)
                    and issubclass(value, BaseException)
                    and value.__module__ == module.__name__
                    and not name.startswith("_")
                ):
                    found.append(value)
    return found


def test_every_error_a_command_can_meet_derives_from_the_one_base() -> None:
    from rage_sdk.errors import RageError

    found = project_exceptions()
    assert len(found) > 25
    strays = [f"{kind.__module__}.{kind.__name__}" for kind in found if not issubclass(kind, RageError)]
    assert sorted(stray.rsplit(".", 1)[1] for stray in strays) == sorted(ENGINE_ERRORS)
    assert all(kind.exit_code in (1, 2) for kind in found if issubclass(kind, RageError))


def test_a_project_error_leaving_a_command_is_one_line_with_its_exit_code(tmp_path: Path) -> None:
    league = tmp_path / "league.toml"
    league.write_text('name = "x"\n')
    result = runner.invoke(app, ["league", "run", str(league)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
