"""What an entrant sees of its own bot on the live pages: its bot's versions and games, each game from its seat and
the bot's log of it; another entrant, the entry token and another bot's token are refused, an anonymous caller is
asked for a token, the organizer sees all; nothing of a set still being played is shown, its logs included."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rage_referee.cli import app
from rage_referee.hosted.bot_logs import league_logs
from rage_referee.hosted.versions import VersionEntry
from rage_referee.play.finished import FinishedGame
from rage_referee.seats.process import BotProcess
from typer.testing import CliRunner

from tests.helpers.report import Live, league_file, live_contest, stored
from tests.referee.report.test_report_live import get

OWNERS = {"raiser": "alice", "greedy": "bob"}


def said(game: int) -> str:
    return f"raiser says game {game}"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[FinishedGame]:
    """The first 18 games of a league of duplicate sets of six: sets 0, 1 and 2."""
    file = league_file(tmp_path_factory.mktemp("played"), games=24, duplicate=True)
    assert CliRunner().invoke(app, ["league", "run", str(file)]).exit_code == 0
    return stored(file)[:18]


def raisers(games: list[FinishedGame], set_id: int) -> list[int]:
    """The games of set ``set_id`` that bot raiser played."""
    return [game.index for game in games if game.set_id == set_id and "raiser" in game.figures.seats]


@pytest.fixture
def live(tmp_path: Path, played: list[FinishedGame]) -> Iterator[Live]:
    """The league "cup" with games 0-16 stored (set 2 still being played: its game 17 is not), raiser alice's bot
    and greedy bob's; raiser's log says which game it is in, one game of set 1 at once with one of set 2."""
    folder = league_logs(tmp_path / "submissions", "cup")
    process = BotProcess("unused", folder / "raiser.log")
    folder.mkdir(parents=True)
    *alone, beside = raisers(played, 1)
    for game in raisers(played, 0) + alone + raisers(played, 2)[1:]:
        process.game_started(game)
        with process.log_path.open("a") as log:
            log.write(said(game) + "\n")
        process.game_ended(game)
    unreleased = raisers(played, 2)[0]
    process.game_started(beside)
    process.game_started(unreleased)
    with process.log_path.open("a") as log:
        log.write(said(beside) + "\n" + said(unreleased) + "\n")
    process.game_ended(beside)
    process.game_ended(unreleased)
    with live_contest(tmp_path, played, shown=17, owners=OWNERS) as served:
        yield served


def log_path(game: int, bot: str = "raiser") -> str:
    return f"/leagues/cup/logs/{bot}/{game:05d}.html"


def test_the_owner_and_the_organizer_read_the_bots_log_of_a_game(live: Live, played: list[FinishedGame]) -> None:
    game = raisers(played, 1)[0]
    seat = played[game].figures.seats.index("raiser")
    for token in (live.entrants["alice"], live.bot, live.admin):  # its entrant, its own token, the organizer
        page = get(live, log_path(game), token)
        assert page.status_code == 200
        assert f'<pre class="bot-log">{said(game)}\n</pre>' in page.text
        assert f"Seat {seat}." in page.text
    assert get(live, log_path(game, "greedy"), live.admin).status_code == 404  # greedy plays at its address


def test_no_one_else_reads_it(live: Live, played: list[FinishedGame]) -> None:
    path = log_path(raisers(played, 1)[0])
    for token in (live.entrants["bob"], live.entry, "greedy" * 8):  # another entrant, the entry token, another bot
        refused = get(live, path, token)
        assert refused.status_code == 403
        assert refused.text == "only the owner of bot 'raiser' or the organizer may read its log"
    anonymous = get(live, path, None)
    assert anonymous.status_code == 401  # the sign-in form, saying why
    assert '<form method="post" action="/login">' in anonymous.text and "no token" in anonymous.text
    assert said(raisers(played, 1)[0]) not in anonymous.text


def test_a_log_of_a_set_still_being_played_is_withheld_like_its_games(live: Live, played: list[FinishedGame]) -> None:
    unreleased, beside = raisers(played, 2)[0], raisers(played, 1)[-1]
    for token in (live.entrants["alice"], live.admin):
        assert get(live, log_path(unreleased), token).status_code == 404
        assert get(live, f"/leagues/cup/games/{unreleased:05d}.html", token).status_code == 404
        withheld = get(live, log_path(beside), token)  # its process played game `unreleased` meanwhile
        assert withheld.status_code == 404 and "withheld" in withheld.text
    live.finish(replace(played[17]))  # set 2 is whole
    deadline = time.monotonic() + 20
    while (page := get(live, log_path(unreleased), live.entrants["alice"])).status_code != 200:
        assert time.monotonic() < deadline, page.text
        time.sleep(0.2)
    assert said(unreleased) in page.text
    both = get(live, log_path(beside), live.entrants["alice"]).text
    assert f"{said(beside)}\n{said(unreleased)}\n</pre>" in both


def test_the_owner_sees_each_game_from_its_seat_and_no_one_else_does(live: Live, played: list[FinishedGame]) -> None:
    game = played[raisers(played, 1)[0]]
    seat = str(game.figures.seats.index("raiser"))
    path = f"/leagues/cup/games/{game.index:05d}"
    assert get(live, f"{path}.{seat}.js", live.entrants["alice"]).status_code == 200
    own = get(live, f"{path}.html", live.entrants["alice"]).text
    log_link = f'<a class="own-log" href="../logs/raiser/{game.index:05d}.html">raiser</a>'
    assert f'<option value="{seat}">' in own and log_link in own
    assert get(live, f"{path}.all.js", live.entrants["alice"]).status_code == 403
    assert get(live, f"{path}.html", live.admin).text.count('class="own-log"') == 1  # greedy's log is not here
    for token in (live.entrants["bob"], live.entry):
        assert get(live, f"{path}.{seat}.js", token).status_code == 403
        page = get(live, f"{path}.html", token).text
        assert f'<option value="{seat}">' not in page and 'class="own-log"' not in page


def test_a_bots_page_lists_its_versions_and_its_owner_finds_each_games_seat_and_log(
    live: Live, played: list[FinishedGame]
) -> None:
    versions, league_id = live.contest.submissions.versions, live.contest.registry.league("cup").league_id
    built = datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC)
    for k, (ok, detail) in enumerate(((True, ""), (False, "rage-bot.toml: build: pip failed <boom>"), (True, ""))):
        entry = VersionEntry(
            "raiser", f"sha256:{str(k) * 64}", "unused", 1, ok, detail, 2.5 + k, built.replace(day=k + 1)
        )
        versions.add(entry)
    versions.pin(league_id, {"raiser": f"sha256:{'0' * 64}"})
    public = get(live, "/leagues/cup/bots/raiser.html", live.entrants["bob"]).text
    rows = [
        ("2222222222222222", "2026-05-03 12:00:00 UTC", "4.5", "built"),
        ("1111111111111111", "2026-05-02 12:00:00 UTC", "3.5", "failed to build"),
        ("0000000000000000", "2026-05-01 12:00:00 UTC", "2.5", "plays in this league"),
    ]
    for row in rows:
        assert '<tr><td>{}</td><td>{}</td><td>{}</td><td class="name">{}</td></tr>'.format(*row) in public
    assert "pip failed" not in public and 'class="own-log"' not in public and 'class="own-seat"' not in public
    own = get(live, "/leagues/cup/bots/raiser.html", live.entrants["alice"]).text
    assert "rage-bot.toml: build: pip failed &lt;boom&gt;" in own
    logged = raisers(played, 0) + raisers(played, 1)[:-1]  # the last of set 1 shared its process with set 2
    for game in logged:
        assert f'<a class="own-log" href="../logs/raiser/{game:05d}.html">stderr</a>' in own
    assert own.count('class="own-log"') == len(logged)
    seat = played[logged[0]].figures.seats.index("raiser")
    assert f'<a class="own-seat" href="../games/{logged[0]:05d}.html#view={seat}">seat {seat}</a>' in own
    assert own.count('class="own-seat"') == len(raisers(played, 0) + raisers(played, 1))
