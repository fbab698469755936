"""Options several commands take are declared once (rage_referee.cli.options): every command that takes
one refuses the same bad value with the same line (exit 2) before anything runs, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from rage_referee.cli import app
from typer.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"
runner = CliRunner()


def commands(tmp_path: Path) -> dict[str, list[str]]:
    """Each command that takes the game's time options, with what it needs besides them."""
    return {
        "match": ["match", "--bot", f"a={RANDOM}", "--bot", f"b={RANDOM}", "--games", "1"],
        "test": ["test", f"a={RANDOM}", f"b={RANDOM}", "--field", f"c={RANDOM}", "--db", str(tmp_path / "t.sqlite")],
    }


@pytest.mark.parametrize("command", ["match", "test"])
@pytest.mark.parametrize(
    ("option", "value", "line"),
    [
        (
            "--decision-ms",
            "99999999999999999",
            "--decision-ms: 99999999999999999 is out of range; it takes 1 to 3,600,000",
        ),
        (
            "--bank-ms",
            "99999999999999999999",
            "--bank-ms: 99999999999999999999 is out of range; it takes 0 to 86,400,000",
        ),
        ("--max-faults", "1000001", "--max-faults: 1000001 is out of range; it takes 1 to 1,000,000"),
        ("--concurrency", "0", "--concurrency: 0 is out of range; it takes 1 to 256"),
    ],
)
def test_a_time_option_out_of_range_is_one_line_in_every_command(
    tmp_path: Path, command: str, option: str, value: str, line: str
) -> None:
    """``rage test --decision-ms`` once had no upper bound: the game ended in a traceback (out of range)."""
    result = runner.invoke(app, [*commands(tmp_path)[command], option, value])
    assert (result.exit_code, result.output.strip()) == (2, line)


@pytest.mark.parametrize("command", [["league", "run", "league.toml"], ["referee", "serve", "--db", "r.sqlite"]])
@pytest.mark.parametrize(
    ("options", "line"),
    [
        (["--ray-workers", "2"], "--ray-workers: only with --ray"),
        (["--ray", "head"], "--ray: 'head' is not auto, HOST:PORT or ray://HOST:PORT"),
        (["--ray", "auto", "--ray-workers", "5000"], "--ray-workers: 5000 is out of range; it takes 1 to 4,096"),
    ],
)
def test_the_ray_options_are_refused_alike_by_league_run_and_referee_serve(
    tmp_path: Path, command: list[str], options: list[str], line: str
) -> None:
    (tmp_path / "league.toml").write_text(
        f'players = 2\ngames = 1\n[ruleset]\npreset = "amigo"\n[bots]\na = "{RANDOM}"\nb = "{RANDOM}"\n'
    )
    argv = [part if not part.endswith((".toml", ".sqlite")) else str(tmp_path / part) for part in command]
    result = runner.invoke(app, [*argv, *options])
    assert (result.exit_code, result.output.strip()) == (2, line)
