"""A bad command line is one line naming the option and what it takes (exit 2), never Typer's usage box."""

from __future__ import annotations

import pytest
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
        (["ratings", "--league", "x.toml", "--name", "cup"], "--name: only with --db"),
    ],
)
def test_a_bad_command_line_is_one_line_naming_the_option(args: list[str], line: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(line), lines[0]


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
