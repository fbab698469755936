"""An entrant in headless Chromium: signed in, it reads what its bot wrote to its stderr in a game, from the bot's
page; another entrant signed in finds no such link, and is refused the log's page."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from rage_referee.cli import app
from rage_referee.hosted.bot_logs import league_logs
from rage_referee.play.finished import FinishedGame
from typer.testing import CliRunner

from tests.helpers.league import GREEDY, HEURISTIC, RANDOM, TEST_BOTS, stored, write_league
from tests.helpers.report import Live, chromium, live_contest, signed_in


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """The first 18 games of a league of duplicate sets where raiser, alice's bot, is launched by the referee and
    writes a line to its stderr as each game starts (its log is the hosted league's), greedy bob's; the first two
    sets are shown, the third is still being played."""
    folder = tmp_path_factory.mktemp("owner")
    bots = {"heuristic": HEURISTIC, "greedy": GREEDY, "random": RANDOM, "raiser": f"python {TEST_BOTS / 'diarist.py'}"}
    extra = "concurrency = 1\nduplicate = true"  # one game at a time: each game's part of the log is its own
    file = write_league(folder / "played", name="mini", games=24, seed=3, bots=bots, extra=extra)
    result = CliRunner().invoke(app, ["league", "run", str(file)])
    assert result.exit_code == 0, result.output
    shutil.copytree(folder / "played" / "logs" / file.stem, league_logs(folder / "submissions", "cup"))
    with live_contest(folder, stored(file)[:18], shown=17, owners={"raiser": "alice", "greedy": "bob"}) as served:
        yield served


@pytest.mark.slow
def test_an_entrant_reads_its_bots_stderr_of_a_game_and_another_does_not(live: Live) -> None:
    games: dict[int, FinishedGame] = {game.index: game for game in live.games[:12]}
    with chromium() as browser:
        alice = signed_in(browser, live.base, live.entrants["alice"])
        alice.click("text=cup")
        alice.locator("table.standings a", has_text="raiser").click()
        assert alice.locator("h2.bot-name").inner_text() == "raiser"
        links = alice.locator("table.games a.own-log")
        played = [index for index, game in games.items() if "raiser" in game.figures.seats]
        assert links.count() == len(played)
        row = alice.locator("table.games tbody tr").first
        index = int(row.get_attribute("data-game") or "")
        assert index == max(played)  # the most recent first
        row.locator("a.own-log").click()
        seat = games[index].figures.seats.index("raiser")
        assert alice.locator("h2").inner_text() == f"raiser in game {index}"
        lines = alice.locator("pre.bot-log").inner_text().splitlines()
        assert [line for line in lines if line.startswith("diarist")] == [f"diarist <b>: game {index} at seat {seat}"]
        assert sum(line.startswith("--- game ") for line in lines) == 1  # the SDK's header of this game alone
        alice.locator("h2 a").click()  # the game, from raiser's seat
        assert alice.locator("#view").input_value() == str(seat)
        log_url = f"{live.base}/leagues/cup/logs/raiser/{index:05d}.html"

        bob = signed_in(browser, live.base, live.entrants["bob"])
        bob.goto(f"{live.base}/leagues/cup/bots/raiser.html")
        assert bob.locator("h2.bot-name").inner_text() == "raiser"
        assert bob.locator("table.games tbody tr").count() == len(played)
        assert bob.locator("a.own-log").count() == 0 and bob.locator("a.own-seat").count() == 0
        reply = bob.goto(log_url)
        assert reply is not None and reply.status == 403
        assert bob.locator("body").inner_text() == "only the owner of bot 'raiser' or the organizer may read its log"
        assert "diarist" not in bob.content()
