"""rules.md, sections Cards and Presets."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from pydantic import ValidationError
from rage_sdk.cards import Card, Colour
from rage_sdk.rules import EDITIONS, MAX_POINTS, MAX_ROUNDS, Ruleset, RulesetError
from rage_sdk.state import GameState

from tests.helpers.rules import tokens

PRESETS = ("amigo", "fundex", "waddingtons", "amigo1985")
COLOURED = [f"{letter}{value}" for letter in "roygbp" for value in range(16)]


def test_six_colours_of_sixteen_values() -> None:
    """rules.md, Cards: 'Six colours: red r, orange o, yellow y, green g, blue b, purple p; values 0-15 in each
    (96 coloured cards).'"""
    assert [colour.letter for colour in Colour] == list("roygbp")
    for preset in PRESETS:
        deck = Counter(tokens(Ruleset.of(preset).deck))
        assert sorted(text for text in deck if Card.of(text).is_coloured) == sorted(COLOURED)
        assert all(deck[text] == 1 for text in COLOURED)


def test_card_tokens() -> None:
    """rules.md, Cards: 'Token: colour letter + value, e.g. r15, y0.'"""
    assert (Card.of("r15").colour, Card.of("r15").value, str(Card.of("r15"))) == (Colour.RED, 15, "r15")
    assert (Card.of("y0").colour, Card.of("y0").value, str(Card.of("y0"))) == (Colour.YELLOW, 0, "y0")
    assert Card.of("p7").colour is Colour.PURPLE and Card.of("o3").colour is Colour.ORANGE
    for bad in ("r16", "x1", "R1", "y-1", "red5"):
        with pytest.raises(ValueError, match="unknown card token"):
            Card.of(bad)


def test_action_card_tokens() -> None:
    """rules.md, Cards: the action cards are wild, notrump, change, plus5, minus5 (table of tokens)."""
    for text in ("wild", "notrump", "change", "plus5", "minus5"):
        card = Card.of(text)
        assert card.is_action and not card.is_coloured
        assert card.colour is None and card.value is None and str(card) == text


@pytest.mark.parametrize(
    ("preset", "counts", "size"),
    [
        ("amigo", (2, 4, 4, 3, 3), 112),
        ("fundex", (2, 4, 4, 2, 2), 110),
        ("waddingtons", (2, 3, 3, 2, 2), 108),
        ("amigo1985", (2, 3, 3, 2, 2), 108),
    ],
)
def test_preset_deck(preset: str, counts: tuple[int, ...], size: int) -> None:
    """rules.md, Presets: 'action cards wild/notrump/change/plus5/minus5 | 2/4/4/3/3 (112 cards) | 2/4/4/2/2 (110)
    | 2/3/3/2/2 (108) | 2/3/3/2/2 (108)'."""
    deck = Counter(tokens(Ruleset.of(preset).deck))
    assert tuple(deck[text] for text in ("wild", "notrump", "change", "plus5", "minus5")) == counts
    assert sum(deck.values()) == size


@pytest.mark.parametrize(
    ("preset", "low", "high"), [("amigo", 2, 10), ("fundex", 2, 8), ("waddingtons", 2, 10), ("amigo1985", 2, 10)]
)
def test_preset_players(preset: str, low: int, high: int) -> None:
    """rules.md, Presets: 'players | 2-10 | 2-8 | 2-10 | 2-10'."""
    rules = Ruleset.of(preset)
    assert (rules.min_players, rules.max_players) == (low, high)
    for players in (low, high):
        GameState(rules, players)
    for players in (low - 1, high + 1):
        with pytest.raises(RulesetError, match=f"{preset} is for {low}-{high} players"):
            GameState(rules, players)


STANDARD_ROUNDS = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
TABLE: dict[str, tuple[Any, Any, Any, Any]] = {
    "rounds": (STANDARD_ROUNDS, STANDARD_ROUNDS, STANDARD_ROUNDS, STANDARD_ROUNDS),
    "notrump_scope": ("trick", "round", "round", "trick"),
    "change_mode": ("reveal", "choose", "choose", "reveal"),
    "wild_tie": ("later_wins", "earlier_wins", "earlier_wins", "later_wins"),
    "wild_declares_value": (False, False, True, False),
    "action_cards_anytime": (False, False, False, False),
    "first_action_of_kind_only": (False, False, False, False),
    "points_per_trick": (1, 1, 1, 1),
    "bid_hit/bid_zero_hit/bid_miss": ((10, 10, -5), (10, 5, 0), (10, 10, -5), (10, 10, -5)),
    "sweep": ("none", "none", "double_round", "none"),
    "sweep_in_one_card_round": (False, False, True, False),
    "plus_minus_one": (False, False, False, False),
    "bidding": ("open", "open", "open", "open"),
    "tiebreak": ("none", "most_hits", "none", "none"),
}


@pytest.mark.parametrize("row", list(TABLE))
def test_preset_table_row(row: str) -> None:
    """rules.md, Presets: each option row of the preset table, for amigo, fundex, waddingtons, amigo1985."""
    for preset, expected in zip(PRESETS, TABLE[row], strict=True):
        options = Ruleset.of(preset).model_dump(mode="json")
        value = tuple(options[name] for name in row.split("/"))
        assert value == (expected if isinstance(expected, tuple) else (expected,)), (preset, row)


def test_ruleset_is_a_preset_with_options_overridden() -> None:
    """rules.md, Presets: 'A ruleset is a preset with any options overridden'."""
    base = Ruleset.of("fundex").model_dump(mode="json")
    rules = Ruleset.of("fundex", sweep="double_tricks", bid_miss=-3, rounds=[3, 2])
    changed = rules.model_dump(mode="json")
    assert {name: value for name, value in changed.items() if base[name] != value} == {
        "sweep": "double_tricks",
        "bid_miss": -3,
        "rounds": [3, 2],
    }
    assert rules.deck == Ruleset.of("fundex").deck


@pytest.mark.parametrize(
    ("preset", "message"),
    [
        ("notapreset", "unknown preset 'notapreset' (one of amigo, fundex, waddingtons, amigo1985)"),
        ("fundx", "unknown preset 'fundx' (one of amigo, fundex, waddingtons, amigo1985; did you mean fundex?)"),
    ],
)
def test_a_preset_that_is_none_is_named_in_one_line(preset: str, message: str) -> None:
    with pytest.raises(RulesetError) as raised:
        Ruleset.of(preset)
    assert str(raised.value) == message
    with pytest.raises(ValidationError) as invalid:  # the model made directly: one error, not one for each option
        Ruleset(preset=preset)  # type: ignore[call-arg]
    assert [error["msg"] for error in invalid.value.errors()] == [f"Value error, {message}"]


@pytest.mark.parametrize("option", ["deck", "players", "min_players", "max_players", "wild", "plus5"])
def test_deck_and_player_range_cannot_be_overridden(option: str) -> None:
    """rules.md, Presets: 'the deck and the player range come with the preset and cannot be overridden.'"""
    with pytest.raises(RulesetError, match=f"^unknown option '{option}'"):
        Ruleset.of("amigo", **{option: 3})


@pytest.mark.parametrize("bidding", ["hidden", "secret"])
def test_plus_minus_one_needs_open_bidding(bidding: str) -> None:
    """rules.md, Presets: 'plus_minus_one needs bidding=open ...; any other combination is an invalid ruleset
    (decided).'"""
    assert Ruleset.of("amigo", plus_minus_one=True).bidding == "open"
    Ruleset.of("amigo", bidding=bidding)
    with pytest.raises(ValueError, match="plus_minus_one needs open bidding"):
        Ruleset.of("amigo", plus_minus_one=True, bidding=bidding)


@pytest.mark.parametrize(
    "variant",
    [
        {"plus_minus_one": True},
        {"bidding": "hidden"},
        {"bidding": "secret"},
        {"sweep": "double_tricks"},
        {"action_cards_anytime": True},
        {"first_action_of_kind_only": True},
    ],
)
def test_variants_are_options_switched_on_a_preset(variant: dict[str, Any]) -> None:
    """rules.md, Presets: 'Variants from the texts are these options switched on a preset' (Plus/Minus One,
    Hidden Guess, Secret Prediction, Sweep, action card variant, first action card of one type)."""
    for preset in PRESETS:
        assert Ruleset.of(preset, **variant).overrides() == variant


def test_waddingtons_card_effects_follow_fundex() -> None:
    """rules.md, Presets: 'Waddingtons special-card effects are not described in 003; they follow Fundex
    (decided).'"""
    effects = ("notrump_scope", "change_mode", "wild_tie", "action_cards_anytime", "first_action_of_kind_only")
    waddingtons, fundex = Ruleset.of("waddingtons"), Ruleset.of("fundex")
    assert [getattr(waddingtons, name) for name in effects] == [getattr(fundex, name) for name in effects]


def test_a_ruleset_is_checked_once_and_cannot_change_after() -> None:
    """rules.md, Presets: 'A ruleset is a preset with any options overridden; ... any other combination is an invalid
    ruleset': a ruleset is a value, checked as it is made; its rounds cannot be changed past the check (a round of 0
    cards put in afterwards ended its deal in 'range() arg 3 must not be zero'), and equal rulesets hash alike."""
    rules = Ruleset.of("amigo", rounds=[3, 2])
    with pytest.raises(TypeError):
        rules.rounds[0] = 0  # type: ignore[index]
    assert rules.rounds == (3, 2)
    assert hash(rules) == hash(Ruleset.model_validate_json('{"preset": "amigo", "rounds": [3, 2]}'))
    assert len({Ruleset.of("fundex"), Ruleset.of("fundex"), rules}) == 2


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"round": [1]}, "unknown option 'round' (did you mean rounds?)"),
        ({"rounds": [0]}, "rounds: every round deals at least 1 card"),
        ({"rounds": "3"}, "rounds: Input should be a valid tuple"),
        ({"rounds": [1] * 101}, "rounds: Tuple should have at most 100 items after validation, not 101"),
        ({"bid_hit": 10**9}, "bid_hit: Input should be less than or equal to 10000"),
        ({"bid_miss": -(10**40)}, "bid_miss: Input should be greater than or equal to -10000"),
        ({"points_per_trick": 10_001}, "points_per_trick: Input should be less than or equal to 10000"),
    ],
)
def test_a_bad_override_is_told_in_one_line_naming_it(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesetError) as raised:
        Ruleset.of("amigo", **overrides)
    assert str(raised.value) == message


def test_every_score_a_ruleset_allows_fits_the_protocols_32_bit_numbers() -> None:
    """bid_hit = 10**9 made a game's totals overflow the sint32 fields sent to bots: the game was lost."""
    cards = max(len(edition.deck) // edition.min_players for edition in EDITIONS.values())
    action_points = 5 * max(edition.plus5 for edition in EDITIONS.values())
    worst_round = 2 * (cards * MAX_POINTS + action_points + MAX_POINTS)  # a sweep doubling the round
    assert MAX_ROUNDS * worst_round < 2**31


def test_a_ruleset_without_a_preset_says_so() -> None:
    """``{"rounds": [1]}`` was 'unknown preset None', as if None were a preset given."""
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_json({"rounds": [1]})
    assert str(raised.value) == (
        "preset: missing; every ruleset starts from one of amigo, fundex, waddingtons, amigo1985"
    )


@pytest.mark.parametrize("card", [-1, 101, 999])
def test_a_card_id_outside_the_cards_is_refused(card: int) -> None:
    """``Card(-1)`` was a card of id -1 showing minus5's token, and ``Card(999)`` a bare IndexError."""
    from rage_sdk.cards import Card

    with pytest.raises(ValueError) as raised:
        Card(card)
    assert str(raised.value) == f"a card id is 0 to 100, not {card}; Card.of(token) reads a token"


def test_the_legal_bids_and_plays_are_none_outside_their_phase_and_a_seat_is_one_of_the_table() -> None:
    """Before the deal legal_bids() gave [Bid.of(0)], and while bidding legal_plays() gave the hand's plays;
    visible_bids(99) gave three Nones."""
    from rage_sdk import GameState

    state = GameState(Ruleset.of("amigo"), 3)
    assert state.legal_bids() == [] and state.legal_plays() == []
    state.deal_seeded(7)
    assert state.legal_bids() == state.legal_actions() and state.legal_plays() == []
    with pytest.raises(ValueError, match="no seat 99 among 3 players"):
        state.visible_bids(99)
