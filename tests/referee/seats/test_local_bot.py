"""In-process bots (``FILE.py:CLASS``): whatever the bot's code does, the referee's match goes on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.faults import FaultKind
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.seats import BotSpec
from rage_referee.seats.local import FailureLog
from rage_sdk.rules import Ruleset

from tests.helpers.cli import runner

GREEDY = f"{Path(__file__).resolve().parents[3] / 'examples' / 'greedy_bot.py'}:GreedyBot"
EXITER = """
import asyncio, sys
from rage_sdk import Bot, Play, SeatView

class Exiter(Bot):
    \"\"\"Raises {raised} in its 15th bid (in the second game), else the lowest bid and first play.\"\"\"
    bids = 0

    def bid(self, view: SeatView) -> int:
        Exiter.bids += 1
        if Exiter.bids == 15:
            {raised}
        return min(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
"""
SERVED = """
if __name__ == "__main__":
    from rage_sdk.server import main

    main(Exiter)
"""


def match_of(tmp_path: Path, bot: str) -> Any:
    """``rage match`` of three games of ``bot`` (named e) against the greedy bot, checked to end in its figures.

    An in-process bot's own traceback goes to the referee's stderr (its log): the match's end is checked.
    """
    result = runner.invoke(
        app, ["match", f"--bot=e={bot}", f"--bot=g={GREEDY}", "--games=3", "--json", f"--logs={tmp_path}"]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {name: bot["games"] for name, bot in figures["bots"].items()} == {"e": 3, "g": 3}, figures
    assert figures["bots"]["e"]["faults"] == 1, result.stderr
    return result


def test_an_in_process_bot_that_calls_exit_is_charged_a_crash_and_the_match_goes_on(tmp_path: Path) -> None:
    """sys.exit() ended rage match with the bot's code (4), printing none of the figures of the games finished."""
    bot = tmp_path / "exiter.py"
    bot.write_text(EXITER.format(raised="sys.exit(4)"))
    result = match_of(tmp_path, f"{bot}:Exiter")
    line = "e crashed (round 5, bidding, decision 77): the bot called exit(4): an in-process bot may not exit"
    assert line in result.stderr, result.stderr


@pytest.mark.parametrize("served", [False, True], ids=["in-process", "served"])
@pytest.mark.parametrize("raised", ["asyncio.CancelledError", "GeneratorExit"])
def test_a_cancelled_error_from_a_bots_own_code_is_its_error(tmp_path: Path, raised: str, served: bool) -> None:
    """In the referee's process it ended rage match in a traceback; in a served bot it left the stream hanging,
    every later decision of every game a timeout."""
    bot = tmp_path / "exiter.py"
    bot.write_text(EXITER.format(raised=f"raise {raised}('mine')") + SERVED)
    result = match_of(tmp_path, f"python {bot}" if served else f"{bot}:Exiter")
    said = f"{'asyncio.exceptions.' if 'asyncio' in raised else ''}{raised.split('.')[-1]}: mine"
    assert f"e bot_error (round 5, bidding, decision 77): {said}" in result.stderr, result.stderr


UNMADE_ONCE = """
import asyncio
from rage_sdk import Bot
from rage_sdk.server import main

class Once(Bot):
    \"\"\"Its third instance (the third game's) raises CancelledError as it is made.\"\"\"
    made = 0

    def __init__(self) -> None:
        Once.made += 1
        if Once.made == 3:
            raise asyncio.CancelledError("mine")

    def bid(self, view):
        return min(view.legal_bids)

    def play(self, view):
        return view.legal_plays[0]

if __name__ == "__main__":
    main(Once)
"""


def test_a_served_bot_made_with_a_cancelled_error_ends_its_stream(tmp_path: Path) -> None:
    """The stream hung (the server took the error for a cancelled call): every later decision timed out."""
    bot = tmp_path / "once.py"
    bot.write_text(UNMADE_ONCE)
    result = match_of(tmp_path, f"python {bot}")
    made = "the bot of this game could not be made: asyncio.exceptions.CancelledError: mine"
    assert f"e crashed (round 1, bidding, decision 2): stream failed: ABORTED {made}" in result.stderr, result.stderr


LAZY = """
from rage_sdk import Bot

class Lazy(Bot):
    def bid(self, view):
        raise RuntimeError("Lazy will not bid")

    def play(self, view):
        raise RuntimeError("Lazy will not play")
"""


def test_an_in_process_bots_failures_go_to_its_log_not_the_referees_terminal(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Each failure is a line and a traceback in ``logs/NAME.log`` (each was printed on the referee's terminal:
    thousands of lines in a check of a bot that fails every decision); a bot that never fails makes no log."""
    lazy = tmp_path / "lazy.py"
    lazy.write_text(LAZY)
    specs = [BotSpec.of("lazy", f"{lazy}:Lazy"), BotSpec.of("greedy", GREEDY)]
    logs = tmp_path / "logs"
    asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[2]), games=1, deals=Deals.public(0), log_dir=logs))
    assert "Traceback" not in capfd.readouterr().err
    log = (logs / "lazy.log").read_text()
    assert log.count("Traceback") == 3, log  # a bid and two plays
    assert "RuntimeError: Lazy will not bid" in log
    assert not (logs / "greedy.log").exists()


RAISES_AS_MADE = """
from rage_sdk import Bot

class Unmade(Bot):
    def __init__(self):
        raise ValueError("no weights file")

    def bid(self, view):
        return min(view.legal_bids)

    def play(self, view):
        return view.legal_plays[0]
"""


def test_a_bot_that_cannot_be_made_says_so_at_each_decision_of_its_game(tmp_path: Path) -> None:
    """After the crash of its first decision, each of the game's others said 'unknown game 0'; the log has
    the traceback of the making. The first was charged as a crash ('the bot failed'), though nothing crashed."""
    unmade = tmp_path / "unmade.py"
    unmade.write_text(RAISES_AS_MADE)
    specs = [BotSpec.of("unmade", f"{unmade}:Unmade"), BotSpec.of("greedy", GREEDY)]
    logs = tmp_path / "logs"
    result = asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[2]), 1, Deals.public(0), log_dir=logs))
    (game,) = result.games
    why = "ValueError: no weights file"
    faults = [(fault.kind, fault.detail) for fault in game.figures.faults]
    assert faults == [(FaultKind.BOT_ERROR, f"the bot of this game could not be made: {why}")] * 3
    assert f"making the bot failed: {why}\nTraceback" in (logs / "unmade.log").read_text()


def test_an_in_process_bots_log_holds_each_line_as_it_is_told(tmp_path: Path) -> None:
    """Read while the match runs (rage bot check names it), it held nothing until the match ended."""
    log = FailureLog(tmp_path / "logs" / "bot.log")
    print("bot error in game 0 (id 1), decision 1: ValueError: no", file=log)
    assert (tmp_path / "logs" / "bot.log").read_text().endswith("decision 1: ValueError: no\n")
    log.close()


UNMADE = """
from rage_sdk import Bot

class Unmade(Bot):
    def __init__(self) -> None:
        raise ValueError("no weights file")

    def bid(self, view):
        return min(view.legal_bids)

    def play(self, view):
        return view.legal_plays[0]

if __name__ == "__main__":
    from rage_sdk.server import main

    main(Unmade)
"""


def test_a_served_bot_that_cannot_be_made_is_told_so_not_as_restarted(tmp_path: Path) -> None:
    """It read 'stream failed: UNKNOWN Unexpected <class 'ValueError'>', then 'e was restarted 3 times; not
    again' at each decision, where the bot's process ran all along and was only connected to again."""
    bot = tmp_path / "unmade.py"
    bot.write_text(UNMADE)
    result = runner.invoke(
        app, ["match", f"--bot=e=python {bot}", f"--bot=g={GREEDY}", "--games=1", f"--logs={tmp_path}"]
    )
    assert result.exit_code == 0, result.output
    why = "stream failed: ABORTED the bot of this game could not be made: ValueError: no weights file"
    told = [line for line in result.stderr.splitlines() if line.startswith("game 0: e crashed")]
    assert told[0].endswith(f"): {why}"), result.stderr  # the stream ended, and the bot was connected to again
    assert told[1].startswith("game 0: e crashed 3 times more, alike, the last at round "), result.stderr
    assert told[2].endswith(f"): e: {why}; it was connected again 3 times already, not again"), result.stderr
    assert "restarted" not in result.stderr


PRINTER = """
from rage_sdk import Bot, Play, SeatView

print("loading the printer")

class Printer(Bot):
    \"\"\"Prints a line at each bid.\"\"\"

    def bid(self, view: SeatView) -> int:
        print("printer bids", min(view.legal_bids))
        return min(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
"""


def test_an_in_process_bots_prints_go_to_its_log_not_the_referees_output(tmp_path: Path) -> None:
    """Its print() wrote into rage match's stdout, so ``--json`` gave no JSON; two such bots share the loop."""
    bot = tmp_path / "printer.py"
    bot.write_text(PRINTER)
    result = runner.invoke(
        app,
        ["match", f"--bot=p={bot}:Printer", f"--bot=q={bot}:Printer", "--games=2", "--json", f"--logs={tmp_path}"],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert {name: bot["games"] for name, bot in figures["bots"].items()} == {"p": 2, "q": 2}, figures
    for name in "pq":
        log = (tmp_path / f"{name}.log").read_text()
        assert "loading the printer\n" in log, log
        assert "printer bids 0\n" in log, log


SHOUTER = """
import sys
from rage_sdk import Bot, Play, SeatView

class Shouter(Bot):
    def bid(self, view: SeatView) -> int:
        sys.stderr.write("\\x1b[2J\\x1b[31mshouter bids\\n")
        return min(view.legal_bids)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]
"""


def test_what_an_in_process_bot_writes_to_stderr_goes_to_its_log_not_the_referees_terminal(tmp_path: Path) -> None:
    """Its sys.stderr writes, escape codes and all, reached the organizer's terminal raw."""
    bot = tmp_path / "shouter.py"
    bot.write_text(SHOUTER)
    result = runner.invoke(
        app, ["match", f"--bot=s={bot}:Shouter", f"--bot=g={GREEDY}", "--games=1", f"--logs={tmp_path}"]
    )
    assert result.exit_code == 0, result.output
    assert "shouter" not in result.output and "\x1b[2J" not in result.output
    assert "\x1b[2J\x1b[31mshouter bids\n" in (tmp_path / "s.log").read_text()


@pytest.mark.parametrize("bots", [["s={bot}:Shouter", f"g={GREEDY}"], ["s=python {bot}", f"g={GREEDY}"]])
def test_a_log_folder_that_cannot_be_made_refuses_an_in_process_bot_as_a_launched_one(
    tmp_path: Path, bots: list[str]
) -> None:
    """A launched bot was refused in one line; an in-process one played on, its output on the terminal."""
    bot = tmp_path / "shouter.py"
    bot.write_text(SHOUTER + SERVED.replace("Exiter", "Shouter"))
    (tmp_path / "logs").write_text("a file")
    options = [f"--bot={spec.format(bot=bot)}" for spec in bots]
    result = runner.invoke(app, ["match", *options, "--games=1", f"--logs={tmp_path / 'logs'}"])
    assert result.exit_code != 0
    assert f"s: cannot write the bot's log {tmp_path / 'logs' / 's.log'}: not a folder" in " ".join(
        result.output.split()
    )
    assert "shouter" not in result.output


OS_EXIT = """
import os
from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

class Quits(Bot):
    def bid(self, view: SeatView) -> int:
        os._exit(3)

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]

main(Quits)
"""


def test_a_launched_bot_that_exits_is_told_with_its_exit_code(tmp_path: Path) -> None:
    """Its faults said 'stream failed: UNAVAILABLE Stream removed (Socket closed)', nothing of the exit."""
    bot = tmp_path / "quits.py"
    bot.write_text(OS_EXIT)
    result = runner.invoke(
        app, ["match", f"--bot=q=python {bot}", f"--bot=g={GREEDY}", "--games=1", f"--logs={tmp_path}", "--json"]
    )
    assert result.exit_code == 0, result.output
    told = [line for line in result.stderr.splitlines() if line.startswith("game 0: q crashed")]
    assert told[0].startswith("game 0: q crashed (round 1, bidding, decision ") and told[0].endswith(
        "; the bot exited with code 3"
    ), result.stderr
    assert told[1].startswith("game 0: q crashed 3 times more, alike, the last at round 4, bidding"), result.stderr
    assert "relaunched 3 times already, not again; the bot exited with code 3" in told[2], result.stderr
    assert told[3].startswith("game 0: q crashed 15 times more, alike"), result.stderr
