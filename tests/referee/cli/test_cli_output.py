"""Output to no terminal (a CI log, ``rage ... | tee``) keeps table rows and messages whole; COLUMNS still rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rage_referee.cli import app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
LONG = "a_bot_whose_name_alone_takes_more_than_forty_columns"
MATCH = [
    "match",
    *("--bot", f"{LONG}={ROOT}/examples/random_bot.py:RandomBot"),
    *("--bot", f"heuristic={ROOT}/examples/heuristic_bot.py:HeuristicBot"),
    *("--bot", f"random={ROOT}/examples/random_bot.py:RandomBot"),
    *("--games", "1", "--seed", "1"),
]


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rage ARGS`` with its output captured (no terminal)."""
    result = CliRunner().invoke(app, args, env=env)
    return result.exit_code, result.stdout, result.stderr


def test_a_table_printed_to_no_terminal_keeps_every_row_on_one_line() -> None:
    code, stdout, stderr = run(MATCH)
    assert code == 0, stderr
    rows = {line.split("│")[1].strip(): line for line in stdout.splitlines() if line.startswith("│")}
    assert set(rows) == {LONG, "heuristic", "random"}, stdout
    assert all(len(row.split("│")) == 9 for row in rows.values()), stdout  # every column, none wrapped
    assert "mean score" in stdout and "bid accuracy" in stdout  # headers unwrapped too


def test_columns_when_set_is_the_width() -> None:
    code, stdout, stderr = run(MATCH, env={"COLUMNS": "70"})
    assert code == 0, stderr
    assert max(map(len, stdout.splitlines())) <= 70
    assert LONG not in stdout  # squeezed to fit, as asked


def test_a_long_message_to_no_terminal_is_one_line() -> None:
    matches = ",".join(map(str, range(1, 40))) + ",x"
    code, stdout, stderr = run(["bench", "protocol", "--matches", matches])
    assert code == 2 and stdout == ""
    assert stderr.splitlines() == [f"--matches: expected whole numbers like 1,8,32 (each 1 or more), not {matches!r}"]


def test_a_value_that_looks_like_console_markup_is_quoted_back_as_given() -> None:
    for matches in ("[/]", "[bold]1,x"):
        code, stdout, stderr = run(["bench", "protocol", "--matches", matches])
        assert code == 2 and stdout == ""
        assert stderr.splitlines() == [
            f"--matches: expected whole numbers like 1,8,32 (each 1 or more), not {matches!r}"
        ]
    code, _, stderr = run(["bench", "engine", "--ruleset", "[/]"])
    assert code == 2 and stderr.startswith("--ruleset: unknown preset '[/]' (one of amigo"), stderr


def test_the_bench_runners_want_of_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rage_referee.runner.settings.ray_available", lambda: False)
    code, _, stderr = run(["bench", "runner"])
    assert code == 1 and "pip install 'rage-arena[ray]'" in stderr, stderr  # not read as console markup


def test_a_league_name_that_looks_like_console_markup_is_printed_as_written(tmp_path: Path) -> None:
    """A "[/]" in a league's name raised Rich's MarkupError, a traceback, from the progress line on."""
    league = tmp_path / "league.toml"
    league.write_text(
        'name = "cup [/] [bold]final"\nplayers = 2\ngames_per_table = 2\nduplicate = false\n'
        'database = "db.sqlite"\n[ruleset]\npreset = "amigo"\n'
        f'[bots]\na = "{ROOT}/examples/random_bot.py:RandomBot"\nb = "{ROOT}/examples/greedy_bot.py:GreedyBot"\n'
    )
    code, stdout, stderr = run(["league", "run", str(league)])
    assert code == 0, stderr
    assert "Traceback" not in stderr and "MarkupError" not in stderr
    code, stdout, stderr = run(["ratings", "--league", str(league)])
    assert code == 0, stderr
    assert "cup [/] [bold]final" in stdout + stderr


def test_a_watch_without_history_of_a_league_under_way_says_what_it_missed() -> None:
    from rage_referee.cli.referee import joined_late
    from rage_sdk.pb import referee_pb2 as pb

    def first(status: pb.LeagueStatus, done: int) -> pb.LeagueEvent:
        return pb.LeagueEvent(
            league="cup", status_changed=pb.StatusChanged(status=status, games_done=done, games_total=9)
        )

    running, finished = pb.LEAGUE_STATUS_RUNNING, pb.LEAGUE_STATUS_FINISHED
    assert joined_late(first(running, 4), history=False) == (
        "4 games finished before this watch began: --history shows them first"
    )
    assert joined_late(first(running, 4), history=True) is None
    assert joined_late(first(running, 0), history=False) is None
    assert joined_late(first(finished, 9), history=False) is None


def help_texts(command: Any, path: str = "rage") -> Iterator[tuple[str, str]]:
    """Every help text of ``command`` and its sub-commands: (where, text)."""
    yield path, command.help or ""
    for param in command.params:
        yield f"{path} {param.name}", getattr(param, "help", None) or ""
    for name, sub in getattr(command, "commands", {}).items():
        yield from help_texts(sub, f"{path} {name}")


def test_no_help_text_holds_what_rich_reads_as_markup() -> None:
    # a "[default: 25]" written in a help text was read as a Rich tag and dropped: "this many Elo ."
    tag = re.compile(r"(?<!\\)\[[a-z#/@][^\[]*?\]")
    assert [(where, text) for where, text in help_texts(typer.main.get_command(app)) if tag.search(text)] == []
    code, stdout, _ = run(["test", "--help"], env={"COLUMNS": "200"})
    assert code == 0
    assert "this many Elo. [default: (25)]" in stdout and "in --db. [default: (NEW-vs-BASE)]" in stdout


def test_the_summary_of_each_command_in_rage_help_is_one_line() -> None:
    code, stdout, _ = run(["--help"], env={"COLUMNS": "200"})
    assert code == 0
    summaries = {line.split()[1]: line for line in stdout.splitlines() if line.startswith("│ ") and "  " in line[2:]}
    for command in ("match", "ratings", "test"):
        assert summaries[command].rstrip(" │").endswith("."), stdout  # the summary's sentence ends on its line
