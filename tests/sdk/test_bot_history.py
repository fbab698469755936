"""The views a bot decides on: the finished rounds and tricks of their own moment, decoded only when read."""

from __future__ import annotations

import asyncio
import copy
import pickle
from pathlib import Path

import pytest
from rage_referee.play.game import play_game
from rage_referee.play.spec import GameSpec
from rage_referee.seats import BotHandle, BotSpec, LocalConnection
from rage_sdk import Bot, Play, SeatView
from rage_sdk.bot import BotFactory
from rage_sdk.history import GameHistory, Snapshot
from rage_sdk.rules import Ruleset
from rage_sdk.state import Phase

SEATS = ("keeper", "b", "c", "d")


class Lowest(Bot):
    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


class Keeper(Lowest):
    """Keeps every view it decides on; reads the history of every third one at once."""

    views: list[SeatView]
    read_now: list[Snapshot | None]

    def __init__(self) -> None:
        self.views, self.read_now = [], []

    def bid(self, view: SeatView) -> int:
        self.keep(view)
        return super().bid(view)

    def play(self, view: SeatView) -> Play:
        self.keep(view)
        return super().play(view)

    def keep(self, view: SeatView) -> None:
        reading = len(self.views) % 3 == 0
        self.views.append(view)
        self.read_now.append((view.results, view.tricks) if reading else None)


class Reader(Keeper):
    """Reads the history of every view as it decides."""

    def keep(self, view: SeatView) -> None:
        self.views.append(view)
        self.read_now.append((view.results, view.tricks))


def play_one_game(factory: BotFactory, tmp_path: Path, seed: int = 7) -> None:
    """An amigo game in-process, ``factory``'s bot in seat 0."""

    async def run() -> None:
        handles = {}
        for name in SEATS:
            connection = LocalConnection(factory if name == "keeper" else Lowest)
            handles[name] = BotHandle(BotSpec.of(name, "tests/sdk/test_bot_history.py:Lowest"), tmp_path, connection)
            await connection.open()
        await play_game(GameSpec(seed, Ruleset.of("amigo"), SEATS, seed), handles)

    asyncio.run(run())


def play(bot_class: type[Keeper], tmp_path: Path) -> Keeper:
    """The bot in seat 0 after a game, held on to (the runner lets go of it when the game ends)."""
    keepers: list[Keeper] = []

    def factory() -> Bot:
        keepers.append(bot_class())
        return keepers[-1]

    play_one_game(factory, tmp_path)
    return keepers[-1]  # the one that played (the connection made one first to learn the bot's name)


def test_views_read_late_and_out_of_order_show_their_own_moment(tmp_path: Path) -> None:
    reader, keeper = play(Reader, tmp_path), play(Keeper, tmp_path)
    assert len(keeper.views) == len(reader.views) == 65  # 10 bids and 55 cards
    late = [(view.results, view.tricks) for view in reversed(keeper.views)][::-1]  # read last first
    assert late == [snapshot for snapshot in reader.read_now if snapshot is not None]
    read_at_once = [snapshot for snapshot in keeper.read_now if snapshot is not None]
    assert read_at_once == [late[index] for index in range(0, len(late), 3)]
    final = keeper.views[-1]
    assert len(final.results) == final.round_number - 1 and final.results[-1].round_number == final.round_number - 1


def test_the_history_is_decoded_only_for_a_bot_that_reads_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    followed = 0
    follow = GameHistory._follow

    def counting(history: GameHistory, event: object) -> None:
        nonlocal followed
        followed += 1
        follow(history, event)  # type: ignore[arg-type]

    monkeypatch.setattr(GameHistory, "_follow", counting)

    class Forgetful(Keeper):  # keeps no view and reads no history
        def keep(self, view: SeatView) -> None:
            pass

    class LastOnly(Keeper):  # keeps only its last view, on itself, and never reads its history
        def keep(self, view: SeatView) -> None:
            self.views = [view]

    play_one_game(Forgetful, tmp_path)
    play_one_game(LastOnly, tmp_path)  # its view goes with it when the game ends
    assert followed == 0
    play(Reader, tmp_path)
    assert followed > 65


def test_a_requests_legal_lists_are_those_of_a_seat_view(tmp_path: Path) -> None:
    views = play(Reader, tmp_path).views
    assert {view.phase for view in views} == {Phase.BID, Phase.PLAY}
    for view in views:
        assert view.legal_bids == SeatView.legal_bids.fget(view)  # type: ignore[attr-defined]
        assert view.legal_plays == SeatView.legal_plays.fget(view)  # type: ignore[attr-defined]
        assert view.legal_bids or view.legal_plays


def test_a_kept_view_copies_and_pickles_as_a_plain_seat_view(tmp_path: Path) -> None:
    keeper = play(Keeper, tmp_path)
    view = keeper.views[-2]  # its history not read during the game
    for twin in (copy.copy(view), copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
        assert type(twin) is SeatView
        assert twin == view
        assert (twin.results, twin.tricks) == (view.results, view.tricks)
