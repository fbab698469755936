"""One in-process table: bots asked their decisions on the engine, no referee."""

from __future__ import annotations

import pytest
from rage_sdk.actions import Bid, Play
from rage_sdk.bot import Bot
from rage_sdk.cards import Card
from rage_sdk.errors import IllegalActionError, InvalidActionError
from rage_sdk.events import BidMade, BidsShown, Event, GameInfo, GameOver, RoundScored, RoundStarted
from rage_sdk.examples.greedy_bot import GreedyBot
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.rules import Ruleset
from rage_sdk.table import play_table
from rage_sdk.view import SeatView


class Noting(RandomBot):
    """A random bot that keeps what it was told and the views it was asked with."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[GameInfo] = []
        self.asked: list[SeatView] = []

    def on_game_start(self, game: GameInfo) -> None:
        super().on_game_start(game)
        self.told.append(game)

    def bid(self, view: SeatView) -> int:
        self.asked.append(view)
        return super().bid(view)


def test_a_table_plays_a_whole_game_asking_each_seat_its_own_decisions() -> None:
    ruleset = Ruleset.of("amigo", rounds=[3, 2])
    bots: list[Bot] = [Noting(), Noting(), Noting()]
    state = play_table(ruleset, bots, seed=4, game=7, names=["a", "b", "c"], decision_ms=500, bank_ms=20)
    assert state.is_terminal()
    for seat, bot in enumerate(bots):
        assert isinstance(bot, Noting)
        assert bot.told == [GameInfo(7, seat, ("a", "b", "c"), ruleset, 1, 500, 20)]
        assert [view.seat for view in bot.asked] == [seat, seat]  # one bid a round


def test_a_table_is_deterministic_for_a_seed_and_names_seats_by_default() -> None:
    ruleset = Ruleset.of("amigo", rounds=[4, 3])
    first = play_table(ruleset, [GreedyBot(), RandomBot(), GreedyBot()], seed=11, game=2)
    again = play_table(ruleset, [GreedyBot(), RandomBot(), GreedyBot()], seed=11, game=2)
    assert first.totals == again.totals
    noting = Noting()
    play_table(ruleset, [noting, RandomBot(), RandomBot()], seed=1)
    assert noting.told[0].players == ("seat-0", "seat-1", "seat-2")


class Index:
    """A whole number of another integer type: ``operator.index`` reads it."""

    def __index__(self) -> int:
        return 0


class Answering(RandomBot):
    """A random bot whose ``bid()`` returns ``answer`` as it is, or whose ``play()`` does."""

    name = "answering"

    def __init__(self, answer: object, playing: bool = False) -> None:
        super().__init__()
        self.answer, self.playing = answer, playing

    def bid(self, view: SeatView) -> int:
        return super().bid(view) if self.playing else self.answer  # type: ignore[return-value]

    def play(self, view: SeatView) -> Play:
        return self.answer if self.playing else super().play(view)  # type: ignore[return-value]


def table_error(answer: object, playing: bool = False) -> str:
    """The one line :func:`play_table` raises for seat 1 answering ``answer``."""
    bots: list[Bot] = [RandomBot(), Answering(answer, playing), RandomBot()]
    with pytest.raises(InvalidActionError) as raised:
        play_table(Ruleset.of("amigo", rounds=[3]), bots, seed=2)
    return str(raised.value)


@pytest.mark.parametrize("answer", [True, 2.0, "1", None])
def test_a_bid_that_is_no_whole_number_is_refused_naming_the_seat_and_the_answer(answer: object) -> None:
    expected = f"round 1: seat 1 (answering): bid() returned {answer!r}, not a whole number of tricks"
    assert table_error(answer) == expected


@pytest.mark.parametrize("answer", [-1, Bid(-2)])
def test_a_negative_bid_is_refused_as_no_number_of_tricks(answer: object) -> None:
    expected = f"round 1: seat 1 (answering): bid() returned {answer!r}: a bid is a number of tricks, 0 or more"
    assert table_error(answer) == expected


def test_a_play_that_is_no_play_is_refused_naming_the_seat_and_the_answer() -> None:
    assert table_error("r1", playing=True) == "round 1, trick 1: seat 1 (answering): play() returned 'r1', not a Play"
    expected = "play() returned Play.of('wild'): no play in any ruleset (check its declaration)"
    assert table_error(Play.of("wild"), playing=True).endswith(expected)


@pytest.mark.parametrize("answer", [Bid.of(0), Index(), 0])
def test_a_bid_of_any_integer_type_or_a_bid_is_taken(answer: object) -> None:
    state = play_table(Ruleset.of("amigo", rounds=[3]), [RandomBot(), Answering(answer), RandomBot()], seed=2)
    assert state.results[0].bids[1] == 0


class Listening(RandomBot):
    """A random bot that keeps the events it hears, the hands it is asked with, and the game's end."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[Event] = []
        self.hands: list[tuple[Card, ...]] = []
        self.over: list[GameOver] = []

    def on_event(self, event: Event) -> None:
        self.heard.append(event)

    def bid(self, view: SeatView) -> int:
        self.hands.append(view.hand)
        return super().bid(view)

    def on_game_end(self, over: GameOver) -> None:
        self.over.append(over)


def test_a_table_tells_each_bot_the_events_its_seat_may_see_and_the_end() -> None:
    ruleset = Ruleset.of("amigo", rounds=[3, 2], bidding="hidden")
    bots = [Listening(), Listening(), Listening()]
    state = play_table(ruleset, bots, seed=5)
    outcome = state.outcome()
    for seat, bot in enumerate(bots):
        kinds = [type(event).__name__ for event in bot.heard]
        assert kinds[:2] == ["RoundStarted", "BidMade"]
        dealt = [event for event in bot.heard if isinstance(event, RoundStarted)]
        assert [event.hand for event in dealt] == bot.hands  # its own hand, as it was asked with
        made = [event for event in bot.heard if isinstance(event, BidMade)]
        assert [event.seat for event in made] == [seat, seat]  # hidden: only its own bid, as made
        shown = [event.bids for event in bot.heard if isinstance(event, BidsShown)]
        assert shown == [result.bids for result in state.results]
        assert kinds.count("CardPlayed") == 3 * 3 + 3 * 2 and kinds.count("TrickWon") == 3 + 2
        scored = [event for event in bot.heard if isinstance(event, RoundScored)]
        assert [event.totals for event in scored][-1] == outcome.totals
        assert bot.over == [GameOver(outcome.totals, outcome.places, ())]


def test_a_bad_answer_names_the_seat_by_the_name_the_table_gave_it() -> None:
    bots: list[Bot] = [RandomBot(), Answering(-1), RandomBot()]
    with pytest.raises(InvalidActionError) as raised:
        play_table(Ruleset.of("amigo", rounds=[3]), bots, seed=2, names=["ann", "bob", "cat"])
    assert str(raised.value) == "round 1: seat 1 (bob): bid() returned -1: a bid is a number of tricks, 0 or more"


def test_a_bot_class_given_for_a_bot_is_refused_naming_the_seat() -> None:
    """``play_table(ruleset, [MyBot, ...])`` (the class, as ``main()`` takes it) was ``TypeError: Bot.on_game_start()
    missing 1 required positional argument: 'game'``."""
    with pytest.raises(TypeError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot(), GreedyBot, RandomBot()], seed=1)  # type: ignore[list-item]
    assert str(info.value) == "seat 1: GreedyBot is a class, and play_table takes bots: GreedyBot()"
    with pytest.raises(TypeError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot(), RandomBot(), "greedy"], seed=1)  # type: ignore[list-item]
    assert str(info.value) == "seat 2: 'greedy' is no rage_sdk.Bot"


def test_names_that_do_not_name_every_seat_are_refused() -> None:
    """Two names for three bots were taken: the bots were told a table of two."""
    with pytest.raises(ValueError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot(), RandomBot(), RandomBot()], seed=1, names=["a", "b"])
    assert str(info.value) == "names: 2 names for 3 bots"


def test_an_illegal_answer_names_the_seat_by_its_bot_as_a_bad_one_does() -> None:
    """A bid of 99 said 'round 1: seat 1 bid 99, ...' where a bid of 2.0 said 'seat 1 (answering): ...'."""
    bots: list[Bot] = [RandomBot(), Answering(99), RandomBot()]
    with pytest.raises(IllegalActionError) as raised:
        play_table(Ruleset.of("amigo", rounds=[3]), bots, seed=2, names=["ann", "bob", "cat"])
    assert str(raised.value) == "round 1: seat 1 (bob) bid 99, but a bid must be 0..3 (cards in hand)"


def test_one_bot_in_two_seats_is_refused() -> None:
    """``[RandomBot()] * 3`` was taken: one object held three seats, and saw every hand."""
    with pytest.raises(ValueError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot()] * 3, seed=1)
    assert str(info.value) == (
        "seats 0 and 1 hold one RandomBot, which would see both hands: give each seat its own "
        "([RandomBot() for _ in range(n)], not [RandomBot()] * n)"
    )


def test_names_given_as_one_text_are_refused() -> None:
    """``names="abc"`` was taken as the names 'a', 'b' and 'c'."""
    with pytest.raises(TypeError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot(), RandomBot(), RandomBot()], seed=1, names="abc")
    assert str(info.value) == "names is a list of the seats' names, not the text 'abc'"


def test_a_ruleset_given_by_its_name_is_refused_saying_how_to_make_one() -> None:
    """``GameState("amigo", 4)`` was ``AttributeError: 'str' object has no attribute 'check_players'``."""
    from rage_sdk.simulate import random_game
    from rage_sdk.state import GameState

    expected = "a game's ruleset is a rage_sdk.Ruleset, not 'amigo': Ruleset.of('amigo')"
    with pytest.raises(TypeError) as info:
        GameState("amigo", 4)  # type: ignore[arg-type]
    assert str(info.value) == expected
    with pytest.raises(TypeError) as info:
        play_table("amigo", [RandomBot(), RandomBot(), RandomBot()], seed=1)  # type: ignore[arg-type]
    assert str(info.value) == expected
    with pytest.raises(TypeError) as info:
        random_game({"preset": "amigo"}, 4, seed=1)  # type: ignore[arg-type]
    assert str(info.value) == "a game's ruleset is a rage_sdk.Ruleset, not {'preset': 'amigo'}"


def test_bots_given_as_a_generator_are_seated() -> None:
    """A generator of bots ended in a bare ``StopIteration: ''``: it was read once to check them."""
    state = play_table(Ruleset.of("amigo"), (RandomBot() for _ in range(3)), seed=1)
    assert state.is_terminal() and state.players == 3


@pytest.mark.parametrize(("option", "value"), [("decision_ms", -5), ("bank_ms", -1), ("decision_ms", float("nan"))])
def test_a_negative_time_control_is_refused_naming_it(option: str, value: float) -> None:
    """``decision_ms=-5`` was taken, and each bot told a deadline already past."""
    with pytest.raises(ValueError) as info:
        play_table(Ruleset.of("amigo"), [RandomBot(), RandomBot(), RandomBot()], seed=1, **{option: value})  # type: ignore[arg-type]
    assert str(info.value) == f"{option} is a time in milliseconds, 0 or more, not {value!r}"
