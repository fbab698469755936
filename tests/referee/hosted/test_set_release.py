"""Nothing of a duplicate set is shown before all of its games are stored: the one check
(:mod:`rage_referee.league.release`) and each route that asks it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rage_referee.hosted import messages
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.errors import NotFound
from rage_referee.hosted.events import EventHub
from rage_referee.hosted.leagues import LeagueManager
from rage_referee.hosted.registry import LeagueStatus, Registry
from rage_referee.hosted.service import RefereeServicer
from rage_referee.league.release import SetRelease
from rage_referee.league.store import Store
from rage_sdk.pb import referee_pb2 as pb

from tests.helpers.game_records import finished_game
from tests.helpers.report import DEFINITION

SEATS = ("heuristic", "greedy", "random")


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


def cup_contest(folder: Path) -> tuple[Contest, int]:
    """A contest in ``folder`` with its bots registered (an address each) and the league ``cup`` created; its id."""
    contest = Contest.open(f"sqlite:///{folder / 'contest.sqlite'}", "a" * 24, "e" * 24, AllowList.parse(LOOPBACK))
    for port, name in enumerate((*SEATS, "raiser"), 1):
        contest.registry.add_bot(name, f"127.0.0.1:{port}", "", token_hash(name * 8))
    registered = {bot.name: bot.address for bot in contest.registry.bots()}
    contest.leagues.create(read_definition(DEFINITION, "cup", registered), DEFINITION)
    return contest, contest.registry.league("cup").league_id


def test_watch_sends_a_sets_games_once_the_set_is_whole(tmp_path: Path) -> None:
    # Watch sent each game's scores and faults as it finished, 5 games before the set's last
    async def scenario() -> None:
        contest, league_id = cup_contest(tmp_path)
        for index in range(5):  # of set 0, its six games (three players) dealt the same hands
            contest.store.add(league_id, finished_game(index, SEATS, set_id=0))
        contest.registry.set_status("cup", LeagueStatus.RUNNING)
        admin = await _history(contest)
        assert [event.game_finished.game for event in admin if event.HasField("game_finished")] == [0, 1, 2, 3, 4]

        watcher = contest.hub.subscribe("cup")
        stream = RefereeServicer(contest)._events("cup", watcher, True)
        sent = [await anext(stream), await anext(stream)]
        assert [event.WhichOneof("kind") for event in sent] == ["status_changed", "standings_changed"]
        assert sent[1].standings_changed.games == 0
        last = finished_game(5, SEATS, set_id=0)
        contest.store.add(league_id, last)
        for event in messages.game_events("cup", last, 6, 24):
            contest.hub.publish(event)
        contest.hub.close("cup")
        sent = [event async for event in stream]
        assert [event.game_finished.game for event in sent if event.HasField("game_finished")] == list(range(6))
        assert sent[-1].standings_changed.games == 6
        contest.close()

    asyncio.run(scenario())


async def _history(contest: Contest) -> list[pb.LeagueEvent]:
    """What the organizer's Watch with history sends of the league now."""
    watcher = contest.hub.subscribe("cup", admin=True)
    stream = RefereeServicer(contest)._events("cup", watcher, True, admin=True)
    events = [await anext(stream) for _ in range(7)]  # the status, five games, the standings
    contest.hub.unsubscribe(watcher)
    return events


def set_and_a_part(folder: Path) -> tuple[Contest, RefereeServicer]:
    """:func:`cup_contest` running, with set 0 stored whole and two games of set 1; and its servicer."""
    contest, league_id = cup_contest(folder)
    for index in range(8):
        contest.store.add(league_id, finished_game(index, SEATS, set_id=index // 6))
    contest.registry.set_status("cup", LeagueStatus.RUNNING)
    return contest, RefereeServicer(contest)


def test_get_standings_counts_only_whole_sets_but_for_the_organizer(tmp_path: Path) -> None:
    # GetStandings fitted every stored game: each game's scores, while its set's other games were to come
    async def scenario() -> None:
        contest, servicer = set_and_a_part(tmp_path)
        games = {}
        for token in ("e" * 24, "a" * 24):
            context = _Context(token)
            table = await servicer.GetStandings(pb.LeagueRequest(league="cup"), context)
            games[token[0]] = sorted(row.games for row in table.rows)
        assert games == {"e": [6, 6, 6], "a": [8, 8, 8]}
        contest.close()

    asyncio.run(scenario())


def test_get_record_says_one_thing_of_a_game_unfinished_or_waiting_for_its_set(tmp_path: Path) -> None:
    # a game of the set being played was 'shares its deal with 4 games still to be played' (FAILED_PRECONDITION),
    # one not stored 'has not finished' (NOT_FOUND): any token read how far the set had gone, game by game
    async def scenario() -> None:
        contest, servicer = set_and_a_part(tmp_path)
        get_record = RefereeServicer.GetRecord.__wrapped__  # type: ignore[attr-defined]  # its refusals as raised
        record = await get_record(servicer, pb.GetRecordRequest(league="cup", game=0), _Context("e" * 24))
        assert record.game == 0
        for game in (6, 9):  # stored, its set not whole; not stored yet
            with pytest.raises(NotFound) as refused:
                await get_record(servicer, pb.GetRecordRequest(league="cup", game=game), _Context("e" * 24))
            assert str(refused.value) == (
                f"game: game {game} of league 'cup' is not shown: it has not finished, or games dealt the same "
                "hands are still to be played"
            )
        contest.close()

    asyncio.run(scenario())


class _Context:
    """What a unary call's handler reads of its context: the caller's token."""

    def __init__(self, token: str) -> None:
        self.token = token

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.token}")]


def test_the_standings_give_an_interval_where_the_local_table_does_and_none_where_it_does_not() -> None:
    # point estimates (one set of two shown) and a single set rated whole came back low = high = elo, '+0/+0'
    from rage_referee.hosted.standings import full_table, point_table
    from rage_referee.league.ratings import rating_table

    from tests.helpers.game_records import paired_sets

    games = paired_sets(2, lead=2)  # sets that differ (a single one, or sets all alike, give no interval)
    for shown, table in (
        (games[:2], point_table(games[:2])),
        (games[:2], full_table(games[:2], [game.index for game in games[:2]])),
        (games, full_table(games, [game.index for game in games])),
    ):
        local = {row.name: row for row in rating_table(shown)} if table.intervals else {}
        for row in map(messages.rating_row, messages.standings("cup", table).rows):
            assert row.has_interval == (row.name in local and local[row.name].has_interval), row
    assert not any(row.has_interval for row in rating_table(games[:2]))
    assert all(row.has_interval for row in rating_table(games))


def test_the_count_of_games_anyone_but_the_organizer_is_told_is_of_whole_sets(tmp_path: Path) -> None:
    # ListLeagues and Watch's status counted every stored game, so any token saw how far a set had gone
    async def scenario() -> None:
        contest, servicer = set_and_a_part(tmp_path)
        listed = {}
        for token in ("e" * 24, "a" * 24):
            reply = await servicer.ListLeagues(pb.ListLeaguesRequest(), _Context(token))
            listed[token[0]] = reply.leagues[0].games_done
        assert listed == {"e": 6, "a": 8}

        streams = {}
        for admin in (False, True):
            watcher = contest.hub.subscribe("cup", admin=admin)
            streams[admin] = servicer._events("cup", watcher, False, admin)
            assert (await anext(streams[admin])).status_changed.games_done == (8 if admin else 6)
            await anext(streams[admin])  # the standings
        counts: dict[bool, list[int]] = {False: [], True: []}
        for status in (LeagueStatus.PAUSED, LeagueStatus.CANCELLED):  # cancelled: over, its stored games all shown
            contest.registry.set_status("cup", status)
            contest.hub.publish(messages.status_event("cup", status, 8, 24))
            for admin, stream in streams.items():
                counts[admin].append((await anext(stream)).status_changed.games_done)
        assert counts == {False: [6, 8], True: [8, 8]}
        contest.close()

    asyncio.run(scenario())
