"""The report's figures and data without a browser: crosstable, replay views, escaping, the commands."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.faults import Fault, FaultKind
from rage_referee.league.audit import Audit
from rage_referee.league.collusion import CollusionRow
from rage_referee.league.ratings import counted, rating_table
from rage_referee.league.store import GameRow, Store, sqlite_url
from rage_referee.play.finished import FinishedGame
from rage_referee.report.pages import League, bot_file, render_bot, render_index
from rage_referee.report.replays import replay_views
from rage_referee.report.site import build_site
from rage_referee.report.tables import Pairing, bot_records, crosstable, rating_history
from rage_referee.report.text import capped
from rage_sdk import CHANCE, GameState, Ruleset, view_for
from rage_sdk.record import record_of
from sqlalchemy import delete
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from tests.helpers.game_records import paired_sets, scored_game
from tests.helpers.league import flat
from tests.helpers.report import league_file, page_text, stored

runner = CliRunner()


def game(index: int, seats: tuple[str, ...], places: tuple[int, ...], faults: tuple[Any, ...] = ()) -> FinishedGame:
    return scored_game(index, seats, places, faults=faults)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[FinishedGame]]:
    file = league_file(tmp_path_factory.mktemp("league"))
    result = runner.invoke(app, ["league", "run", str(file), "--standings-every", "5"])
    assert result.exit_code == 0, result.output
    assert "after 10 games" in result.stderr or "after 12 games" in result.stderr
    return file, stored(file)


def test_crosstable_counts_wins_draws_and_losses_by_place() -> None:
    games = [game(0, ("a", "b", "c"), (1, 2, 2)), game(1, ("b", "a", "c"), (1, 3, 2))]
    table = crosstable(games)
    assert (table["a"]["b"].wins, table["a"]["b"].draws, table["a"]["b"].losses) == (1, 0, 1)
    assert (table["b"]["c"].wins, table["b"]["c"].draws, table["b"]["c"].losses) == (1, 1, 0)
    assert (table["c"]["b"].wins, table["c"]["b"].draws, table["c"]["b"].losses) == (0, 1, 1)
    assert table["b"]["c"].score == 0.75
    assert table["b"]["c"].elo == pytest.approx(190.8, abs=0.1)
    assert table["a"]["b"].elo == 0.0
    assert Pairing(wins=3).elo == 800 and Pairing(losses=2).elo == -800


def test_rating_history_ends_with_the_fit_of_all_games() -> None:
    games = [game(k, ("a", "b"), (1, 2) if k % 3 else (2, 1)) for k in range(30)]
    history = rating_history(games, steps=5)
    assert [count for count, _ in history] == [6, 12, 18, 24, 30]
    final = {row.name: row.elo for row in rating_table(games, samples=0, with_skill=False)}
    assert history[-1][1] == pytest.approx(final)


def test_bid_accuracy_leaves_out_the_games_the_referee_bid_for_the_bot(
    played: tuple[Path, list[FinishedGame]],
) -> None:
    """A bot forfeited for 12 games had the referee's bids of 0 counted as its own: 18 rounds of each size beside
    a headline of 6 games, 33.9% where the ratings said 31.7%."""
    _, games = played
    first = games[0]
    seat = 0
    forfeited = Fault(seat, FaultKind.FORFEITED, 1, 0, "forfeited", "bid 0")
    taken = replace(first, figures=replace(first.figures, faults=(forfeited,)))
    name = first.figures.seats[seat]
    assert bot_records([first])[name].accuracy()  # its own rounds, counted
    record = bot_records([taken])[name]
    assert record.accuracy() == [] and record.forfeited_games == 1
    both = [taken, next(game for game in games[1:] if name in game.figures.seats)]
    lines = page_text(render_bot(League("cup", both, rating_table(both, samples=0)), name))
    assert "Of the games it was not forfeited in: in 1 game the referee bid for it." in lines, lines
    own = next(iter(bot_records(both)[name].bids_by_size.items()))
    rows = [line.split() for line in lines]
    assert [str(own[0]), str(own[1][0]), str(own[1][1])] in [row[:3] for row in rows]  # its own rounds alone


def test_forfeits_are_read_from_the_faults() -> None:
    timeout, forfeited = (Fault(0, kind, 1, 1, "", "r1") for kind in (FaultKind.TIMEOUT, FaultKind.FORFEITED))
    faults = (timeout, forfeited, forfeited, replace(forfeited, seat=1))
    records = bot_records([game(0, ("a", "b"), (1, 2), faults), game(1, ("a", "b"), (1, 2), (forfeited,))])
    assert (records["a"].forfeited_games, len(records["a"].faults), records["b"].forfeited_games) == (2, 4, 1)


def test_the_standings_and_a_bot_page_count_its_forfeits_in_games() -> None:
    # forfeited in 38 games, 30 decisions each: both pages said 1140 forfeits, the decisions the referee took
    error = Fault(0, FaultKind.BOT_ERROR, 1, 0, "ValueError: no", "b0")
    forfeited = Fault(0, FaultKind.FORFEITED, 1, 0, "30 faults", "b0")
    games = [game(k, ("crashy", "b"), (2, 1), (error,) * 10) for k in range(3)]
    games += [game(k, ("crashy", "b"), (2, 1), (forfeited,) * 30) for k in range(3, 41)]
    league = League("cup", games, rating_table(games, samples=0))
    index = [line.split() for line in page_text(render_index(league))]
    header = next(k for k, line in enumerate(index) if line[:2] == ["#", "bot"])
    standings = {line[1]: line[-2] for line in index[header + 1 : header + 3]}  # the cell before skill
    assert standings == {"b": "0", "crashy": "38"}
    assert index[header][-4:] == ["games", "forfeited", "skill", "memory"]
    summary = page_text(render_bot(league, "crashy"))[1]
    assert summary.endswith(", 30 faults, 38 games forfeited."), summary


def test_a_bot_page_lists_every_charged_fault_and_says_how_many_forfeited_decisions_it_leaves_out() -> None:
    # 30 charged faults, then 1,140 forfeited decisions: the page listed the last 500 rows, all forfeits, and
    # none of the faults that forfeited the bot, with no word that rows were left out
    error = Fault(0, FaultKind.BOT_ERROR, 1, 0, "ValueError: no", "b0")
    forfeited = Fault(0, FaultKind.FORFEITED, 1, 0, "30 faults", "b0")
    games = [game(k, ("crashy", "b"), (2, 1), (error,) * 10) for k in range(3)]
    games += [game(k, ("crashy", "b"), (2, 1), (forfeited,) * 30) for k in range(3, 41)]
    lines = page_text(render_bot(League("cup", games, rating_table(games, samples=0)), "crashy"))
    rows = [line.split() for line in lines]
    assert sum(row[3:4] == ["bot_error"] for row in rows) == 30
    listed = sum(row[3:4] == ["forfeited"] for row in rows)
    assert 0 < listed < 1140 and f"… and {1140 - listed} more forfeited decisions not listed." in lines
    few = page_text(render_bot(League("cup", games[:4], rating_table(games[:4], samples=0)), "crashy"))
    assert not any("not listed" in line for line in few)


def random_record(bidding: str, seed: int = 5) -> Any:
    state = GameState(Ruleset.of("amigo", bidding=bidding, rounds=[4, 3]), players=3)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_seeded(seed=rng.randrange(1 << 30))
        else:
            state.apply(rng.choice(view_for(state, state.current_player()).legal_actions))
    return record_of(state, ["a", "b", "c"])


@pytest.mark.parametrize("bidding", ["open", "hidden", "secret"])
def test_each_view_holds_only_what_its_viewer_may_see(bidding: str) -> None:
    record = random_record(bidding)
    views = replay_views(record)
    assert set(views) == {"all", "public", "0", "1", "2"}

    def carried(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        state: dict[str, Any] = {}
        out = []
        for frame in frames:
            state = {**state, **frame, "hands": {**state.get("hands", {}), **frame.get("hands", {})}}
            out.append(state)
        return out

    def states(name: str) -> list[dict[str, Any]]:
        public = carried(views["public"]["frames"])
        if name == "public":
            return public
        return [{**base, **overlay} for base, overlay in zip(public, carried(views[name]["frames"]))]

    everything = states("all")
    for seat in range(3):
        for k, frame in enumerate(states(str(seat))):
            assert set(frame["hands"]) == {str(seat)}
            assert frame["hands"][str(seat)] == everything[k]["hands"][str(seat)]
            assert "pile" not in frame
            for other in range(3):
                if other != seat and frame["bids"][other] is not None:
                    assert bidding == "open" or (bidding == "hidden" and all(b is not None for b in frame["bids"]))
    spectator = states("public")
    assert all(frame["hands"] == {} for frame in spectator)
    if bidding == "secret":
        assert all(bid is None for frame in spectator for bid in frame["bids"])
        assert all(frame["action"] == "bids" for frame in spectator if frame["trick"] == 0)
    first_hand = set(record.rounds[0].hands[1])
    others = (set(record.rounds[0].hands[0]) | set(record.rounds[0].hands[2]) | set(record.rounds[0].pile)) - first_hand
    shown = json.dumps(views["1"]["frames"][0]) + json.dumps(
        {key: value for key, value in views["public"]["frames"][0].items() if key != "turned"}
    )
    assert not [card for card in others - set(states("1")[0]["turned"]) if f'"{card}"' in shown]


def test_a_fault_is_marked_with_its_detail_only_for_its_own_seat_and_the_organizer() -> None:
    record = random_record("open")
    faults = [{"seat": 1, "kind": "timeout", "round": 1, "trick": 2, "detail": "late <b>", "fallback": "r3"}]
    views = replay_views(record, faults)
    marked = {name: [f for f in view["frames"] if f.get("faults")] for name, view in views.items()}
    assert all("hands" not in frame or set(frame["hands"]) <= {"0"} for frame in views["0"]["frames"])
    assert all(len(frames) == 1 for frames in marked.values())
    assert marked["1"][0]["faults"] == [{"kind": "timeout", "detail": "late <b>", "fallback": "r3"}]
    assert marked["all"][0]["faults"][0]["detail"] == "late <b>"
    assert marked["0"][0]["faults"] == [{"kind": "timeout"}]
    assert marked["public"][0]["faults"] == [{"kind": "timeout"}]


def test_names_from_the_league_are_escaped_and_capped(tmp_path: Path, played: tuple[Path, list[FinishedGame]]) -> None:
    _, games = played
    hostile = "<script>alert(1)</script>" + "x" * 300
    renamed = [
        replace(g, figures=replace(g.figures, seats=tuple(hostile if s == "random" else s for s in g.figures.seats)))
        for g in games
    ]
    for g in renamed:
        g.record["players"] = list(g.figures.seats)
    built = build_site("mini <i>", renamed, rating_table(renamed, samples=5), tmp_path / "site")
    assert not built.skipped
    for page in (tmp_path / "site").rglob("*.html"):
        text = page.read_text()
        assert "<script>alert" not in text and "<i>" not in text, page
    assert bot_file(hostile) != hostile and "/" not in bot_file("../etc/passwd")
    assert len(capped(hostile)) == 200 and capped("a\nb\x1b") == "a\\nb\\x1b"
    for script in (tmp_path / "site" / "games").glob("*.js"):
        assert "</script" not in script.read_text()


def test_report_command_writes_the_site(tmp_path: Path, played: tuple[Path, list[FinishedGame]]) -> None:
    file, games = played
    assert runner.invoke(app, ["league", "report", str(file), "--out", str(tmp_path / "r")]).exit_code == 0
    assert len(list((tmp_path / "r" / "games").glob("*.html"))) == len(games)
    (tmp_path / "r" / "notes.txt").write_text("kept")
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(tmp_path / "r"), "--replays", "2"])
    assert result.exit_code == 0, result.output
    pages = sorted(path.name for path in (tmp_path / "r" / "games").glob("*.html"))
    faulted = {g.index for g in games if g.figures.faults}
    assert pages == sorted(f"{i:05d}.html" for i in {g.index for g in games[-2:]} | faulted)
    assert len(list((tmp_path / "r" / "bots").glob("*.html"))) == 4
    assert (tmp_path / "r" / "games-001.html").read_text().count("<tr data-game=") == len(games)
    assert (tmp_path / "r" / "notes.txt").read_text() == "kept"
    by_db = runner.invoke(
        app, ["league", "report", "--db", str(file.parent / "league.sqlite"), "--out", str(tmp_path / "d")]
    )
    assert by_db.exit_code == 0, by_db.output
    assert (tmp_path / "d" / "index.html").read_text().count("<tr data-bot=") == 4


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([], "give a league FILE or --db URL"),
        (["--db", "nowhere.sqlite"], "no database"),
        (["nowhere.toml"], "nowhere.toml"),
        (["--db", "x.sqlite", "--replays", "some"], "--replays: 'some' is neither 'all' nor a number"),
    ],
)
def test_report_command_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], fragment: str) -> None:
    result = runner.invoke(
        app, ["league", "report", *[str(tmp_path / a) if a.startswith("nowhere") else a for a in args]]
    )
    assert result.exit_code == 2
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_ratings_crosstable(played: tuple[Path, list[FinishedGame]]) -> None:
    file, games = played
    result = runner.invoke(app, ["ratings", "--league", str(file), "--crosstable", "--format", "json"])
    assert result.exit_code == 0, result.output
    rated = counted(games)  # the games as the ratings count them: a forfeited seat's are left out
    expected = crosstable(rated)
    rows = json.loads(result.stdout)
    met = {(a, b) for game in rated for a in game.figures.seats for b in game.figures.seats if a != b}
    assert len(rows) == len(met)  # every ordered pair of bots that met
    for row in rows:
        pairing = expected[row["bot"]][row["opponent"]]
        assert (row["wins"], row["draws"], row["losses"]) == (pairing.wins, pairing.draws, pairing.losses)
    table = runner.invoke(app, ["ratings", "--league", str(file), "--crosstable"])
    assert table.exit_code == 0 and "head to head" in table.output


def test_a_record_that_cannot_be_replayed_is_listed_without_a_replay(
    tmp_path: Path, played: tuple[Path, list[FinishedGame]]
) -> None:
    _, games = played
    broken = dict(games[1].record)
    broken["rounds"] = [{**broken["rounds"][0], "plays": list(reversed(broken["rounds"][0]["plays"]))}]
    damaged = [games[0], replace(games[1], record=broken), *games[2:]]
    built = build_site("mini", damaged, rating_table(damaged, samples=5), tmp_path / "site")
    assert len(built.skipped) == 1 and built.skipped[0].startswith("game 1: ")
    assert not (tmp_path / "site" / "games" / "00001.html").exists()
    assert (tmp_path / "site" / "games" / "00002.html").exists()
    assert '<tr data-game="1">\n<td>1</td>' in (tmp_path / "site" / "games-001.html").read_text()


def test_a_report_into_another_leagues_report_is_refused(
    tmp_path: Path, played: tuple[Path, list[FinishedGame]]
) -> None:
    """Its pages were written among the other league's, and the other's bot and game pages deleted."""
    file, games = played
    build_site("other", games, rating_table(games, samples=5), tmp_path / "r")
    before = {path: path.read_bytes() for path in (tmp_path / "r").rglob("*") if path.is_file()}
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"--out: {tmp_path / 'r'} holds the report of another league, 'other': "
        "give a new or empty folder, or this league's own report"
    )
    assert {path: path.read_bytes() for path in (tmp_path / "r").rglob("*") if path.is_file()} == before


def test_a_report_replaces_only_its_own_files(tmp_path: Path, played: tuple[Path, list[FinishedGame]]) -> None:
    """A folder of the user's own is refused; in the league's own report only the files it wrote are replaced
    (every bots/*.html, games/*.html and games-*.html was deleted, the user's among them)."""
    file, _ = played
    out = tmp_path / "r"
    (out / "bots").mkdir(parents=True)
    (out / "bots" / "mine.html").write_text("mine")
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(out)])
    assert result.exit_code == 2 and "holds files of its own" in result.output, result.output
    assert (out / "bots" / "mine.html").read_text() == "mine"
    (out / "bots" / "mine.html").unlink()
    assert runner.invoke(app, ["league", "report", str(file), "--out", str(out)]).exit_code == 0
    theirs = {"bots/mine.html", "games/notes.html", "games-notes.html"}
    for name in theirs:
        (out / name).write_text("mine")
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(out), "--replays", "2"])
    assert result.exit_code == 0, result.output
    assert all((out / name).read_text() == "mine" for name in theirs)
    present = {path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()}
    assert present - theirs == {*json.loads((out / "report.json").read_text())["files"], "report.json"}


def test_a_marker_naming_files_outside_the_report_removes_none(
    tmp_path: Path, played: tuple[Path, list[FinishedGame]]
) -> None:
    _, games = played
    out = tmp_path / "r"
    build_site("mini", games, rating_table(games, samples=5), out)
    (tmp_path / "victim.txt").write_text("mine")
    (out / "games" / "link.html").symlink_to(tmp_path / "victim.txt")
    marker = json.loads((out / "report.json").read_text())
    marker["files"] += ["../victim.txt", str(tmp_path / "victim.txt"), "games/link.html", 5, None]
    (out / "report.json").write_text(json.dumps(marker))
    build_site("mini", games, rating_table(games, samples=5), out)
    assert (tmp_path / "victim.txt").read_text() == "mine" and (out / "games" / "link.html").is_symlink()


def test_a_report_into_its_own_report_holding_a_link_is_refused(
    tmp_path: Path, played: tuple[Path, list[FinishedGame]]
) -> None:
    """The report wrote its page through it, over the file it named (a file of the user's own)."""
    file, _ = played
    out = tmp_path / "r"
    assert runner.invoke(app, ["league", "report", str(file), "--out", str(out)]).exit_code == 0
    (tmp_path / "mine.txt").write_text("mine")
    (out / "index.html").unlink()
    (out / "index.html").symlink_to(tmp_path / "mine.txt")
    result = runner.invoke(app, ["league", "report", str(file), "--out", str(out)])
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == (
        f"--out: {out} holds a link, index.html: give a new or empty folder, or this league's own report"
    )
    assert (tmp_path / "mine.txt").read_text() == "mine"


def test_the_standings_show_the_memory_audit_and_the_flags() -> None:
    games = [game(0, ("a", "b", "c"), (1, 2, 3)), game(1, ("b", "c", "a"), (1, 2, 3))]
    rows = rating_table(games, samples=0)
    audits = {
        "a": Audit(8, 21.2, 8.4, 34.0, 0.004, True),
        "b": Audit(8, -1.5, -9.0, 6.0, 0.6, False),
        "c": Audit(1, 0.5, -float("inf"), float("inf"), 1.0, False),
    }
    collusion = [CollusionRow("c", "b", Audit(12, 3.8, 0.4, 7.2, 0.001, True))]
    page = render_index(League("cup", games, rows, audits=audits, collusion=collusion))
    assert '<td class="memory flagged">+21.2 ±12.8 !</td>' in page
    assert '<td class="memory">-1.5 ±7.5</td>' in page and '<td class="memory">+0.5</td>' in page
    assert "memory audit: <strong>a</strong> scores +21.2 points a game more" in page
    assert "collusion: <strong>b</strong> scores +3.8 points a game more against the same field" in page
    honest = {"b": audits["b"]}
    assert "No bot flagged by the memory audit." in render_index(League("cup", games, rows, audits=honest))
    assert 'id="fair-play"' not in render_index(League("cup", games, rows))  # a running league's: no audit


def test_the_standings_page_shows_each_pairs_corrected_sequence() -> None:
    from rage_referee.report.pages import League, render_index

    games = paired_sets(20, lead=10)
    page = render_index(League("l", games, rating_table(games, samples=0, with_skill=False)))
    assert '<section id="pairs">' in page and "Holm" in page
    assert page.count('class="separated"') == 2  # a over b and b under a
    assert "few-sets" not in page  # 20 sets: no note
    few = paired_sets(2, lead=10)
    page = render_index(League("l", few, rating_table(few, samples=0, with_skill=False)))
    assert page.count("no interval yet") == 2 and 'class="separated"' not in page
    assert "only 2 duplicate sets" in page


def test_a_report_of_a_running_league_leaves_out_its_sets_still_being_played(tmp_path: Path) -> None:
    # the report of a running league wrote every view, every hand, of a set whose other games were to come
    file = league_file(tmp_path / "played", games=24, duplicate=True)  # a round: four sets of six games
    assert runner.invoke(app, ["league", "run", str(file)]).exit_code == 0
    games = stored(file)
    shutil.copytree(file.parent, tmp_path / "league")
    store = Store(sqlite_url(tmp_path / "league" / "league.sqlite"))
    with Session(store.engine) as session:
        session.execute(delete(GameRow).where(GameRow.index >= 8))  # games 6 and 7 of set 1 stored, 8-11 not
        session.commit()
    store.close()
    running = tmp_path / "league" / file.name
    result = runner.invoke(app, ["league", "report", str(running), "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "left out 2 games of 1 duplicate set still being played" in flat(result.stderr)
    assert sorted(path.name for path in (tmp_path / "r" / "games").glob("*.html")) == [
        f"{index:05d}.html" for index in range(6)
    ]
    listed = (tmp_path / "r" / "games-001.html").read_text()
    assert listed.count("<tr data-game=") == 6 and f"<td>{games[6].seed}</td>" not in listed
    result = runner.invoke(app, ["league", "report", str(running), "--out", str(tmp_path / "all"), "--include-running"])
    assert result.exit_code == 0, result.output
    assert "--include-running: the report shows 2 games of 1 duplicate set still being played" in flat(result.stderr)
    assert len(list((tmp_path / "all" / "games").glob("*.html"))) == 8
