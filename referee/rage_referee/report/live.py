"""The hosted referee's pages (``rage referee serve --http PORT``): the report of every league, live.

Read-only, over the contest's own store and event hub (Starlette, served by uvicorn on a thread and
event loop of its own, :mod:`.front`: the pages never run on the loop that plays the games, and take
at most their share of a core). A page is rendered once per league snapshot (until the league's next
stored game, or :data:`REFRESH` seconds while it runs) and served from there. Every page needs a
token, as every gRPC call does: sent as ``Authorization: Bearer <token>`` or kept in a cookie by
``/login``. The organizer sees every view
of every replay; a bot's owner (its own token, or its entrant's) sees its seat's view of its games and
the spectator's view of all; any other token sees the spectator's view. A submitted bot's owner and the
organizer also read what the bot wrote to its log during each game (``logs/BOT/NNNNN.html``,
:mod:`~rage_referee.hosted.bot_logs`); anyone else is refused. Standings, games and faults are what
``Watch`` shows every token. Pages follow their league through server-sent events (``events``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import parse_qs

import uvicorn
from rage_sdk.errors import IllegalActionError
from rage_sdk.record import GameRecord, check_shape
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ..hosted.auth import Caller, Role
from ..hosted.bot_logs import game_log, league_logs, logged_games
from ..hosted.contest import Contest
from ..hosted.definition import forfeits_of
from ..hosted.errors import ContestError, Unauthenticated
from ..hosted.events import Watcher
from ..hosted.ladder_definition import is_ladder
from ..hosted.ladder_final import final_name
from ..hosted.ladder_messages import ladder
from ..hosted.ladder_table import LadderState
from ..hosted.leagues import release_of
from ..hosted.messages import STATUS
from ..hosted.registry import LeagueEntry, LeagueStatus
from ..hosted.standings import point_table
from ..hosted.versions import VersionEntry
from ..play.finished import FinishedGame
from ..seats.spec import seat_address
from .front import (
    BACKLOG,
    ConnectionGate,
    CpuShare,
    Front,
    Home,
    Limits,
    QuietLog,
    WithinShare,
    guarded_protocol,
    quiet_uvicorn,
    start_front,
)
from .listening import listening_socket
from .pages import (
    League,
    OwnerView,
    VersionLine,
    bot_file,
    environment,
    render_bot,
    render_game,
    render_games,
    render_index,
    render_ladder,
    render_log,
    replay_script,
)
from .replays import SPECTATOR, replay_views, view_names
from .text import capped

P = ParamSpec("P")
T = TypeVar("T")
COOKIE = "rage_token"
MAX_FORM_BYTES = 4096
"""The sign-in form's body (a token is at most 256 characters): any caller, without a token, may post one."""
GRACE = 2
BODY_TIMEOUT = 10.0
"""Seconds the sign-in form's body has to arrive."""
"""Seconds open pages (event streams) get to close when the referee stops."""
REFRESH = 5.0
"""Seconds a running league's figures are kept before its newer games are drawn in, at least."""
REBUILD_SHARE = 0.05
"""A running league's snapshot is kept until making it and its pages took this share of the time since:
a big league's figures and bot pages (every game read) are not made again every :data:`REFRESH` seconds."""
CACHED_PAGES = 512
"""Rendered pages kept of a league's snapshot (a finished league's is kept until the referee stops)."""
ASSETS = {"report.css": "text/css", "replay.js": "text/javascript", "live.js": "text/javascript"}
HTTP_STATUS = {"NOT_FOUND": 404, "RESOURCE_EXHAUSTED": 429}
"""A refusal's HTTP status by its gRPC code; any other refusal is 400."""
GAMES_LIST = re.compile(r"games-(\d{3})\.html")
GAME_PATH = re.compile(r"(\d{5})\.html")
FINAL_GAME_PATH = re.compile(r"final/(\d{5})\.html")
FINAL_LOG_PATH = re.compile(r"final/logs/([^/]+)/(\d{5})\.html")
FINAL_VIEW_PATH = re.compile(r"final/(\d{5})\.(all|public|\d{1,2})\.js")
VIEW_PATH = re.compile(r"(\d{5})\.(all|public|\d{1,2})\.js")
LOG_PATH = re.compile(r"logs/([^/]+)/(\d{5})\.html")


def allowed_views(caller: Caller, game: FinishedGame, owners: Mapping[str, str]) -> list[str]:
    """The replay views ``caller`` may see of ``game``, the fullest first: the seats of the bots it owns
    (``owners``: each bot's entrant, empty for the organizer's; :meth:`~rage_referee.hosted.auth.Caller.owns`)."""
    if caller.role is Role.ADMIN:
        return view_names(len(game.figures.seats))
    seats = game.figures.seats
    own = [str(seat) for seat, name in enumerate(seats) if caller.owns(name, owners.get(name, ""))]
    return [*own, SPECTATOR]


def version_lines(
    versions: Sequence[VersionEntry], pinned: str | None, rated: Mapping[str, str] | None = None
) -> list[VersionLine]:
    """A submitted bot's versions as its page in a hosted league lists them, newest first; ``pinned`` is
    the version the league plays; ``rated``: in a ladder, each version's status and rating there."""
    rated = rated or {}

    def status(entry: VersionEntry) -> str:
        if entry.version in rated:
            return rated[entry.version] + (", pinned for the final" if entry.version == pinned else "")
        return "plays in this league" if entry.version == pinned else "built" if entry.ok else "failed to build"

    return [
        VersionLine(entry.short, entry.submitted_at, entry.seconds, status(entry), "" if entry.ok else entry.detail)
        for entry in versions
    ]


def ladder_lines(state: LadderState) -> dict[str, str]:
    """Each version's line on a ladder: its status and rating, by version (``sha256:HEX``)."""
    return {
        row.version.version: (
            f"{row.status}{f' #{row.rank}' if row.rank else ''}: rating {row.rating.conservative:.2f} "
            f"(mu {row.rating.mu:.2f}, sigma {row.rating.sigma:.2f}), {row.rating.sets} sets, {row.rating.games} games"
        )
        for row in state.rows
    }


class PageCache:
    """Rendered pages by path: the :data:`CACHED_PAGES` used last."""

    def __init__(self) -> None:
        self._pages: OrderedDict[str, str] = OrderedDict()

    def get(self, path: str) -> str | None:
        page = self._pages.get(path)
        if page is not None:
            self._pages.move_to_end(path)
        return page

    def put(self, pages: Mapping[str, str]) -> None:
        for path, page in pages.items():
            self._pages[path] = page
            self._pages.move_to_end(path)
        while len(self._pages) > CACHED_PAGES:
            self._pages.popitem(last=False)


@dataclass
class Snapshot:
    """One league as its pages show it, until its next game (or :data:`REFRESH` seconds while it runs)."""

    count: int
    made: float
    league: League
    cost: float = 0.0
    """Seconds spent making it and rendering its pages (reading, fitting, rendering)."""
    pages: PageCache = field(default_factory=PageCache)
    """Pages rendered from it, by path (a game's page by path and the views it offers)."""
    owners: Mapping[str, str] = field(default_factory=dict)
    """The entrant of each of the league's bots (empty for the organizer's, or one no longer registered)."""
    final: Sequence[FinishedGame] = ()
    """A finalized ladder's final's games, those shown (their duplicate sets whole), most recent first."""


class LivePages:
    """The pages of every league of one contest, each league's figures kept in a :class:`Snapshot`."""

    def __init__(self, contest: Contest, home: Home) -> None:
        self.contest = contest
        self.home = home
        """The referee's loop: the event hub and the standings are asked there."""
        self._snapshots: dict[str, Snapshot] = {}
        self._shown: dict[str, tuple[tuple[int, bool], int]] = {}
        """Each league's count of stored games and whether it was over, and its count of games shown (their
        duplicate sets whole), as last read."""
        self._renders: dict[str, asyncio.Lock] = {}
        self._builds: dict[str, asyncio.Lock] = {}
        self._finals: dict[str, int] = {}
        """Each finalized ladder's final's league, by the ladder's name."""

    def caller(self, request: Request) -> Caller:
        token = request.cookies.get(COOKIE)
        header = request.headers.get("authorization")
        metadata = [("authorization", header)] if header else [("authorization", f"Bearer {token}")] if token else []
        return self.contest.auth.identify(metadata)

    async def snapshot(self, request: Request, fresh: bool = False) -> tuple[LeagueEntry, Snapshot]:
        """The league's snapshot; a running league's standings are point estimates (no bootstrap). It holds
        the released games alone (:func:`~rage_referee.hosted.leagues.release_of`): nothing of a duplicate
        set is shown, to any token, before all of its games are stored."""
        entry = self.contest.registry.league(request.path_params["league"])
        cached = self._snapshots.get(entry.name)
        if cached is not None and self._keeps(entry, cached, fresh):
            return entry, cached
        async with self._builds.setdefault(entry.name, asyncio.Lock()):  # one build for every caller waiting
            cached = self._snapshots.get(entry.name)
            if cached is not None and self._keeps(entry, cached, fresh):
                return entry, cached
            stored, cost = await _timed(self.contest.store.games, entry.league_id, False)
            final_stored, final_cost = await _timed(self._final_games, entry)
            cost += final_cost
            games = release_of(entry).released(stored)
            forfeits = forfeits_of(entry.definition)  # as GetStandings counts them (a contest's: as losses)
            if entry.status is LeagueStatus.RUNNING or len(games) < len(stored):  # sets still being played: out
                table, fit = await _timed(point_table, games, forfeits)
                cost += fit
            else:
                table = await self.home.run(self.contest.standings.table(entry.league_id, forfeits))
            indices = {game.index for game in games}
            league = League(
                entry.name,
                games,
                table.rows,
                indices,
                live=True,
                intervals=table.intervals,
                audits=table.audits,
                collusion=table.collusion,
                ladder=is_ladder(entry.definition),
                forfeits=forfeits,
            )
            ladder = league.ladder  # every bot plays a ladder
            owners = {bot.name: bot.entrant for bot in self.contest.registry.bots() if ladder or bot.name in entry.bots}
            final = sorted(release_of(entry).released(final_stored), key=lambda game: -game.index)
            count = len(stored) + len(final_stored)
            snapshot = Snapshot(count, time.monotonic(), league, cost=cost, owners=owners, final=final)
            self._snapshots[entry.name] = snapshot
            return entry, snapshot

    def _keeps(self, entry: LeagueEntry, cached: Snapshot, fresh: bool) -> bool:
        """Whether ``cached`` still shows the league: it has every game stored, or the league runs and the
        snapshot is younger than :data:`REFRESH` seconds (unless ``fresh``) and than its cost allows."""
        if cached.count == self._stored(entry, cached.league.ladder):
            return True
        if entry.status is not LeagueStatus.RUNNING:
            return False
        kept = cached.cost / REBUILD_SHARE
        return _age(cached) < (kept if fresh else max(REFRESH, kept))

    def _final_league(self, entry: LeagueEntry, ladder: bool | None = None) -> int | None:
        """The league its final's games are stored in, for a finalized ladder (``ladder``: whether the league
        is one, when known): asked of the store until there is one."""
        known = self._finals.get(entry.name)
        if known is not None or not (is_ladder(entry.definition) if ladder is None else ladder):
            return known
        final = self.contest.leagues.book.final(entry.league_id)
        if final is not None:
            self._finals[entry.name] = final.final_league_id
        return None if final is None else final.final_league_id

    def _final_games(self, entry: LeagueEntry) -> list[FinishedGame]:
        """A finalized ladder's final's stored games (none for any other league)."""
        final = self._final_league(entry)
        return [] if final is None else self.contest.store.games(final, False)

    def _stored(self, entry: LeagueEntry, ladder: bool) -> int:
        """The league's stored games, with its final's for a finalized ladder."""
        final = self._final_league(entry, ladder)
        return self.contest.store.count(entry.league_id) + (0 if final is None else self.contest.store.count(final))

    async def shown_count(self, entry: LeagueEntry) -> int:
        """How many of the league's games are shown now (their duplicate sets whole, or the league over): the
        only count of its games the pages give anyone. Read once for every page while no game is stored and
        the league is not over."""
        release = release_of(entry)
        count = (self.contest.store.count(entry.league_id), release.over)
        cached = self._shown.get(entry.name)
        if cached is None or cached[0] != count:
            games = await asyncio.to_thread(self.contest.store.games, entry.league_id, False)
            cached = self._shown[entry.name] = ((len(games), release.over), len(release.released(games)))
        return cached[1]

    async def game(self, request: Request, index: int) -> tuple[LeagueEntry, League, FinishedGame]:
        entry, snapshot = await self.snapshot(request)
        if index not in snapshot.league.replays:  # finished since the snapshot, perhaps
            entry, snapshot = await self.snapshot(request, fresh=True)
        league = snapshot.league
        game = next((game for game in league.games if game.index == index), None)
        if game is None:
            raise LookupError(
                f"game {index} of {league.name} is not shown: it has not finished, or games dealt the same hands "
                "are still to be played"
            )
        return entry, league, game

    async def cached(self, snapshot: Snapshot, path: str, render: Callable[[], Mapping[str, str]]) -> str:
        """The page at ``path`` of ``snapshot``, rendered once (off the pages' loop, with any others
        ``render`` renders by the way) for every caller."""
        page = snapshot.pages.get(path)
        if page is None:
            async with self._renders.setdefault(snapshot.league.name, asyncio.Lock()):
                page = snapshot.pages.get(path)
                if page is None:
                    pages, cost = await _timed(render)
                    snapshot.cost += cost
                    snapshot.pages.put(pages)
                    page = pages[path]
        return page

    async def index(self, request: Request) -> str:
        entry, snapshot = await self.snapshot(request)
        if is_ladder(entry.definition):
            return await self.cached(snapshot, "index.html", lambda: {"index.html": self._ladder_page(entry, snapshot)})
        return await self.cached(snapshot, "index.html", lambda: {"index.html": render_index(snapshot.league)})

    def _ladder_page(self, entry: LeagueEntry, snapshot: Snapshot) -> str:
        """A ladder's front page: its leaderboard now, and its final's standings once there are (blocking)."""
        leagues = self.contest.leagues
        state = leagues.state(entry)
        final = leagues.final_standings(entry, state)
        return render_ladder(snapshot.league, ladder(entry.name, state), final, snapshot.final)

    async def games_list(self, request: Request, number: int) -> str:
        _, snapshot = await self.snapshot(request)
        path = f"games-{number:03d}.html"
        return await self.cached(snapshot, path, lambda: {path: render_games(snapshot.league, number)})

    async def bot(self, request: Request, name: str) -> str:
        """A bot's page, as everyone sees it or, for its owner and the organizer, with each game's seat view
        and the bot's log; the first asked of a snapshot renders every bot's both ways, from the games'
        records (bids by round size), which are let go once rendered."""
        caller = self.caller(request)
        entry, snapshot = await self.snapshot(request)
        bots = {bot_file(bot): bot for bot in snapshot.league.bots}
        if name not in bots:
            raise LookupError(f"no bot {name} in {entry.name}")
        owned = caller.owns(bots[name], snapshot.owners.get(bots[name], ""))

        def render_all() -> dict[str, str]:
            games = self.contest.store.games(entry.league_id)
            league = snapshot.league
            games = [game for game in games if game.index in league.replays]  # the released games alone
            full = League(
                league.name,
                games,
                league.rows,
                league.replays,
                live=True,
                intervals=league.intervals,
                audits=league.audits,
                collusion=league.collusion,
                ladder=league.ladder,
                forfeits=league.forfeits,
            )
            versions = self.contest.submissions.versions
            pins = versions.pins(entry.league_id)
            folder, shown = league_logs(self.contest.submissions.root, entry.name), self.shown(entry, league)
            final_folder, final_shown = self._final_logs(entry, snapshot)
            pages = {}
            rated = ladder_lines(self.contest.leagues.state(entry)) if is_ladder(entry.definition) else {}
            for file, bot in bots.items():
                lines = version_lines(versions.of(bot), pins.get(bot), rated)
                final_logged = logged_games(final_folder, bot, final_shown) if snapshot.final else set()
                owner = OwnerView(logged_games(folder, bot, shown), final_logged)
                pages[f"bots/{file}.html"] = render_bot(full, bot, lines, final_games=snapshot.final)
                pages[f"bots/{file}.html?owner"] = render_bot(full, bot, lines, owner, snapshot.final)
            return pages

        return await self.cached(snapshot, f"bots/{name}.html{'?owner' if owned else ''}", render_all)

    def shown(self, entry: LeagueEntry, league: League) -> Callable[[int], bool]:
        """Which games of ``league`` (a snapshot's) may be shown: those it shows, or any once the league is over."""
        over = release_of(entry).over
        return lambda game: over or game in league.replays

    async def bot_log(self, request: Request, file: str, index: int) -> str:
        """What a bot wrote to its log during game ``index``: for its owner and the organizer alone, once
        the game is shown (:class:`PermissionError` for another token, :class:`LookupError` before)."""
        caller = self.caller(request)
        entry, snapshot = await self.snapshot(request)
        name = next((bot for bot in snapshot.league.bots if bot_file(bot) == file), None)
        if name is None:
            raise LookupError(f"no bot {file} in {entry.name}")
        if not caller.owns(name, snapshot.owners.get(name, "")):
            raise PermissionError(f"only the owner of bot {capped(name, 60)!r} or the organizer may read its log")
        entry, league, game = await self.game(request, index)
        if name not in game.figures.seats:
            raise LookupError(f"bot {capped(name, 60)!r} did not play game {index}")
        folder = league_logs(self.contest.submissions.root, entry.name)
        log = await asyncio.to_thread(game_log, folder, name, index, self.shown(entry, league))
        return render_log(league, game, log)

    async def game_page(self, request: Request, index: int) -> str:
        """A game's page, with the views the caller may see, and a link to the log of each bot of it whose
        seat it may see (its own bots', every bot's for the organizer) where there is one."""
        entry, league, game = await self.game(request, index)
        _, snapshot = await self.snapshot(request)
        views = allowed_views(self.caller(request), game, snapshot.owners)
        folder, shown = league_logs(self.contest.submissions.root, entry.name), self.shown(entry, league)

        def render() -> str:
            seen = [game.figures.seats[int(view)] for view in views if view.isdigit()]
            return render_game(
                league, game, views, [name for name in seen if index in logged_games(folder, name, shown)]
            )

        if snapshot.league is not league:  # a newer snapshot came meanwhile
            return await asyncio.to_thread(render)
        key = f"games/{index:05d}.html?{','.join(views)}"
        return await self.cached(snapshot, key, lambda: {key: render()})

    async def replay(self, request: Request, index: int, view: str) -> str:
        entry, _, game = await self.game(request, index)
        _, snapshot = await self.snapshot(request)
        if view not in allowed_views(self.caller(request), game, snapshot.owners):
            raise PermissionError(f"this token may not see view {view} of game {index}")
        key = f"games/{index:05d}.{view}.js"

        def render() -> dict[str, str]:
            record = self.contest.store.record(entry.league_id, index) or {}
            try:
                faults = [fault.to_json() for fault in game.figures.faults]
                data = _replay_views(record, faults, view)
            except (ValueError, IllegalActionError) as error:
                raise LookupError(f"no replay of game {index}: {error}") from None
            return {key: replay_script(data)}

        return await self.cached(snapshot, key, render)

    async def final_game(self, request: Request, index: int) -> tuple[LeagueEntry, Snapshot, FinishedGame]:
        """Game ``index`` of a finalized ladder's final, once shown."""
        entry, snapshot = await self.snapshot(request)
        game = next((game for game in snapshot.final if game.index == index), None)
        if game is None:
            entry, snapshot = await self.snapshot(request, fresh=True)
            game = next((game for game in snapshot.final if game.index == index), None)
        if game is None:
            raise LookupError(
                f"game {index} of the final of {snapshot.league.name} is not shown: there is no final, it has not "
                "finished, or games dealt the same hands are still to be played"
            )
        return entry, snapshot, game

    def _final_logs(self, entry: LeagueEntry, snapshot: Snapshot) -> tuple[Path, Callable[[int], bool]]:
        """Where the ladder's final's bot logs are, and which of its games may be shown."""
        indices = {game.index for game in snapshot.final}
        over = release_of(entry).over
        return league_logs(self.contest.submissions.root, final_name(entry.name)), lambda game: over or game in indices

    async def final_game_page(self, request: Request, index: int) -> str:
        """A game of the ladder's final, with the views the caller may see and a link to the log of each bot
        of it whose seat it may see."""
        entry, snapshot, game = await self.final_game(request, index)
        views = allowed_views(self.caller(request), game, snapshot.owners)
        folder, shown = self._final_logs(entry, snapshot)

        def render() -> dict[str, str]:
            seen = [game.figures.seats[int(view)] for view in views if view.isdigit()]
            logs = [name for name in seen if index in logged_games(folder, name, shown)]
            return {key: render_game(snapshot.league, game, views, logs, final=True)}

        key = f"final/{index:05d}.html?{','.join(views)}"
        return await self.cached(snapshot, key, render)

    async def final_log(self, request: Request, file: str, index: int) -> str:
        """What a bot wrote to its log during game ``index`` of the ladder's final: for its owner and the
        organizer alone, once the game is shown."""
        caller = self.caller(request)
        entry, snapshot, game = await self.final_game(request, index)
        name = next((bot for bot in game.figures.seats if bot_file(bot) == file), None)
        if name is None:
            raise LookupError(f"bot {capped(file, 60)!r} did not play the final's game {index}")
        if not caller.owns(name, snapshot.owners.get(name, "")):
            raise PermissionError(f"only the owner of bot {capped(name, 60)!r} or the organizer may read its log")
        folder, shown = self._final_logs(entry, snapshot)
        log = await asyncio.to_thread(game_log, folder, name, index, shown)
        return render_log(snapshot.league, game, log, final=True)

    async def final_replay(self, request: Request, index: int, view: str) -> str:
        entry, snapshot, game = await self.final_game(request, index)
        if view not in allowed_views(self.caller(request), game, snapshot.owners):
            raise PermissionError(f"this token may not see view {view} of the final's game {index}")
        key = f"final/{index:05d}.{view}.js"
        final = self._final_league(entry)
        assert final is not None  # the game is the final's

        def render() -> dict[str, str]:
            record = self.contest.store.record(final, index) or {}
            try:
                data = _replay_views(record, [fault.to_json() for fault in game.figures.faults], view)
            except (ValueError, IllegalActionError) as error:
                raise LookupError(f"no replay of the final's game {index}: {error}") from None
            return {key: replay_script(data)}

        return await self.cached(snapshot, key, render)

    async def leagues_page(self) -> str:
        """The list of leagues, each with the games shown of it (:meth:`shown_count`)."""
        leagues = [(entry, await self.shown_count(entry)) for entry in self.contest.registry.leagues()]
        return environment().get_template("plain.html").render(leagues=leagues)

    async def events(self, request: Request) -> EventSourceResponse:
        """The league's games, faults and status as they happen, after its count of games now; for a
        league over or failed, its state alone. The stream counts against the caller's entrant as a
        ``Watch`` stream does (:class:`~rage_referee.hosted.errors.ResourceExhausted` past the cap)."""
        caller = self.caller(request)
        entry = self.contest.registry.league(request.path_params["league"])
        hub, home = self.contest.hub, self.home

        async def subscribe() -> Watcher:
            return hub.subscribe(entry.name, caller.holder, admin=caller.role is Role.ADMIN)

        watcher = await home.run(subscribe())
        store, release = self.contest.store, release_of(entry)

        async def stream() -> AsyncIterator[dict[str, str]]:
            try:
                done = await self.shown_count(entry)
                yield {"event": "hello", "data": json.dumps({"games_done": done, "status": entry.status.value})}
                if entry.status.ends_watch:
                    return
                while (event := await home.run(watcher.next())) is not None:
                    kind = str(event.WhichOneof("kind"))
                    data = _event_data(event, kind)
                    league_id = self._final_league(entry) if data.get("final") else entry.league_id
                    if "game" in data and release.waiting(store.set_games(league_id or 0, data["game"])):
                        continue  # shown once its duplicate set is stored whole, by the page drawn then
                    if kind in ("game_finished", "status_changed") and not data.get("final"):
                        data["games_done"] = await self.shown_count(entry)  # the games of whole sets alone
                    yield {"event": kind, "data": json.dumps(data)}
            finally:
                home.call(lambda: hub.unsubscribe(watcher))

        async def let_go() -> None:  # after the response too: its stream may never start (the page gone first)
            home.call(lambda: hub.unsubscribe(watcher))

        return EventSourceResponse(stream(), ping=15, background=BackgroundTask(let_go))


def _event_data(event: Any, kind: str) -> dict[str, Any]:
    """What a page shows of a league event (as ``Watch`` shows it to every token), but for its count of games
    (the stream's own: the games shown)."""
    if kind == "game_finished":
        game = event.game_finished
        return {"game": game.game, "seats": [capped(s, 60) for s in game.seats],
                "totals": list(game.totals), "places": list(game.places), "faults": game.faults,
                "final": game.final}  # fmt: skip
    if kind == "bot_faulted":
        fault = event.bot_faulted
        return {"game": fault.game, "bot": capped(fault.bot, 60), "kind": capped(fault.kind, 40),
                "round": fault.round, "trick": fault.trick, "detail": capped(fault.detail),
                "final": fault.final}  # fmt: skip
    if kind == "final_changed":
        return {"games": event.final_changed.games}
    if kind == "status_changed":
        changed = event.status_changed
        status = next((name for name, value in STATUS.items() if value == changed.status), None)
        return {"status": status.value if status else "unknown"}
    return {}


@functools.lru_cache(maxsize=16)
def login_page(message: str) -> str:
    return environment().get_template("plain.html").render(message=message)


async def _timed(function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> tuple[T, float]:
    """``function``'s result on a helper thread, and the CPU seconds it took there."""

    def timed() -> tuple[T, float]:
        started = time.thread_time()
        return function(*args, **kwargs), time.thread_time() - started

    return await asyncio.to_thread(timed)


def _age(snapshot: Snapshot) -> float:
    return time.monotonic() - snapshot.made


def _replay_views(record: dict[str, Any], faults: Sequence[Mapping[str, Any]], view: str) -> dict[str, Any]:
    parsed = GameRecord.model_validate(record)
    check_shape(parsed)
    return replay_views(parsed, faults, [view])[view]


async def form_body(request: Request) -> bytes | None:
    """The body of a sign-in form, read up to :data:`MAX_FORM_BYTES`; None past that (unread beyond it)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        return None
    body = bytearray()
    async with asyncio.timeout(BODY_TIMEOUT):
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_FORM_BYTES:
                return None
    return bytes(body)


def _refusal(error: Exception) -> Response:
    if isinstance(error, Unauthenticated):
        return HTMLResponse(login_page(str(error)), status_code=401)
    if isinstance(error, PermissionError):
        return PlainTextResponse(str(error), status_code=403)
    if isinstance(error, LookupError):
        return PlainTextResponse(str(error), status_code=404)
    if isinstance(error, ContestError):
        return PlainTextResponse(str(error), status_code=HTTP_STATUS.get(error.code.name, 400))
    raise error


def create_app(contest: Contest, home: Home) -> Starlette:
    pages = LivePages(contest, home)

    async def guarded(request: Request, page: Callable[[], Awaitable[Response]]) -> Response:
        try:
            pages.caller(request)
            return await page()
        except Exception as error:
            return _refusal(error)

    async def leagues(request: Request) -> Response:
        async def page() -> Response:
            return HTMLResponse(await pages.leagues_page())

        return await guarded(request, page)

    async def login(request: Request) -> Response:
        if request.method == "GET":
            return HTMLResponse(login_page("Enter your token."))
        try:
            body = await form_body(request)
        except TimeoutError:
            return PlainTextResponse(f"the sign-in form did not arrive within {BODY_TIMEOUT:g} s", status_code=408)
        if body is None:
            return PlainTextResponse(f"the sign-in form takes at most {MAX_FORM_BYTES} bytes", status_code=413)
        fields = parse_qs(body.decode(errors="replace"))
        token = (fields.get("token") or [""])[0].strip()
        try:
            contest.auth.identify([("authorization", f"Bearer {token}")])
        except ContestError as error:
            return _refusal(error)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    async def league_file(request: Request) -> Response:
        path = request.path_params["path"]

        async def page() -> Response:
            if path in ("", "index.html"):
                return HTMLResponse(await pages.index(request))
            if path.startswith("static/") and path[7:] in ASSETS:
                return static_asset(path[7:])
            if match := GAMES_LIST.fullmatch(path):
                return HTMLResponse(await pages.games_list(request, int(match[1])))
            if path.startswith("bots/") and path.endswith(".html"):
                return HTMLResponse(await pages.bot(request, path[5:-5]))
            if match := GAME_PATH.fullmatch(path.removeprefix("games/")):
                return HTMLResponse(await pages.game_page(request, int(match[1])))
            if match := FINAL_LOG_PATH.fullmatch(path):
                return HTMLResponse(await pages.final_log(request, match[1], int(match[2])))
            if match := FINAL_GAME_PATH.fullmatch(path):
                return HTMLResponse(await pages.final_game_page(request, int(match[1])))
            if match := FINAL_VIEW_PATH.fullmatch(path):
                text = await pages.final_replay(request, int(match[1]), match[2])
                return Response(text, media_type="text/javascript")
            if match := LOG_PATH.fullmatch(path):
                return HTMLResponse(await pages.bot_log(request, match[1], int(match[2])))
            if match := VIEW_PATH.fullmatch(path.removeprefix("games/")):
                text = await pages.replay(request, int(match[1]), match[2])
                return Response(text, media_type="text/javascript")
            if path == "events":
                return await pages.events(request)
            raise LookupError(f"no page {path}")

        return await guarded(request, page)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        return static_asset(name) if name in ASSETS else PlainTextResponse("not found", status_code=404)

    return Starlette(
        routes=[
            Route("/", leagues),
            Route("/login", login, methods=["GET", "POST"]),
            Route("/static/{name}", static),
            Route("/leagues/{league}/{path:path}", league_file),
        ]
    )


def static_asset(name: str) -> Response:
    return Response(_asset(name), media_type=ASSETS[name])


@functools.cache
def _asset(name: str) -> bytes:
    return files("rage_referee.report").joinpath("static", name).read_bytes()


async def start_http(
    contest: Contest, port: int, host: str, limits: Limits | None = None
) -> tuple[uvicorn.Server, asyncio.Future[None]]:
    """Serve the pages on ``host:port`` from a thread of their own (:mod:`.front`), within ``limits``.

    Stop with ``server.should_exit = True``; the future is done once the pages have stopped.

    :raises OSError: the port cannot be bound.
    """
    limits = limits or Limits()
    quiet = QuietLog()
    quiet_uvicorn(quiet)
    share = CpuShare(limits.cpu_share)
    config = uvicorn.Config(
        WithinShare(create_app(contest, Home(asyncio.get_running_loop())), share),
        host=host.strip("[]"),
        port=port,
        http=guarded_protocol(ConnectionGate(limits, quiet)),
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=GRACE,
        timeout_keep_alive=max(1, round(limits.idle_timeout)),
        backlog=BACKLOG,
    )
    try:
        sock = listening_socket(host, port)
    except OSError as error:
        raise OSError(f"cannot listen on {host}:{port} for --http: {error.strerror or error}") from None
    try:
        front: Front = await start_front(config, [sock], quiet, share)
    except OSError as error:
        raise OSError(f"cannot serve the pages on {host}:{port} for --http: {error}") from None
    contest.own_seats.add(seat_address(f"{host}:{bound_port(front.server)}"))  # no bot may be registered there
    return front.server, front.stopped


def bound_port(server: uvicorn.Server) -> int:
    """The port a started server listens on (for ``--http 0``)."""
    sockets = [sock for listener in server.servers for sock in listener.sockets]
    return int(sockets[0].getsockname()[1])
