"""A bot that cannot be greeted is named by the name it was given: its address, its command or the name it
claims for itself would not tell the organizer of a league which entrant it is."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
GREEDY = f"{ROOT / 'examples' / 'greedy_bot.py'}:GreedyBot"
LIAR = shlex.join(["python", str(ROOT / "tests" / "bots" / "liar.py")])


def rage(*args: str | Path) -> Any:
    result = CliRunner().invoke(app, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize(("protocol", "claimed"), [("2", "speaks protocol version 2"), ("0", "version 0")])
def test_a_bot_claiming_another_protocol_is_refused_by_its_given_name(
    tmp_path: Path, protocol: str, claimed: str
) -> None:
    bots = ["--bot", f"greedy={GREEDY}", "--bot", f"entrant7={LIAR} --protocol {protocol}"]
    result = rage("match", *bots, "--games", "1", "--logs", tmp_path)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("cannot start the match: entrant7: "), line
    assert claimed in line and "this referee speaks 1" in line, line


def test_a_league_names_the_bot_that_cannot_be_greeted(tmp_path: Path) -> None:
    file = tmp_path / "cup.toml"
    file.write_text(f'players = 2\ngames = 2\nruleset = "amigo"\n[bots]\ngreedy = "{GREEDY}"\nentrant7 = "{LIAR}"\n')
    result = rage("league", "run", file, "--logs", tmp_path / "logs")
    assert result.exit_code == 1, result.output
    assert "cannot run the league: entrant7: " in result.stderr, result.stderr
