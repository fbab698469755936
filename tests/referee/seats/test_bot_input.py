"""Bots given in a form no process could run: one line naming the bot (exit 2), never a traceback.

A command with an unclosed quote or a NUL character, or naming no program, is refused where it is
given (``rage match --bot``, ``rage bot check``, ``rage test``, a league file's ``[bots]``), before
anything is launched. A ``FILE.py:CLASS`` whose file exits as it is loaded (a ``main()`` run at its top
level) is one line too, not the end of the referee.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from rage_referee.seats import BotSpec, BotSpecError

from tests.helpers.cli import one_line, rage

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"

UNSPLITTABLE = [
    ("python 'unclosed", "no closing quotation"),
    ("python bot.py\0 --fast", "NUL character"),
    ('"" ', None),
]


@pytest.mark.parametrize(("command", "why"), UNSPLITTABLE)
def test_a_command_that_cannot_be_split_is_refused_naming_the_bot(command: str, why: str | None) -> None:
    with pytest.raises(BotSpecError) as info:
        BotSpec.of("quoted", command)
    assert str(info.value).startswith("bot 'quoted': ")
    assert why is None or why in str(info.value)


@pytest.mark.parametrize(("command", "why"), UNSPLITTABLE[:2])
@pytest.mark.parametrize("args", [["match", "--bot", "b=" + GREEDY], ["test", "b=" + GREEDY, "--field", "c=" + RANDOM]])
def test_match_and_test_refuse_it_in_one_line(command: str, why: str, args: list[str]) -> None:
    given = ["--bot", f"quoted={command}"] if args[0] == "match" else [f"quoted={command}"]
    result = rage(args[0], *given, *args[1:])
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert "bot 'quoted'" in line and why in line, line


def test_bot_check_refuses_it_in_one_line() -> None:
    result = rage("bot", "check", "python 'unclosed")
    assert result.exit_code == 2, result.output
    assert "no closing quotation" in one_line(result.stderr)


def test_a_league_file_with_such_a_bot_names_it(tmp_path: Path) -> None:
    file = tmp_path / "cup.toml"
    file.write_text(
        f'players = 2\ngames = 2\nruleset = "amigo"\n[bots]\na = "{GREEDY}"\nquoted = "python \'unclosed"\n'
    )
    result = rage("league", "run", file)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert line.startswith(f"{file}: bots: bot 'quoted'") and "no closing quotation" in line, line


UNGUARDED = """
from rage_sdk import Bot
from rage_sdk.server import main


class Mine(Bot):
    def bid(self, view):
        return view.legal_bids[0]

    def play(self, view):
        return view.legal_plays[0]


main(Mine)  # no if __name__ == "__main__": it runs as the referee loads the file
"""


@pytest.mark.parametrize("command", ["match", "serve"])
def test_a_bot_file_that_exits_as_it_is_loaded_is_one_line(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = tmp_path / "mine.py"
    file.write_text(UNGUARDED)
    args = (
        ["match", "--bot", f"mine={file}:Mine", "--bot", f"b={GREEDY}"]
        if command == "match"
        else ["bot", "serve", f"{file}:Mine"]
    )
    monkeypatch.setattr(sys, "argv", ["rage", *args])  # what the bot's main() reads, as from a terminal
    result = rage(*args)
    assert result.exit_code in (1, 2), result.output
    line = result.stderr.strip().splitlines()[-1]
    assert f"{file} exited as it was loaded (code 2); run its main() only under: if __name__" in line, line


@pytest.mark.parametrize("port", ["99999", "-5"])
def test_an_sdk_bot_refuses_a_port_out_of_range(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``python my_bot.py --port 99999`` was bound as port 34463, and ``-5`` as 65531."""
    from rage_sdk.examples.random_bot import RandomBot
    from rage_sdk.server import main

    with pytest.raises(SystemExit) as info:
        main(RandomBot, ["--port", port])
    assert info.value.code == 2
    assert f"argument --port: {port} is out of range; it takes 0 to 65535" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Nope", "{path} has no class Nope; its rage_sdk.Bot subclasses: Mine, Other"),
        ("helper", "helper in {path} is not a rage_sdk.Bot subclass; its rage_sdk.Bot subclasses: Mine, Other"),
    ],
)
def test_a_bot_file_without_the_class_named_says_so_and_the_bots_it_has(tmp_path: Path, name: str, said: str) -> None:
    """``my_bot.py:Nope`` was said to be 'Nope is not a rage_sdk.Bot subclass in my_bot.py', as if Nope were there."""
    file = tmp_path / "mine.py"
    file.write_text(UNGUARDED.split("main(Mine)")[0] + "class Other(Mine):\n    pass\n\n\ndef helper():\n    pass\n")
    result = rage("match", "--bot", f"b={file}:{name}", "--bot", f"g={GREEDY}")
    assert result.exit_code in (1, 2), result.output
    line = result.stderr.strip().splitlines()[-1]  # after the deal commitment's
    assert line.startswith("cannot start the match: b: ") and line.endswith(said.format(path=file)), line


def test_a_bot_file_with_no_bot_at_all_says_so(tmp_path: Path) -> None:
    file = tmp_path / "empty.py"
    file.write_text("x = 1\n")
    result = rage("bot", "serve", f"{file}:Nope")
    assert result.exit_code in (1, 2), result.output
    assert one_line(result.stderr).endswith(f"{file} has no class Nope; it has no rage_sdk.Bot subclass")
