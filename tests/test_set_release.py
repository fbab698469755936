"""Nothing of a duplicate set is shown before all of its games are stored: the one check
(:mod:`rage_referee.league.release`) and each route that asks it."""

from __future__ import annotations

from pathlib import Path

from game_records import finished_game
from rage_referee.hosted.addresses import AllowList
from rage_referee.hosted.events import EventHub
from rage_referee.hosted.leagues import LeagueManager
from rage_referee.hosted.registry import LeagueStatus, Registry
from rage_referee.league.release import SetRelease
from rage_referee.league.store import Store


def test_a_set_is_released_once_all_its_games_are_stored_in_any_order() -> None:
    release = SetRelease.of(players=4, duplicate=True)
    assert release.set_size == 12  # the 12 seatings of a set at 4 players, not its 4 seats
    games = [finished_game(index, ("a", "b", "c", "d"), set_id=index // 12) for index in (*range(1, 12), 12)]
    assert release.released(games) == [] and release.unreleased_sets(games) == {0, 1}
    games.append(finished_game(0, ("a", "b", "c", "d"), set_id=0))  # played last of its set
    assert sorted(game.index for game in release.released(games)) == list(range(12))
    assert SetRelease.of(4, duplicate=False).released(games[:1]) == games[:1]
    assert SetRelease.of(4, True, over=True).released(games[-2:]) == games[-2:]


def test_get_record_waits_for_a_whole_set_at_four_players(tmp_path: Path) -> None:
    # a set at 4 players is 12 games: game 0 was released after 4, the table's seat count
    store = Store(f"sqlite:///{tmp_path / 'contest.sqlite'}")
    registry = Registry(store.engine)
    manager = LeagueManager(registry, store, EventHub(), AllowList.parse([]))
    league_id = store.league("cup", {"any": "key"})
    registry.add_league("cup", league_id, "players = 4\n", ["a", "b", "c", "d"], '"amigo"', 4, 24)
    entry = registry.set_status("cup", LeagueStatus.RUNNING)
    for index in range(4):
        store.add(league_id, finished_game(index, ("a", "b", "c", "d"), set_id=0))
    assert "shares its deal with 8 games still to be played" in (manager.withheld(entry, 0) or "")
    for index in range(4, 12):
        store.add(league_id, finished_game(index, ("a", "b", "c", "d"), set_id=0))
    assert manager.withheld(entry, 0) is None
    store.close()
