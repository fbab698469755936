"""rules.md, A game: seats, rounds and dealer (1), Deal (2), Reveal (3) and who leads (5)."""

from __future__ import annotations

import pytest
from rage_sdk.actions import Play
from rage_sdk.errors import IllegalActionError, InvalidDealError
from rage_sdk.rules import Ruleset
from rage_sdk.state import CHANCE, NO_TRUMP, GameState

from tests.helpers.rules import assert_illegal, deal, game, ids, pile_top, play, started, tokens, trump, turned


def _play_out_round(state: GameState) -> None:
    while state.current_player() != CHANCE and not state.is_terminal():
        state.apply(state.legal_actions()[0])


def test_one_round_per_entry_of_rounds() -> None:
    """rules.md, A game 1: 'A game is one round per entry of rounds.'"""
    state = GameState(Ruleset.of("amigo", rounds=[3, 1, 2]), players=3)
    dealt = []
    while not state.is_terminal():
        assert state.current_player() == CHANCE
        state.deal_seeded(seed=11)
        dealt.append([len(hand) for hand in state.hands])
        _play_out_round(state)
    assert dealt == [[3, 3, 3], [1, 1, 1], [2, 2, 2]]
    assert [result.cards for result in state.results] == [3, 1, 2]


@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons", "amigo1985"])
def test_preset_game_deals_ten_cards_down_to_one(preset: str) -> None:
    """rules.md, Presets: '`rounds` (cards dealt) | 10,9,...,1 | same | same | same'."""
    state = GameState(Ruleset.of(preset), players=3)
    dealt = []
    while not state.is_terminal():
        state.deal_seeded(seed=2)
        dealt.append(len(state.hands[0]))
        _play_out_round(state)
    assert dealt == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_dealer_moves_one_seat_clockwise_each_round() -> None:
    """rules.md, A game 1: 'The dealer moves one seat clockwise each round.'"""
    state = GameState(Ruleset.of("amigo", rounds=[1] * 5), players=4, dealer=2)
    dealers = []
    while not state.is_terminal():
        dealers.append(state.dealer)
        state.deal_seeded(seed=3)
        _play_out_round(state)
    assert dealers == [2, 3, 0, 1, 2]
    assert [result.dealer for result in state.results] == [2, 3, 0, 1, 2]


def test_deal_gives_each_seat_the_rounds_cards() -> None:
    """rules.md, A game 2: 'Each seat gets the round's number of cards.'"""
    state = game([["r1", "r2", "r3"], ["o1", "o2", "o3"], ["y1", "y2", "y3"]], ["g0"])
    assert [tokens(hand) for hand in state.hands] == [["r1", "r2", "r3"], ["o1", "o2", "o3"], ["y1", "y2", "y3"]]
    short = GameState(Ruleset.of("amigo", rounds=[3]), players=3)
    with pytest.raises(InvalidDealError, match="seat 1 holds 2 cards, but the round deals 3"):
        deal(short, [["r1", "r2", "r3"], ["o1", "o2"], ["y1", "y2", "y3"]])


def test_rest_of_deck_is_the_pile_in_order() -> None:
    """rules.md, A game 2: 'The rest is the pile, face down, in order.'"""
    state = game([["r1", "r2"], ["o1", "o2"]], ["g0", "b5", "plus5", "y9"])
    assert state.pile_size + len(state.turned) == 112 - 4
    assert pile_top(state, 3) == ["b5", "plus5", "y9"]
    bad = GameState(Ruleset.of("amigo", rounds=[2]), players=2)
    with pytest.raises(InvalidDealError, match="not the amigo deck"):
        bad.deal([ids(["r1", "r2"]), ids(["o1", "o2"])], ids(["g0"]))


def test_reveal_turns_action_cards_until_a_coloured_card() -> None:
    """rules.md, A game 3: 'turn cards from the top of the pile face up one at a time; action cards turned this way
    are out of play for the round; the first coloured card turned sets the trump colour.'"""
    state = game([["r1", "r2"], ["o1", "o2"]], ["notrump", "plus5", "wild", "g7", "r0"])
    assert turned(state) == ["notrump", "plus5", "wild", "g7"]
    assert trump(state) == "g"
    assert pile_top(state, 1) == ["r0"]
    assert state.results == [] and state.first_trump == 3


def test_reveal_with_no_coloured_card_in_pile_turns_it_all() -> None:
    """rules.md, A game 3: 'If the pile holds no coloured card, all of it is turned and there is no trump
    (decided).'"""
    pile = ["notrump"] * 4 + ["change"] * 4 + ["plus5", "plus5", "minus5", "minus5"]
    state = game([[]] * 10, pile, fill_hands=True, rounds=[10])
    assert state.trump == NO_TRUMP
    assert turned(state) == pile
    assert state.pile_size == 0


def test_turned_cards_leave_the_pile_and_later_reveals_continue_from_the_new_top() -> None:
    """rules.md, A game 3: 'Every turned card is public and leaves the pile; later reveals continue from the new
    top.'"""
    state = started([["o1"], ["change"], ["o2"]], ["r0", "plus5", "b3", "g4"])
    assert turned(state) == ["r0"] and pile_top(state, 3) == ["plus5", "b3", "g4"]
    play(state, "change")
    assert turned(state) == ["r0", "plus5", "b3"]
    assert trump(state) == "b"
    assert pile_top(state, 1) == ["g4"]


def test_left_of_dealer_leads_the_first_trick() -> None:
    """rules.md, A game 5: 'Left of the dealer leads the first trick'."""
    for dealer, leader in ((0, 1), (1, 2), (2, 0)):
        state = started([["r1"], ["r2"], ["r3"]], ["g0"], dealer=dealer)
        assert state.current_player() == leader


def test_trick_winner_leads_the_next_trick() -> None:
    """rules.md, A game 5: 'the winner of a trick leads the next.'"""
    state = started([["r9", "o1"], ["r1", "o2"], ["r5", "o3"]], ["g0"])
    play(state, "r1", "r5", "r9")
    assert state.tricks[0].winner == 0
    assert state.current_player() == 0
    assert state.trick_number == 2


def test_each_seat_plays_once_clockwise_from_the_leader() -> None:
    """rules.md, A game 5: 'Each seat plays one card, clockwise from the leader.'"""
    state = started([["r1", "o1"], ["r2", "o2"], ["r3", "o3"], ["r15", "o4"]], ["g0"])
    order = []
    for _ in range(4):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [1, 2, 3, 0]
    assert state.tricks[0].winner == 3 and [seat for seat, _ in state.tricks[0].plays] == [1, 2, 3, 0]
    order = []
    for _ in range(4):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [3, 0, 1, 2]


def test_playing_out_of_turn_is_refused() -> None:
    """rules.md, A game 5: 'Each seat plays one card, clockwise from the leader.' (no other seat may play)"""
    state = started([["r1"], ["r2"], ["r3"]], ["g0"])
    with pytest.raises(IllegalActionError, match=r"seat 0 played r3 out of turn \(it is seat 1's turn\)"):
        state.apply(Play.of("r3"), seat=0)
    assert_illegal(state, "r3", "not in its hand")
