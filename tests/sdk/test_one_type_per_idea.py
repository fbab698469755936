"""A bot meets one type per idea: a colour is a ``Colour`` (``None`` for no trump), a card a ``Card``,
in the view, its finished tricks and rounds, and a play's declaration; the old names still work."""

from __future__ import annotations

import random
import warnings

import pytest
from rage_sdk.actions import Play
from rage_sdk.cards import CARDS, Card, Colour, colour_code, colour_of
from rage_sdk.history import GameHistory, Snapshot
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import Ruleset
from rage_sdk.state import CHANCE, NO_TRUMP, GameState, RoundResult, Trick
from rage_sdk.view import view_for
from rage_sdk.visibility import events_for
from rage_sdk.wire import event_bytes

RULESETS = ("amigo", "fundex")


def _colour_or_none(value: object) -> bool:
    return value is None or type(value) is Colour


def _check_trick(trick: Trick) -> None:
    assert _colour_or_none(trick.trump), f"trick trump {trick.trump!r}"
    assert all(type(card) is Card for card in trick.revealed), f"revealed {trick.revealed!r}"


def _check_result(result: RoundResult) -> None:
    assert _colour_or_none(result.trump), f"round trump {result.trump!r}"


class Reader:
    """A view waiting for its history: keeps what it is given."""

    def __init__(self) -> None:
        self.history: Snapshot | None = None

    def give_history(self, history: Snapshot) -> None:
        self.history = history


def _served(history: GameHistory) -> Snapshot:
    """The history a view made now would show."""
    reader = Reader()
    history.read(history.wait(reader))
    assert reader.history is not None
    return reader.history


def _game(ruleset: str, seed: int) -> tuple[GameState, GameHistory, list[Trick]]:
    """A random game of ``ruleset``, seat 0's history followed from the events it was sent, and every trick."""
    rng, state, history = random.Random(seed), GameState(Ruleset.of(ruleset), players=4), GameHistory()
    tricks: list[Trick] = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            events = state.deal_seeded(seed=rng.getrandbits(32))
        else:
            events = state.apply(rng.choice(state.legal_actions()))
        message = pb.GameMessage(events=[pb.Event.FromString(event_bytes(e)) for e in events_for(events, 0)])
        history.add(message)
        if state.tricks and state.tricks[-1] not in tricks:
            tricks.append(state.tricks[-1])
            _check_trick(tricks[-1])
        view = view_for(state, 0)
        assert _colour_or_none(view.trump) and all(type(card) is Card for card in view.turned)
    return state, history, tricks


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tricks_and_rounds_hold_colours_and_cards_as_the_view_does(ruleset: str) -> None:
    seen_no_trump = seen_revealed = False
    for seed in range(6):
        state, history, tricks = _game(ruleset, seed)
        for result in state.results:
            _check_result(result)
        seen_no_trump |= any(trick.trump is None for trick in tricks)
        seen_revealed |= any(trick.revealed for trick in tricks)
        served_results, _ = _served(history)
        assert served_results == tuple(state.results), "the served history is the engine's, field by field"
        for result in served_results:
            _check_result(result)
    assert seen_no_trump, "some trick ended without a trump"
    if ruleset == "amigo":  # notrump of scope trick turns cards up after its trick
        assert seen_revealed


def test_a_served_trick_has_the_engines_colours_and_cards() -> None:
    state, history = GameState(Ruleset.of("amigo"), players=4), GameHistory()
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            events = state.deal_seeded(seed=rng.getrandbits(32))
        else:
            events = state.apply(rng.choice(state.legal_actions()))
        history.add(pb.GameMessage(events=[pb.Event.FromString(event_bytes(e)) for e in events_for(events, 0)]))
        assert _served(history)[1] == tuple(state.tricks)
        checked += len(state.tricks)
    assert checked


def test_colour_codes_round_trip() -> None:
    assert colour_of(NO_TRUMP) is None and colour_code(None) == NO_TRUMP
    for colour in Colour:
        assert colour_of(colour_code(colour)) is colour


def test_a_colour_prints_as_its_name() -> None:
    assert str(Colour.GREEN) == "green" and f"{Colour.GREEN}" == "green" and repr(Colour.GREEN) == "Colour.GREEN"
    assert CARDS[0].colour == 0 and f"{Colour.BLUE:d}" == "4"


def test_play_of_takes_a_colour_as_a_colour_or_its_letter() -> None:
    """A bot holds colours as ``Colour`` (``view.trump``, ``play.colour``): ``Play.of("wild", colour=Colour.BLUE)``
    was ``TypeError: must be str, not Colour`` (compiled: ``str or None object expected``)."""
    assert Play.of("wild", colour=Colour.BLUE) is Play.of("wild", colour="b")
    assert Play.of("change", trump=Colour.RED) == Play.of("change", trump="r")
    with pytest.raises(ValueError, match=r"unknown colour 'x' \(expected one of r o y g b p\)"):
        Play.of("wild", colour="x")


def test_a_plays_colour_and_its_old_name() -> None:
    wild = Play.of("wild", colour="b")
    assert wild.colour is Colour.BLUE and type(wild.colour) is Colour
    with pytest.warns(DeprecationWarning, match="Play.color is deprecated: use Play.colour"):
        assert wild.color is Colour.BLUE
    with pytest.warns(DeprecationWarning, match=r"Play.of\(color=...\)"):
        assert Play.of("wild", color="b") is wild
    with pytest.warns(DeprecationWarning, match=r"Play\(color=...\)"):
        assert Play(Card.of("wild"), color=Colour.BLUE) == wild
    assert repr(wild) == "Play.of('wild', colour='b')" and eval(repr(wild)) is wild
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert wild.to_json() == {"card": "wild", "color": "b"}, "the record format keeps its key"
