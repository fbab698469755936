"""The report's pages as HTML text, from Jinja2 templates shipped with the package.

The static site and the live server render the same pages with the same relative links:
``index.html``, ``bots/NAME.html``, ``games/NNNNN.html`` (its replay data beside it as
``games/NNNNN.VIEW.js``, one file per view) and ``static/``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from ..faults import Forfeits
from ..hosted.bot_logs import GameLog
from ..league.audit import Audit
from ..league.collusion import CollusionRow
from ..league.pairs import pair_table
from ..league.ratings import RatingRow, counted
from ..league.superiority import few_sets_note
from ..play.finished import FinishedGame
from ..text import chance, figure, plural
from .charts import colour, history_lines, rating_bars
from .tables import BotRecord, Pairing, bot_records, crosstable, is_forfeit, rating_history
from .text import capped

MAX_GAMES_LISTED = 500
"""Games listed on a bot's page (the most recent)."""
RECENT_GAMES = 50
"""Games listed on the standings page (the most recent)."""
GAMES_PER_PAGE = 1000
"""Games on each page of the list of every game, ``games-001.html`` on (the most recent first)."""


@cache
def environment() -> Environment:
    """The pages' templates; strict, so a name a template reads and is not given fails the build."""
    env = Environment(
        loader=PackageLoader("rage_referee.report"),
        autoescape=select_autoescape(default=True),
        undefined=StrictUndefined,
    )
    env.filters["capped"] = capped
    env.filters["game_file"] = game_file
    env.filters["bot_file"] = bot_file
    env.filters["figure"] = figure
    env.filters["plural"] = plural
    env.filters["chance"] = chance
    env.globals["colour"] = colour
    env.globals["log_file"] = log_file
    return env


def game_file(index: int) -> str:
    return f"{index:05d}"


def bot_file(name: str) -> str:
    """A file name for a bot's page: its name where that is safe, else a safe form and a hash."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60].lstrip(".")
    if safe == name:
        return safe
    return f"{safe}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def _cell_colour(pairing: Pairing | None) -> str:
    """Green for a strong head-to-head, red for a weak one, white for even (or none)."""
    if pairing is None or not pairing.games:
        return "#f4f4f4"
    strength = max(-1.0, min(1.0, pairing.elo / 400))
    shade = int(255 - 110 * abs(strength))
    return f"rgb({shade},255,{shade})" if strength > 0 else f"rgb(255,{shade},{shade})"


@dataclass
class League:
    """What every page of one league is drawn from."""

    name: str
    games: Sequence[FinishedGame]
    rows: Sequence[RatingRow]
    """The rating table, best first."""
    replays: set[int] = field(default_factory=set)
    """Indices of the games that have a replay page."""
    live: bool = False
    """Pages that follow the league as it runs (served by the referee)."""
    intervals: bool = True
    """False for point estimates (a running league's): no intervals, no LOS, no skill."""
    audits: Mapping[str, Audit] = field(default_factory=dict)
    """Each bot's memory audit (:mod:`..league.audit`); none for a running league's point estimates."""
    collusion: Sequence[CollusionRow] = ()
    """Every ordered pair's collusion test (:mod:`..league.collusion`)."""
    ladder: bool = False
    """A hosted ladder's pages: its front page is its leaderboard (and final), with no crosstable nor history."""
    forfeits: Forfeits = Forfeits.UNRATED
    """How the ratings count a forfeited seat; the crosstable and the rating history count the games so too."""

    def __post_init__(self) -> None:
        self.bots: dict[str, BotRecord] = bot_records(self.games)
        self.order = [row.name for row in self.rows]


def render_index(league: League) -> str:
    rated = counted(league.games, league.forfeits)  # as the ratings count them
    cross = crosstable(rated)
    cells = {
        (a, b): (cross.get(a, {}).get(b), _cell_colour(cross.get(a, {}).get(b)))
        for a in league.order
        for b in league.order
    }
    recent = sorted(league.games, key=lambda game: -game.index)[:RECENT_GAMES]
    pairs = pair_table(league.games, league.order)
    pair_cells = {(row.a, row.b): row for row in pairs} | {(row.b, row.a): row.flipped() for row in pairs}
    return (
        environment()
        .get_template("index.html")
        .render(
            league=league,
            own=None,
            rows=league.rows,
            forfeited={name: bot.forfeited_games for name, bot in league.bots.items()},
            cells=cells,
            pairs=pair_cells,
            few_sets=few_sets_note(len({game.set_id for game in league.games})) if league.games else None,
            bars=rating_bars(league.rows),
            history=history_lines(rating_history(rated), league.order),
            recent=recent,
            root="",
        )
    )


def games_pages(league: League) -> int:
    return max(1, -(-len(league.games) // GAMES_PER_PAGE))


def games_page_file(number: int) -> str:
    return f"games-{number:03d}.html"


def render_games(league: League, number: int) -> str:
    """Page ``number`` (from 1) of the list of every game, the most recent first."""
    pages = games_pages(league)
    if not 1 <= number <= pages:
        raise LookupError(f"the list of games has pages 1-{pages}")
    ordered = sorted(league.games, key=lambda game: -game.index)
    shown = ordered[(number - 1) * GAMES_PER_PAGE : number * GAMES_PER_PAGE]
    return (
        environment()
        .get_template("games_page.html")
        .render(league=league, recent=shown, number=number, pages=pages, root="", page_file=games_page_file, own=None)
    )


@dataclass(frozen=True)
class VersionLine:
    """One version of a submitted bot as its page lists it."""

    version: str
    """Its short id."""
    built_at: datetime
    """When it was submitted and built."""
    build_seconds: float
    status: str
    """What became of it: built, failed to build, plays in this league (a contest kind may say others)."""
    detail: str = ""
    """Why its build failed, for its owner's page alone."""


@dataclass(frozen=True)
class OwnerView:
    """What a bot's page adds for its owner (and the organizer): each game's seat view and the bot's log."""

    logged: set[int]
    """The games whose part of the bot's log may be read now."""
    final_logged: set[int] = field(default_factory=set)
    """The same of a ladder's final's games."""


def played_figures(bot: BotRecord) -> tuple[float, float]:
    """A bot's mean score and mean place over every game it played (whoever forfeited in it)."""
    seats = [(game.figures, game.figures.seats.index(bot.name)) for game in bot.games]
    if not seats:
        return 0.0, 0.0
    scores = [figures.totals[seat] for figures, seat in seats]
    places = [figures.places[seat] for figures, seat in seats]
    return sum(scores) / len(seats), sum(places) / len(seats)


def render_bot(
    league: League,
    name: str,
    versions: Sequence[VersionLine] = (),
    owner: OwnerView | None = None,
    final_games: Sequence[FinishedGame] = (),
) -> str:
    """A bot's page: its versions (a submitted bot's), figures, faults and games, and its games of a ladder's
    final (``final_games``: those shown, of every finalist); ``owner``: with links to each game from its seat
    and to its log of the game."""
    bot = league.bots[name]
    games = sorted(bot.games, key=lambda game: -game.index)[:MAX_GAMES_LISTED]
    finals = sorted((game for game in final_games if name in game.figures.seats), key=lambda game: -game.index)
    row = next((row for row in league.rows if row.name == name), None)
    ladder_figures = played_figures(bot) if league.ladder else None
    own = final_own = None
    if owner is not None:
        own = {game.index: (game.figures.seats.index(name), game.index in owner.logged) for game in games}
        final_own = {game.index: (game.figures.seats.index(name), game.index in owner.final_logged) for game in finals}
    return (
        environment()
        .get_template("bot.html")
        .render(
            league=league,
            bot=bot,
            row=row,
            ladder_figures=ladder_figures,
            games=games,
            finals=finals[:MAX_GAMES_LISTED],
            versions=versions,
            own=own,
            final_own=final_own,
            forfeit=is_forfeit,
            root="../",
        )
    )


def render_ladder(league: League, ladder: Any, final: Any | None, final_games: Sequence[FinishedGame] = ()) -> str:
    """A ladder's front page: its leaderboard (a ``rage.v1.Ladder``), its final's standings and games once
    finalized, and its recent games."""
    recent = sorted(league.games, key=lambda game: -game.index)[:RECENT_GAMES]
    return (
        environment()
        .get_template("ladder.html")
        .render(
            league=league,
            ladder=ladder,
            final=final,
            final_games=final_games,
            recent=recent,
            root="",
            own=None,
            last_game=last_game,
        )
    )


def last_game(unix: int) -> str:
    """When a version last played, in UTC; empty before its first set."""
    return datetime.fromtimestamp(unix, UTC).strftime("%Y-%m-%d %H:%M") if unix else ""


def log_file(bot: str, game: int) -> str:
    """The page of ``bot``'s log of game ``game``, from the league's root."""
    return f"logs/{bot_file(bot)}/{game_file(game)}.html"


def render_log(league: League, game: FinishedGame, log: GameLog, final: bool = False) -> str:
    """A bot's log of one game: what it wrote while the game ran; ``final``: a game of a ladder's final
    (``final/logs/BOT/NNNNN.html``)."""
    seat = game.figures.seats.index(log.bot)
    root = "../../../" if final else "../../"
    return (
        environment()
        .get_template("log.html")
        .render(league=league, game=game, log=log, seat=seat, root=root, final=final)
    )


def render_game(
    league: League, game: FinishedGame, views: Sequence[str], logs: Sequence[str] = (), final: bool = False
) -> str:
    """A game's replay page; its data is loaded per view from ``NNNNN.VIEW.js`` beside it. ``logs``: the bots
    whose log of the game it links to; ``final``: a game of a ladder's final (``final/NNNNN.html``)."""
    labels = {"all": "everything (organizer)", "public": "spectator (no hands)"}
    choices = [
        (view, labels.get(view) or f"seat {view}: {capped(game.figures.seats[int(view)], 60)}") for view in views
    ]
    template = environment().get_template("game.html")
    return template.render(league=league, game=game, choices=choices, logs=logs, root="../", final=final)


def replay_script(data: dict[str, Any]) -> str:
    """One view's replay as a script the viewer loads (works from disk, where fetch does not)."""
    text = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    return f"RageReplay.load({text});\n"


def embed(data: Any) -> Markup:
    """JSON for a ``<script>`` block of a page."""
    return Markup(json.dumps(data, separators=(",", ":")).replace("<", "\\u003c"))
