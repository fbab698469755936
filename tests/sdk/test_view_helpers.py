"""The helpers a bot author gets on a SeatView: legal lists, cards seen, the trick's winner so far, voids."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

from rage_sdk.actions import PLAYS, Play
from rage_sdk.cards import WILD, Card, Colour
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
