"""The ladder's leaderboard as a pure function of its book and stored games (:mod:`rage_referee.hosted.ladder_table`),
and its book (:mod:`rage_referee.hosted.ladder_book`):

- only whole sets count, in the order their last games were stored (not their ids), each version's points
  totalled over the set; the same games give the same table, read any number of times;
- a forfeited seat marks its version forfeited in the set: rated last without dragging the others;
- a version forfeited in two sets running is failed and its bot's previous version plays again; an older
  version is retired, keeping its rating; a new version starts from its predecessor's mu;
- owners: a real entrant's name, else the owner given, else the bot;
- the book numbers each bot's versions and lays sets end to end, surviving a reopen.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from rage_referee.faults import Fault, FaultKind
from rage_referee.hosted.ladder_book import LadderBook, LadderSet, LadderVersion, version_key
from rage_referee.hosted.ladder_table import ladder_state, owner_of, set_results
from rage_referee.hosted.registry import ENTRY_ENTRANT, BotEntry
from rage_referee.ladder.ratings import MODEL
from rage_referee.ladder.settings import LadderSettings
from rage_referee.league.store import Store
from rage_referee.play.finished import Figures, FinishedGame

A1, B1, C1, A2 = "sha256:" + "a" * 64, "sha256:" + "b" * 64, "sha256:" + "c" * 64, "sha256:" + "d" * 64
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def game(
    index: int, set_id: int, seats: tuple[str, ...], totals: tuple[int, ...], forfeit: int | None = None
) -> FinishedGame:
    faults = () if forfeit is None else (Fault(forfeit, FaultKind.FORFEITED, 1, 0, "could not start", "bid 0"),)
    places = tuple(1 + sum(other > own for other in totals) for own in totals)
    return FinishedGame(index, set_id, 7, Figures(seats, totals, places, (0,) * len(seats), 1, faults))


def two_player_set(
    set_id: int, first: int, a: str, b: str, points: tuple[int, int], forfeit: int | None = None
) -> list[FinishedGame]:
    """A set of two games (both seatings) where ``a`` scores points[0] in each and ``b`` points[1]."""
    return [
        game(first, set_id, (a, b), points, forfeit),
        game(first + 1, set_id, (b, a), points[::-1], None if forfeit is None else 1 - forfeit),
    ]


def test_only_whole_sets_count_in_the_order_their_last_games_were_stored() -> None:
    sets = [LadderSet(0, 0, 2, ("ann", "bob"), (A1, B1)), LadderSet(1, 2, 2, ("ann", "cat"), (A1, C1))]
    games = two_player_set(0, 0, "ann", "bob", (10, 4)) + two_player_set(1, 2, "ann", "cat", (3, 8))
    order = {2: 1.0, 3: 2.0, 0: 3.0, 1: 4.0}  # set 1 ended first
    results = set_results(sets, games, order)
    assert [r.set_id for r in results] == [1, 0]
    assert results[1].points == (20.0, 8.0) and results[1].finished == 4.0 and results[1].games == 2
    partial = set_results(sets, games[:3], {0: 1.0, 1: 2.0, 2: 3.0})
    assert [r.set_id for r in partial] == [0]  # set 1 has one game of two stored: not rated


def test_the_table_is_the_same_however_often_it_is_read_and_a_forfeit_does_not_drag_the_others() -> None:
    versions = [LadderVersion("ann", A1, 1, NOW), LadderVersion("bob", B1, 1, NOW), LadderVersion("cat", C1, 1, NOW)]
    sets = [LadderSet(0, 0, 2, ("ann", "bob"), (A1, B1)), LadderSet(1, 2, 2, ("cat", "bob"), (C1, B1))]
    games = two_player_set(0, 0, "ann", "bob", (10, 4)) + two_player_set(1, 2, "cat", "bob", (0, 0), forfeit=0)
    order = {k: float(k) for k in range(4)}
    owners = {"ann": "a", "bob": "b", "cat": "c"}
    settings = LadderSettings(placement_sets=1)
    first = ladder_state(versions, set_results(sets, games, order), owners, settings)
    again = ladder_state(versions, set_results(sets, games, order), owners, settings)
    assert first == again
    rows = {row.version.bot: row for row in first.rows}
    assert rows["cat"].rating.mu < MODEL.mu and rows["bob"].rating.mu > rows["cat"].rating.mu
    assert set_results(sets, games, order)[1].forfeited == {version_key("cat", C1)}
    assert [row.rank for row in first.rows if row.rank] == [1, 2, 3] and first.sets == 2 and first.games == 4


def test_a_version_forfeited_twice_running_fails_and_the_previous_one_plays_again() -> None:
    versions = [
        LadderVersion("ann", A1, 1, NOW),
        LadderVersion("bob", B1, 1, NOW),
        LadderVersion("ann", A2, 2, NOW),
    ]
    sets = [
        LadderSet(0, 0, 2, ("ann", "bob"), (A1, B1)),
        LadderSet(1, 2, 2, ("ann", "bob"), (A2, B1)),
        LadderSet(2, 4, 2, ("ann", "bob"), (A2, B1)),
    ]
    games = (
        two_player_set(0, 0, "ann", "bob", (9, 1))
        + two_player_set(1, 2, "ann", "bob", (0, 5), forfeit=0)
        + two_player_set(2, 4, "ann", "bob", (0, 5), forfeit=0)
    )
    order = {k: float(k) for k in range(6)}
    settings = LadderSettings()
    state = ladder_state(versions, set_results(sets, games, order), {}, settings)
    statuses = {row.key: row.status for row in state.rows}
    assert statuses == {
        "ann@aaaaaaaaaaaaaaaa": "placement",
        "bob@bbbbbbbbbbbbbbbb": "placement",
        "ann@dddddddddddddddd": "failed",
    }
    assert {c.version for c in state.candidates(settings)} == {"ann@aaaaaaaaaaaaaaaa", "bob@bbbbbbbbbbbbbbbb"}
    once = set_results(sets[:2], games[:4], {k: float(k) for k in range(4)})
    state = ladder_state(versions, once, {}, settings)
    statuses = {row.key: row.status for row in state.rows}
    assert statuses["ann@dddddddddddddddd"] == "placement" and statuses["ann@aaaaaaaaaaaaaaaa"] == "retired"
    rows = {row.key: row for row in state.rows}
    assert rows["ann@aaaaaaaaaaaaaaaa"].rank == 0 and rows["ann@aaaaaaaaaaaaaaaa"].rating.sets == 1


def test_a_new_version_starts_from_its_predecessors_mu_with_sigma_reset() -> None:
    versions = [LadderVersion("ann", A1, 1, NOW), LadderVersion("bob", B1, 1, NOW), LadderVersion("ann", A2, 2, NOW)]
    sets = [LadderSet(0, 0, 2, ("ann", "bob"), (A1, B1))]
    state = ladder_state(
        versions, set_results(sets, two_player_set(0, 0, "ann", "bob", (9, 1)), {0: 0.0, 1: 1.0}), {}, LadderSettings()
    )
    rows = {row.key: row for row in state.rows}
    assert rows["ann@dddddddddddddddd"].rating.mu == rows["ann@aaaaaaaaaaaaaaaa"].rating.mu > MODEL.mu
    assert rows["ann@dddddddddddddddd"].rating.sigma == MODEL.sigma


def test_owners_are_real_entrants_then_the_owner_given_then_the_bot() -> None:
    assert owner_of(BotEntry("x", "", "team x", NOW, "alice")) == "alice"
    assert owner_of(BotEntry("x", "", "team x", NOW, ENTRY_ENTRANT)) == "team x"
    assert owner_of(BotEntry("x", "", "", NOW, "")) == "x"


def test_the_book_numbers_versions_and_lays_sets_end_to_end(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'book.sqlite'}"
    store = Store(url)
    book = LadderBook(store.engine)
    assert book.join(1, "ann", A1).number == 1
    assert book.join(1, "ann", A2).number == 2
    assert book.join(1, "ann", A1).number == 1  # joined already
    assert book.join(2, "ann", A2).number == 1  # another ladder
    first = book.add_set(1, ("ann", "bob"), (A1, B1), 2)
    second = book.add_set(1, ("bob", "ann"), (B1, A2), 2)
    assert (first.set_id, first.first, second.set_id, second.first) == (0, 0, 1, 2)
    store.close()
    again = LadderBook(Store(url).engine)
    assert again.sets(1) == [first, second] and [v.key for v in again.versions(1)] == [
        "ann@aaaaaaaaaaaaaaaa",
        "ann@dddddddddddddddd",
    ]
