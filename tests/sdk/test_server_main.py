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
    """The one line ``main(factory)`` exits with, before it serves (a factory it takes meets the bad --listen
    next, and exits saying so: the test fails, and serves nothing)."""
    with pytest.raises(SystemExit) as info:
        main(factory, ["--listen", "nowhere"])  # type: ignore[arg-type]
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


class Deep(RandomBot):
    """A bot whose making takes an argument."""

    def __init__(self, depth: int, *extra: int, width: int = 2) -> None:
        super().__init__()
        self.depth = depth


def test_a_bot_class_that_cannot_be_made_without_arguments_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """It served, and every game's stream failed: the bot of this game could not be made: TypeError ... depth."""
    line = refusal(Deep, capsys)
    assert line.endswith(
        "Deep() needs depth: main() makes a bot for each game with no arguments; "
        "give them defaults, or pass a function that makes one (main(lambda: Deep(...)))"
    ), line


def test_a_factory_that_makes_a_bot_is_taken() -> None:
    from rage_sdk.bot import bot_class_of

    factory: BotFactory = lambda: RandomBot()  # noqa: E731
    assert bot_class_of(factory) is RandomBot


class Numbered(RandomBot):
    """A bot whose name and version are numbers: it served, and every handshake failed with 'bad argument type
    for built-in operation'."""

    name = 42  # type: ignore[assignment]


class Versioned(RandomBot):
    version = 2  # type: ignore[assignment]


@pytest.mark.parametrize(
    ("bot_class", "said"),
    [
        (Numbered, "Numbered.name must be text (a str), not 42"),
        (Versioned, "Versioned.version must be text (a str), not 2"),
    ],
)
def test_a_name_or_version_that_is_no_text_is_refused(
    bot_class: type[Bot], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refusal(bot_class, capsys)
    assert line.endswith(said), line


def broken() -> Bot:
    raise ValueError("no model file")


@pytest.mark.parametrize(
    ("factory", "said"),
    [
        (lambda: None, "the function makes None, not a rage_sdk.Bot"),  # was: AttributeError ... 'display_name'
        (lambda: BidsOnly(), "BidsOnly does not override play(), which every Bot must"),  # served, faulted each play
        (broken, "making a bot failed: ValueError: no model file"),  # was a traceback
        (lambda: Numbered(), "Numbered.name must be text (a str), not 42"),
    ],
)
def test_a_function_whose_bot_cannot_play_is_refused_as_a_class_is(
    factory: BotFactory, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refusal(factory, capsys)
    assert line.startswith("main() takes a function that makes a bot that plays; "), line
    assert line.endswith(said), line


def test_a_parser_that_is_not_the_bots_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """A plain ArgumentParser refused --port ('unrecognized arguments'), or without it ended in a traceback:
    AttributeError: 'Namespace' object has no attribute 'listen'."""
    import argparse

    own_port = argparse.ArgumentParser()
    own_port.add_argument("--port", type=int, default=5000)  # and no --host nor --listen: AttributeError 'listen'
    for parser in (argparse.ArgumentParser(), own_port):
        with pytest.raises(SystemExit) as info:
            main(RandomBot, [], parser=parser)
        assert info.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err == "main(parser=...) takes rage_sdk.server.bot_parser() with the bot's own options added to it"
