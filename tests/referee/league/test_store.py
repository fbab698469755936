"""The store on each database (SQLite, and a real PostgreSQL server): games round-trip, each game is
stored once, and concurrent writers of one league are refused a game stored already, never doubled."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from rage_referee.faults import Fault, FaultKind
from rage_referee.league.store import GameStoredAlready, Store, StoreError
from rage_referee.play.finished import FinishedGame

from tests.helpers.game_records import played_record

T = TypeVar("T")
KEY = {"players": 2, "games": 4}


SEATS = ("alpha", "beta")
FAULT = Fault(1, FaultKind.TIMEOUT, 1, 0, "late", "bid 0")


def game(index: int, extra: dict[str, Any] | None = None) -> FinishedGame:
    """Game ``index`` with a real record (one fault in it, and ``extra`` keys), figures read from it."""
    record = {**played_record(SEATS, index), "faults": [FAULT.to_json()], **(extra or {})}
    return FinishedGame.of_record(index, index // 2, 2**62 + index, record)


def at_once(count: int, work: Callable[[int], T]) -> list[T | BaseException]:
    """``work(0)`` ... ``work(count - 1)``, each on its own thread, released together."""
    barrier = threading.Barrier(count)
    results: list[T | BaseException] = [RuntimeError("did not run")] * count

    def run(k: int) -> None:
        barrier.wait()
        try:
            results[k] = work(k)
        except BaseException as error:
            results[k] = error

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_games_round_trip(database_url: str) -> None:
    store = Store(database_url)
    try:
        league = store.league("spring", KEY)
        assert store.league("spring", KEY) == league and store.league_names() == ["spring"]
        for index in (2, 0, 1):
            store.add(league, game(index))
        assert store.finished(league) == {0, 1, 2}
        assert store.games(league) == [game(0), game(1), game(2)]
        assert store.records(league, [1, 7]) == {1: game(1).record}
        key = store.deal_key(league, create=True)
        assert key is not None and store.deal_key(league) == key and not key.revealed
        assert store.reveal(league) == key.key
        assert store.deal_key(league) == type(key)(key.key, True)
    finally:
        store.close()
    again = Store(database_url, create=False)
    try:
        assert len(again.games(again.league("spring"))) == 3
    finally:
        again.close()


def test_a_league_stored_under_other_settings_is_refused(database_url: str) -> None:
    store = Store(database_url)
    try:
        league = store.league("spring", KEY)
        assert store.league("spring", {**KEY, "games": 4}) == league  # no game stored yet: new settings taken
        store.add(league, game(0))
        with pytest.raises(StoreError, match="other settings"):
            store.league("spring", {**KEY, "games": 5})
        with pytest.raises(StoreError, match="no league 'autumn'"):
            store.league("autumn", create=False)
    finally:
        store.close()


def test_a_game_stored_already_is_refused_in_one_line_naming_league_and_game(database_url: str) -> None:
    store = Store(database_url)
    try:
        league = store.league("spring", KEY)
        store.add(league, game(3))
        with pytest.raises(GameStoredAlready) as refused:
            store.add(league, game(3, {"another": "result"}))
        message = str(refused.value)
        assert "\n" not in message
        assert "league 'spring'" in message and "game 3" in message and "stored already" in message
        assert store.games(league) == [game(3)], "the first result stays, alone"
        store.add(league, game(4))  # the store is still usable after a refusal
        assert store.finished(league) == {3, 4}
    finally:
        store.close()


def test_two_writers_at_once_store_each_game_once(database_url: str) -> None:
    """Two stores (as two league runs would hold) race to store the same eight games."""
    stores = [Store(database_url), Store(database_url)]
    try:
        league = stores[0].league("spring", KEY)
        assert stores[1].league("spring", KEY) == league

        def write(k: int) -> list[int]:
            refused = []
            for index in range(8):
                try:
                    stores[k].add(league, game(index, {"writer": k}))
                except GameStoredAlready as error:
                    assert f"game {index}" in str(error) and "league 'spring'" in str(error)
                    refused.append(index)
            return refused

        results = at_once(2, write)
        refusals = [result for result in results if isinstance(result, list)]
        assert len(refusals) == 2, results
        assert sorted(refusals[0] + refusals[1]) == list(range(8)), "every game refused to exactly one writer"
        games = stores[0].games(league)
        assert [stored.index for stored in games] == list(range(8))
        for stored in games:
            writer = stored.record["writer"]
            assert stored.index not in refusals[writer], "the stored result is the one not refused"
    finally:
        for store in stores:
            store.close()


def test_two_runs_starting_at_once_share_one_league_and_one_deal_key(database_url: str) -> None:
    Store(database_url).close()  # the tables exist; what races is the league's first row and key
    stores = [Store(database_url) for _ in range(4)]
    try:
        ids = at_once(4, lambda k: stores[k].league("spring", KEY))
        assert all(isinstance(league, int) for league in ids), ids
        assert len(set(ids)) == 1
        league = ids[0]
        assert isinstance(league, int)
        keys = at_once(4, lambda k: stores[k].deal_key(league, create=True))
        assert all(key is not None and not isinstance(key, BaseException) for key in keys), keys
        assert len({key.key for key in keys if key is not None and not isinstance(key, BaseException)}) == 1
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("postgresql+psycopg://rage:hunter2@127.0.0.1:{port}/nowhere", "Connection refused"),
        ("mysql://rage:hunter2@127.0.0.1:{port}/nowhere", "driver is not installed"),
    ],
    ids=["unreachable", "no-driver"],
)
def test_a_database_that_cannot_be_opened_is_one_line_without_its_password(url: str, fragment: str) -> None:
    with socket.socket() as closed:  # bound, never listening: a port that refuses, and no one else's
        closed.bind(("127.0.0.1", 0))
        with pytest.raises(StoreError) as refused:
            Store(url.format(port=closed.getsockname()[1]))
    message = str(refused.value)
    assert message.startswith("cannot open the database ") and fragment in message
    assert "\n" not in message and "hunter2" not in message and "rage:***@" in message


def test_runs_opening_a_new_database_at_once_all_open_it(database_url: str) -> None:
    """Each run creates the tables it misses when it opens the database: at once, none of them fails."""
    stores = at_once(6, lambda k: Store(database_url))
    try:
        assert all(isinstance(store, Store) for store in stores), stores
    finally:
        for store in stores:
            if isinstance(store, Store):
                store.close()


def test_a_games_figures_are_stored_as_it_hands_them_over(database_url: str) -> None:
    """The store keeps the figures a game comes with (built with its record as it ended), reading none back out
    of the record; a game without its record is refused."""
    store = Store(database_url)
    try:
        league = store.league("spring", KEY)
        true = game(0)
        store.add(league, true)
        assert store.games(league) == [true]
        assert store.games(league, records=False) == [true.without_record()]
        handed = replace(true.figures, totals=(999, 999), places=(1, 1), hits=(0, 0), rounds=1, faults=())
        store.add(league, replace(game(1), figures=handed))
        assert store.games(league, records=False)[1].figures == handed
        with pytest.raises(ValueError, match="game 2 comes without its record"):
            store.add(league, replace(game(2), record={}))
        assert store.finished(league) == {0, 1}
    finally:
        store.close()
