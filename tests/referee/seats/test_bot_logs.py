"""A launched bot's log: a section per run (the referee's launch line, the SDK's greeting) and a header per game;
a bot that fails to start is quoted from its own section, a log's end is read without the rest, and a log folder
that cannot be made is one line."""

from __future__ import annotations

import asyncio
import re
import shlex
from pathlib import Path

import pytest
from rage_referee.cli import app
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.seats import BotSpec, HandshakeError
from rage_referee.seats.log_tail import CUT_LINE_CHARS, tail_lines
from rage_referee.seats.process import BotProcess
from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner


def test_each_run_and_each_game_opens_a_section_of_the_bots_log(tmp_path: Path) -> None:
    specs = [
        BotSpec.of("served", f"python {shlex.quote(str(example_bot('random_bot')))}"),
        BotSpec.of("local", f"{example_bot('greedy_bot')}:GreedyBot"),
    ]
    ruleset = Ruleset.of("amigo", rounds=[2, 1])
    for seed in (0, 10):
        asyncio.run(run_match(specs, ruleset, games=2, deals=Deals.public(seed), log_dir=tmp_path))
    log = (tmp_path / "served.log").read_text()
    launches = r"^=== .* UTC: the referee \(pid \d+\) launches .*random_bot\.py --port \d+$"
    assert len(re.findall(launches, log, re.M)) == 2
    assert len(re.findall(r"^=== .* UTC: 'rage-arena referee' connected from ", log, re.M)) == 2
    headers = re.findall(r"^--- game (\d) \(record game-0000(\d)\.json, id \d+\), seat (\d) of 2, amigo ", log, re.M)
    assert sorted(headers) == sorted([("0", "0", "0"), ("1", "1", "1")] * 2)


def test_a_bot_that_exits_before_serving_is_quoted_from_its_own_launch_only(tmp_path: Path) -> None:
    """The lines quoted are those this launch wrote, not the end of an earlier run's section."""
    log = tmp_path / "quits.log"
    for said in ("last words of an earlier run", None):
        command = f"sh -c 'echo {said}; exit 3'" if said else "sh -c 'exit 4'"
        with pytest.raises(HandshakeError) as info:
            asyncio.run(BotProcess(command, log).start())
    message = str(info.value)
    assert "exited with code 4 before serving" in message
    assert message.endswith(f"see {log}: it wrote nothing"), message
    assert "earlier run" in log.read_text()  # still in the log


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("/nonexistent/bin", "cannot run /nonexistent/bin --port "),
        ("./no/such/bot --fast", "cannot run ./no/such/bot --fast --port "),
        ("no-such-program-of-rage", "cannot run no-such-program-of-rage --port "),
    ],
)
def test_a_bot_whose_program_is_not_found_is_refused_before_it_is_launched_saying_so(
    tmp_path: Path, command: str, said: str
) -> None:
    """It was launched, and said to have 'exited with code 127 before serving; ...: it wrote nothing'."""
    bots = ["--bot", f"x={command}", "--bot", f"r=python {shlex.quote(str(example_bot('random_bot')))}"]
    result = CliRunner().invoke(app, ["match", *bots, "--games", "1", "--logs", str(tmp_path)])
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[-1]
    program = command.split()[0]
    where = "was not found on PATH" if "/" not in program else "does not exist"
    assert line.startswith(f"cannot start the match: x: {said}"), line
    assert line.endswith(f": its program {program} {where}"), line


def test_a_bot_that_exits_with_127_before_serving_is_said_not_found(tmp_path: Path) -> None:
    """Exit code 127 is a shell's (or an exec wrapper's) for a command it did not find."""
    with pytest.raises(HandshakeError) as info:
        asyncio.run(BotProcess("sh -c 'exit 127'", tmp_path / "gone.log").start())
    assert "exited with code 127 (command not found) before serving" in str(info.value)


def test_the_end_of_a_huge_log_is_read_without_the_rest(tmp_path: Path) -> None:
    log = tmp_path / "huge.log"
    with log.open("wb") as out:
        out.truncate(64 * 2**30)  # 64 GiB, sparse: reading all of it would never end
        out.seek(0, 2)
        out.write(b"x" * 100_000 + b"\nsecond to last\nlast\n")
    assert tail_lines(log, 3) == ["second to last", "last"]  # the cut first line read is left out
    assert tail_lines(log, 1, since=log.stat().st_size - 5) == ["last"]


def test_a_last_line_longer_than_what_is_read_is_quoted_by_its_end(tmp_path: Path) -> None:
    """The bot's last words are the end of its last line, capped, even when its start lies before what is read."""
    log = tmp_path / "long.log"
    log.write_bytes(b"earlier\n" + b"x" * 100_000 + b" and these are my last words\n\n")
    (line,) = tail_lines(log, 3)
    assert line.startswith("…x") and line.endswith("x and these are my last words"), line
    assert len(line) == 1 + CUT_LINE_CHARS
    assert tail_lines(log, 0) == []


def test_a_bot_whose_last_line_is_long_is_quoted_by_its_end(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    command = "python -c \"print('x' * 100_000, 'and these are my last words'); exit(3)\""
    with pytest.raises(HandshakeError) as info:
        asyncio.run(BotProcess(command, log).start())
    assert str(info.value).endswith("x and these are my last words"), str(info.value)[-300:]


def test_a_log_folder_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("not a folder")
    with pytest.raises(HandshakeError) as info:
        asyncio.run(BotProcess("sh -c 'exit 0'", tmp_path / "logs" / "bot.log").start())
    assert str(info.value) == f"cannot write the bot's log {tmp_path / 'logs' / 'bot.log'}: not a folder"


def test_bot_check_with_a_log_folder_that_is_a_file_says_so_once(tmp_path: Path) -> None:
    (tmp_path / "logs").write_text("not a folder")
    command = f"python {shlex.quote(str(example_bot('random_bot')))}"
    result = CliRunner().invoke(app, ["bot", "check", command, "--logs", str(tmp_path / "logs")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cannot write the bot's log" in lines[0] and "not a folder" in lines[0], lines


def test_bots_whose_names_make_the_same_file_name_keep_logs_of_their_own(tmp_path: Path) -> None:
    served = f"python {shlex.quote(str(example_bot('random_bot')))}"
    specs = [BotSpec.of("a b", served), BotSpec.of("a_b", served), BotSpec.of("a/b", served)]
    asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[1]), games=1, deals=Deals.public(0), log_dir=tmp_path))
    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 3, logs
    assert tmp_path / "a_b.log" in logs  # a name fit for a file keeps it as it is
    for log in logs:
        assert len(re.findall(r"^=== .* launches ", log.read_text(), re.M)) == 1, log


def test_two_leagues_in_one_folder_keep_their_bots_logs_apart(tmp_path: Path) -> None:
    from tests.helpers.league import flat, rage, write_league

    served = f"python {shlex.quote(str(example_bot('random_bot')))}"
    bots = {"served": served, "local": f"{example_bot('greedy_bot')}:GreedyBot"}
    for stem in ("first", "second"):
        league = write_league(tmp_path, f"{stem}.toml", name=stem, players=2, games=2, bots=bots,
                              database=f"{stem}.sqlite", ruleset='preset = "amigo"\nrounds = [1]')  # fmt: skip
        result = rage("league", "run", league, "--standings-every", "0")
        assert result.exit_code == 0, result.output
    for stem in ("first", "second"):
        log = (tmp_path / "logs" / stem / "served.log").read_text()
        assert len(re.findall(r"^=== .* launches .*random_bot\.py", log, re.M)) == 1
    shown = CliRunner().invoke(app, ["league", "run", "--help"], env={"COLUMNS": "300"}).output
    assert "default: logs/STEM beside the league file STEM.toml" in flat(shown)
