"""The league report in a real browser (headless Chromium): standings, crosstable, replay viewer, seat views."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.league.ratings import counted, rating_table
from rage_referee.play.finished import FinishedGame
from rage_referee.report.tables import MAX_FORFEITS_LISTED
from rage_sdk.record import ruleset_of
from typer.testing import CliRunner

from tests.helpers.report import chromium, league_file, served, stored

runner = CliRunner()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[FinishedGame]]:
    directory = tmp_path_factory.mktemp("report")
    file = league_file(directory)
    assert runner.invoke(app, ["league", "run", str(file)]).exit_code == 0
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(directory / "site")])
    assert result.exit_code == 0, result.output
    return directory / "site", stored(file)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, errors


def test_standings_show_the_rating_table(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, games = site
    with served(directory) as base:
        page.goto(f"{base}/index.html")
        rows = page.locator("table.standings tbody tr")
        expected = rating_table(games)
        assert rows.count() == len(expected)
        for k, row in enumerate(expected):
            cells = rows.nth(k).locator("td")
            assert cells.nth(1).inner_text().strip() == row.name
            assert cells.nth(2).inner_text() == f"{row.elo:.0f}"
            assert cells.nth(5).inner_text() == str(row.games)
            assert cells.nth(9).inner_text() == str(row.faults)
        assert page.locator("svg[aria-label='ratings with 95% intervals'] circle").count() == len(expected)
        page.locator("table.standings a", has_text="raiser").click()
        assert page.locator("h2.bot-name").inner_text() == "raiser"
        faults = [  # (game, charged?) of each of raiser's faults
            (game.index, fault.charged)
            for game in games
            if "raiser" in game.figures.seats
            for fault in game.figures.faults
            if fault.seat == game.figures.seats.index("raiser")
        ]
        forfeited = [k for k, (_, charged) in enumerate(faults) if not charged]
        listed = [k for k, (_, charged) in enumerate(faults) if charged] + forfeited[:MAX_FORFEITS_LISTED]
        shown = page.locator("table.faults tbody tr td:first-child").all_inner_texts()
        assert shown == [str(faults[k][0]) for k in sorted(listed)]  # every charged fault, the first forfeits
        if len(forfeited) > MAX_FORFEITS_LISTED:
            left_out = len(forfeited) - MAX_FORFEITS_LISTED
            assert page.get_by_text(f"… and {left_out} more forfeited decisions not listed.").count() == 1


def test_crosstable_matches_the_store(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, games = site
    tally: dict[tuple[str, str], list[int]] = {}
    for game in counted(games):  # as the ratings count them: a forfeited seat's games are left out
        for a, place_a in zip(game.figures.seats, game.figures.places):
            for b, place_b in zip(game.figures.seats, game.figures.places):
                if a != b:
                    wdl = tally.setdefault((a, b), [0, 0, 0])
                    wdl[0 if place_a < place_b else 1 if place_a == place_b else 2] += 1
    with served(directory) as base:
        page.goto(f"{base}/index.html")
        cells = page.locator("table.crosstable td[data-wdl]")
        shown = {tuple(cells.nth(k).get_attribute("data-pair").split("|")): cells.nth(k) for k in range(cells.count())}
        assert set(shown) == set(tally)
        for pair, wdl in tally.items():
            assert shown[pair].locator(".wdl").inner_text() == "–".join(map(str, wdl))


def hand_of(page: Any, seat: int) -> list[str]:
    return page.locator(f"#board tr[data-seat='{seat}'] td.hand .card").all_inner_texts()


def test_replay_steps_through_the_game_with_the_record_cards(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, games = site
    game = next(game for game in games if game.figures.faults)
    record = game.record
    players = len(game.figures.seats)
    with served(directory) as base:
        page.goto(f"{base}/games/{game.index:05d}.html")
        page.wait_for_selector("#board tbody tr")
        first = record["rounds"][0]
        for seat in range(players):
            assert sorted(hand_of(page, seat)) == sorted(first["hands"][seat])
        for _ in range(players):  # through the bids to the first play
            page.keyboard.press("ArrowRight")
        # the card, then what a wild or change declares ("wild as g")
        assert page.locator("#decision").get_attribute("data-action").split(" ")[0] == first["plays"][0]["card"]
        page.keyboard.press("ArrowLeft")
        assert page.locator("#decision").get_attribute("data-action").startswith("bid ")
        plays = [play["card"] for round_ in record["rounds"] for play in round_["plays"]]
        shown = []
        page.keyboard.press("Home")
        total = int(page.locator("#slider").get_attribute("max")) + 1
        for _ in range(total):
            action = page.locator("#decision").get_attribute("data-action")
            if not action.startswith("bid"):
                shown.append(action.split(" ")[0])
            page.keyboard.press("ArrowRight")
        assert shown == plays
        assert page.locator("#position").inner_text() == f"{total} / {total}"
        page.locator("#slider").fill("0")
        assert page.locator("#position").inner_text() == f"1 / {total}"
        faulted = page.evaluate("RageReplay.states.filter(s => s.faults.length).length")
        assert faulted == len(game.figures.faults)


def test_a_seat_view_never_shows_another_seat_hand(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, games = site
    game = games[0]
    with served(directory) as base:
        page.goto(f"{base}/games/{game.index:05d}.html")
        page.select_option("#view", "1")
        page.wait_for_function("RageReplay.view === '1' && RageReplay.views['1'] && RageReplay.views['public']")
        assert page.evaluate("Object.keys(RageReplay.views).sort()") == ["1", "all", "public"]
        total = int(page.locator("#slider").get_attribute("max")) + 1
        for step in range(total):
            for seat in (0, 2):
                assert hand_of(page, seat) == [], f"step {step}: seat {seat}'s hand shown to seat 1"
                assert "hidden" in page.locator(f"#board tr[data-seat='{seat}'] td.hand").inner_text()
            page.keyboard.press("ArrowRight")
        assert not page.evaluate(
            "RageReplay.views['1'].frames.some(f => f.pile || Object.keys(f.hands || {}).some(k => k !== '1'))"
        )
        text = (directory / "games" / f"{game.index:05d}.1.js").read_text()
        assert '"0":' not in text and '"2":' not in text and "pile" not in text


def test_the_report_opens_from_disk(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, _ = site
    page.goto((directory / "index.html").as_uri())
    page.locator("table.games a").first.click()
    page.wait_for_selector("#board tbody tr")
    page.select_option("#view", "public")
    page.wait_for_function("RageReplay.view === 'public' && RageReplay.views['public'] && RageReplay.states.length > 0")
    assert page.locator("#board td.hand .card").count() == 0
    assert re.fullmatch(r"\d+ / \d+", page.locator("#position").inner_text())


def test_a_games_list_shows_each_seats_name_score_and_place(site: tuple[Path, list[FinishedGame]], page: Any) -> None:
    directory, games = site
    game = max(games, key=lambda game: game.index)
    with served(directory) as base:
        page.goto(f"{base}/games-001.html")
        seats = page.locator(f"table.games tr[data-game='{game.index}'] td.name span.seat")
        assert seats.count() == len(game.figures.seats)
        for seat, name in enumerate(game.figures.seats):
            total, place = game.figures.totals[seat], game.figures.places[seat]
            assert seats.nth(seat).inner_text().strip() == f"{name} {total} ({place})"
            assert f"place{place}" in seats.nth(seat).get_attribute("class").split()


def test_a_replay_page_has_a_summary_the_final_scores_and_every_trick(
    site: tuple[Path, list[FinishedGame]], page: Any
) -> None:
    directory, games = site
    game = games[0]
    figures, record = game.figures, game.record
    players = len(figures.seats)
    with served(directory) as base:
        page.goto(f"{base}/games/{game.index:05d}.html")
        page.wait_for_selector("#trick-history tbody tr")
        summary = page.locator("#game-summary").inner_text()
        winners = [name for name, place in zip(figures.seats, figures.places) if place == 1]
        assert summary.startswith(f"{ruleset_of(record['ruleset']).describe()}; {', '.join(figures.seats)}; ")
        assert f"winner {winners[0]}" in summary or f"winners {' and '.join(winners)}" in summary
        scores = ", ".join(f"{name} {total}" for name, total in zip(figures.seats, figures.totals))
        assert summary.endswith(f"scores {scores}")
        rows = page.locator("#final-scores tbody tr")
        shown = [rows.nth(k).locator("td").all_inner_texts() for k in range(rows.count())]
        expected = sorted(
            ([str(place), str(seat), name, str(total)] for seat, (name, total, place) in
             enumerate(zip(figures.seats, figures.totals, figures.places))),
            key=lambda row: (int(row[0]), int(row[1])),
        )  # fmt: skip
        assert shown == expected
        tricks = page.locator("#trick-history tbody tr")
        plays = [play for round_ in record["rounds"] for play in round_["plays"]]
        assert tricks.count() == len(plays) // players
        first = [figures.seats[play["seat"]] + " " + play["card"] for play in record["rounds"][0]["plays"][:players]]
        cells = tricks.nth(0).locator("td").all_inner_texts()
        assert cells[:3] == ["1", "1", first[0].split(" ")[0]] and cells[3].startswith(first[0])
        assert cells[4] in figures.seats
