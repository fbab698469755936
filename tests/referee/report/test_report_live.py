"""The hosted referee's pages in headless Chromium: token rules, and a page that follows its league live."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from rage_referee.cli import app
from rage_referee.hosted import messages
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.report.live import COOKIE
from rage_referee.seats import free_port, stop_group
from typer.testing import CliRunner

from tests.helpers.hosted import ipv6_loopback
from tests.helpers.report import Live, chromium, league_file, live_contest, page_text, stored


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """A contest whose league holds the first 17 of 18 games of a league run locally (three duplicate sets of six
    games, the last still being played; the run plays a whole round, four sets), its pages served."""
    folder = tmp_path_factory.mktemp("live")
    file = league_file(folder / "played", games=24, duplicate=True)
    assert CliRunner().invoke(app, ["league", "run", str(file)]).exit_code == 0
    with live_contest(folder, stored(file)[:18], shown=17) as served_live:
        yield served_live


def get(live: Live, path: str, token: str | None) -> httpx.Response:
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    return httpx.get(f"{live.base}{path}", headers=headers, timeout=20)


def test_every_page_needs_a_token(live: Live) -> None:
    for path in ("/", "/leagues/cup/index.html", "/leagues/cup/games/00000.all.js", "/leagues/cup/events"):
        reply = get(live, path, None)
        assert reply.status_code == 401, path
        assert "token" in reply.text.lower()
    assert get(live, "/leagues/cup/index.html", "not-a-token-of-this-contest").status_code == 401


def test_replay_views_follow_the_token(live: Live) -> None:
    game = next(game for game in live.games[:12] if "raiser" in game.figures.seats)
    seat = str(game.figures.seats.index("raiser"))
    other = next(str(k) for k in range(3) if str(k) != seat)
    path = f"/leagues/cup/games/{game.index:05d}"
    for view in ("all", "public", "0", "1", "2"):
        assert get(live, f"{path}.{view}.js", live.admin).status_code == 200
    assert get(live, f"{path}.{seat}.js", live.bot).status_code == 200
    assert get(live, f"{path}.public.js", live.bot).status_code == 200
    for token, view in ((live.bot, "all"), (live.bot, other), (live.entry, seat), (live.entry, "all")):
        assert get(live, f"{path}.{view}.js", token).status_code == 403, (view, token == live.bot)
    assert "RageReplay.load" in get(live, f"{path}.public.js", live.entry).text
    page = get(live, f"{path}.html", live.bot).text
    assert f'<option value="{seat}">' in page and '<option value="all">' not in page


def test_nothing_of_a_set_still_being_played_is_shown(live: Live) -> None:
    # games 12-16 of set 2 are stored, its game 17 is not: their hands, seeds and scores are the set's deal
    assert [game.set_id for game in live.games] == [0] * 6 + [1] * 6 + [2] * 6
    for game in (12, 16):
        for token in (live.entry, live.bot):
            for path in (f"games/{game:05d}.public.js", f"games/{game:05d}.html"):
                assert get(live, f"/leagues/cup/{path}", token).status_code == 404, (game, path)
    listed = get(live, "/leagues/cup/games-001.html", live.entry).text
    assert listed.count("<tr data-game=") == 12 and 'data-game="12"' not in listed
    assert f"<td>{live.games[12].seed}</td>" not in listed and f"<td>{live.games[11].seed}</td>" in listed
    assert get(live, "/leagues/cup/games/00011.public.js", live.entry).status_code == 200  # set 1 is whole


def test_the_pages_count_the_games_of_whole_sets_alone(live: Live) -> None:
    # the list of leagues said 17 / 24 and a league's header 17 games: how far set 2 has gone, to any token
    for token in (live.entry, live.bot, live.admin):
        assert "cup running 12 / 24" in page_text(get(live, "/", token).text)
        count = re.search(r'id="games-count">([^<]*)<', get(live, "/leagues/cup/index.html", token).text)
        assert count is not None and count[1] == "12 games", count
    # a league's status event (it is paused, resumed) counted every game stored too, on the page's event stream
    league = live.contest.registry.league("cup")
    changed = messages.status_event("cup", league.status, live.contest.store.count(league.league_id), 24)
    with httpx.Client(base_url=live.base, timeout=20) as client:
        headers = {"authorization": f"Bearer {live.entry}"}
        with client.stream("GET", "/leagues/cup/events", headers=headers) as reply:
            lines = reply.iter_lines()
            assert json.loads(next(line for line in lines if line.startswith("data:"))[5:])["games_done"] == 12
            live.loop.call_soon_threadsafe(live.contest.hub.publish, changed)
            status = next(line for line in lines if line.startswith("data:") and '"status"' in line)
            lines.close()
    assert json.loads(status[5:])["games_done"] == 12, status


def test_a_league_cancelled_with_a_set_unplayed_counts_every_game_it_stored(live: Live, tmp_path: Path) -> None:
    # the list of leagues kept the count it read while the league ran, where its pages show every game
    with live_contest(tmp_path, live.games[:17], shown=17) as cancelled:
        assert "cup running 12 / 24" in page_text(get(cancelled, "/", cancelled.entry).text)

        async def cancel() -> None:
            cancelled.contest.registry.set_status("cup", LeagueStatus.CANCELLED)

        asyncio.run_coroutine_threadsafe(cancel(), cancelled.loop).result(10)
        assert "cup cancelled 17 / 24" in page_text(get(cancelled, "/", cancelled.entry).text)
        assert "17 games" in get(cancelled, "/leagues/cup/index.html", cancelled.entry).text


def test_the_live_page_updates_when_a_game_finishes(live: Live) -> None:
    with chromium() as browser:
        context = browser.new_context()
        host = live.base.split("//")[1].split(":")[0]
        context.add_cookies([{"name": COOKIE, "value": live.entry, "domain": host, "path": "/"}])
        page = context.new_page()
        page.goto(f"{live.base}/leagues/cup/index.html")
        assert page.locator("#games-count").inner_text() == "12 games"  # set 2 is still being played
        assert page.locator("table.games tbody tr").count() == 12
        page.wait_for_function("document.body.dataset.following === 'yes'")  # the event stream is subscribed
        live.finish(replace(live.games[17]))
        page.wait_for_function("document.getElementById('games-count').textContent === '18 games'", timeout=20000)
        assert page.locator("table.games tbody tr[data-game='17']").count() == 1
        assert "point estimates" in page.locator("#standings").inner_text()
        assert "game 17 finished" in page.locator("#feed").inner_text()
        context.close()


def test_login_sets_the_cookie(live: Live) -> None:
    with httpx.Client(base_url=live.base, timeout=20) as client:
        reply = client.post("/login", data={"token": live.entry})
        assert reply.status_code == 303
        assert client.get("/").status_code == 200
        assert "cup" in client.get("/").text
        assert client.post("/login", data={"token": "wrong-token-wrong-token"}).status_code == 401


def test_a_sign_in_form_past_its_size_is_refused_unread(live: Live) -> None:
    # anyone may post it, without a token: the whole of a body of any size was held in memory, twice over
    with httpx.Client(base_url=live.base, timeout=20) as client:
        big = {"token": live.entry, "padding": "x" * 4096}
        reply = client.post("/login", data=big)
        assert (reply.status_code, reply.text) == (413, "the sign-in form takes at most 4096 bytes")

        def stream() -> Iterator[bytes]:  # no Content-Length: refused once 4 KiB have come
            yield f"token={live.entry}&padding=".encode()
            yield from [b"x" * 1024] * 64

        assert client.post("/login", content=stream()).status_code == 413
        assert client.get("/").status_code == 401  # no cookie was set
        assert client.post("/login", data={"token": live.entry}).status_code == 303


@contextmanager
def referee_serving(folder: Path, admin: str, *options: str) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``rage referee serve`` with ``options`` (its own gRPC port), once it has printed where its pages are;
    stopped with SIGTERM after (it must exit 0). Yields the process and its log."""
    (folder / "admin.token").write_text(admin + "\n")
    argv = [
        str(Path(sys.executable).with_name("rage")), "referee", "serve", "--port", str(free_port()),
        "--db", str(folder / "referee.sqlite"), *options,
        "--admin-token-file", str(folder / "admin.token"), "--entry-token-file", str(folder / "entry.token"),
    ]  # fmt: skip
    log = folder / "referee.log"
    with log.open("wb") as handle:
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=handle, stderr=handle, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while "league pages on" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield process, log
    finally:
        stop_group(process, 10.0)
    assert process.returncode == 0, log.read_text()


def test_referee_serve_http_serves_the_pages_and_stops_on_sigterm(tmp_path: Path) -> None:
    admin, http_port = secrets.token_urlsafe(24), free_port()
    with referee_serving(tmp_path, admin, "--host", "127.0.0.1", "--http", str(http_port)) as (_, log):
        reply = httpx.get(f"http://127.0.0.1:{http_port}/", headers={"authorization": f"Bearer {admin}"})
        assert reply.status_code == 200 and "Leagues" in reply.text
        assert httpx.get(f"http://127.0.0.1:{http_port}/").status_code == 401
        assert f"http://127.0.0.1:{http_port}/" in log.read_text()


def test_pages_on_the_default_host_take_ipv4_and_ipv6_and_say_their_port(tmp_path: Path) -> None:
    # the default host [::] is every address of both families, as for the gRPC port: an IPv4 browser gets
    # the pages too; with --http 0 the line names the port bound, in a URL that opens
    admin = secrets.token_urlsafe(24)
    with referee_serving(tmp_path, admin, "--http", "0") as (_, log):
        found = re.search(r"league pages on http://localhost:(\d+)/ ", log.read_text())
        assert found is not None and found[1] != "0", log.read_text()
        for host in ("127.0.0.1", "[::1]") if ipv6_loopback() else ("127.0.0.1",):
            reply = httpx.get(f"http://{host}:{found[1]}/", headers={"authorization": f"Bearer {admin}"})
            assert reply.status_code == 200 and "Leagues" in reply.text


@pytest.mark.parametrize("host", ["127.0.0.1", None])
def test_pages_on_a_port_in_use_are_one_line(tmp_path: Path, host: str | None) -> None:
    # uvicorn bound a host given itself, and on failing exited the whole referee: exit 3 and a traceback
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        argv = [
            "referee", "serve", "--port", str(free_port()),
            "--db", str(tmp_path / "referee.sqlite"), "--http", str(port), *(["--host", host] if host else []),
        ]  # fmt: skip
        done = CliRunner().invoke(app, argv)
    assert done.exit_code == 1, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output
    assert "Traceback" not in done.stderr
    shown = host or "[::]"
    assert (
        done.stderr.splitlines()[-1]
        == f"cannot serve: cannot listen on {shown}:{port} for --http: Address already in use"
    )


def test_live_bot_page_has_its_bid_accuracy_and_faults(live: Live) -> None:
    page = get(live, "/leagues/cup/bots/raiser.html", live.entry)
    assert page.status_code == 200
    summary = re.search(r'<p class="summary">([^<]*)</p>', page.text)
    assert summary is not None and re.match(r"elo \d+, \d+ games,", summary[1]), "a point estimate: no interval"
    assert page.text.count("<tr><td>") >= 10  # a row per round size, 10 down to 1
    assert "forfeited" in page.text  # its latest 500 faults, the bot_error that forfeited it long before
    assert get(live, "/leagues/cup/bots/nobody.html", live.entry).status_code == 404
    assert get(live, "/leagues/cup/games-001.html", live.entry).text.count("<tr data-game=") >= 11
    assert get(live, "/leagues/cup/games-002.html", live.entry).status_code == 404
    assert get(live, "/leagues/nowhere/index.html", live.entry).status_code == 404


def test_the_live_standings_count_forfeits_as_the_contest_does(live: Live) -> None:
    """The pages rated a contest's league with forfeits unrated, where GetStandings counts them as losses (a
    contest's default), and both shared one cached table: whichever asked first decided the other's."""
    from rage_referee.faults import Forfeits
    from rage_referee.hosted.leagues import release_of
    from rage_referee.hosted.standings import point_table

    entry = live.contest.registry.league("cup")  # the games shown: whole sets (another test may finish one)
    released = release_of(entry).released(live.contest.store.games(entry.league_id, False))
    as_losses = {row.name: row.games for row in point_table(released, Forfeits.LOSS).rows}
    unrated = {row.name: row.games for row in point_table(released, Forfeits.UNRATED).rows}
    assert as_losses["raiser"] != unrated["raiser"]  # raiser was forfeited: the two ways differ
    index = page_text(get(live, "/leagues/cup/index.html", live.entry).text)
    shown = next(line.split() for line in index if line.split()[1:2] == ["raiser"])
    assert int(shown[3]) == as_losses["raiser"], shown
