"""The fault ledger: faults counted per bot over a match or league, and who is forfeited with why."""

from __future__ import annotations

from rage_referee.faults import FaultKind
from rage_referee.play import game
from rage_referee.play.ledger import NEVER_FORFEIT, FaultLedger


def test_a_bot_is_forfeited_at_its_max_faults_with_the_first_reason_kept() -> None:
    ledger = FaultLedger(max_faults=2)
    ledger.charge("a", FaultKind.CRASHED)
    assert ledger.forfeited == {}
    ledger.charge("a", FaultKind.ILLEGAL)
    ledger.charge("a", FaultKind.ILLEGAL)
    assert ledger.counts == {"a": 3}
    assert ledger.forfeited == {"a": "forfeited after 2 faults"}


def test_timeouts_in_a_row_forfeit_and_an_answer_starts_them_again() -> None:
    ledger = FaultLedger(NEVER_FORFEIT, max_timeouts=2)
    ledger.charge("a", FaultKind.TIMEOUT)
    ledger.answered("a")
    ledger.charge("a", FaultKind.TIMEOUT)
    assert ledger.forfeited == {}
    ledger.charge("a", FaultKind.TIMEOUT)
    assert ledger.forfeited == {"a": "not asked again after 2 timeouts in a row"}


def test_the_refereed_game_charges_the_ledger_of_its_own_module() -> None:
    assert game.FaultLedger is FaultLedger


def test_a_seats_faults_alike_in_a_row_are_told_once_then_counted() -> None:
    """A bot that could not be brought back printed the same long line at each of its decisions, 16 of them."""
    from rage_referee.faults import Fault, fault_lines

    lost = "x: stream failed; it was relaunched 3 times already, not again"
    faults = [
        Fault(0, FaultKind.CRASHED, 1, 0, "stream failed", "bid 0", 2),
        Fault(1, FaultKind.TIMEOUT, 1, 0, "no decision within 100 ms", "bid 0", 3),
        Fault(0, FaultKind.CRASHED, 2, 0, "stream failed", "bid 0", 9),
        *(Fault(0, FaultKind.CRASHED, 2, trick, lost, "R1", 10 + trick) for trick in range(1, 4)),
        Fault(0, FaultKind.FORFEITED, 3, 0, "forfeited after 5 faults", "bid 0", 20),
    ]
    assert fault_lines(7, ("x", "y"), faults) == [
        "game 7: x crashed (round 1, bidding, decision 2): stream failed",
        "game 7: x crashed once more, alike, the last at round 2, bidding, decision 9",
        "game 7: y timeout (round 1, bidding, decision 3): no decision within 100 ms",
        f"game 7: x crashed (round 2, trick 1, decision 11): {lost}",
        "game 7: x crashed 2 times more, alike, the last at round 2, trick 3, decision 13",
        "game 7: x forfeited (forfeited after 5 faults): the referee played its 1 decision from round 3 on",
    ]


def test_one_fault_is_told_as_one() -> None:
    """'forfeited after 1 faults', 'the referee played its 1 decisions'."""
    ledger = FaultLedger(max_faults=1, max_timeouts=1)
    ledger.charge("a", FaultKind.ILLEGAL)
    ledger.charge("b", FaultKind.TIMEOUT)
    assert ledger.forfeited == {"a": "forfeited after 1 fault", "b": "not asked again after 1 timeout in a row"}
