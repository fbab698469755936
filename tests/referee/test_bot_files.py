"""A bot given as ``FILE.py:CLASS`` whose class cannot play (rage_sdk.Bot itself, or a subclass that overrides
neither ``bid`` nor ``play``) is refused in one line naming the class and what it lacks, before any game."""

from __future__ import annotations

from pathlib import Path

import pytest
from rage_referee.seats import load_bot_class
from rage_referee.seats.spec import BotSpecError

from tests.helpers.cli import rage
from tests.helpers.league import EXAMPLES, GREEDY

LAZY = "from rage_sdk import Bot\n\n\nclass Lazy(Bot):\n    pass\n"
BIDS_ONLY = "from rage_sdk import Bot\n\n\nclass BidsOnly(Bot):\n    def bid(self, view):\n        return 0\n"


@pytest.mark.parametrize(
    ("source", "name", "said"),
    [
        (LAZY, "Lazy", "Lazy does not override bid() and play(), which every Bot must"),
        (BIDS_ONLY, "BidsOnly", "BidsOnly does not override play(), which every Bot must"),
        (
            LAZY,
            "Bot",
            "Bot does not override bid() and play(), which every Bot must; its rage_sdk.Bot subclasses: Lazy",
        ),
    ],
)
def test_a_bot_class_that_cannot_play_is_refused_naming_what_it_lacks(
    tmp_path: Path, source: str, name: str, said: str
) -> None:
    file = tmp_path / "mine.py"
    file.write_text(source)
    with pytest.raises(BotSpecError) as info:
        load_bot_class(f"{file}:{name}")
    assert str(info.value) == f"{f'{file}:{name}'!r}: {said}"


def test_rage_match_refuses_the_sdks_bot_class_in_one_line_before_playing() -> None:
    """``random_bot.py:Bot`` (the class the file imports) played, and faulted every decision."""
    target = f"{EXAMPLES / 'random_bot.py'}:Bot"
    result = rage("match", "--bot", f"b={target}", "--bot", f"g={GREEDY}", "--games", "1")
    assert result.exit_code in (1, 2), result.output
    assert "bot_error" not in result.output and result.stdout == ""
    assert result.stderr.strip().splitlines()[-1] == (  # after the deal commitment's line
        f"cannot start the match: b: {target!r}: Bot does not override bid() and play(), which every Bot must; "
        "its rage_sdk.Bot subclasses: RandomBot"
    )


NEEDS = "from rage_sdk import Bot\n\n\nclass Needs(Bot):\n    def __init__(self, depth, width=2):\n        pass\n\n"
NEEDS += "    def bid(self, view):\n        return 0\n\n    def play(self, view):\n        return view.legal_plays[0]\n"


def test_a_bot_class_made_only_with_arguments_is_refused_as_it_is_loaded(tmp_path: Path) -> None:
    """rage bot serve served it, and every game's bot failed to be made (each decision a fault)."""
    file = tmp_path / "needs.py"
    file.write_text(NEEDS)
    said = "Needs() needs depth, and a bot is made for each game with no arguments: give them defaults"
    with pytest.raises(BotSpecError) as info:
        load_bot_class(f"{file}:Needs")
    assert str(info.value) == f"{f'{file}:Needs'!r}: {said}"
    result = rage("bot", "serve", f"{file}:Needs", "--port", "0")
    assert result.exit_code != 0 and said in " ".join(result.output.split()), result.output
