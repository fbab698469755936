"""``rage bot check`` on a bot with faults: every kind with its count, game and decision, the slowest time
counting timeouts, and the bot's own stderr, its text made printable; ``rage match`` prints a bot's text as text."""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rage_referee.matches.check import CHECK_RULESETS, MAX_TIMEOUTS, PLAYERS, check_bot
from rage_referee.play.spec import GameSpec
from rage_referee.runner import LocalRunner
from rage_referee.seats import BotSpec, free_port, stop_group, wait_healthy

from tests.helpers.cli import rage

ROOT = Path(__file__).resolve().parents[3]
RAGE = Path(sys.executable).with_name("rage")
MIXED = ROOT / "tests" / "bots" / "mixed.py"


def test_check_shows_every_fault_kind_the_slowest_time_and_the_bots_stderr(tmp_path: Path) -> None:
    command = f"python {shlex.quote(str(MIXED))}"
    argv = [str(RAGE), "bot", "check", command, "--decision-ms", "300", "--logs", str(tmp_path / "logs")]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 1, text
    games = len(CHECK_RULESETS)
    for kind in ("illegal", "timeout", "bot_error"):
        assert re.search(rf"^FAIL\s+{kind} x\d+: game 0 \(amigo\), decision \d+, round \d+ ", text, re.M), text
    illegal = int(re.search(r"illegal x(\d+)", text)[1])  # type: ignore[index]
    assert illegal == games * PLAYERS  # every seat's first bid
    assert f"and {illegal - 3} more" in text
    slowest = re.findall(r"slowest (\d+) ms with (\d+) timed out \(deadline 300 ms\)", text)
    assert len(slowest) == games and all(int(ms) >= 300 and int(n) >= 1 for ms, n in slowest), text
    log = tmp_path / "logs" / "bot.log"
    assert log.is_file() and str(log.relative_to(tmp_path)) in text
    assert "mixed: my own words" in text  # the bot's own stderr
    assert "[/oops] \\x1b[31mred" in text and "\x1b" not in text


def test_match_prints_a_bots_markup_and_escapes_as_text(tmp_path: Path) -> None:
    argv = [str(RAGE), "match", f"--bot=m={MIXED}:MixedBot", f"--bot=r={ROOT}/examples/random_bot.py:RandomBot"]
    proc = subprocess.run([*argv, "--games", "1", "--decision-ms", "200"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = r"game 0: m bot_error \(round \d+, trick \d+, decision \d+\): RuntimeError: \[/oops\] \\x1b\[31mred"
    assert re.search(line, proc.stderr), proc.stderr[-2000:]


def test_a_bot_that_fails_to_start_is_reported_in_one_plain_line(tmp_path: Path) -> None:
    script = tmp_path / "noisy.py"
    script.write_text("import sys\nsys.stderr.write('[/nope] \\x1b[2J cannot start\\n')\nsys.exit(3)\n")
    argv = ["match", f"--bot=n=python {script}", f"--bot=r={ROOT}/examples/random_bot.py:RandomBot"]
    proc = rage(*argv, "--games", "1", "--logs", tmp_path / "logs")
    assert proc.exit_code == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "\x1b" not in proc.stderr
    assert "exited with code 3 before serving" in proc.stderr and "[/nope] \\x1b[2J cannot start" in proc.stderr


@pytest.mark.parametrize(
    ("command", "quoted"),
    [
        ("rage-no-such-program", []),  # never ran: it wrote nothing
        ("python -c \"import sys; sys.exit('no luck')\"", ["no luck"]),
    ],
)
def test_check_quotes_only_what_the_bot_wrote_in_this_check(tmp_path: Path, command: str, quoted: list[str]) -> None:
    # the log keeps every run's sections: an earlier bot's words are not this one's
    (tmp_path / "bot.log").write_text("=== earlier: the referee launches old-bot\nthe earlier bot's words\n")
    report = asyncio.run(check_bot(BotSpec.of("bot", command), log_dir=tmp_path))
    text = "\n".join(line.text for line in report.lines)
    assert not report.ok and "earlier" not in text, text
    if quoted:
        assert f"the last {len(quoted)} lines of the bot's stderr" in text, text
        assert all(f"| {line}" in text for line in quoted), text
    else:
        assert f"the bot wrote nothing to its stderr ({tmp_path / 'bot.log'})" in text, text


def test_a_bot_at_an_address_is_checked_and_keeps_its_own_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where a logs folder would be made
    port = free_port()
    served = subprocess.Popen(
        [sys.executable, "-m", "rage_sdk.examples.random_bot", "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        assert asyncio.run(wait_healthy(f"127.0.0.1:{port}", timeout=30)), "the bot did not start serving"
        proc = rage("bot", "check", f"127.0.0.1:{port}")
    finally:
        stop_group(served, 2.0)
    assert proc.exit_code == 0, proc.stdout + proc.stderr
    assert f"the bot serves at 127.0.0.1:{port}: its log is wherever it writes one" in proc.stdout
    assert not (tmp_path / "logs").exists()


def test_check_plays_its_games_through_the_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rage bot check`` plays on the one runner seam, as match, league, hosted and bench do."""
    played: list[GameSpec] = []
    run = LocalRunner.run

    async def counted(self: LocalRunner, specs: Iterable[GameSpec], *args: Any, **kwargs: Any) -> None:
        specs = list(specs)
        played.extend(specs)
        await run(self, specs, *args, **kwargs)

    monkeypatch.setattr(LocalRunner, "run", counted)
    spec = BotSpec.of("bot", f"{ROOT}/examples/random_bot.py:RandomBot")
    report = asyncio.run(check_bot(spec, 1000, tmp_path / "logs"))
    assert report.ok, [line.text for line in report.lines]
    assert [(game.ruleset, game.seats) for game in played] == [(rules, ("bot",) * PLAYERS) for rules in CHECK_RULESETS]
    games = [line.text for line in report.lines if line.text.startswith("game ")]
    assert [line.split(",")[0] for line in games] == [f"game {k}" for k in range(len(CHECK_RULESETS))]


def test_a_bot_that_never_answers_is_checked_in_seconds(tmp_path: Path) -> None:
    """After MAX_TIMEOUTS timeouts in a row the check asks nothing more (it waited 17 minutes at 1000 ms)."""
    command = f"python {shlex.quote(str(ROOT / 'tests' / 'bots' / 'mute.py'))}"
    proc = rage("bot", "check", command, "--decision-ms", "200", "--logs", tmp_path / "logs")
    text = proc.stdout + proc.stderr
    assert proc.exit_code == 1, text
    assert re.search(rf"^FAIL\s+timeout x{MAX_TIMEOUTS}: game 0 \(amigo\), decision 1, ", text, re.M), text
    assert f"not asked again after {MAX_TIMEOUTS} timeouts in a row" in text


def test_a_failed_check_quotes_only_what_the_bot_wrote_in_it(tmp_path: Path) -> None:
    """Every check's bot is ``bot``: its log in a folder used before held another bot's words, which were quoted."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "bot.log").write_text("another bot's words, in an earlier check\n")
    liar = f"python {shlex.quote(str(ROOT / 'tests' / 'bots' / 'liar.py'))}"
    proc = rage("bot", "check", liar, "--logs", logs)
    text = proc.stdout + proc.stderr
    assert proc.exit_code == 1, text
    assert "speaks protocol version 2" in text
    assert "another bot's words" not in text
    assert "| serving on port " in text  # its own words


def test_the_kinds_a_bot_answered_with_leave_out_the_referees_fallbacks() -> None:
    from types import SimpleNamespace

    from rage_referee.matches.check import _kinds_line

    plays = [{"seat": 0, "card": "wild", "color": "r"}, {"seat": 1, "card": "r3"}]  # trick 1 of round 1
    fault = {"seat": 0, "round": 1, "trick": 1, "kind": "timeout", "detail": "", "fallback": "wild"}
    record = {"players": ["a", "b"], "first_round": 1, "rounds": [{"plays": plays}], "faults": [fault]}
    ok, line = _kinds_line([SimpleNamespace(record=record)])  # type: ignore[list-item]
    assert ok and line.startswith("answered with: coloured (never chose: ")  # the wild was the referee's
    all_faulted = {**record, "faults": [fault, {**fault, "seat": 1}]}
    assert _kinds_line([SimpleNamespace(record=all_faulted)]) == (  # type: ignore[list-item]
        False,
        "answered with: nothing of its own (the referee played every card for it)",
    )


HOOKS = """\
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.server import main


class Deaf(RandomBot):
    def on_event(self, event):
        raise RuntimeError("[/x] event boom")

    def on_game_end(self, over):
        raise KeyError("totals")


if __name__ == "__main__":
    main(Deaf)
"""


@pytest.mark.parametrize("served", [True, False], ids=["launched", "in-process"])
def test_a_hook_that_raises_fails_the_check_saying_how_often_and_why(tmp_path: Path, served: bool) -> None:
    """A bot whose on_event raised at every event passed every check: the SDK plays on past a hook's failure,
    and only the bot's log held its 36,000 lines of tracebacks (run inside the referee, FILE.py:CLASS, its own
    log, which the check did not read either)."""
    bot = tmp_path / "deaf.py"
    bot.write_text(HOOKS)
    argv = [str(RAGE), "bot", "check", f"python {bot}" if served else f"{bot}:Deaf", "--logs", str(tmp_path / "logs")]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 1, text
    said = r"^FAIL\s+on_event\(\) raised ([\d,]+) times in the check's games, first RuntimeError: \[/x\] event boom$"
    events = re.search(said, text, re.M)
    assert events is not None and int(events[1].replace(",", "")) > 100, text
    ends = f"on_game_end() raised {len(CHECK_RULESETS) * PLAYERS} times in the check's games, first KeyError: 'totals'"
    assert ends in text, text
    assert "passed every check" not in text
