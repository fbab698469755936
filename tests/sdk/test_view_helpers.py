"""The helpers a bot author gets on a SeatView: legal lists, cards seen, the trick's winner so far, voids."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from rage_sdk.actions import PLAYS, Play
from rage_sdk.cards import CHANGE, WILD, Card, Colour
from rage_sdk.engine_events import TrickWon
from rage_sdk.rules import ChangeMode, Ruleset
from rage_sdk.state import CHANCE, GameState
from rage_sdk.view import view_for

from tests.helpers.rules import play, started


def test_legal_lists_split_bids_and_plays() -> None:
    state = started([["r5", "g3"], ["r9", "b2"], ["y1", "y2"]], pile=["p4"])
    view = view_for(state, state.current_player())
    assert [play.card.token for play in view.legal_plays] == ["r9", "b2"]
    assert view.legal_bids == ()


def test_cards_seen_are_the_hand_the_turned_cards_and_every_card_played() -> None:
    state = started([["r5", "g3"], ["r9", "b2"], ["y1", "y2"]], pile=["p4"])
    play(state, "r9", "y1", "r5")  # seat 1, left of the dealer, leads
    view = view_for(state, 1)
    seen = {card.token for card in view.cards_seen()}
    assert seen == {"b2", "p4", "r9", "y1", "r5"}, "its hand, the turned card and the trick; not g3 nor y2"


def test_winning_so_far_follows_the_rules_of_who_wins_a_trick() -> None:
    # amigo, trump purple (p4 turned); seat 1 leads.
    state = started([["r5", "g3"], ["r9", "b2"], ["p1", "y2"]], pile=["p4"])
    assert view_for(state, 1).winning_so_far() is None
    play(state, "r9")
    assert view_for(state, 2).winning_so_far() == 1


def test_winning_so_far_sees_a_trump_played_under_a_higher_lead_card() -> None:
    state = started([["y2", "y3"], ["r9", "r1"], ["p1", "p2"]], pile=["p4"])
    assert state.current_player() == 1
    play(state, "r9", "p1")  # seat 1 leads r9, seat 2 trumps with p1
    view = view_for(state, state.current_player())
    assert view.trump is Colour.PURPLE
    assert view.winning_so_far() == 2


def test_voids_come_from_not_following_the_lead_colour() -> None:
    # Seat 1 leads red; seat 2 has no red and plays yellow: it is void in red. Seat 0 follows.
    state = started([["r5", "g3"], ["r9", "b2"], ["y1", "y2"]], pile=["p4"])
    assert state.current_player() == 1
    play(state, "r9", "y1", "r5")
    view = view_for(state, 0)
    assert view.voids()[2] == {Colour.RED}
    assert view.voids()[0] == set() and view.voids()[1] == set()


def test_a_wild_played_under_a_lead_colour_shows_a_void() -> None:
    state = started([["r5", "g3"], ["r9", "b2"], ["wild", "y2"]], pile=["p4"])
    play(state, "r9", "wild:r", "r5")
    assert view_for(state, 1).voids()[2] == {Colour.RED}


def test_card_faces_are_interned() -> None:
    assert Card.of("r15") is Card.of("r15")


def test_views_and_actions_copy_and_pickle() -> None:
    state = started([["r5", "wild"], ["r9", "change"], ["y1", "y2"]], pile=["p4", "b3"])
    view = view_for(state, state.current_player())
    odd = Play.of("wild")  # no colour: not a legal shape, so not interned
    copiers: list[Callable[[Any], Any]] = [copy.copy, copy.deepcopy, lambda value: pickle.loads(pickle.dumps(value))]
    for copied in copiers:
        assert copied(view) == view
        assert [copied(bid) for bid in view.legal_actions] == list(view.legal_actions)
        assert all(copied(play) is play for code, play in enumerate(PLAYS) if code != WILD)
        assert copied(odd) == odd


def test_a_colour_prints_its_name_and_still_compares_as_its_number() -> None:
    assert (str(Colour.RED), repr(Colour.PURPLE), f"{Colour.GREEN}", f"{Colour.BLUE:>6}") == (
        "red",
        "Colour.PURPLE",
        "green",
        "  blue",
    )
    assert f"{Colour.YELLOW:d}" == "2" and int(Colour.YELLOW) == 2
    assert Colour.ORANGE == 1 and Colour(4) is Colour.BLUE and ["r", "o"][Colour.ORANGE] == "o"
    assert eval(repr(Colour.RED), {"Colour": Colour}) is Colour.RED


def test_would_win_is_whether_the_play_takes_the_trick_as_it_stands() -> None:
    # amigo, trump purple (p4 turned); seat 1 leads r9, seat 2 is to play
    state = started([["r5", "g3"], ["r9", "b2"], ["r3", "p1"]], pile=["p4"])
    leading = view_for(state, 1)
    assert all(leading.would_win(play) for play in leading.legal_plays), "a lead wins the trick as it stands"
    play(state, "r9")
    view = view_for(state, 2)
    assert not view.would_win(Play.of("r3")), "under the lead's r9"
    assert view.would_win(Play.of("p1")), "a trump"
    assert view.would_win(Play.of("wild", colour="r")), "a wild of the lead colour is above every red card"
    assert not view.would_win(Play.of("wild", colour="g"))
    assert not view.would_win(Play.of("b2"))


@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons", "amigo1985"])
def test_would_win_agrees_with_the_engine_on_the_last_card_of_each_trick(preset: str) -> None:
    """Each legal play of the trick's last seat: would_win says whether the engine gives that seat the trick
    (but for a change revealing the pile's next colour, which the seat cannot foresee)."""
    rules = Ruleset.of(preset)
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        state = GameState(rules, players=4)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.deal_seeded(seed=seed * 100 + len(state.results))
                continue
            seat = state.current_player()
            if len(state.trick) == state.players - 1:
                view = view_for(state, seat)
                for option in view.legal_plays:
                    if option.card.id == CHANGE and rules.change_mode is ChangeMode.REVEAL:
                        continue
                    events = state.copy().apply(option)
                    won = next(event.winner for event in events if isinstance(event, TrickWon))
                    assert view.would_win(option) == (won == seat), (option, state.trick)
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_would_win_given_a_card_is_refused_saying_it_takes_a_play() -> None:
    """``view.would_win(view.hand[0])`` was ``AttributeError: 'Card' object has no attribute 'card'``."""
    state = started([["r5", "g3"], ["r7", "g9"]])
    view = view_for(state, 0)
    with pytest.raises(TypeError) as info:
        view.would_win(view.hand[0])  # type: ignore[arg-type]
    assert str(info.value) == "would_win takes a Play, one of view.legal_plays, not Card.of('r5')"
