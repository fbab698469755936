"""Contest bundles: a revealed league exports one that verifies offline, and each kind of tampering
fails with one line naming the file or game (exit 1), a folder that is no bundle with exit 2."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.league import ratings
from rage_referee.league.bundle import record_name
from rage_sdk.record import record_json
from rage_sdk.rules import Ruleset
from rage_sdk.state import CHANCE, GameState
from typer.testing import CliRunner

from tests.helpers.files import fifo, without_waiting
from tests.helpers.game_records import scored_game

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BOTS = {
    "heuristic": f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot",
    "greedy": f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot",
    "random": f"{EXAMPLES / 'random_bot.py'}:RandomBot",
}
runner = CliRunner()


def rage(*args: str | Path) -> Any:
    return runner.invoke(app, [str(arg) for arg in args])


def flat(text: str) -> str:
    return " ".join(text.split())


def league(directory: Path, seed: int | None = None, name: str = "cup") -> Path:
    directory.mkdir(parents=True)
    lines = [f'name = "{name}"', "players = 3", "games = 6", "concurrency = 3"] + ([f"seed = {seed}"] if seed else [])
    lines += ["[ruleset]", 'preset = "amigo"', "[bots]"] + [f'"{name}" = {json.dumps(t)}' for name, t in BOTS.items()]
    file = directory / "league.toml"
    file.write_text("\n".join(lines) + "\n")
    run = rage("league", "run", file)
    assert run.exit_code == 0, run.output
    return file


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished league of six games (two duplicate sets), its key revealed, exported."""
    file = league(tmp_path_factory.mktemp("cup") / "league")
    assert rage("league", "reveal", file).exit_code == 0
    out = file.parent / "bundle"
    export = rage("league", "export", file, "--out", out)
    assert export.exit_code == 0 and "verify-bundle" in flat(export.output), export.output
    return out


@pytest.fixture
def bundle(exported: Path, tmp_path: Path) -> Path:
    """A fresh copy of the exported bundle, to tamper with."""
    return Path(shutil.copytree(exported, tmp_path / "bundle"))


def read(bundle: Path, name: str) -> Any:
    return json.loads((bundle / name).read_text())


def write(bundle: Path, name: str, value: Any) -> None:
    (bundle / name).write_text(json.dumps(value, indent=1))


def rehash(bundle: Path) -> None:
    """Rewrite the manifest over the files as they are now: a forger covering their tracks."""
    files = {
        path.relative_to(bundle).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(bundle.rglob("*"))
        if path.is_file() and path.name != "manifest.json"
    }
    write(bundle, "manifest.json", {"format": "rage-contest-bundle/1", "files": files})


def restandings(bundle: Path) -> None:
    """Recompute standings.json from the bundle's games.json rows, as a careful forger would."""
    games = []
    for r in read(bundle, "games.json"):
        figures = {"totals": r["totals"], "hits": r["hits"], "rounds": r["rounds"]}
        games.append(scored_game(r["index"], r["seats"], r["places"], **figures, set_id=r["set"], seed=r["seed"]))
    write(bundle, "standings.json", [asdict(row) for row in ratings.rating_table(games)])


def verify_bundle(bundle: Path) -> tuple[int, list[str]]:
    result = rage("league", "verify-bundle", bundle)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, [" ".join(line.split()) for line in result.output.splitlines() if line.strip()]


def assert_fails(bundle: Path, *fragments: str) -> None:
    """The check exits 1 and one line holds every fragment (the file or game it names, and what is wrong)."""
    code, lines = verify_bundle(bundle)
    assert code == 1, lines
    assert any(all(fragment in line for fragment in fragments) for line in lines), lines


def test_an_untouched_bundle_verifies(bundle: Path) -> None:
    assert sorted(path.name for path in bundle.iterdir()) == [
        "deal-key.json",
        "games.csv",
        "games.json",
        "league.json",
        "manifest.json",
        "records",
        "standings.csv",
        "standings.json",
    ]
    assert len(list((bundle / "records").iterdir())) == 6
    code, lines = verify_bundle(bundle)
    assert code == 0 and "verified: 6 games" in " ".join(lines), lines


def test_a_file_changed_after_export_is_named(bundle: Path) -> None:
    record = read(bundle, record_name(2))
    record["result"]["totals"][0] += 10
    write(bundle, record_name(2), record)
    assert_fails(bundle, "records/game-00002.json", "SHA-256")


def test_a_file_not_in_the_manifest_is_named(bundle: Path) -> None:
    (bundle / "notes.txt").write_text("the real winner was greedy\n")
    assert_fails(bundle, "notes.txt", "not in the manifest")


def test_a_forged_result_is_caught_by_the_replay_even_with_a_new_manifest(bundle: Path) -> None:
    record = read(bundle, record_name(2))
    record["result"]["totals"][0] += 10
    write(bundle, record_name(2), record)
    rehash(bundle)
    assert_fails(bundle, "records/game-00002.json", "does not replay legally", "totals")


def test_a_swapped_deal_is_named(bundle: Path) -> None:
    """Game 4 replaced by a legal game on another deal (same seats, same commitment): only the key can tell."""
    original = read(bundle, record_name(4))
    state = GameState(Ruleset.of("amigo"), 3)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_seeded(12345)
        else:
            state.apply(state.legal_actions()[0])
    forged = record_json(state, original["players"]) | {"faults": [], "meta": original["meta"]}
    write(bundle, record_name(4), forged)
    rehash(bundle)
    assert_fails(bundle, "records/game-00004.json", "round 1 is not the deal the key gives", "set 0")


def test_a_dropped_game_is_named_even_when_results_and_standings_are_redone(bundle: Path) -> None:
    (bundle / record_name(4)).unlink()
    write(bundle, "games.json", [row for row in read(bundle, "games.json") if row["index"] != 4])
    restandings(bundle)
    rehash(bundle)
    code, lines = verify_bundle(bundle)
    assert code == 1 and lines == ["game 4: missing from the bundle (no records/game-00004.json)"], lines


def test_a_game_listed_twice_is_named(bundle: Path) -> None:
    rows = read(bundle, "games.json")
    write(bundle, "games.json", [*rows, rows[1]])
    rehash(bundle)
    assert_fails(bundle, "games.json", "game 1 is listed twice")


def test_a_record_copied_over_another_game_is_named(bundle: Path) -> None:
    """Games 0 and 1 share a duplicate deal, so only the seating tells the copy apart."""
    shutil.copy(bundle / record_name(0), bundle / record_name(1))
    rehash(bundle)
    assert_fails(bundle, "records/game-00001.json", "seats", "the schedule seats")


def test_a_record_outside_the_schedule_is_named(bundle: Path) -> None:
    shutil.copy(bundle / record_name(0), bundle / record_name(6))
    rehash(bundle)
    assert_fails(bundle, "records/game-00006.json", "not a game of the league's schedule")


def test_a_key_that_does_not_match_the_commitment_is_named(bundle: Path) -> None:
    write(bundle, "deal-key.json", read(bundle, "deal-key.json") | {"key": "ab" * 32})
    rehash(bundle)
    assert_fails(bundle, "deal-key.json", "does not match the commitment")


def test_a_changed_commitment_is_named(bundle: Path) -> None:
    definition = read(bundle, "league.json")
    write(bundle, "league.json", definition | {"deal_commitment": "00" * 32})
    rehash(bundle)
    assert_fails(bundle, "deal-key.json", "does not match the commitment")
    assert_fails(bundle, "records/game-00000.json", "meta.deal_commitment")


def test_edited_results_are_named(bundle: Path) -> None:
    rows = read(bundle, "games.json")
    rows[3]["places"] = rows[3]["places"][::-1]
    write(bundle, "games.json", rows)
    rehash(bundle)
    assert_fails(bundle, "games.json", "game 3 places")


def test_edited_standings_are_named(bundle: Path) -> None:
    rows = read(bundle, "standings.json")
    # the first row's rating swapped with another's (not one tied with it: the deals are secret, ties happen)
    other = next(k for k, row in enumerate(rows) if abs(row["elo"] - rows[0]["elo"]) > 1)
    rows[0]["elo"], rows[other]["elo"] = rows[other]["elo"], rows[0]["elo"]
    write(bundle, "standings.json", rows)
    rehash(bundle)
    assert_fails(bundle, "standings.json", "row 1 elo")


@pytest.mark.parametrize(
    ("players", "games"), [(3, 1_000_002), (10, 120 * 2778 * 360)], ids=["one table", "120 tables of 10"]
)
def test_a_schedule_past_the_games_a_bundle_may_hold_is_refused_unbuilt(bundle: Path, players: int, games: int) -> None:
    """league.json asking 1,000,000 games a table: each was planned and checked (one table: minutes; at 10
    players, 120 tables of 360-game sets, 120 million games, without end)."""
    definition = read(bundle, "league.json")
    del definition["games"]
    bots = [f"bot{k}" for k in range(20)] if players == 10 else definition["bots"]
    write(bundle, "league.json", definition | {"games_per_table": 1_000_000, "players": players, "bots": bots})
    code, lines = verify_bundle(bundle)
    assert code == 2, lines
    assert lines == [
        f"{bundle}: not a contest bundle: league.json: not a league definition "
        f"(its schedule has {games:,} games, more than the 1,000,000 a bundle may hold)"
    ]


@pytest.mark.parametrize(
    ("damage", "fragment"),
    [
        (lambda bundle: (bundle / "manifest.json").unlink(), "manifest.json: cannot read"),
        (lambda bundle: (bundle / "league.json").write_text("{"), "league.json: not valid JSON"),
        (lambda bundle: (bundle / "deal-key.json").unlink(), "deal-key.json: missing"),
        (lambda bundle: write(bundle, "manifest.json", {"files": []}), "not a rage-contest-bundle/1 manifest"),
    ],
    ids=["no manifest", "bad league.json", "no key", "bad manifest"],
)
def test_a_folder_that_is_no_bundle_exits_2(bundle: Path, damage: Callable[[Path], None], fragment: str) -> None:
    damage(bundle)
    code, lines = verify_bundle(bundle)
    assert code == 2 and len(lines) == 1 and fragment in lines[0], lines


def test_an_unrevealed_league_exports_no_key_and_its_bundle_does_not_verify(tmp_path: Path) -> None:
    file = league(tmp_path / "league")
    export = rage("league", "export", file, "--out", tmp_path / "bundle")
    assert export.exit_code == 0 and "not revealed yet" in flat(export.output)
    assert not (tmp_path / "bundle" / "deal-key.json").exists()
    code, lines = verify_bundle(tmp_path / "bundle")
    assert code == 2 and "rage league reveal" in lines[0]


def test_a_league_exported_into_another_leagues_bundle_is_refused(bundle: Path, tmp_path: Path) -> None:
    # its records would mix with the other league's, in a bundle that fails to verify
    other = league(tmp_path / "other", seed=3, name="other")
    export = rage("league", "export", other, "--out", bundle)
    assert export.exit_code == 2, export.output
    assert export.output.strip() == (
        f"--out: {bundle} holds the bundle of another league, 'cup': "
        "give a new or empty folder, or this league's own bundle"
    )
    assert verify_bundle(bundle)[0] == 0  # the cup's bundle as it was
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine")
    export = rage("league", "export", other, "--out", tmp_path / "notes")
    assert export.exit_code == 2 and "holds files of its own" in export.output, export.output


def test_a_league_exported_again_into_its_own_bundle_verifies(tmp_path: Path) -> None:
    file = league(tmp_path / "league")
    assert rage("league", "export", file, "--out", tmp_path / "bundle").exit_code == 0  # before the reveal
    assert rage("league", "reveal", file).exit_code == 0
    assert rage("league", "export", file, "--out", tmp_path / "bundle").exit_code == 0
    assert verify_bundle(tmp_path / "bundle")[0] == 0


def test_a_public_seed_league_bundle_verifies_without_a_key(tmp_path: Path) -> None:
    file = league(tmp_path / "league", seed=9)
    assert rage("league", "export", file, "--out", tmp_path / "bundle").exit_code == 0
    assert read(tmp_path / "bundle", "league.json")["deal_commitment"] is None
    code, lines = verify_bundle(tmp_path / "bundle")
    assert code == 0, lines


def test_a_bundle_of_the_first_schedule_design_verifies_under_it(tmp_path: Path) -> None:
    """A bundle exported before the schedule had versions names none: it is the first design's, whose sets
    seat their games in the design's own order, and verifies as such; the same games under the second
    design's order are seated otherwise."""
    (tmp_path / "first").mkdir()
    file = tmp_path / "first" / "league.toml"
    file.write_text(league(tmp_path / "league", seed=9).read_text().replace("players = 3", "players = 3\nschedule = 1"))
    assert rage("league", "run", file).exit_code == 0  # a league of the first design, stored as it was
    assert rage("league", "export", file, "--out", tmp_path / "bundle").exit_code == 0
    definition = read(tmp_path / "bundle", "league.json")
    assert definition.pop("schedule") == 1
    write(tmp_path / "bundle", "league.json", definition)
    rehash(tmp_path / "bundle")
    code, lines = verify_bundle(tmp_path / "bundle")
    assert code == 0, lines
    write(tmp_path / "bundle", "league.json", definition | {"schedule": 2})
    rehash(tmp_path / "bundle")
    assert verify_bundle(tmp_path / "bundle")[0] == 1


def test_a_records_own_text_in_a_problem_is_escaped_and_cut(bundle: Path) -> None:
    record = read(bundle, "records/game-00000.json")
    record["meta"] = {"deal_commitment": "\x1b[2J\x1b]0;owned\x07" + "f" * 100_000}
    write(bundle, "records/game-00000.json", record)
    rehash(bundle)
    result = rage("league", "verify-bundle", bundle)
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "\x07" not in result.output
    lines = [line for line in result.output.splitlines() if "meta.deal_commitment" in line]
    assert lines and all(len(line) <= 500 for line in lines), [line[:200] for line in lines]


def test_a_bundle_of_an_earlier_rating_method_verifies_all_but_its_intervals(bundle: Path) -> None:
    """A bundle exported before the intervals were spread by Student's t names no rating method: its
    standings are checked in every column the games give alone, and the check says so."""
    definition = read(bundle, "league.json")
    assert definition.pop("ratings") == ratings.METHOD
    write(bundle, "league.json", definition)
    standings = read(bundle, "standings.json")
    standings[0]["los_next"] = 0.97  # as rage-ratings/1 gave it (one duplicate set here: no interval, no LOS now)
    write(bundle, "standings.json", standings)
    rehash(bundle)
    code, lines = verify_bundle(bundle)
    assert code == 0, lines
    assert any("rage-ratings/1" in line and "not recomputed" in line for line in lines), lines
    standings[0]["games"] += 1
    write(bundle, "standings.json", standings)
    rehash(bundle)
    assert_fails(bundle, "standings.json", "row 1 games")


def test_a_bundle_of_this_rating_method_has_its_intervals_recomputed(bundle: Path) -> None:
    standings = read(bundle, "standings.json")
    standings[0]["los_next"] = 0.97
    write(bundle, "standings.json", standings)
    rehash(bundle)
    assert_fails(bundle, "standings.json", "row 1 los_next")


def moved_out(bundle: Path, name: str, outside: Path) -> None:
    """``name`` moved out of the bundle, a link to it left in its place."""
    outside.mkdir(exist_ok=True)
    target = outside / Path(name).name
    shutil.move(bundle / name, target)
    (bundle / name).symlink_to(target)


@pytest.mark.parametrize("name", [record_name(2), "records"], ids=["a record", "the records folder"])
def test_a_link_that_leaves_the_bundle_is_named(bundle: Path, tmp_path: Path, name: str) -> None:
    """The bundle would verify by files outside it, only on the machine where it was made."""
    moved_out(bundle, name, tmp_path)
    rehash(bundle)
    assert_fails(bundle, f"{name}: a link that leaves the bundle")


def test_a_manifest_entry_naming_a_folder_is_missing(bundle: Path) -> None:
    manifest = read(bundle, "manifest.json")
    manifest["files"]["records"] = "0" * 64
    write(bundle, "manifest.json", manifest)
    code, lines = verify_bundle(bundle)
    assert code == 1 and lines == ["records: listed in the manifest but missing"], lines


def test_a_link_to_a_file_of_the_bundle_is_one(bundle: Path) -> None:
    (bundle / "extra").mkdir()
    shutil.move(bundle / "games.csv", bundle / "extra" / "games.csv")
    (bundle / "games.csv").symlink_to("extra/games.csv")
    code, lines = verify_bundle(bundle)
    assert code == 1 and lines == ["extra/games.csv: not in the manifest"], lines


def test_a_league_definition_that_leaves_the_bundle_is_refused(bundle: Path, tmp_path: Path) -> None:
    moved_out(bundle, "league.json", tmp_path)
    code, lines = verify_bundle(bundle)
    assert code == 2 and lines == [f"{bundle}: not a contest bundle: league.json: a link that leaves the bundle"]


@pytest.mark.parametrize("name", [record_name(3), "league.json", "manifest.json"])
def test_a_fifo_in_the_bundle_is_named_unread(bundle: Path, name: str) -> None:
    (bundle / name).unlink()
    pipe = fifo(bundle / name)
    code, lines = without_waiting(lambda: verify_bundle(bundle), pipe)
    if name.startswith("records/"):
        assert code == 1 and f"{name}: not a regular file (a FIFO)" in lines, lines
    else:
        assert code == 2 and lines == [
            f"{bundle}: not a contest bundle: {name}: cannot read: not a regular file (a FIFO)"
        ]


def test_an_export_into_a_folder_holding_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    file = league(tmp_path / "league")
    pipe = fifo(tmp_path / "out" / "league.json")
    export = without_waiting(lambda: rage("league", "export", file, "--out", tmp_path / "out"), pipe)
    assert export.exit_code == 2 and "holds files of its own" in export.output, export.output


@pytest.mark.parametrize("name", [record_name(0), "records"])
def test_an_export_into_its_own_bundle_holding_a_link_is_refused(tmp_path: Path, name: str) -> None:
    """The export wrote through it, over whatever it named (here a file of the user's own)."""
    file = league(tmp_path / "league")
    out = tmp_path / "bundle"
    assert rage("league", "export", file, "--out", out).exit_code == 0
    moved_out(out, name, tmp_path / "elsewhere")
    victim = tmp_path / "elsewhere" / ("game-00000.json" if name == "records" else Path(name).name)
    victim.write_text("mine")
    export = rage("league", "export", file, "--out", out)
    assert export.exit_code == 2, export.output
    assert flat(export.output) == (
        f"--out: {out} holds a link, {name}: give a new or empty folder, or this league's own bundle"
    )
    assert victim.read_text() == "mine"


def test_the_standings_are_json_without_nan(exported: Path) -> None:
    """A league of one duplicate set has no interval: standings.json held NaN for it, which RFC 8259 JSON has not
    (JavaScript's JSON.parse, jq and Go refuse the file); it is null, as in rage ratings --format json."""
    text = (exported / "standings.json").read_text()
    rows = json.loads(text, parse_constant=lambda constant: pytest.fail(f"{constant} in standings.json"))
    assert all(row["low"] is None and row["high"] is None for row in rows), rows
    assert "nan" not in (exported / "standings.csv").read_text()


def test_a_bundle_of_an_earlier_release_with_nan_standings_verifies(bundle: Path) -> None:
    text = (bundle / "standings.json").read_text().replace('"low": null', '"low": NaN')
    (bundle / "standings.json").write_text(text)
    rehash(bundle)
    code, lines = verify_bundle(bundle)
    assert code == 0, lines
