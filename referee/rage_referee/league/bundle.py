"""A contest bundle: everything needed to re-verify a finished league offline, and its verifier.

A bundle is a folder:

- ``league.json``: the league's definition (what its schedule depends on; bots by name), the
  commitment to its deal key published before the first game, and the rating method of its standings;
- ``deal-key.json``: the revealed key (absent until the organizer reveals it);
- ``records/game-NNNNN.json``: every game's ``rage-record/1``;
- ``games.json``, ``games.csv``, ``standings.json``, ``standings.csv``: the results as published;
- ``manifest.json``: the SHA-256 of every other file, written last.

:func:`verify_bundle` checks the manifest, that the key matches the commitment, that every game of
the schedule has exactly one record, dealt as the key (or the public seed) gives, seated as
scheduled, replaying legally to its stated result, and that the results and standings recompute
from the records. Each problem is one line that names the file or game; a link that leaves the bundle, a
FIFO or a device in it is one, and is not read.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from rage_sdk.cards import token
from rage_sdk.deal import key_commitment, seeded_deal
from rage_sdk.errors import RageError
from rage_sdk.record import ruleset_of
from rage_sdk.replay import verify
from rage_sdk.rules import Ruleset

from ..faults import Fault, Forfeits
from ..play.deals import Deals, key_from_hex
from ..play.finished import Figures, FinishedGame
from ..records.file import UnreadableFileError, kind_of, read_regular
from . import output_folder, ratings
from .config import LeagueConfig
from .schedule import SCHEDULE_VERSION, ScheduledGame, schedule, schedule_size

FORMAT = "rage-contest-bundle/1"
MANIFEST = "manifest.json"
LEAGUE = "league.json"
KEY = "deal-key.json"
GAMES = "games.json"
STANDINGS = "standings.json"
RECORDS = "records"
OLDEST_RATINGS = "rage-ratings/1"
"""The rating method of a bundle whose ``league.json`` names none: written before the methods had names."""
UNRATED_MEANS = ("mean_score", "mean_place", "bid_accuracy")
"""The figures of a bot rated on no game that are none (null) now, and 0 in bundles of earlier releases."""
MAX_GAMES = 1_000_000
"""The most games a bundle's schedule may ask the verifier to build."""
MAX_FILE_BYTES = 2**30
"""The largest file of a bundle read (the manifest, games and standings of a league of MAX_GAMES games);
a record is read up to :data:`~rage_referee.limits.MAX_RECORD_BYTES`."""


class MalformedBundleError(RageError, ValueError):
    """A folder that is not a contest bundle at all: the message names the file."""


def record_name(index: int) -> str:
    return f"{RECORDS}/game-{index:05d}.json"


# --------------------------------------------------------------------------- writing
def league_definition(config: LeagueConfig, deals: Deals) -> dict[str, Any]:
    """``league.json``: the schedule's settings, bots by name, and the published commitment."""
    return {
        "format": FORMAT,
        "name": config.name,
        **config.model_dump(
            mode="json", include={"players", "games", "games_per_table", "seed", "duplicate", "schedule"}
        ),
        "ruleset": config.ruleset.to_json(),
        "bots": list(config.bots),
        "deal_commitment": deals.commitment,
        "forfeits": config.forfeits.value,
        "ratings": ratings.METHOD,
    }


def foreign_contents(directory: Path, league: str) -> str | None:
    """What keeps ``directory`` from taking the bundle of ``league`` (:func:`.output_folder.foreign_contents`):
    nothing when it is missing, empty or that league's own bundle (written again, as after the key is revealed)."""
    return output_folder.foreign_contents(directory, LEAGUE, FORMAT, league, "bundle")


def write_bundle(
    directory: Path, config: LeagueConfig, deals: Deals, revealed: bool, games: Sequence[FinishedGame]
) -> None:
    """Write the league's bundle into ``directory`` (its key only when ``revealed``), the manifest last."""
    (directory / RECORDS).mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {LEAGUE: _json(league_definition(config, deals))}
    if revealed and deals.key is not None:
        files[KEY] = _json({"key": deals.key.hex(), "commitment": deals.commitment})
    for game in games:
        files[record_name(game.index)] = _json(game.record)
    files[GAMES] = _json([game_row(game) for game in games])
    files["games.csv"] = _games_csv(games)
    standings = [row.to_json() for row in ratings.rating_table(games, forfeits=config.forfeits)]
    files[STANDINGS] = _json(standings)
    files["standings.csv"] = _csv(list(standings[0]) if standings else [], [list(row.values()) for row in standings])
    for name, data in files.items():
        (directory / name).write_bytes(data)
    manifest = {"format": FORMAT, "files": {name: _sha256(data) for name, data in sorted(files.items())}}
    (directory / MANIFEST).write_bytes(_json(manifest))


def game_row(game: FinishedGame) -> dict[str, Any]:
    figures = game.figures
    return {
        "index": game.index,
        "set": game.set_id,
        "seed": game.seed,
        "seats": list(figures.seats),
        "totals": list(figures.totals),
        "places": list(figures.places),
        "hits": list(figures.hits),
        "rounds": figures.rounds,
        "faults": sum(map(figures.faults_of, range(len(figures.seats)))),
    }


def _games_csv(games: Iterable[FinishedGame]) -> bytes:
    header = ["index", "set", "seed", "seat", "bot", "total", "place", "rounds_bid_exactly", "faults"]
    rows = [
        [g.index, g.set_id, g.seed, seat, name, f.totals[seat], f.places[seat], f.hits[seat], f.faults_of(seat)]
        for g, f in ((g, g.figures) for g in games)
        for seat, name in enumerate(f.seats)
    ]
    return _csv(header, rows)


def _csv(header: list[str], rows: Iterable[list[Any]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode()


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, allow_nan=False) + "\n").encode()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- verifying
class BundleCheck(NamedTuple):
    problems: list[str]
    """Every problem, one line each: none, the bundle verifies."""
    games: int
    """The games of its schedule."""
    ratings: str
    """Its standings' rating method: their intervals and LOS are recomputed only under :data:`ratings.METHOD`."""


def verify_bundle(directory: Path) -> BundleCheck:
    """The problems of the bundle in ``directory``, its game count and rating method.

    :raises MalformedBundleError: ``directory`` is not a contest bundle (no manifest, bad JSON...).
    """
    problems: list[str] = []
    manifest = _manifest(directory)
    files = _files(directory, problems)
    _check_files(directory, manifest, files, problems)
    definition = _read_json(directory, LEAGUE, dict)
    ruleset, planned, commitment = _plan(definition, directory, problems)
    replayed = _check_records(directory, files, ruleset, planned, commitment, problems)
    try:
        forfeits = Forfeits(definition.get("forfeits", Forfeits.UNRATED.value))
    except ValueError:
        raise MalformedBundleError(
            f"{LEAGUE}: forfeits: {str(definition.get('forfeits'))[:40]!r} is not a choice"
        ) from None
    method = definition.get("ratings", OLDEST_RATINGS)
    if not isinstance(method, str):
        raise MalformedBundleError(f"{LEAGUE}: ratings: {str(method)[:40]!r} is not a rating method's name")
    _check_results(directory, replayed, problems, forfeits, method == ratings.METHOD)
    return BundleCheck(problems, len(planned), method)


def _manifest(directory: Path) -> dict[str, str]:
    if not directory.is_dir():
        raise MalformedBundleError(f"{directory}: not a folder")
    manifest = _read_json(directory, MANIFEST, dict)
    files = manifest.get("files")
    if manifest.get("format") != FORMAT or not isinstance(files, dict):
        raise MalformedBundleError(f"{MANIFEST}: not a {FORMAT} manifest")
    for name, digest in files.items():
        if not isinstance(digest, str) or len(digest) != 64 or Path(name).is_absolute() or ".." in Path(name).parts:
            raise MalformedBundleError(f"{MANIFEST}: entry {name[:80]!r} is not a relative path and a SHA-256")
    return files


def _files(directory: Path, problems: list[str]) -> set[str]:
    """The bundle's files, by name (``records/game-00000.json``): its regular files, and links to regular files
    inside it. Anything else in it is a problem naming it: a link that leaves the bundle (the bundle would
    verify by what lies outside it, only where it was made), a link to a folder, a FIFO or a device."""
    files: set[str] = set()
    for folder, folders, names in os.walk(directory):
        for entry in sorted([*folders, *names]):
            path = Path(folder, entry)
            name = path.relative_to(directory).as_posix()
            if not path.is_symlink():
                mode = path.lstat().st_mode
                if stat.S_ISREG(mode):
                    files.add(name)
                elif not stat.S_ISDIR(mode):
                    problems.append(f"{name}: not a regular file ({kind_of(mode)})")
            elif not _inside(directory, path):
                problems.append(f"{name}: a link that leaves the bundle")
            elif path.is_file():
                files.add(name)
            else:
                problems.append(f"{name}: a link to {'a folder' if path.is_dir() else 'nothing'}")
    return files


def _inside(directory: Path, path: Path) -> bool:
    """Whether ``path``, its links followed, lies in ``directory``."""
    return path.resolve().is_relative_to(directory.resolve())


def _check_files(directory: Path, manifest: dict[str, str], files: set[str], problems: list[str]) -> None:
    """Each file the manifest lists is there and unchanged, and every file there is listed. A file that cannot
    be read is named, and no longer one of ``files``."""
    for name, digest in sorted(manifest.items()):
        if name not in files:
            if not _there(directory, name):  # else named already
                problems.append(f"{name}: listed in the manifest but missing")
            continue
        try:
            data = read_regular(directory / name, MAX_FILE_BYTES)
        except UnreadableFileError as error:
            problems.append(f"{name}: {error}")
            files.discard(name)
            continue
        if _sha256(data) != digest:
            problems.append(f"{name}: changed since the bundle was written (its SHA-256 is not the manifest's)")
    for name in sorted(files - set(manifest) - {MANIFEST}):
        problems.append(f"{name}: not in the manifest")


def _there(directory: Path, name: str) -> bool:
    """Whether something other than a folder is at ``name``: a file, or what :func:`_files` named as no file of
    the bundle (a link, a FIFO, a file in a folder that is a link)."""
    path = directory / name
    return path.is_symlink() or (path.exists() and not path.is_dir())


def _plan(
    definition: dict[str, Any], directory: Path, problems: list[str]
) -> tuple[Ruleset, list[ScheduledGame], str | None]:
    """The league's ruleset, its schedule dealt from the revealed key (or the seed), and its commitment."""
    try:
        ruleset = ruleset_of(definition["ruleset"])
        bots, players = definition["bots"], definition["players"]
        seed, commitment = definition.get("seed"), definition.get("deal_commitment")
        if not isinstance(bots, list) or not all(isinstance(bot, str) for bot in bots) or not isinstance(players, int):
            raise ValueError("bots must be names and players a number")
        counts = [definition.get(key) for key in ("games", "games_per_table")]
        if any(not isinstance(count, int | None) or (count or 0) > MAX_GAMES for count in counts):
            raise ValueError(f"games and games_per_table must be numbers up to {MAX_GAMES}")
        ruleset.check_players(players)
        count, per_table = counts
        duplicate = bool(definition.get("duplicate", True))
        version = definition.get("schedule", 1)  # a bundle of the first design names none
        if not isinstance(version, int) or not 1 <= version <= SCHEDULE_VERSION:
            raise ValueError(f"schedule must be a design from 1 to {SCHEDULE_VERSION}")
        _, total = schedule_size(
            bots, players, games=count, games_per_table=per_table, duplicate=duplicate, version=version
        )
        if total > MAX_GAMES:
            raise ValueError(f"its schedule has {total:,} games, more than the {MAX_GAMES:,} a bundle may hold")
    except (KeyError, TypeError, ValueError) as error:
        raise MalformedBundleError(f"{LEAGUE}: not a league definition ({error})") from None
    deals = Deals.public(seed) if seed is not None else Deals(_revealed_key(directory, commitment, problems))
    try:
        games = schedule(
            bots,
            players,
            games=definition.get("games"),
            games_per_table=definition.get("games_per_table"),
            seed=seed or 0,
            duplicate=duplicate,
            deal_key=deals.key,
            version=version,
        )
    except (TypeError, ValueError) as error:
        raise MalformedBundleError(f"{LEAGUE}: its schedule cannot be built ({error})") from None
    return ruleset, games, commitment


def _revealed_key(directory: Path, commitment: Any, problems: list[str]) -> bytes:
    if not isinstance(commitment, str):
        raise MalformedBundleError(f"{LEAGUE}: deal_commitment: missing for a league without a seed")
    if not _there(directory, KEY):
        raise MalformedBundleError(f"{KEY}: missing: the organizer has not revealed the deal key (rage league reveal)")
    revealed = _read_json(directory, KEY, dict)
    try:
        key = key_from_hex(str(revealed.get("key")))
    except ValueError as error:
        raise MalformedBundleError(f"{KEY}: key: {error}") from None
    if key_commitment(key) != commitment:
        problems.append(f"{KEY}: the key does not match the commitment published in {LEAGUE} ({commitment})")
    return key


def _check_records(
    directory: Path,
    files: set[str],
    ruleset: Ruleset,
    planned: list[ScheduledGame],
    commitment: str | None,
    problems: list[str],
) -> list[FinishedGame]:
    """Each scheduled game's record: present once, seated and dealt as planned, legal; replayed."""
    wanted = {record_name(game.index) for game in planned}
    for name in sorted(files):
        if name.startswith(f"{RECORDS}/") and name not in wanted:
            problems.append(f"{name}: not a game of the league's schedule")
    replayed: list[FinishedGame] = []
    for game in planned:
        name = record_name(game.index)
        if name not in files:
            if not _there(directory, name):  # else named already
                problems.append(f"game {game.index}: missing from the bundle (no {name})")
            continue
        try:
            text = read_regular(directory / name)
        except UnreadableFileError as error:
            problems.append(f"{name}: {error}")
            continue
        result = _check_record(name, text, ruleset, game, commitment, problems)
        if result is not None:
            replayed.append(result)
    return replayed


def _check_record(
    name: str, text: bytes, ruleset: Ruleset, game: ScheduledGame, commitment: str | None, problems: list[str]
) -> FinishedGame | None:
    verdict = verify(text)
    if verdict.record is None:
        problems.append(f"{name}: not a well-formed record: {verdict.message}")
        return None
    if not verdict.ok:
        problems.append(f"{name}: does not replay legally: {verdict.message}")
        return None
    record = verdict.record
    data = json.loads(text)
    if record.players != list(game.seats):
        problems.append(f"{name}: seats {record.players}, but the schedule seats {list(game.seats)}")
    if record.ruleset != ruleset:
        problems.append(f"{name}: ruleset {record.ruleset.describe()}, but the league plays {ruleset.describe()}")
    meta = data.get("meta")
    stated = meta.get("deal_commitment") if isinstance(meta, dict) else None
    if stated != commitment:
        problems.append(f"{name}: meta.deal_commitment is {stated}, but the league committed to {commitment}")
    if record.first_round != 1 or len(record.rounds) != len(ruleset.rounds):
        problems.append(
            f"{name}: holds {len(record.rounds)} rounds from round {record.first_round}, not the whole game"
        )
    for number, round_ in enumerate(record.rounds, start=record.first_round):
        deal = seeded_deal(ruleset, len(game.seats), game.seed, number)
        hands = [[token(card) for card in hand] for hand in deal.hands]
        if round_.hands != hands or round_.pile != [token(card) for card in deal.pile]:
            problems.append(f"{name}: round {number} is not the deal the key gives for set {game.set_id}")
            break
    entries = data.get("faults", [])
    try:
        if not isinstance(entries, list):
            raise ValueError("not a list")
        faults = tuple(map(Fault.from_json, entries))
    except ValueError as error:
        problems.append(f"{name}: faults: {error}")
        faults = ()
    hits = [sum(r.bids[seat] == r.tricks_won[seat] for r in verdict.rounds) for seat in range(len(game.seats))]
    figures = Figures(
        tuple(record.players), tuple(verdict.totals), tuple(verdict.places), tuple(hits), len(verdict.rounds), faults
    )
    return FinishedGame(game.index, game.set_id, game.seed, figures)


def _check_results(
    directory: Path, replayed: list[FinishedGame], problems: list[str], forfeits: Forfeits, same_method: bool
) -> None:
    """``games.json`` and ``standings.json`` as the replayed records give them: every column, or (standings of
    another rating method, not ``same_method``) those that do not depend on the method."""
    listed = _read_json(directory, GAMES, list)
    expected = {game.index: game_row(game) for game in replayed}
    seen: set[int] = set()
    for row in listed:
        index = row.get("index") if isinstance(row, dict) else None
        if not isinstance(index, int):
            problems.append(f"{GAMES}: an entry without a game index: {str(row)[:80]}")
            continue
        if index in seen:
            problems.append(f"{GAMES}: game {index} is listed twice")
        seen.add(index)
        if index in expected and row != expected[index]:
            key = next(k for k in expected[index] if row.get(k) != expected[index][k])
            problems.append(
                f"{GAMES}: game {index} {key} is {row.get(key)}, but its record gives {expected[index][key]}"
            )
    for index in sorted(set(expected) - seen):
        problems.append(f"{GAMES}: game {index} is not listed")
    published = _read_json(directory, STANDINGS, list)
    recomputed = [row.to_json() for row in ratings.rating_table(replayed, forfeits=forfeits)]
    if len(published) != len(recomputed):
        problems.append(f"{STANDINGS}: {len(published)} rows, but the records give {len(recomputed)}")
        return
    for place, (row, again) in enumerate(zip(published, recomputed), start=1):
        columns = [key for key in again if same_method or key not in ratings.INTERVAL_COLUMNS]
        differs = [key for key in columns if not isinstance(row, dict) or not _same(row.get(key), again[key], key)]
        if differs:
            key = differs[0]
            shown = row.get(key) if isinstance(row, dict) else row
            problems.append(f"{STANDINGS}: row {place} {key} is {shown}, but the records give {again[key]}")


def _same(published: Any, recomputed: Any, key: str) -> bool:
    if recomputed is None and key in UNRATED_MEANS and published == 0:  # as bundles of earlier releases wrote it
        return True
    if recomputed is None and isinstance(published, float):  # NaN, as bundles of earlier releases wrote it
        return math.isnan(published)
    if isinstance(recomputed, float) and isinstance(published, int | float) and not isinstance(published, bool):
        if math.isnan(recomputed):
            return math.isnan(published)
        return math.isclose(published, recomputed, rel_tol=1e-9, abs_tol=1e-9)
    return bool(published == recomputed)


def _read_json(directory: Path, name: str, kind: type) -> Any:
    path = directory / name
    if not _inside(directory, path):
        raise MalformedBundleError(f"{name}: a link that leaves the bundle")
    try:
        value = json.loads(read_regular(path, MAX_FILE_BYTES))
    except UnreadableFileError as error:
        raise MalformedBundleError(f"{name}: cannot read: {error}") from None
    except (ValueError, RecursionError) as error:
        raise MalformedBundleError(f"{name}: not valid JSON: {str(error)[:200]}") from None
    if not isinstance(value, kind):
        raise MalformedBundleError(f"{name}: not a JSON {'object' if kind is dict else 'array'}")
    return value
