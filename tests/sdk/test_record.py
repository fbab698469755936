"""Game records (``spec/record.md``): writing, reading back, and what the checker says about them.

Exit codes: 0 a legal record, 1 a bid or play that breaks the rules (or a ``result`` that
disagrees), 2 input that is not a well-formed record, with a message naming the field.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_sdk.actions import Bid, Play
from rage_sdk.cards import CHANGE, NUM_COLOURED, TOKENS, Colour, card_id
from rage_sdk.record import FORMAT, MalformedRecordError, load_record, record_of
from rage_sdk.replay import Verdict, verify
from rage_sdk.rules import Ruleset
from rage_sdk.state import CHANCE, NO_TRUMP, GameState

from tests.helpers.strategies import MAX_PLAYERS, PRESET_NAMES, rulesets_and_players

DECK_SIZE = {"amigo": 112, "fundex": 110, "waddingtons": 108, "amigo1985": 108}


def modest(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --------------------------------------------------------------------------- making records


def play_game(state: GameState, seed: int, choice_seed: int) -> GameState:
    """Finish ``state`` with seeded deals and random legal decisions."""
    rng = random.Random(choice_seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_seeded(seed)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def names(players: int) -> list[str]:
    return [f"P{seat}" for seat in range(players)]


def game_record(ruleset: Ruleset, players: int, seed: int, *, first_round: int = 1, dealer: int = 0) -> dict[str, Any]:
    state = play_game(GameState(ruleset, players, first_round=first_round, dealer=dealer), seed, seed + 1)
    return record_of(state, names(players)).to_json()


def check(data: Any) -> Verdict:
    """Verify a record given as a JSON value (or raw text)."""
    text = data if isinstance(data, str | bytes) else json.dumps(data)
    verdict = verify(text)
    assert verdict.exit_code in (0, 1, 2)
    json.dumps(verdict.to_json())  # the report is always JSON
    return verdict


def expect_exit(data: Any, code: int, *fragments: str) -> str:
    verdict = check(data)
    assert verdict.exit_code == code, verdict.message
    for fragment in fragments:
        assert fragment in verdict.message, f"{fragment!r} not in {verdict.message!r}"
    return verdict.message


def plays_in_order(data: dict[str, Any]) -> list[tuple[int, int, int, int, dict[str, Any]]]:
    """Every play of a record as (round index, game round number, trick number, index in round, play)."""
    out = []
    players = len(data["players"])
    for index, round_ in enumerate(data["rounds"]):
        for k, play in enumerate(round_["plays"]):
            out.append((index, data.get("first_round", 1) + index, k // players + 1, k, play))
    return out


def positions(data: dict[str, Any]) -> Iterator[tuple[int, int, int, int, GameState]]:
    """Replay a legal record; before each play yield (round index, round number, trick, index in round, state).

    The state is live: read it before asking for the next item.
    """
    ruleset = Ruleset.model_validate(data["ruleset"])
    players = len(data["players"])
    state = GameState(ruleset, players, first_round=data.get("first_round", 1), dealer=data["rounds"][0]["dealer"])
    for index, round_ in enumerate(data["rounds"]):
        state.deal([[card_id(c) for c in hand] for hand in round_["hands"]], [card_id(c) for c in round_["pile"]])
        for offset in range(1, players + 1):
            state.apply(Bid.of(round_["bids"][(round_["dealer"] + offset) % players]))
        for k, play in enumerate(round_["plays"]):
            assert state.to_move == play["seat"]
            yield index, state.round_number, k // players + 1, k, state
            state.apply(_engine_play(play, ruleset))


def _engine_play(play: dict[str, Any], rules: Ruleset) -> Play:
    value = play.get("value") if rules.wild_declares_value else None
    trump = play.get("trump") if play["card"] == "change" and rules.change_mode == "choose" else None
    return Play.of(play["card"], colour=play.get("color"), value=value, trump=trump)


def find_record(
    ruleset: Ruleset, players: int, wanted: Callable[[dict[str, Any]], bool], *, tries: int = 60
) -> dict[str, Any]:
    """The record of the first seeded game whose record satisfies ``wanted``."""
    for seed in range(tries):
        data = game_record(ruleset, players, seed)
        if wanted(data):
            return data
    raise AssertionError("no seed gave the wanted record")


def has_card(data: dict[str, Any], token: str) -> bool:
    return any(play["card"] == token for *_, play in plays_in_order(data))


@pytest.fixture(scope="module")
def amigo_record() -> dict[str, Any]:
    """A complete 4-player amigo game with at least one wild played."""
    return find_record(Ruleset.of("amigo"), 4, lambda data: has_card(data, "wild"))


@pytest.fixture(scope="module")
def waddingtons_record() -> dict[str, Any]:
    """A complete 3-player waddingtons game (wilds declare values, changes choose) with wilds and changes."""
    return find_record(Ruleset.of("waddingtons"), 3, lambda data: has_card(data, "wild") and has_card(data, "change"))


@pytest.fixture(scope="module")
def fundex_record() -> dict[str, Any]:
    return find_record(Ruleset.of("fundex"), 5, lambda data: has_card(data, "change"))


def mutated(data: dict[str, Any], change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    copied = copy.deepcopy(data)
    change(copied)
    return copied


# --------------------------------------------------------------------------- round trips


def assert_round_trip(state: GameState) -> dict[str, Any]:
    data = record_of(state, names(state.players)).to_json()
    text = json.dumps(data)
    verdict = verify(text)
    assert verdict.exit_code == 0, verdict.message
    assert verdict.message == ""
    assert verdict.totals == list(state.totals)
    assert verdict.places == list(state.outcome().places)
    assert list(verdict.rounds) == list(state.results)
    report = verdict.to_json()
    assert [r["points"] for r in report["rounds"]] == [list(r.points) for r in state.results]
    assert [r["trick_winners"] for r in report["rounds"]] == [list(r.trick_winners) for r in state.results]
    assert [r["trump"] for r in report["rounds"]] == [
        None if r.trump is None else r.trump.letter for r in state.results
    ]
    # The record says exactly what the engine saw.
    assert data["format"] == FORMAT
    assert data["first_round"] == state.results[0].round_number
    assert Ruleset.model_validate(data["ruleset"]) == state.ruleset
    for round_, result in zip(data["rounds"], state.results):
        assert round_["dealer"] == result.dealer
        assert round_["bids"] == list(result.bids)
        assert all(len(hand) == result.cards for hand in round_["hands"])
        assert len(round_["plays"]) == result.cards * state.players
        for play in round_["plays"]:
            if play["card"] == "wild":
                assert play["color"] in "roygbp"
                assert ("value" in play) == state.ruleset.wild_declares_value
            elif play["card"] == "change" and state.ruleset.change_mode == "choose":
                assert "trump" in play
    # Reading it back and writing it again changes nothing.
    assert load_record(text).to_json() == data
    assert json.loads(load_record(text).dumps()) == data
    return data


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_round_trip_every_preset(preset: str) -> None:
    for players in (2, MAX_PLAYERS[preset]):
        state = play_game(GameState(Ruleset.of(preset), players), seed=players, choice_seed=7)
        data = assert_round_trip(state)
        assert data["ruleset"] == preset


@modest(25)
@given(table=rulesets_and_players(), seed=st.integers(0, 10**9))
def test_round_trip_with_overrides(table: tuple[Ruleset, int], seed: int) -> None:
    ruleset, players = table
    data = assert_round_trip(play_game(GameState(ruleset, players), seed, seed ^ 0x5A5A))
    assert data["ruleset"] == ruleset.to_json()


def test_round_trip_of_some_rounds() -> None:
    """A record of the last rounds of a game, starting with any dealer."""
    state = play_game(GameState(Ruleset.of("fundex"), 5, first_round=7, dealer=3), seed=11, choice_seed=12)
    data = assert_round_trip(state)
    assert data["first_round"] == 7
    assert [round_["dealer"] for round_ in data["rounds"]] == [3, 4, 0, 1]
    # The checker numbers rounds as the game does.
    assert [r["round"] for r in verify(json.dumps(data)).to_json()["rounds"]] == [7, 8, 9, 10]


def test_round_trip_with_wild_values() -> None:
    ruleset = Ruleset.of("amigo", wild_declares_value=True, change_mode="choose")
    data = find_record(ruleset, 4, lambda data: has_card(data, "wild"))
    wilds = [play for *_, play in plays_in_order(data) if play["card"] == "wild"]
    assert wilds and all(isinstance(play["value"], int) and 0 <= play["value"] <= 15 for play in wilds)
    expect_exit(data, 0)


def _voided_change_game() -> GameState:
    """A choose-mode game where some change names no colour (a second change in its trick)."""
    ruleset = Ruleset.of("fundex", first_action_of_kind_only=True)
    for seed in range(200):
        state = play_game(GameState(ruleset, 8), seed, seed)
        for log in state.logs:
            if any(play.card.id == CHANGE and play.trump is None for _, play in log.plays):
                return state
    raise AssertionError("no game with a change naming no colour")


def test_round_trip_change_with_null_trump() -> None:
    data = assert_round_trip(_voided_change_game())
    nulls = [play for *_, play in plays_in_order(data) if play["card"] == "change" and play["trump"] is None]
    assert nulls, "the record writes the change that names no colour with trump null"
    # Naming a colour there breaks the rule (the change is voided, or no colour qualifies).
    index, number, trick, k, play = next(
        item for item in plays_in_order(data) if item[4]["card"] == "change" and item[4]["trump"] is None
    )
    bad = mutated(data, lambda d: d["rounds"][index]["plays"][k].update(trump="r"))
    expect_exit(bad, 1, f"round {number}, trick {trick}", f"seat {play['seat']}", "change")


def _no_qualifying_colour_state() -> GameState:
    """One round of 41 cards, 2 players: the pile holds only yellow (the trump) and action cards."""
    ruleset = Ruleset.of("fundex", rounds=[41])
    yellow = [card for card in range(NUM_COLOURED) if card >> 4 == Colour.YELLOW]
    others = [card for card in range(NUM_COLOURED) if card >> 4 != Colour.YELLOW]
    actions = [card for card in ruleset.deck if card >= NUM_COLOURED]
    actions.remove(CHANGE)
    plus5 = card_id("plus5")
    actions.remove(plus5)
    hands = [[*others[:40], CHANGE], [*others[40:], plus5]]
    pile = yellow + actions  # y0 is turned up: trump yellow, and only yellow is left in the pile
    state = GameState(ruleset, 2)
    state.deal(hands, pile)
    return state


def test_change_when_no_colour_qualifies() -> None:
    state = _no_qualifying_colour_state()
    assert state.trump == Colour.YELLOW
    rng = random.Random(3)
    change_play = None
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        if isinstance(action, Play) and action.card.id == CHANGE:
            assert state.legal_actions().count(action) == 1
            assert action.trump is None, "no colour qualifies, so the change names none"
            change_play = action
        state.apply(action)
    assert change_play is not None
    data = assert_round_trip(state)
    index, number, trick, k, play = next(item for item in plays_in_order(data) if item[4]["card"] == "change")
    assert play["trump"] is None
    missing = mutated(data, lambda d: d["rounds"][index]["plays"][k].pop("trump"))
    expect_exit(missing, 0)  # "null or missing" is the same thing
    where = (f"round {number}, trick {trick}", f"seat {play['seat']}", "change")
    # Naming the current trump, or a colour the pile does not hold, breaks the rule.
    expect_exit(mutated(data, lambda d: d["rounds"][index]["plays"][k].update(trump="y")), 1, *where)
    expect_exit(mutated(data, lambda d: d["rounds"][index]["plays"][k].update(trump="r")), 1, *where)


# --------------------------------------------------------------------------- malformed records (exit 2)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = _parse(path)
        target: Any = data
        for part in parents:
            target = target[part]
        target[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = _parse(path)
        target: Any = data
        for part in parents:
            target = target[part]
        del target[last]

    return change


def _parse(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in path.replace("[", ".").replace("]", "").split("."):
        parts.append(int(piece) if piece.lstrip("-").isdigit() else piece)
    return parts


@pytest.mark.parametrize("field", ["format", "ruleset", "players", "rounds"])
def test_missing_top_level_field(amigo_record: dict[str, Any], field: str) -> None:
    expect_exit(mutated(amigo_record, _drop(field)), 2, field)


@pytest.mark.parametrize("field", ["dealer", "hands", "pile", "bids", "plays"])
def test_missing_round_field(amigo_record: dict[str, Any], field: str) -> None:
    expect_exit(mutated(amigo_record, _drop(f"rounds[2].{field}")), 2, f"rounds[2].{field}")


@pytest.mark.parametrize("field", ["seat", "card"])
def test_missing_play_field(amigo_record: dict[str, Any], field: str) -> None:
    expect_exit(mutated(amigo_record, _drop(f"rounds[1].plays[5].{field}")), 2, f"rounds[1].plays[5].{field}")


def test_first_round_and_result_may_be_left_out(amigo_record: dict[str, Any]) -> None:
    expect_exit(mutated(amigo_record, _drop("first_round")), 0)
    expect_exit(mutated(amigo_record, _drop("result")), 0)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("rounds[0].bids[1]", "2"),
        ("rounds[0].bids[1]", True),
        ("rounds[0].bids[1]", 1.5),
        ("rounds[0].bids[1]", None),
        ("rounds[0].dealer", "0"),
        ("rounds[0].plays[0].seat", "1"),
        ("rounds[0].plays[0].seat", False),
        ("rounds[0].plays[0].card", 5),
        ("rounds[0].hands[1][0]", None),
        ("rounds[0].hands[1]", "r5"),
        ("rounds[0].pile", {"r5": 1}),
        ("rounds[0].plays", {}),
        ("rounds[0]", []),
        ("players", "P0 P1 P2 P3"),
        ("players[2]", 2),
        ("first_round", "1"),
        ("first_round", True),
        ("format", "rage-record/2"),
        ("ruleset", 7),
    ],
)
def test_wrong_types(amigo_record: dict[str, Any], path: str, value: Any) -> None:
    expect_exit(mutated(amigo_record, _set(path, value)), 2, path)


def _wild_path(data: dict[str, Any]) -> str:
    index, _, _, k, _ = next(item for item in plays_in_order(data) if item[4]["card"] == "wild")
    return f"rounds[{index}].plays[{k}]"


@pytest.mark.parametrize("value", ["7", 7.5, True, [7]])
def test_wild_value_not_an_integer(waddingtons_record: dict[str, Any], value: Any) -> None:
    path = _wild_path(waddingtons_record) + ".value"
    expect_exit(mutated(waddingtons_record, _set(path, value)), 2, path)


@pytest.mark.parametrize("colour", ["x", "red", "R", "", 3, True, ["r"]])
def test_wild_colour_not_a_colour_letter(amigo_record: dict[str, Any], colour: Any) -> None:
    path = _wild_path(amigo_record) + ".color"
    expect_exit(mutated(amigo_record, _set(path, colour)), 2, path)


def test_change_trump_not_a_colour_letter(waddingtons_record: dict[str, Any]) -> None:
    index, _, _, k, _ = next(item for item in plays_in_order(waddingtons_record) if item[4]["card"] == "change")
    path = f"rounds[{index}].plays[{k}].trump"
    expect_exit(mutated(waddingtons_record, _set(path, "x")), 2, path)
    expect_exit(mutated(waddingtons_record, _set(path, 0)), 2, path)


@pytest.mark.parametrize(
    ("path", "token"),
    [
        ("rounds[0].hands[0][3]", "b16"),
        ("rounds[0].hands[2][0]", "joker"),
        ("rounds[1].pile[0]", "R5"),
        ("rounds[3].pile[10]", "y-1"),
        ("rounds[0].plays[4].card", "plus10"),
        ("rounds[0].plays[4].card", ""),
    ],
)
def test_unknown_card_token(amigo_record: dict[str, Any], path: str, token: str) -> None:
    message = expect_exit(mutated(amigo_record, _set(path, token)), 2, path, repr(token))
    assert "unknown card token" in message


def test_not_json_or_not_an_object(amigo_record: dict[str, Any]) -> None:
    text = json.dumps(amigo_record)
    assert "bad JSON" in expect_exit(text[:-1], 2)
    assert "bad JSON" in expect_exit(text.replace('"bids": [', '"bids": [,', 1), 2)
    assert "bad JSON" in expect_exit("", 2)
    assert "not UTF-8" in expect_exit(b"\xff\xfe{", 2)
    for value in ([amigo_record], "rage-record/1", 3, None):
        message = expect_exit(json.dumps(value), 2)
        assert "object" in message


@pytest.mark.parametrize(
    ("ruleset", "fragment"),
    [
        ("amiga", "unknown preset"),
        ({"bidding": "open"}, "preset: missing"),
        ({"preset": "fundex2"}, "unknown preset"),
        ({"preset": "amigo", "joker_wins": True}, "joker_wins"),
        ({"preset": "amigo", "deck": "fundex"}, "deck"),
        ({"preset": "amigo", "bidding": "loud"}, "bidding"),
        ({"preset": "amigo", "sweep": True}, "sweep"),
        ({"preset": "amigo", "bid_hit": "10"}, "bid_hit"),
        ({"preset": "amigo", "plus_minus_one": True, "bidding": "hidden"}, "plus_minus_one"),
        ({"preset": "amigo", "plus_minus_one": True, "bidding": "secret"}, "plus_minus_one"),
    ],
)
def test_bad_ruleset(amigo_record: dict[str, Any], ruleset: Any, fragment: str) -> None:
    expect_exit(mutated(amigo_record, _set("ruleset", ruleset)), 2, "ruleset", fragment)


def test_player_count_outside_the_preset_range(amigo_record: dict[str, Any]) -> None:
    for players in ([], ["solo"], [f"P{k}" for k in range(11)]):
        expect_exit(mutated(amigo_record, _set("players", players)), 2, "players")
    fundex = mutated(amigo_record, _set("ruleset", "fundex"))
    expect_exit(mutated(fundex, _set("players", [f"P{k}" for k in range(9)])), 2, "players")


def test_wrong_hands(amigo_record: dict[str, Any]) -> None:
    def one_hand_fewer(data: dict[str, Any]) -> None:
        data["rounds"][0]["pile"] += data["rounds"][0]["hands"].pop()

    expect_exit(mutated(amigo_record, one_hand_fewer), 2, "rounds[0].hands")

    def card_moved_to_pile(data: dict[str, Any]) -> None:
        data["rounds"][1]["pile"].append(data["rounds"][1]["hands"][2].pop())

    expect_exit(mutated(amigo_record, card_moved_to_pile), 2, "rounds[1].hands[2]")

    def card_moved_to_hand(data: dict[str, Any]) -> None:
        data["rounds"][4]["hands"][0].append(data["rounds"][4]["pile"].pop())

    expect_exit(mutated(amigo_record, card_moved_to_hand), 2, "rounds[4].hands[0]")


def test_hands_and_pile_not_the_deck(amigo_record: dict[str, Any]) -> None:
    def duplicated(data: dict[str, Any]) -> None:
        pile = data["rounds"][3]["pile"]
        pile[5] = pile[4] if pile[4] != pile[5] else pile[6]

    expect_exit(mutated(amigo_record, duplicated), 2, "rounds[3]", "deck")
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][3]["pile"].pop()), 2, "rounds[3]")
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][3]["pile"].append("r0")), 2, "rounds[3]")
    # The fundex deck has two plus5, amigo three: an amigo deal is not a fundex deal.
    expect_exit(mutated(amigo_record, _set("ruleset", "fundex")), 2, "deck")


def test_wrong_number_of_bids_or_plays(amigo_record: dict[str, Any]) -> None:
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][2]["bids"].pop()), 2, "rounds[2].bids")
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][2]["bids"].append(0)), 2, "rounds[2].bids")
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][2]["plays"].pop()), 2, "rounds[2].plays")
    extra = {"seat": 0, "card": "r0"}
    expect_exit(mutated(amigo_record, lambda d: d["rounds"][9]["plays"].append(extra)), 2, "rounds[9].plays")


@pytest.mark.parametrize("seat", [4, -1, 100])
def test_seat_out_of_range_is_out_of_turn(amigo_record: dict[str, Any], seat: int) -> None:
    """Out-of-range numbers break a rule (exit 1), as a bid outside 0..cards does: here, the seat's turn."""
    expect_exit(mutated(amigo_record, _set("rounds[1].plays[3].seat", seat)), 1, f"seat {seat}", "out of turn")


@pytest.mark.parametrize("dealer", [4, -1])
def test_dealer_out_of_range_breaks_a_rule(amigo_record: dict[str, Any], dealer: int) -> None:
    expect_exit(mutated(amigo_record, _set("rounds[0].dealer", dealer)), 1, f"dealer is seat {dealer}")


@pytest.mark.parametrize("first_round", [0, -1, 11, 2])
def test_first_round_out_of_range_or_too_many_rounds(amigo_record: dict[str, Any], first_round: int) -> None:
    # Ten rounds from round 2 would need an eleventh round: "rounds" is the field at fault then.
    field = "rounds" if first_round == 2 else "first_round"
    expect_exit(mutated(amigo_record, _set("first_round", first_round)), 2, field)


def test_no_rounds(amigo_record: dict[str, Any]) -> None:
    expect_exit(mutated(amigo_record, _set("rounds", [])), 2, "rounds")


@pytest.mark.parametrize("result", [[], "ok", 3, True])
def test_result_not_an_object(amigo_record: dict[str, Any], result: Any) -> None:
    expect_exit(mutated(amigo_record, _set("result", result)), 2, "result")


def test_extra_keys_are_ignored(amigo_record: dict[str, Any]) -> None:
    def decorate(data: dict[str, Any]) -> None:
        data["comment"] = "x"
        data["rounds"][0]["note"] = 1
        for play in data["rounds"][0]["plays"]:
            play["time_ms"] = 12

    expect_exit(mutated(amigo_record, decorate), 0)


# --------------------------------------------------------------------------- illegal records (exit 1)


def test_out_of_turn_play(amigo_record: dict[str, Any]) -> None:
    players = len(amigo_record["players"])
    index, number, trick, k, _ = plays_in_order(amigo_record)[3 * players * 2 + 1]  # a trick of round 3 or so

    def swap(data: dict[str, Any]) -> None:
        plays = data["rounds"][index]["plays"]
        plays[k], plays[k + 1] = plays[k + 1], plays[k]

    second_seat = amigo_record["rounds"][index]["plays"][k + 1]["seat"]
    message = expect_exit(mutated(amigo_record, swap), 1, f"round {number}, trick {trick}", f"seat {second_seat}")
    assert "turn" in message

    def misattributed(data: dict[str, Any]) -> None:
        play = data["rounds"][index]["plays"][k]
        play["seat"] = (play["seat"] + 1) % players

    wrong_seat = (amigo_record["rounds"][index]["plays"][k]["seat"] + 1) % players
    expect_exit(mutated(amigo_record, misattributed), 1, f"round {number}, trick {trick}", f"seat {wrong_seat}")


def test_card_not_in_hand(amigo_record: dict[str, Any]) -> None:
    index, number, trick, k, play = plays_in_order(amigo_record)[17]
    round_ = amigo_record["rounds"][index]
    stranger = next(token for token in round_["pile"][::-1] if token[1:].isdigit())  # deep in the pile
    bad = mutated(amigo_record, _set(f"rounds[{index}].plays[{k}]", {"seat": play["seat"], "card": stranger}))
    message = expect_exit(bad, 1, f"round {number}, trick {trick}", f"seat {play['seat']}", stranger)
    assert "hand" in message
    # A card the seat played earlier in the round is not in its hand any more either.
    earlier = next(other for other in round_["plays"][:k] if other["seat"] == play["seat"])
    bad = mutated(amigo_record, _set(f"rounds[{index}].plays[{k}]", earlier))
    message = expect_exit(bad, 1, f"round {number}, trick {trick}", f"seat {play['seat']}", earlier["card"])
    assert "hand" in message


def _not_following(data: dict[str, Any]) -> tuple[int, int, int, int, int, str]:
    """A play where the seat holds the lead colour and another card it may not play instead."""
    for index, number, trick, k, state in positions(data):
        if state.lead < 0 or state.ruleset.action_cards_anytime:
            continue
        hand = state.hands[state.to_move]
        holds_lead = any(card < NUM_COLOURED and card >> 4 == state.lead for card in hand)
        others = [card for card in hand if card >= NUM_COLOURED or card >> 4 != state.lead]
        if holds_lead and others:
            return index, number, trick, k, state.to_move, TOKENS[others[0]]
    raise AssertionError("no position to break the follow rule")


def test_not_following_the_lead_colour(amigo_record: dict[str, Any]) -> None:
    index, number, trick, k, seat, token = _not_following(amigo_record)
    play: dict[str, Any] = {"seat": seat, "card": token}
    if token == "wild":
        play["color"] = "r"
    message = expect_exit(
        mutated(amigo_record, _set(f"rounds[{index}].plays[{k}]", play)),
        1,
        f"round {number}, trick {trick}",
        f"seat {seat}",
        token,
    )
    assert "lead" in message


@pytest.mark.parametrize("offset", [1, -1, -100])
def test_bid_out_of_range(amigo_record: dict[str, Any], offset: int) -> None:
    index = 4
    cards = len(amigo_record["rounds"][index]["hands"][0])
    seat = 2
    bid = cards + offset if offset > 0 else offset
    bad = mutated(amigo_record, _set(f"rounds[{index}].bids[{seat}]", bid))
    expect_exit(bad, 1, f"round {index + 1}", f"seat {seat}", str(bid))


def test_plus_minus_one_forbidden_dealer_bid() -> None:
    ruleset = Ruleset.of("amigo", plus_minus_one=True)
    data = game_record(ruleset, 4, seed=5)
    for index, round_ in enumerate(data["rounds"]):
        dealer, cards = round_["dealer"], len(round_["hands"][0])
        forbidden = cards - sum(bid for seat, bid in enumerate(round_["bids"]) if seat != dealer)
        assert round_["bids"][dealer] != forbidden
        if 0 <= forbidden <= cards:
            bad = mutated(data, _set(f"rounds[{index}].bids[{dealer}]", forbidden))
            expect_exit(bad, 1, f"round {index + 1}", f"seat {dealer}")
            return
    raise AssertionError("no round with a forbidden bid in range")


def test_dealer_not_moving_clockwise(amigo_record: dict[str, Any]) -> None:
    players = len(amigo_record["players"])
    for index in (1, 5, 9):
        previous = amigo_record["rounds"][index - 1]["dealer"]
        for dealer in range(players):
            if dealer == (previous + 1) % players:
                continue
            bad = mutated(amigo_record, _set(f"rounds[{index}].dealer", dealer))
            message = expect_exit(bad, 1, f"round {index + 1}", f"seat {dealer}")
            assert "dealer" in message


def test_wild_without_colour(amigo_record: dict[str, Any]) -> None:
    index, number, trick, k, play = next(item for item in plays_in_order(amigo_record) if item[4]["card"] == "wild")
    where = (f"round {number}, trick {trick}", f"seat {play['seat']}", "wild")
    expect_exit(mutated(amigo_record, _drop(f"rounds[{index}].plays[{k}].color")), 1, *where)
    expect_exit(mutated(amigo_record, _set(f"rounds[{index}].plays[{k}].color", None)), 1, *where)


def test_wild_value_missing_or_out_of_range(waddingtons_record: dict[str, Any]) -> None:
    index, number, trick, k, play = next(
        item for item in plays_in_order(waddingtons_record) if item[4]["card"] == "wild"
    )
    where = (f"round {number}, trick {trick}", f"seat {play['seat']}", "wild")
    expect_exit(mutated(waddingtons_record, _drop(f"rounds[{index}].plays[{k}].value")), 1, *where)
    for value in (16, -1, 1000):
        expect_exit(mutated(waddingtons_record, _set(f"rounds[{index}].plays[{k}].value", value)), 1, *where)


def test_change_naming_the_current_trump_or_nothing(fundex_record: dict[str, Any]) -> None:
    found = 0
    for index, number, trick, k, state in positions(fundex_record):
        play = fundex_record["rounds"][index]["plays"][k]
        if play["card"] != "change" or play.get("trump") is None or state.trump == NO_TRUMP:
            continue
        where = (f"round {number}, trick {trick}", f"seat {play['seat']}", "change")
        current = Colour(state.trump).letter
        expect_exit(mutated(fundex_record, _set(f"rounds[{index}].plays[{k}].trump", current)), 1, *where)
        expect_exit(mutated(fundex_record, _set(f"rounds[{index}].plays[{k}].trump", None)), 1, *where)
        expect_exit(mutated(fundex_record, _drop(f"rounds[{index}].plays[{k}].trump")), 1, *where)
        found += 1
    assert found


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["result"]["totals"].__setitem__(0, d["result"]["totals"][0] + 1), "totals"),
        (lambda d: d["result"]["rounds"][3]["points"].__setitem__(1, 99), "round 4"),
        (lambda d: d["result"]["rounds"][0]["tricks_won"].__setitem__(2, 11), "round 1"),
        (lambda d: d["result"]["rounds"].pop(), "rounds"),
        (lambda d: d["result"].__setitem__("places", [1, 1, 1, 1]), "places"),
        (lambda d: d["result"]["rounds"][9].__setitem__("trick_winners", [4]), "round 10"),
    ],
)
def test_result_disagrees(amigo_record: dict[str, Any], change: Callable[[dict[str, Any]], Any], fragment: str) -> None:
    message = expect_exit(mutated(amigo_record, change), 1, fragment)
    assert "result" in message


def test_result_only_present_keys_compared(amigo_record: dict[str, Any]) -> None:
    verdict = check(amigo_record)
    expect_exit(mutated(amigo_record, _set("result", {})), 0)
    expect_exit(mutated(amigo_record, _set("result", {"totals": verdict.totals})), 0)
    expect_exit(mutated(amigo_record, _set("result", {"places": verdict.places})), 0)
    expect_exit(mutated(amigo_record, _set("result", {"rounds": [{} for _ in range(10)]})), 0)
    expect_exit(mutated(amigo_record, _set("result", {"totals": [0, 0, 0, 0]})), 1, "totals")


# --------------------------------------------------------------------------- inputs that once crashed the checker


@pytest.mark.parametrize("preset", [[], ["amigo"], {"name": "amigo"}])
def test_unhashable_preset_is_malformed(amigo_record: dict[str, Any], preset: Any) -> None:
    expect_exit(mutated(amigo_record, _set("ruleset", {"preset": preset})), 2, "ruleset")


def test_rounds_override_too_big_for_the_table_in_an_unrecorded_round() -> None:
    # amigo, rounds [1, 12]: 12 cards x 10 players is more than the 112-card deck. The record holds
    # only round 1 (1 card each), which can be dealt.
    ruleset = Ruleset.of("amigo", rounds=[1, 12])
    data = game_record(Ruleset.of("amigo", rounds=[1]), 10, seed=3)
    data["ruleset"] = ruleset.to_json()
    data.pop("result")
    expect_exit(data, 2, "rounds")


def test_deeply_nested_json_is_bad_json() -> None:
    expect_exit("[" * 100_000 + "]" * 100_000, 2)


# --------------------------------------------------------------------------- fuzz

RECORD_KEYS = [
    "format",
    "ruleset",
    "players",
    "first_round",
    "rounds",
    "result",
    "preset",
    "dealer",
    "hands",
    "pile",
    "bids",
    "plays",
    "seat",
    "card",
    "color",
    "value",
    "trump",
    "totals",
    "points",
    "tricks_won",
    "places",
    "bidding",
]

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["r", "y", "x", "wild", "change", "r15", "b16", "amigo", "fundex", "open", "hidden", ""]),
    st.text(max_size=5),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(RECORD_KEYS), inner, max_size=4),
    max_leaves=8,
)


def _mutate(data: Any, draw: st.DrawFn) -> Any:
    """Replace or drop one value somewhere in ``data`` (a copy)."""
    root = {"root": copy.deepcopy(data)}
    parent: Any = root
    key: Any = "root"
    while True:
        node = parent[key]
        children = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not children or draw(st.integers(0, 3)) == 0:
            break
        parent, key = node, draw(st.sampled_from(children))
    action = draw(st.sampled_from(["replace", "drop"] if parent is not root else ["replace"]))
    if action == "drop":
        del parent[key]
    else:
        parent[key] = draw(json_values)
    return root["root"]


@pytest.fixture(scope="module")
def fuzz_base() -> dict[str, Any]:
    ruleset = Ruleset.of("waddingtons", rounds=[3, 2], bidding="secret")
    return game_record(ruleset, 3, seed=4)


@pytest.mark.slow
@modest(300)
@given(data=st.data())
def test_fuzzed_records_never_raise(fuzz_base: dict[str, Any], data: st.DataObject) -> None:
    record = fuzz_base
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        record = _mutate(record, data.draw)
    verdict = check(record)
    if verdict.exit_code:
        assert verdict.message


@pytest.mark.parametrize("given", ["games/game-00000.json", Path("games/game-00000.json")])
def test_a_path_handed_to_load_record_is_told_to_read_the_file(given: object) -> None:
    with pytest.raises(MalformedRecordError) as raised:
        load_record(given)  # type: ignore[arg-type]
    told = "load_record takes a record's JSON text, not a path"
    assert str(raised.value) == f"{told}: load_record(Path('games/game-00000.json').read_text())"


def test_record_of_with_names_that_do_not_name_every_seat_is_refused() -> None:
    """Two names for a game of three made a record that ``load_record`` then refused ('2 players')."""
    from rage_sdk.examples.random_bot import RandomBot
    from rage_sdk.table import play_table

    state = play_table(Ruleset.of("amigo", rounds=[2]), [RandomBot(), RandomBot(), RandomBot()], seed=1)
    with pytest.raises(ValueError) as short:
        record_of(state, ["a", "b"])
    assert str(short.value) == "players: 2 names for 3 seats"
    with pytest.raises(TypeError) as text:
        record_of(state, "abc")  # type: ignore[arg-type]
    assert str(text.value) == "players is a list of the seats' names, not the text 'abc'"
    assert load_record(record_of(state, ["a", "b", "c"]).dumps()).players == ["a", "b", "c"]


@pytest.mark.parametrize(("given", "kind"), [({"format": FORMAT}, "dict"), (None, "NoneType")])
def test_json_data_handed_to_load_record_is_told_it_takes_text(given: object, kind: str) -> None:
    """``load_record(json.load(file))`` was ``AttributeError: 'dict' object has no attribute 'startswith'``."""
    with pytest.raises(MalformedRecordError) as raised:
        load_record(given)  # type: ignore[arg-type]
    assert str(raised.value) == f"load_record takes a record's JSON text (or bytes), not a {kind}"


def test_json_that_is_no_game_record_is_told_so() -> None:
    """A deal key's JSON (``rage league reveal``) read as a record said only ``format: missing field``."""
    with pytest.raises(MalformedRecordError) as raised:
        load_record('{"deal_key": "ab", "commitment": "cd"}')
    assert str(raised.value) == (
        'format: missing field: this JSON is no game record (one begins {"format": "rage-record/1", ...}; '
        "its first fields here: 'deal_key', 'commitment')"
    )
