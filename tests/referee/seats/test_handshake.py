"""A bot that cannot be greeted is named by the name it was given: its address, its command or the name it
claims for itself would not tell the organizer of a league which entrant it is."""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.seats import process
from rage_referee.seats.log_drain import LogDrain
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
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


UNHEALTHY = shlex.join(["python", str(ROOT / "tests" / "bots" / "unhealthy.py")])


def test_a_bot_that_serves_no_health_service_is_refused_at_once_saying_so(tmp_path: Path) -> None:
    """It serves, but not the health service: it was waited for 20 s and said to have served nothing."""
    started = time.monotonic()
    result = rage("match", "--bot", f"greedy={GREEDY}", "--bot", f"nohealth={UNHEALTHY} --health none",
                  "--logs", tmp_path)  # fmt: skip
    assert result.exit_code == 1, result.output
    assert time.monotonic() - started < 10, "the bot was waited for as if it might still start serving"
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("cannot start the match: nohealth: "), line
    assert "it serves no health service (grpc.health.v1.Health/Check is UNIMPLEMENTED;" in line, line


@pytest.mark.slow
def test_a_bot_whose_health_service_never_says_serving_is_refused_saying_what_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its wait is cut from 20 s to 5 (room to start on a loaded machine): the same refusal, of that wait."""
    monkeypatch.setattr(process, "START_TIMEOUT", 5.0)
    result = rage("match", "--bot", f"greedy={GREEDY}", "--bot", f"sick={UNHEALTHY} --health not-serving",
                  "--logs", tmp_path)  # fmt: skip
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert "did not serve within 5 s (its health service says NOT_SERVING); see " in line, line


def test_the_last_words_of_a_bot_that_exits_during_its_handshake_are_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log is written from the pipe by a thread of its own: on a loaded machine it wrote the bot's
    last line after the refusal had read the log, which then said the bot wrote nothing."""
    keep = LogDrain._keep

    def late(drain: LogDrain, chunk: bytes) -> None:
        time.sleep(0.3)
        keep(drain, chunk)

    monkeypatch.setattr(LogDrain, "_keep", late)
    test_a_bot_that_exits_during_its_handshake_is_said_to_have_with_its_last_words(tmp_path)


def test_a_bot_that_exits_during_its_handshake_is_said_to_have_with_its_last_words(tmp_path: Path) -> None:
    """It was refused with only gRPC's words for the broken call (UNAVAILABLE, Socket closed)."""
    vanisher = shlex.join(["python", str(ROOT / "tests" / "bots" / "vanisher.py")])
    result = rage("match", "--bot", f"greedy={GREEDY}", "--bot", f"gone={vanisher}", "--logs", tmp_path)
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("cannot start the match: gone: "), line
    assert "Hello failed" in line and "; the bot exited with code 5: " in line, line
    assert line.endswith(" | vanishing mid-handshake"), line
