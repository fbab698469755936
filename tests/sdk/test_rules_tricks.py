"""rules.md, Who wins a trick.

Each case is one trick of one-card hands: seat 1 (left of dealer 0) leads and the seats follow clockwise,
so every play is forced and only the winner is in question. The pile top ``r0`` makes red the trump.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.rules import colour_letter, play, play_of, started


def trick(plays: list[str], pile: tuple[str, ...] = ("r0", "b4", "g1"), **options: Any) -> tuple[int, str | None]:
    """Play one trick of ``plays`` in order from seat 1; its winner and the trump it ended with."""
    players = len(plays)
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, text in enumerate(plays):
        hands[(1 + index) % players].append(play_of(text).card.token)
    state = started(hands, list(pile), **options)
    play(state, *plays)
    done = state.tricks[0]
    return done.winner, colour_letter(done.trump)


def test_no_coloured_card_and_no_wild_the_first_card_wins() -> None:
    """rules.md, Who wins 1: 'No coloured card and no wild in the trick: the first card's player wins.'"""
    assert trick(["plus5", "minus5", "change"]) == (1, "b")
    assert trick(["notrump", "plus5", "minus5", "notrump"]) == (1, None)


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["y15", "r1", "r3"], 0),
        (["y15", "r3", "r1"], 2),
        (["r2", "y15", "r1"], 1),
        (["y15", "wild:r", "r14"], 2),
        (["y15", "r14", "wild:r"], 0),
    ],
)
def test_highest_card_of_the_trump_colour_wins(plays: list[str], winner: int) -> None:
    """rules.md, Who wins 2: 'If T is set and any coloured card or wild of colour T is in the trick, the highest of
    those wins'."""
    assert trick(plays) == (winner, "r")


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (["y2", "y9", "b15"], 2),
        (["y2", "b15", "g15"], 1),
        (["plus5", "g3", "y15", "g4"], 0),
        (["wild:o", "b15", "o15"], 1),
    ],
)
def test_without_a_trump_card_the_highest_of_the_lead_colour_wins(plays: list[str], winner: int) -> None:
    """rules.md, Who wins 2: 'otherwise the highest card of the lead colour wins. Cards of any other colour never
    win.'"""
    assert trick(plays) == (winner, "r")


def test_judged_with_the_trump_as_it_stands_when_the_last_card_is_down() -> None:
    """rules.md, Who wins: 'Judged when the last card of the trick is down, with the trump as it stands then (T, maybe
    none)'."""
    assert trick(["y9", "b3", "change"]) == (2, "b")
    assert trick(["y9", "r3", "notrump"]) == (1, None)
    assert trick(["y9", "r3", "change", "r14"]) == (1, "b")


def test_order_within_a_colour_is_by_value() -> None:
    """rules.md, Who wins 3: 'Order within a colour: by value.'"""
    assert trick(["y7", "y12", "y3"]) == (2, "r")
    assert trick(["y0", "y1"]) == (0, "r")
    assert trick(["r15", "r0", "r14"], pile=("b5",)) == (1, "b")


@pytest.mark.parametrize(
    ("plays", "winner"), [(["y15", "wild:y"], 0), (["wild:r", "r15"], 1), (["wild:y", "r1"], 0), (["y3", "wild:g"], 1)]
)
def test_a_wild_is_above_every_coloured_card_of_its_colour(plays: list[str], winner: int) -> None:
    """rules.md, Who wins 3: 'A wild (no declared value) is above every coloured card of its colour'."""
    assert trick(plays) == (winner, "r")


@pytest.mark.parametrize(
    ("preset", "wild_tie", "winner"),
    [
        ("amigo", "later_wins", 2),
        ("fundex", "earlier_wins", 1),
        ("amigo", "earlier_wins", 1),
        ("fundex", "later_wins", 2),
    ],
)
def test_wild_tie_decides_between_two_wilds(preset: str, wild_tie: str, winner: int) -> None:
    """rules.md, Who wins 3: 'between two wilds wild_tie decides' (Presets: wild_tie, two wilds, same declared
    colour: later_wins / earlier_wins)."""
    assert trick(["wild:y", "wild:y", "y15"], preset=preset, wild_tie=wild_tie)[0] == winner
    assert trick(["y15", "wild:r", "wild:r"], preset=preset, wild_tie=wild_tie)[0] == (winner + 1) % 3


@pytest.mark.parametrize(
    ("plays", "options", "winner"),
    [
        (["wild:y5", "y9", "y2"], {}, 2),
        (["wild:y10", "y9", "y2"], {}, 1),
        (["y9", "wild:y9", "y2"], {}, 1),
        (["wild:y9", "y9", "y2"], {}, 1),
        (["y15", "wild:r0"], {}, 0),
        (["wild:y7", "wild:y7", "y2"], {}, 1),
        (["wild:y7", "wild:y7", "y2"], {"wild_tie": "later_wins"}, 1),
        (["y2", "wild:g15", "y3"], {}, 0),
    ],
)
def test_wild_declares_value_ranks_the_wild_as_its_value(
    plays: list[str], options: dict[str, Any], winner: int
) -> None:
    """rules.md, Who wins 3: 'With wild_declares_value, a wild ranks as its declared value, and on equal rank the
    card played earlier wins.'"""
    assert trick(plays, preset="waddingtons", **options)[0] == winner
    assert trick(plays, preset="amigo", wild_declares_value=True, **options)[0] == winner
