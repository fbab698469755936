"""One in-process table: bots asked their decisions on the engine, no referee."""

from __future__ import annotations

from rage_sdk.bot import Bot
from rage_sdk.events import GameInfo
from rage_sdk.examples.greedy_bot import GreedyBot
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.rules import Ruleset
from rage_sdk.table import play_table
from rage_sdk.view import SeatView


class Noting(RandomBot):
    """A random bot that keeps what it was told and the views it was asked with."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[GameInfo] = []
        self.asked: list[SeatView] = []

    def on_game_start(self, game: GameInfo) -> None:
        super().on_game_start(game)
        self.told.append(game)

    def bid(self, view: SeatView) -> int:
        self.asked.append(view)
        return super().bid(view)


def test_a_table_plays_a_whole_game_asking_each_seat_its_own_decisions() -> None:
    ruleset = Ruleset.of("amigo", rounds=[3, 2])
    bots: list[Bot] = [Noting(), Noting(), Noting()]
    state = play_table(ruleset, bots, seed=4, game=7, names=["a", "b", "c"], decision_ms=500, bank_ms=20)
    assert state.is_terminal()
    for seat, bot in enumerate(bots):
        assert isinstance(bot, Noting)
        assert bot.told == [GameInfo(7, seat, ("a", "b", "c"), ruleset, 1, 500, 20)]
        assert [view.seat for view in bot.asked] == [seat, seat]  # one bid a round


def test_a_table_is_deterministic_for_a_seed_and_names_seats_by_default() -> None:
    ruleset = Ruleset.of("amigo", rounds=[4, 3])
    first = play_table(ruleset, [GreedyBot(), RandomBot(), GreedyBot()], seed=11, game=2)
    again = play_table(ruleset, [GreedyBot(), RandomBot(), GreedyBot()], seed=11, game=2)
    assert first.totals == again.totals
    noting = Noting()
    play_table(ruleset, [noting, RandomBot(), RandomBot()], seed=1)
    assert noting.told[0].players == ("seat-0", "seat-1", "seat-2")
