"""``python my_bot.py --port N``: what ``rage_sdk.server.main`` refuses before it serves, in one line."""

from __future__ import annotations

import pytest
from rage_sdk.bot import Bot, BotFactory
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.server import main
from rage_sdk.view import SeatView


class BidsOnly(Bot):
    """A bot that forgot its play()."""

    def bid(self, view: SeatView) -> int:
        return 0


def refusal(factory: object, capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``main(factory)`` exits with, before it serves (a test's port 0 would serve at once)."""
    with pytest.raises(SystemExit) as info:
        main(factory, ["--port", "0"])  # type: ignore[arg-type]
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return err.splitlines()[-1]


def test_a_bot_instance_is_refused_naming_the_class_to_give(capsys: pytest.CaptureFixture[str]) -> None:
    """``main(MyBot())`` was a traceback: TypeError: 'MyBot' object is not callable."""
    line = refusal(RandomBot(), capsys)
    assert line.endswith("main() takes the bot's class, not a bot: main(RandomBot), not main(RandomBot())"), line


def test_a_class_that_is_no_bot_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``main(int)`` was a traceback: AttributeError: type object 'int' has no attribute 'display_name'."""
    line = refusal(int, capsys)
    assert line.endswith("main() takes a rage_sdk.Bot subclass; int is not one"), line


def test_a_bot_missing_a_method_is_refused_before_it_serves(capsys: pytest.CaptureFixture[str]) -> None:
    """It served, and failed every play it was asked with the same error."""
    line = refusal(BidsOnly, capsys)
    assert line.endswith("BidsOnly does not override play(), which every Bot must"), line


def test_a_factory_that_makes_a_bot_is_taken() -> None:
    from rage_sdk.bot import bot_class_of

    factory: BotFactory = lambda: RandomBot()  # noqa: E731
    assert bot_class_of(factory) is RandomBot
