"""A hosted ladder's pages in headless Chromium, read as its entrants read them while it runs and once finalized:

- the leaderboard (rank, bot, owner, version, rating = mu - 3 sigma, sets, games, status) is the one
  ``GetStandings`` gives, an owner's HTML shown as text, and it follows the ladder as sets end, unreloaded;
- a bot's page lists its versions with their status and rating, its games link to their replays;
- an owner (signed in with its bot's token) sees its seat's cards and what its bot wrote to its stderr in a
  game, HTML shown as text; another entrant sees neither;
- once finalized, the final's standings, each adjacent pair marked separated or not, and the final's games.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from rage_sdk.pb import referee_pb2 as pb

from tests.helpers.ladder_pages import LiveLadder, live_ladder
from tests.helpers.report import chromium, signed_in

pytestmark = pytest.mark.slow

OWNERS = {"ann": "<i>north</i>", "bob": "east", "cat": "south"}
CRASH = {**OWNERS, "crash": "west"}
SETS = re.compile(r"(\d+) sets \((\d+) games\)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[LiveLadder]:
    """The ladder of ann (the diarist, its owner's name HTML), bob, cat and crash (exits at every start), started."""
    folder = tmp_path_factory.mktemp("ladder")
    folder.chmod(0o755)
    with live_ladder(folder, CRASH, {"ann"}, frozenset({"crash"})) as ladder:
        ladder.call("StartLeague", pb.LeagueRequest(league="ladder"))
        yield ladder


@pytest.fixture(scope="module")
def finalizing(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[LiveLadder]:
    """Another such ladder, started, to be finalized."""
    folder = tmp_path_factory.mktemp("final")
    folder.chmod(0o755)
    with live_ladder(folder, OWNERS, {"ann"}) as ladder:
        ladder.call("StartLeague", pb.LeagueRequest(league="ladder"))
        yield ladder


def board_rows(page: Any, section: str) -> list[list[str]]:
    rows = page.locator(f"#{section} table.ladder tbody tr")
    return [rows.nth(k).locator("td").all_inner_texts() for k in range(rows.count())]


def expected_row(row: pb.LadderRow) -> list[str]:
    return [
        str(row.rank or ""),
        row.bot,
        row.owner,
        row.version,
        f"{row.mu:.2f}",
        f"{row.sigma:.2f}",
        f"{row.rating:.2f}",
        str(row.sets),
        str(row.games),
    ]


def ann_games(ladder: pb.Ladder) -> int:
    return sum(row.games for row in ladder.rows if row.bot == "ann")


def sets_shown(page: Any) -> int:
    match = SETS.search(page.locator("#standings .legend").inner_text())
    assert match is not None
    return int(match[1])


def test_the_leaderboard_follows_the_ladder_as_sets_end(live: LiveLadder, browser: Any) -> None:
    live.resume()
    live.until(lambda reply: reply.ladder.sets >= 1, "a first set")
    page = signed_in(browser, live.base, live.tokens["bob"])
    page.goto(f"{live.base}/leagues/ladder/")
    page.wait_for_function("document.body.dataset.following === 'yes'")
    before = sets_shown(page)
    page.evaluate("window.unreloaded = true")
    page.wait_for_function(
        f"Number(/(\\d+) sets/.exec(document.querySelector('#standings .legend').textContent)[1]) > {before}",
        timeout=120_000,
    )
    assert page.evaluate("window.unreloaded === true")  # redrawn in place, not reloaded
    assert sets_shown(page) > before


def test_the_leaderboard_shows_each_versions_rating_and_escapes_owners(live: LiveLadder, browser: Any) -> None:
    live.until(lambda reply: reply.ladder.sets >= 4, "four sets")
    live.pause()
    ladder = live.standings().ladder
    page = signed_in(browser, live.base, live.tokens["cat"])
    page.goto(f"{live.base}/leagues/ladder/")
    shown = board_rows(page, "standings")
    assert [cells[:9] for cells in shown] == [expected_row(row) for row in ladder.rows]
    assert [cells[10] for cells in shown] == [row.status for row in ladder.rows]
    for row in ladder.rows:
        assert row.rating == pytest.approx(row.mu - 3 * row.sigma)  # shown to 2 places above
    assert "<i>north</i>" in [cells[2] for cells in shown]  # the owner's HTML as text
    assert page.locator("#standings table.ladder i").count() == 0
    assert SETS.search(page.locator("#standings .legend").inner_text()) is not None
    assert sets_shown(page) == ladder.sets

    page.locator("#standings table.ladder a", has_text="ann").click()
    assert page.locator("h2.bot-name").inner_text() == "ann"
    summary = page.locator("p.summary").inner_text()  # a league's Elo over every version's games was shown here
    assert summary.startswith(f"{ann_games(ladder)} games, mean score") and "elo" not in summary
    versions = page.locator("table.versions tbody tr")
    ann = next(row for row in ladder.rows if row.bot == "ann")
    assert versions.count() == 1
    cells = versions.first.locator("td").all_inner_texts()
    assert cells[0] == ann.version
    assert f"rating {ann.rating:.2f} (mu {ann.mu:.2f}, sigma {ann.sigma:.2f}), {ann.sets} sets" in cells[3]
    assert page.locator("#games table.games tbody tr").count() == ann.games

    page.goto(f"{live.base}/leagues/ladder/")
    first = page.locator("#games table.games tbody tr").first
    index = int(first.get_attribute("data-game") or "")
    first.locator("a").first.click()
    page.wait_for_selector("#board tbody tr")
    assert page.locator("h2").first.inner_text() == f"Game {index}"
    assert re.fullmatch(r"\d+ / \d+", page.locator("#position").inner_text())
    seats = [page.locator(f"#board tr[data-seat='{seat}'] td.name").first.inner_text() for seat in (0, 1)]
    for seat, bot in enumerate(seats):  # cat's own seat's hand, if it played; no other
        shown_cards = page.locator(f"#board tr[data-seat='{seat}'] td.hand .card").count()
        assert shown_cards == 0 or bot == "cat", f"seat {seat} ({bot})'s hand shown to cat"


def test_a_crashing_bots_page_lists_its_forfeits(live: LiveLadder, browser: Any) -> None:
    live.resume()
    live.until(lambda reply: any(row.status == "failed" for row in reply.ladder.rows), "crash fails")
    live.pause()
    ladder = live.standings().ladder
    page = signed_in(browser, live.base, live.tokens["bob"])
    page.goto(f"{live.base}/leagues/ladder/")
    crash = next(cells for cells in board_rows(page, "standings") if cells[1] == "crash")
    assert crash[0] == "" and crash[10] == "failed"
    page.locator("#standings table.ladder a", has_text="crash").click()
    faults = page.locator("#faults table.faults tbody tr")
    played = [int(t) for t in page.locator("#games table.games tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.game)")]  # fmt: skip
    rows = [faults.nth(k).locator("td").all_inner_texts() for k in range(faults.count())]
    assert played and sorted({int(cells[0]) for cells in rows}) == sorted(played), rows  # in every game it sat at
    assert all(cells[3] == "forfeited" and "could not start" in cells[5] for cells in rows), rows
    assert "failed" in page.locator("table.versions tbody tr").first.inner_text()
    faults.first.locator("a").click()
    page.wait_for_selector("#board tbody tr")
    assert int(page.locator("h2").first.inner_text().split()[-1]) in played
    assert next(row for row in ladder.rows if row.bot == "crash").rank == 0


def test_an_owner_sees_its_seat_and_its_bots_log_and_no_one_else_does(live: LiveLadder, browser: Any) -> None:
    live.until(lambda reply: reply.ladder.sets >= 4, "four sets")
    live.pause()
    ann = signed_in(browser, live.base, live.tokens["ann"])
    ann.goto(f"{live.base}/leagues/ladder/bots/ann.html")
    row = ann.locator("#games table.games tbody tr").first
    index = int(row.get_attribute("data-game") or "")
    seat_link = row.locator("a.own-seat")
    seat = int((seat_link.get_attribute("href") or "").rsplit("=", 1)[1])
    row.locator("a.own-log").click()
    assert ann.locator("h2").inner_text() == f"ann in game {index}"
    lines = ann.locator("pre.bot-log").inner_text().splitlines()
    assert [line for line in lines if line.startswith("diarist")] == [f"diarist <b>: game {index} at seat {seat}"]
    assert ann.locator("pre.bot-log b").count() == 0
    log_url = ann.url
    ann.goto(f"{live.base}/leagues/ladder/games/{index:05d}.html#view={seat}")
    assert ann.locator("#view").input_value() == str(seat)
    ann.wait_for_selector(f"#board tr[data-seat='{seat}'] td.hand .card")
    assert ann.locator(f"#board tr[data-seat='{seat}'] td.hand .card").count() >= 1  # its own cards
    assert ann.locator(f"#board tr[data-seat='{1 - seat}'] td.hand .card").count() == 0

    bob = signed_in(browser, live.base, live.tokens["bob"])
    bob.goto(f"{live.base}/leagues/ladder/bots/ann.html")
    assert bob.locator("h2.bot-name").inner_text() == "ann"
    assert bob.locator("a.own-log").count() == 0 and bob.locator("a.own-seat").count() == 0
    reply = bob.goto(log_url)
    assert reply is not None and reply.status == 403
    assert "diarist" not in bob.content()
    bob.goto(f"{live.base}/leagues/ladder/games/{index:05d}.html")
    options = bob.locator("#view option").evaluate_all("options => options.map(o => o.value)")
    assert str(seat) not in options and "all" not in options


def test_the_ladders_header_links_to_its_own_sections(live: LiveLadder, browser: Any) -> None:
    # the header offered a league's "crosstable" and "history", sections a ladder's page does not have
    live.until(lambda reply: reply.ladder.sets >= 1, "a first set")
    page = signed_in(browser, live.base, live.tokens["bob"])
    for path in ("", "bots/bob.html"):
        page.goto(f"{live.base}/leagues/ladder/{path}")
        links = page.locator("header nav a").evaluate_all("links => links.map(a => a.href)")
        assert links, "no links in the header"
        for link in links:
            page.goto(link)
            anchor = link.split("#", 1)[1]
            assert page.locator(f"#{anchor}").count() == 1, f"{link}: no section {anchor}"


def test_the_finals_standings_and_games_show_as_it_plays(finalizing: LiveLadder, browser: Any) -> None:
    live = finalizing
    live.until(lambda reply: reply.ladder.sets >= 2, "two sets")
    page = signed_in(browser, live.base, live.tokens["bob"])
    page.goto(f"{live.base}/leagues/ladder/")
    page.wait_for_function("document.body.dataset.following === 'yes'")
    page.evaluate("window.unreloaded = true")
    assert page.locator("#final").count() == 0
    live.call("FinalizeLadder", pb.FinalizeRequest(league="ladder", top=3, max_games=12))
    final = live.until(lambda reply: reply.final.games > 0 and reply.final.games % 6 == 0, "the final's first round")
    page.wait_for_function(  # redrawn in place as its sets end
        "document.querySelectorAll('#final table.final-games tbody tr').length >= 6", timeout=60_000
    )
    assert page.evaluate("window.unreloaded === true")
    deadline = 120
    while live.call("ListLeagues", pb.ListLeaguesRequest()).leagues[0].status != pb.LEAGUE_STATUS_FINISHED:
        deadline -= 1
        assert deadline > 0, "the final never finished"
        page.wait_for_timeout(500)
    final = live.standings().final

    page.goto(f"{live.base}/leagues/ladder/")
    shown = board_rows(page, "final")
    assert [cells[:9] for cells in shown] == [expected_row(row) for row in final.rows]
    marks = [cells[11] for cells in shown]
    assert marks == [("yes" if row.separated else "no") if row.HasField("separated") else "" for row in final.rows]
    assert marks[-1] == "" and all(mark in ("yes", "no") for mark in marks[:-1])
    assert f"{final.sets} sets ({final.games} games)" in page.locator("#final .legend").inner_text()
    games = page.locator("#final table.final-games tbody tr")
    indices = [int(games.nth(k).get_attribute("data-game") or "") for k in range(games.count())]
    assert sorted(indices) == list(range(final.games))
    finalists = {row.bot for row in final.rows}
    seats = games.first.locator("span.seat").all_inner_texts()
    assert len(seats) == 2 and {seat.split(" ")[0] for seat in seats} <= finalists

    games.first.locator("a").click()
    page.wait_for_selector("#board tbody tr")
    assert page.locator("h2").first.inner_text() == f"Final game {indices[0]}"
    assert re.fullmatch(r"\d+ / \d+", page.locator("#position").inner_text())
    options = page.locator("#view option").evaluate_all("options => options.map(o => o.value)")
    assert "all" not in options and "public" in options

    ann = signed_in(browser, live.base, live.tokens["ann"])
    ann.goto(f"{live.base}/leagues/ladder/")
    played = ann.locator("#final table.final-games tbody tr", has_text="ann").first
    index = int(played.get_attribute("data-game") or "")
    played.locator("a").click()
    seat = int(ann.locator("#view").input_value())
    ann.locator("p.logs a.own-log").click()  # its stderr of the final's game
    assert ann.locator("h2").inner_text() == f"ann in the final's game {index}"
    lines = ann.locator("pre.bot-log").inner_text().splitlines()
    # with what its process wrote for other games of the final it played meanwhile (the final plays games at once)
    assert f"diarist <b>: game {index} at seat {seat}" in lines
    log_url = ann.url
    assert log_url.endswith(f"/leagues/ladder/final/logs/ann/{index:05d}.html")
    ann.locator("h2 a").click()  # back to the game, from its seat
    assert ann.locator("h2").first.inner_text() == f"Final game {index}"
    reply = page.goto(log_url)  # bob
    assert reply is not None and reply.status == 403 and "diarist" not in page.content()
    page.goto(f"{live.base}/leagues/ladder/final/{index:05d}.html")
    assert page.locator("p.logs a.own-log", has_text="ann").count() == 0

    # ann's page lists its games of the final, with its seat and its stderr of each for ann alone
    ann.goto(f"{live.base}/leagues/ladder/")
    rows = ann.locator("#final table.final-games tbody tr")
    played_by_ann = sorted(
        int(rows.nth(k).get_attribute("data-game") or "")
        for k in range(rows.count())
        if "ann" in [seat.split(" ")[0] for seat in rows.nth(k).locator("span.seat").all_inner_texts()]
    )
    ann.goto(f"{live.base}/leagues/ladder/bots/ann.html")
    own = ann.locator("#final-games tbody tr")
    assert sorted(int(own.nth(k).get_attribute("data-game") or "") for k in range(own.count())) == played_by_ann
    row = ann.locator(f"#final-games tbody tr[data-game='{index}']")
    assert row.locator("a.own-seat").inner_text() == f"seat {seat}"
    row.locator("a.own-log").click()
    assert ann.locator("h2").inner_text() == f"ann in the final's game {index}"
    page.goto(f"{live.base}/leagues/ladder/bots/ann.html")  # bob reads ann's page: the games, no seat, no log
    assert page.locator("#final-games tbody tr").count() == len(played_by_ann)
    assert page.locator("#final-games a.own-log, #final-games a.own-seat").count() == 0
