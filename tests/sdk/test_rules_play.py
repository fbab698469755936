"""rules.md, Lead colour and legal plays; Action cards, when played.

Three seats unless said otherwise: the dealer is seat 0, so seat 1 leads and plays go 1, 2, 0.
"""

from __future__ import annotations

import json

import pytest
from rage_sdk.actions import Play
from rage_sdk.record import record_json
from rage_sdk.replay import verify
from rage_sdk.state import NO_TRUMP

from tests.helpers.rules import (
    WILDS,
    assert_illegal,
    colour_letter,
    legal,
    pile_top,
    play,
    started,
    trump,
    turned,
)

# ---------------------------------------------------------------- lead colour and legal plays


def test_lead_colour_is_the_first_coloured_card() -> None:
    """rules.md, Lead colour: 'The lead colour is the colour of the first coloured card in the trick'."""
    state = started([["g2", "r3"], ["plus5", "b1"], ["g4", "b2"]], ["y0"])
    play(state, "plus5", "g4")
    assert legal(state) == ["g2"]
    assert_illegal(state, "r3", "while holding g2 of lead colour green (must follow the lead colour)")


def test_lead_colour_is_the_declared_colour_of_the_first_wild() -> None:
    """rules.md, Lead colour: '... or the declared colour of the first wild'."""
    state = started([["o2", "r3"], ["wild", "b1"], ["g4", "r5"]], ["y0"])
    play(state, "wild:g")
    assert legal(state) == ["g4"]
    assert_illegal(state, "r5", "while holding g4 of lead colour green")


def test_lead_colour_is_set_by_whichever_is_played_first() -> None:
    """rules.md, Lead colour: '..., whichever is played first.'"""
    state = started([["g2", "r3"], ["r5", "b1"], ["wild", "b2"]], ["y0"])
    play(state, "r5", "wild:g")
    assert legal(state) == ["r3"]
    assert_illegal(state, "g2", "while holding r3 of lead colour red")
    play(state, "r3")
    assert state.tricks[0].winner == 1


def test_no_lead_colour_yet_any_card() -> None:
    """rules.md, Lead colour: 'With no lead colour yet (leading, or only non-wild action cards played so far): any
    card.'"""
    state = started(
        [["o1", "o2", "wild", "minus5"], ["notrump", "y1", "y2", "plus5"], ["r1", "g2", "wild", "change"]],
        ["b0", "b3"],
    )
    assert legal(state) == ["y1", "y2", "notrump", "plus5"]
    play(state, "notrump")
    assert legal(state) == ["r1", "g2", *WILDS, "change"]
    play(state, "change")
    assert legal(state) == ["o1", "o2", *WILDS, "minus5"]
    play(state, "o2")
    assert state.tricks[0].winner == 0


def test_holding_the_lead_colour_must_play_it() -> None:
    """rules.md, Lead colour: 'Otherwise a player holding a coloured card of the lead colour must play one.'"""
    state = started([["o1", "o2", "o3", "o4"], ["r5", "g1", "g2", "g3"], ["r3", "b9", "notrump", "wild"]], ["y0"])
    play(state, "r5")
    assert legal(state) == ["r3"]
    for offending in ("b9", "notrump", "wild:b", "wild:r"):
        assert_illegal(state, offending, "while holding r3 of lead colour red (must follow the lead colour)")
    play(state, "r3")


def test_action_cards_anytime_allows_an_action_card_instead() -> None:
    """rules.md, Lead colour: 'Only with action_cards_anytime may they play an action card instead.'"""
    hands = [["o1", "o2", "o3", "o4"], ["r5", "g1", "g2", "g3"], ["r3", "b9", "notrump", "wild"]]
    state = started(hands, ["y0"], action_cards_anytime=True)
    play(state, "r5")
    assert legal(state) == ["r3", *WILDS, "notrump"]
    assert_illegal(state, "b9", "must follow the lead colour")
    play(state, "notrump")
    assert legal(state) == ["o1", "o2", "o3", "o4"]


def test_a_wild_in_hand_is_not_a_card_of_the_lead_colour() -> None:
    """rules.md, Lead colour: 'A wild in hand is not a card of the lead colour.'"""
    state = started([["o1", "o2", "o3", "o4"], ["r5", "g1", "g2", "g3"], ["wild", "b9", "g4", "plus5"]], ["y0"])
    play(state, "r5")
    assert legal(state) == ["g4", "b9", *WILDS, "plus5"]
    play(state, "b9")


def test_without_the_lead_colour_any_card() -> None:
    """rules.md, Lead colour: 'A player holding no coloured card of the lead colour may play any card.'"""
    state = started([["o1", "o2", "o3", "o4"], ["r5", "g1", "g2", "g3"], ["y9", "b9", "change", "minus5"]], ["y0"])
    play(state, "r5")
    assert legal(state) == ["y9", "b9", "change", "minus5"]
    play(state, "minus5")
    assert state.current_player() == 0


# ---------------------------------------------------------------- action cards, when played


def test_wild_declares_a_colour_and_the_trump_colour_is_allowed() -> None:
    """rules.md, Action cards: 'wild: the player declares a colour (the trump colour is allowed)'."""
    state = started([["o1", "o2"], ["wild", "g1"], ["r3", "b1"]], ["r0"])
    assert trump(state) == "r"
    assert legal(state) == ["g1", *WILDS]
    assert_illegal(state, "wild", "played wild without declaring a colour")
    assert_illegal(state, Play.of("wild", colour="r", value=5), "declaring a value, which this ruleset does not allow")
    assert_illegal(state, Play.of("wild", trump="r"), "wild naming a trump")
    play(state, "wild:r")
    assert legal(state) == ["r3"]


def test_wild_declares_value_with_the_colour() -> None:
    """rules.md, Action cards: 'with wild_declares_value also a value 0-15.'"""
    state = started([["o1", "o2"], ["wild", "g1"], ["r3", "b1"]], ["r0"], preset="waddingtons")
    wilds = [f"wild:{letter}{value}" for letter in "roygbp" for value in range(16)]
    assert legal(state) == ["g1", *wilds]
    assert_illegal(state, "wild:b", "without declaring a value 0-15")
    assert_illegal(state, Play.of("wild", colour="b", value=16), "declaring value 16 (must be 0-15)")
    assert_illegal(state, Play.of("wild", colour="b", value=-1), "declaring value -1 (must be 0-15)")
    play(state, "wild:b7")
    assert legal(state) == ["b1"]


def test_notrump_scope_trick_cancels_at_once_and_reveals_after_the_trick() -> None:
    """rules.md, Action cards: 'notrump, scope trick: the trump is cancelled at once. After the trick, if the trump
    is still cancelled, a new trump is revealed (Reveal).'"""
    state = started([["r9", "o1"], ["y5", "o2"], ["notrump", "o3"]], ["r0", "plus5", "b4", "g1"])
    assert trump(state) == "r"
    play(state, "y5", "notrump")
    assert state.trump == NO_TRUMP and turned(state) == ["r0"]
    play(state, "r9")
    assert state.tricks[0].winner == 1 and state.tricks[0].trump is None
    assert turned(state) == ["r0", "plus5", "b4"] and trump(state) == "b"
    assert pile_top(state, 1) == ["g1"]


def test_notrump_scope_round_cancels_for_the_rest_of_the_round_until_a_change() -> None:
    """rules.md, Action cards: 'Scope round: the trump is cancelled for this trick and the rest of the round, until a
    change sets one.'"""
    hands = [["r9", "r10", "o2"], ["y5", "g2", "change"], ["notrump", "r3", "o1"]]
    state = started(hands, ["r0", "b4"], preset="fundex")
    play(state, "y5", "notrump", "r9")
    assert state.trump == NO_TRUMP and turned(state) == ["r0"] and pile_top(state, 1) == ["b4"]
    play(state, "g2", "r3", "r10")
    assert state.trump == NO_TRUMP and state.tricks[1].trump is None
    play(state, "change:o", "o1", "o2")
    assert [trick.winner for trick in state.tricks] == [1, 1, 0]
    assert trump(state) == "o"


def test_change_reveal_sets_trump_at_once_for_this_trick_and_the_rest_of_the_round() -> None:
    """rules.md, Action cards: 'change, mode reveal: reveal at once; the new colour is trump for this trick and the
    rest of the round'."""
    state = started([["change", "b2"], ["g5", "g6"], ["r9", "y1"]], ["r0", "y3", "b8"])
    play(state, "g5", "r9")
    assert legal(state) == ["b2", "change"]
    assert_illegal(state, "change:y", "in reveal mode it names no colour")
    play(state, "change")
    assert trump(state) == "y" and turned(state) == ["r0", "y3"]
    assert state.tricks[0].winner == 1 and colour_letter(state.tricks[0].trump) == "y"
    play(state, "g6", "y1", "b2")
    assert state.tricks[1].winner == 2 and trump(state) == "y"


def test_change_reveal_may_give_the_old_colour() -> None:
    """rules.md, Action cards: 'the new colour is trump ... (it may equal the old one).'"""
    state = started([["o1"], ["change"], ["o2"]], ["r0", "plus5", "r5", "b1"])
    play(state, "change")
    assert turned(state) == ["r0", "plus5", "r5"] and trump(state) == "r"


def test_change_reveal_on_an_empty_pile_leaves_no_trump() -> None:
    """rules.md, Action cards: 'An empty pile leaves no trump (decided).'"""
    state = started([[]] + [["change"]] * 2 + [[]] * 7, ["r0", "r1"], fill_hands=True, rounds=[11])
    play(state, "change")
    assert trump(state) == "r" and state.pile_size == 0
    play(state, "change")
    assert state.trump == NO_TRUMP
    while state.trick_number == 1:
        state.apply(state.legal_actions()[0])
    assert state.tricks[0].trump is None


def test_change_choose_names_a_colour_in_the_pile_other_than_the_trump() -> None:
    """rules.md, Action cards: 'Mode choose: the player names a colour other than the current trump ... of which the
    pile holds a coloured card; the first such card from the top leaves the pile and sets the trump for this trick
    and the rest of the round.'"""
    hands = [
        ["p11", "p12", "p13", "p14", "p15", "g15"],
        ["change", "p0", "p1", "p2", "p3", "p4"],
        ["p5", "p6", "p7", "p8", "p9", "p10"],
    ]
    state = started(hands, ["r0", "b4", "g1", "b7"], preset="fundex")
    assert legal(state) == ["p0", "p1", "p2", "p3", "p4", "change:o", "change:y", "change:g", "change:b"]
    assert_illegal(state, "change:r", "naming the current trump red")
    assert_illegal(state, "change:p", "the pile holds no purple card")
    assert_illegal(state, "change", "without naming a colour (it may name orange, yellow, green, blue)")
    play(state, "change:b")
    assert trump(state) == "b" and turned(state) == ["r0", "b4"] and pile_top(state, 2) == ["g1", "b7"]
    play(state, "p5", "p11")
    assert colour_letter(state.tricks[0].trump) == "b" and state.tricks[0].winner == 0
    assert trump(state) == "b"


def test_change_choose_any_colour_when_no_trump_even_the_cancelled_one() -> None:
    """rules.md, Action cards: '(any colour when there is none, also right after a notrump, so the cancelled colour
    qualifies then)'."""
    state = started([["o1"], ["notrump"], ["change"]], ["r0", "g3"], preset="fundex")
    play(state, "notrump")
    assert legal(state) == [f"change:{letter}" for letter in "roygbp"]
    play(state, "change:r")
    assert trump(state) == "r" and turned(state) == ["r0", "r1"] and pile_top(state, 1) == ["g3"]


@pytest.mark.parametrize("scope", ["trick", "round"])
def test_change_choose_right_after_a_notrump_may_name_the_cancelled_colour(scope: str) -> None:
    """rules.md, Action cards: 'Mode choose: the player names a colour other than the current trump (any colour when
    there is none, also right after a notrump, so the cancelled colour qualifies then)', under either notrump scope;
    the record checker takes it too."""
    hands = [["o1", "o3"], ["notrump", "o4"], ["change", "o5"]]
    state = started(hands, ["r0", "g3", "r7"], preset="amigo", change_mode="choose", notrump_scope=scope)
    play(state, "notrump")
    assert state.trump == NO_TRUMP
    assert legal(state) == ["o5", *(f"change:{letter}" for letter in "roygbp")]
    play(state, "change:r", "o1")
    assert trump(state) == "r" and turned(state) == ["r0", "r7"] and pile_top(state, 1) == ["g3"]
    assert colour_letter(state.tricks[0].trump) == "r" and state.tricks[0].winner == 0
    play(state, "o3", "o4", "o5")
    verdict = verify(json.dumps(record_json(state, ["A", "B", "C"])))
    assert verdict.exit_code == 0, verdict.message
    assert [result.trick_winners for result in verdict.rounds] == [(0, 2)]


@pytest.mark.parametrize(("scope", "after", "named"), [("trick", "g", "roybp"), ("round", None, "roygbp")])
def test_change_choose_in_a_later_trick_names_any_colour_but_the_trump_then(
    scope: str, after: str | None, named: str
) -> None:
    """rules.md, Action cards: 'a colour other than the current trump (any colour when there is none ...)': a trick
    after a notrump of scope trick has the colour revealed after it as trump, one of scope round has none, and the
    cancelled colour qualifies in both."""
    hands = [["o1", "o3"], ["notrump", "o4"], ["o5", "change"]]
    state = started(hands, ["r0", "g3", "r7"], preset="amigo", change_mode="choose", notrump_scope=scope)
    play(state, "notrump", "o5", "o1")
    assert state.tricks[0].winner == 2 and trump(state) == after
    assert legal(state) == [f"change:{letter}" for letter in named]
    play(state, "change:r", "o3", "o4")
    assert trump(state) == "r" and turned(state)[-1] == "r7"
    assert state.tricks[1].winner == 1


def test_change_choose_without_effect_after_a_notrump_leaves_the_reveal_due() -> None:
    """rules.md, Action cards: 'A change that sets a trump after a notrump of scope trick ends the cancellation ...
    One that has no effect does not.' (a choose-mode change of which no colour qualifies)"""
    pile = ["r0", *["plus5"] * 3, *["minus5"] * 3, "wild", "wild", *["notrump"] * 3]
    hands = [[], ["notrump"], ["change"]] + [[]] * 7
    state = started(hands, pile, fill_hands=True, rounds=[10], change_mode="choose")
    assert trump(state) == "r" and state.pile_size == 11
    play(state, "notrump")
    assert [text for text in legal(state) if text.startswith("change")] == ["change"]
    play(state, "change")
    while state.trick_number == 1:
        state.apply(state.legal_actions()[0])
    assert turned(state) == pile and state.pile_size == 0
    assert [card.token for card in state.tricks[0].revealed] == pile[1:]
    assert state.trump == NO_TRUMP


def test_change_choose_without_a_qualifying_colour_has_no_effect() -> None:
    """rules.md, Action cards: 'If no colour qualifies, the card has no effect and the player names none
    (decided).'"""
    pile = [f"y{value}" for value in range(12)]
    state = started([[], ["change"]] + [[]] * 8, pile, fill_hands=True, rounds=[10], change_mode="choose")
    assert trump(state) == "y"
    assert [text for text in legal(state) if text.startswith("change")] == ["change"]
    assert_illegal(state, "change:r", "the pile holds no red card")
    assert_illegal(state, "change:y", "naming the current trump yellow")
    play(state, "change")
    assert trump(state) == "y" and turned(state) == ["y0"] and state.pile_size == 11


@pytest.mark.parametrize("mode", ["reveal", "choose"])
def test_change_after_notrump_of_scope_trick_ends_the_cancellation(mode: str) -> None:
    """rules.md, Action cards: 'A change that sets a trump after a notrump of scope trick ends the cancellation: no
    reveal follows the trick.'"""
    state = started([["o1"], ["notrump"], ["change"]], ["r0", "b4", "g1"], change_mode=mode)
    play(state, "notrump", "change" if mode == "reveal" else "change:b", "o1")
    assert colour_letter(state.tricks[0].trump) == "b" and state.tricks[0].winner == 0
    assert turned(state) == ["r0", "b4"] and trump(state) == "b" and pile_top(state, 1) == ["g1"]


def test_change_without_effect_does_not_end_the_cancellation() -> None:
    """rules.md, Action cards: 'One that has no effect does not.' (a voided change after a notrump of scope trick)"""
    hands = [["change"], ["change"], ["notrump"]]
    state = started(hands, ["r0", "b4", "g1", "y2"], first_action_of_kind_only=True)
    play(state, "change", "notrump", "change")
    assert state.tricks[0].trump is None and state.tricks[0].winner == 1
    assert turned(state) == ["r0", "b4", "g1"] and trump(state) == "g"


def test_two_notrumps_in_one_trick_cause_one_reveal() -> None:
    """rules.md, Action cards: 'Two notrumps in one trick cause one reveal.'"""
    state = started([["o1"], ["notrump"], ["notrump"]], ["r0", "b4", "g1"])
    play(state, "notrump", "notrump", "o1")
    assert turned(state) == ["r0", "b4"] and trump(state) == "b" and pile_top(state, 1) == ["g1"]


@pytest.mark.parametrize(
    ("third", "fourth", "winner", "trick_trump"), [("change", "notrump", 1, None), ("notrump", "change", 2, "b")]
)
def test_the_last_effect_decides_the_trump_the_trick_ends_with(
    third: str, fourth: str, winner: int, trick_trump: str | None
) -> None:
    """rules.md, Action cards: 'Effects apply in play order, so the last one played decides the trump the trick ends
    with.'"""
    state = started([[fourth], ["y2"], ["b1"], [third]], ["r0", "b4", "g1"])
    play(state, "y2", "b1", third, fourth)
    assert state.tricks[0].winner == winner
    assert colour_letter(state.tricks[0].trump) == trick_trump


def test_plus5_and_minus5_do_nothing_during_the_trick() -> None:
    """rules.md, Action cards: 'plus5 / minus5: nothing during the trick; see Scoring.'"""
    state = started([["y5", "g1"], ["y2", "o1"], ["plus5", "o2"], ["minus5", "o3"]], ["r0", "b4"])
    play(state, "y2", "plus5", "minus5")
    assert trump(state) == "r" and turned(state) == ["r0"]
    assert legal(state) == ["y5"]
    play(state, "y5")
    assert state.tricks[0].winner == 0


# ---------------------------------------------------------------- first_action_of_kind_only


@pytest.mark.parametrize("first_only", [True, False])
@pytest.mark.parametrize("card", ["plus5", "minus5"])
def test_first_action_of_kind_only_voids_a_second_plus5_or_minus5(card: str, first_only: bool) -> None:
    """rules.md, Action cards: 'With first_action_of_kind_only, a ... plus5 or minus5 that is not the first of its
    kind played in its trick has no effect ...; a voided plus5/minus5 scores nothing'."""
    state = started([[card], ["y2"], [card]], ["r0"], bids=[0, 1, 0], first_action_of_kind_only=first_only)
    play(state, "y2", card, card)
    bonus = (5 if card == "plus5" else -5) * (1 if first_only else 2)
    assert state.results[0].points == (10, 1 + 10 + bonus, 10)


@pytest.mark.parametrize(
    ("first_only", "choices"),
    [(True, ["change"]), (False, ["change:r", "change:o", "change:y", "change:g", "change:p"])],
)
def test_first_action_of_kind_only_voided_change_names_no_colour(first_only: bool, choices: list[str]) -> None:
    """rules.md, Action cards: 'a voided change names no colour.'"""
    state = started(
        [["o1"], ["change"], ["change"]], ["r0", "b4", "g1"], preset="fundex", first_action_of_kind_only=first_only
    )
    play(state, "change:b")
    assert legal(state) == choices
    if first_only:
        assert_illegal(state, "change:g", "it has no effect (not the first change of the trick) and names no colour")
        play(state, "change")
        assert trump(state) == "b" and turned(state) == ["r0", "b4"]


@pytest.mark.parametrize(("first_only", "choices"), [(True, ["change"]), (False, ["change:y"])])
def test_first_action_of_kind_only_voids_even_when_the_first_had_no_effect(
    first_only: bool, choices: list[str]
) -> None:
    """rules.md, Action cards: '... has no effect, even if that first one had none itself'."""
    pile = [f"y{value}" for value in range(12)]
    hands = [[], ["change"], ["notrump"], ["change"]] + [[]] * 6
    state = started(
        hands, pile, fill_hands=True, rounds=[10], change_mode="choose", first_action_of_kind_only=first_only
    )
    play(state, "change")
    assert trump(state) == "y"
    play(state, "notrump")
    assert [text for text in legal(state) if text.startswith("change")] == choices


@pytest.mark.parametrize(
    ("first_only", "trick_trump", "after"), [(True, "b", ["r0", "b4"]), (False, None, ["r0", "b4", "g1"])]
)
def test_first_action_of_kind_only_voids_a_second_notrump(
    first_only: bool, trick_trump: str | None, after: list[str]
) -> None:
    """rules.md, Action cards: 'With first_action_of_kind_only, a notrump ... that is not the first of its kind played
    in its trick has no effect'."""
    hands = [["notrump"], ["notrump"], ["change"]]
    state = started(hands, ["r0", "b4", "g1"], first_action_of_kind_only=first_only)
    play(state, "notrump", "change", "notrump")
    assert colour_letter(state.tricks[0].trump) == trick_trump
    assert turned(state) == after


def test_first_action_of_kind_only_never_voids_a_wild() -> None:
    """rules.md, Action cards: 'Wilds are never voided.'"""
    state = started([["y9"], ["wild"], ["wild"]], ["r0"], first_action_of_kind_only=True)
    play(state, "wild:y", "wild:y", "y9")
    assert state.tricks[0].winner == 2
