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
