"""The worked examples of the source rulebooks, reproduced with the engine.

- seeds/000 (Amigo), "Example for the first round with ten cards": Anja 8, Bernd 1, Claudia 12, Dieter -1.
- seeds/001 (Fundex), "EXAMPLE OF PLAY" and "EXAMPLE OF SCORING": round seven, three players, trump yellow.
"""

from __future__ import annotations

from pathlib import Path

from rage_sdk.actions import Bid
from rage_sdk.record import load_record
from rage_sdk.replay import play_of, verify
from rage_sdk.state import CHANCE, NO_TRUMP, GameState

from tests.helpers.rules import WILDS, colour_letter, ids, legal, play, started, tokens, trump, turned

FUNDEX_EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "conformance" / "cases" / "fundex_example.json"


def test_amigo_scoring_example() -> None:
    """seeds/000, Scoring a Round: Anja bid 3 and won 3 with a -5 (8), Bernd missed with one trick holding the +5
    (1), Claudia bid 2 and won 2 (12), Dieter missed with four tricks (-1)."""
    anja = ["r15", "o15", "y15", "g1", "b3", "o5", "y5", "b4", "r3", "r6"]
    bernd = ["r1", "o1", "y1", "g15", "b1", "o6", "y6", "b5", "r4", "r7"]
    claudia = ["minus5", "o2", "y2", "g2", "b15", "o14", "y4", "b6", "g3", "g4"]
    dieter = ["r2", "o3", "y3", "plus5", "b2", "o4", "y14", "b14", "r14", "r13"]
    # Dieter deals, so Anja bids first and leads the first trick.
    state = started([anja, bernd, claudia, dieter], ["p0"], bids=[3, 2, 2, 3], dealer=3)
    assert trump(state) == "p"
    play(
        state,
        *("r15", "r1", "minus5", "r2"),  # Anja wins the -5
        *("o15", "o1", "o2", "o3"),
        *("y15", "y1", "y2", "y3"),
        *("g1", "g15", "g2", "plus5"),  # Bernd's one trick, with the +5
        *("b1", "b15", "b2", "b3"),
        *("o14", "o4", "o5", "o6"),
        *("y4", "y14", "y5", "y6"),
        *("b14", "b4", "b5", "b6"),
        *("r14", "r3", "r4", "g3"),
        *("r13", "r6", "r7", "g4"),
    )
    result = state.results[0]
    assert result.cards == 10
    assert result.trick_winners == (0, 0, 0, 1, 2, 2, 3, 3, 3, 3)
    assert result.tricks_won == (3, 1, 2, 4)
    assert result.points == (10 + 3 - 5, -5 + 5 + 1, 10 + 2, -5 + 4) == (8, 1, 12, -1)


def test_fundex_example_record_verifies() -> None:
    """seeds/001, EXAMPLE OF SCORING: Player A 1, Player B 12, Player C 16; the trump is yellow and the tricks go to
    B, A, C, B."""
    verdict = verify(FUNDEX_EXAMPLE.read_text())
    assert verdict.ok, verdict.message
    (round_,) = verdict.rounds
    assert round_.round_number == 7 and round_.cards == 4 and round_.dealer == 2
    assert colour_letter(round_.trump) == "y"
    assert round_.bids == (2, 2, 1)
    assert list(round_.trick_winners) == [1, 0, 2, 1]
    assert round_.tricks_won == (1, 2, 1)
    assert list(round_.points) == [1, 12, 16]
    assert verdict.totals == [1, 12, 16]
    assert verdict.places == [3, 2, 1]


def test_fundex_example_play_by_play() -> None:
    """seeds/001, EXAMPLE OF PLAY, trick by trick: each effect the text describes, as it happens."""
    record = load_record(FUNDEX_EXAMPLE.read_text())
    (round_,) = record.rounds
    state = GameState(record.ruleset, len(record.players), first_round=record.first_round, dealer=round_.dealer)
    state.deal([ids(hand) for hand in round_.hands], ids(round_.pile))
    plays = iter(round_.plays)

    def next_play() -> None:
        state.apply(play_of(next(plays), record))

    # "In round seven, Player C deals only four cards": the top card y9 makes yellow the trump.
    assert [len(hand) for hand in state.hands] == [4, 4, 4]
    assert trump(state) == "y" and turned(state) == ["y9"]
    # "Player A announces ... two tricks. Player B ... two tricks. Finally, Player C claims to win one."
    for seat, tricks in ((0, 2), (1, 2), (2, 1)):
        state.apply(Bid.of(tricks), seat)
    # "Player A, who is to the left of the dealer, leads."
    assert state.current_player() == 0

    # Trick one: "Player B does not have any blue cards, so may play any card"; "Player C plays a Blue 2 because he
    # must follow suit"; B's yellow 0 wins as trump.
    next_play()
    assert legal(state) == ["o7", "y0", "g10", *WILDS]
    next_play()
    assert legal(state) == ["b2"]
    next_play()
    assert state.tricks[0].winner == 1 and colour_letter(state.tricks[0].trump) == "y"

    # Trick two: C has no green and plays the Change Rage, choosing red ("a different color than the previous
    # trump"); the red card leaves the pile; "Player A has to follow with the Green 12" and wins.
    next_play()
    assert "change:y" not in legal(state) and "change:r" in legal(state)
    next_play()
    assert trump(state) == "r" and turned(state) == ["y9", "r3"]
    assert legal(state) == ["g12"]
    next_play()
    assert state.tricks[1].winner == 0 and colour_letter(state.tricks[1].trump) == "r"

    # Trick three: A leads the Bonus Rage, so B may play any card; the Orange 7 sets the lead colour; C trumps it
    # with the Red 15 and wins the bonus.
    next_play()
    assert legal(state) == ["o7", *WILDS]
    next_play()
    next_play()
    assert state.tricks[2].winner == 2
    assert tokens(done.card.id for _, done in state.tricks[2].plays) == ["plus5", "o7", "r15"]

    # Trick four: C leads the Out Rage - no trump for the rest of the round; B's wild, declared yellow (the lead
    # colour), wins.
    next_play()
    assert state.trump == NO_TRUMP
    next_play()
    next_play()
    assert state.tricks[3].winner == 1 and state.tricks[3].trump is None
    assert state.trump == NO_TRUMP and turned(state) == ["y9", "r3"]

    # "Player A won one trick, Player B won two tricks and Player C won one trick" and 1, 12, 16 points.
    assert state.current_player() == CHANCE and state.round_number == 8
    assert state.results[0].tricks_won == (1, 2, 1)
    assert state.results[0].points == (0 + 1, 10 + 2, 10 + 1 + 5)
