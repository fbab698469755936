"""What an SDK bot's ``bid()`` may return: a whole number of tricks, of any integer type, or a ``Bid``.

Anything else is the bot's error (a ``bot_error`` fault and the fallback), never a number made from
it: ``int()`` had turned ``2.7`` into a bid of 2 and ``"3"`` into 3, bids the bot never chose.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rage_referee.faults import Fault, FaultKind
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.seats import BotSpec
from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset

BOT = """
from rage_sdk import Bid, Bot


class Index:
    def __index__(self):
        return 0


class Odd(Bot):
    def bid(self, view):
        return {answer}

    def play(self, view):
        return view.legal_plays[0]
"""


def faults_of(tmp_path: Path, answer: str) -> list[Fault]:
    """The faults of two one-round games of three cards in which the bot's ``bid()`` returns ``answer``."""
    file = tmp_path / "odd.py"
    file.write_text(BOT.format(answer=answer))
    specs = [BotSpec.of("odd", f"{file}:Odd"), BotSpec.of("greedy", f"{example_bot('greedy_bot')}:GreedyBot")]
    result = asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[3]), 2, Deals.public(1), log_dir=tmp_path))
    return [fault for game in result.games for fault in game.figures.faults]


def bid_faults(tmp_path: Path, answer: str) -> list[str]:
    """The details of the bid faults, each the bot's error, when the bot's ``bid()`` returns ``answer``."""
    faults = faults_of(tmp_path, answer)
    assert all(fault.kind is FaultKind.BOT_ERROR and fault.trick == 0 for fault in faults), faults
    return [fault.detail for fault in faults]


@pytest.mark.parametrize("answer", ["2.7", "'3'", "True", "None", "[1]"])
def test_a_bid_that_is_no_whole_number_is_the_bots_error(tmp_path: Path, answer: str) -> None:
    details = bid_faults(tmp_path, answer)
    assert len(details) == 2, details  # one bid a game
    assert all(f"bid() returned {answer}, not a whole number of tricks" in detail for detail in details), details


@pytest.mark.parametrize("answer", ["0", "Index()", "Bid.of(0)", "view.legal_bids[0]"])
def test_a_whole_number_of_any_kind_is_a_bid(tmp_path: Path, answer: str) -> None:
    assert bid_faults(tmp_path, answer) == []


@pytest.mark.parametrize("answer", ["-1", "Bid(-1)"])
def test_a_negative_bid_is_the_bots_error_saying_what_a_bid_is(tmp_path: Path, answer: str) -> None:
    """A negative number cannot travel as a decision's action (a uint32): the SDK says what was wrong with it."""
    details = bid_faults(tmp_path, answer)
    shown = answer.replace("Bid(", "Bid.of(")  # as repr() shows it
    assert details == [f"bid() returned {shown}: a bid is a number of tricks, 0 or more"] * 2


@pytest.mark.parametrize("answer", ["4", "113", "2**32 - 1"])
def test_a_bid_of_more_tricks_than_the_hand_holds_is_illegal_however_many(tmp_path: Path, answer: str) -> None:
    """A bid of 4 with 3 cards and one of 113 break the same rule (113 was 'malformed': 'bid 113 is out of range')."""
    faults = faults_of(tmp_path, answer)
    assert [fault.kind for fault in faults] == [FaultKind.ILLEGAL] * 2, faults
    assert all(str(eval(answer)) in fault.detail for fault in faults), faults
