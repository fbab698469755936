"""``rage ratings``: the rating table of a league with each bot's memory audit, or its pairwise matrix (score
differences or collusion), in the format asked for."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from ..faults import Forfeits
from ..league.superiority import few_sets_note
from ..text import chance, figure, los_text, name_text, plural
from . import markdown
from .common import Format, err, fail, out
from .options import DatabaseOption, LeagueNameOption
from .stored_league import read_league

if TYPE_CHECKING:
    from ..league.audit import Audit
    from ..league.collusion import CollusionRow
    from ..league.pairs import PairRow
    from ..league.ratings import RatingRow
    from ..league.store import DealKey


COLUMNS = ("bot", "elo", "95%", "LOS", "games", "score", "place", "bids", "faults", "skill", "memory")
AUDIT_CSV = ("memory_sets", "memory_estimate", "memory_low", "memory_high", "memory_p", "memory_flagged")
"""The memory audit's columns in CSV, after the rating row's."""
LEGEND = (
    "elo: Bradley-Terry maximum likelihood over all games, mean fixed at 1500, 95% interval by bootstrap "
    "over duplicate sets (or games), spread by Student's t for their number "
    "(- from one set or game, or from sets all alike: nothing to resample); "
    "LOS: likelihood of superiority over the next bot (Student's t of the gap, at most 1 - 2^-(n+1) from n sets); "
    "score, place: means per game; bids: rounds bid exactly; "
    "skill: OpenSkill Plackett-Luce mu - 3 sigma. The overall ranking: the evidence that two bots differ "
    "is their duplicate score difference (rage ratings --pairs); "
    "memory: the bot's result on a deal's later exposures in a duplicate set less its first, points per game "
    "± the 95% interval, ! flagged: better beyond a 5% chance for an honest field (one-sided, Holm across bots)"
)
COLLUSION_LEGEND = (
    "the row bot's effect on the column bot: the column bot's duplicate score difference over the rest of the "
    "table in sets with the row bot at the table less in sets without it, points per game ± the 95% Welch "
    "interval; ! flagged: beyond a 5% chance for an honest field (one-sided, Holm across ordered pairs)"
)
PAIRS_LEGEND = (
    "row bot's duplicate score difference over the column bot: its mean total minus the other's on the same "
    "deals and seats, points per game, mean over duplicate sets, its 95% confidence sequence (valid however "
    "often it is read: a normal mixture over the sets) corrected for the matrix's pairs by Holm's "
    "procedure, and the likelihood that the row bot is the stronger (LOS); * : separated (the corrected "
    "interval excludes 0). JSON and CSV give the raw and corrected intervals and p-values"
)
FORFEITS_LEGEND = {
    Forfeits.UNRATED: "(forfeited N): in N games the referee played for the bot after it was forfeited; "
    "it is not rated on them (games counts those it played itself; --forfeits loss counts them as losses)",
    Forfeits.LOSS: "(forfeited N): in N games the referee played for the bot after it was forfeited; "
    "each counts as a loss to every bot that played itself",
}
ForfeitsOption = Annotated[
    Forfeits | None,
    typer.Option(
        "--forfeits",
        help="How a game the referee played for a forfeited bot counts for it: unrated, or a loss "
        "(default: the league file's forfeits, else unrated).",
        show_default=False,
    ),
]


def _interval(row: RatingRow) -> str:
    """The 95% interval about the rating; ``-`` for a rated bot without one (a single duplicate set)."""
    if row.has_interval:
        return f"{row.low - row.elo:+.0f}/{row.high - row.elo:+.0f}"
    return "" if math.isnan(row.elo) else "-"


def _cells(row: RatingRow, audit: Audit | None = None) -> list[str]:
    return [
        name_text(row.name) + (f" (forfeited {row.forfeited})" if row.forfeited else ""),
        figure(row.elo, ".0f"),
        _interval(row),
        "" if row.los_next is None else chance(row.los_next),
        str(row.games),
        figure(row.mean_score, ".1f"),
        figure(row.mean_place, ".2f"),
        figure(row.bid_accuracy, ".1%"),
        str(row.faults),
        figure(row.skill, ".1f"),
        "" if audit is None else audit.cell,
    ]


def _audit_csv(audit: Audit | None) -> list[object]:
    if audit is None:
        return [""] * len(AUDIT_CSV)
    values = audit.to_json()
    return [
        "" if values[key] is None else values[key] for key in ("sets", "estimate", "low", "high", "p_value", "flagged")
    ]


def memory_flags(audits: Mapping[str, Audit]) -> list[str]:
    """A line for each bot the memory audit flags."""
    return [
        f"memory audit: {name_text(name)} scores {audit.estimate:+.1f} points a game more on a deal it has played "
        f"before in the duplicate set ({audit.sets} sets, p {audit.p_value:.2g}): it may recognise repeated deals"
        for name, audit in audits.items()
        if audit.flagged
    ]


def render(
    rows: list[RatingRow],
    fmt: Format,
    title: str,
    forfeits: Forfeits = Forfeits.UNRATED,
    sets: int | None = None,
    owners: Mapping[str, str] | None = None,
    audits: Mapping[str, Audit] | None = None,
) -> None:
    """Print the table: a Rich table, Markdown, CSV or JSON (``forfeits``: how the table counted forfeits;
    ``sets``: the duplicate sets, or games, it was rated on, for the note under a table of few; ``owners``:
    each bot's owner, in a column after the bot's, for a hosted league's standings; ``audits``: each bot's
    memory audit, a column, and in JSON each row's ``memory_audit``)."""
    audits = audits or {}
    columns = list(COLUMNS) if owners is None else [COLUMNS[0], "owner", *COLUMNS[1:]]

    def fields(row: RatingRow) -> dict[str, object]:
        data = row.to_json()
        return data if owners is None else {"name": data.pop("name"), "owner": owners.get(row.name, ""), **data}

    def cells(row: RatingRow) -> list[str]:
        line = _cells(row, audits.get(row.name))
        return line if owners is None else [line[0], name_text(owners.get(row.name, "")), *line[1:]]

    if fmt is Format.JSON:
        print(json.dumps([fields(row) | {"memory_audit": _audit_json(audits.get(row.name))} for row in rows], indent=1))
    elif fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow([*fields(rows[0]), *AUDIT_CSV] if rows else [])
        writer.writerows([*fields(row).values(), *_audit_csv(audits.get(row.name))] for row in rows)
        print(buffer.getvalue(), end="")
    elif fmt is Format.MARKDOWN:
        print("\n".join(markdown.table_lines(columns, map(cells, rows))))
    else:
        table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        for column in columns:
            if column in ("bot", "owner"):
                table.add_column(column, overflow="fold")  # a long name folds, so the figures keep their width
            else:
                table.add_column(column, justify="right", no_wrap=True)
        for row in rows:
            table.add_row(*cells(row))
        out.print(table)
        out.print(LEGEND, style="dim")
        if sets is not None and few_sets_note(sets) is not None:
            out.print(few_sets_note(sets), style="dim")
        if any(row.forfeited for row in rows):
            out.print(FORFEITS_LEGEND[forfeits], style="dim")
    for line in memory_flags(audits):
        (out if fmt is Format.TABLE else err).print(line, style="yellow", markup=False)


def _audit_json(audit: Audit | None) -> dict[str, object] | None:
    return None if audit is None else audit.to_json()


def _pair_cell(row: PairRow) -> str:
    if not row.sets:
        return "-"
    mark = "*" if row.separated else ""
    los = los_text(row.los_shown, 0)
    if not math.isfinite(row.low_corrected) or not math.isfinite(row.high_corrected):  # too few sets to bound it
        return f"{row.difference:+.1f} {los}"
    return f"{row.difference:+.1f}{mark} {row.low_corrected:+.0f}..{row.high_corrected:+.0f} {los}"


def render_pairs(rows: list[PairRow], names: list[str], fmt: Format, title: str) -> None:
    """Print the pairwise matrix (rows and columns in ``names`` order); JSON and CSV list the pairs."""
    if fmt is Format.JSON:
        print(json.dumps([row.to_json() for row in rows], indent=1))
        return
    if fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(list(rows[0].to_json()) if rows else [])  # raw and corrected, as fields
        writer.writerows(["" if value is None else value for value in row.to_json().values()] for row in rows)
        print(buffer.getvalue(), end="")
        return
    cell = {(row.a, row.b): row for row in rows} | {(row.b, row.a): row.flipped() for row in rows}
    lines = [
        [name_text(name), *("" if name == other else _pair_cell(cell[name, other]) for other in names)]
        for name in names
    ]
    if fmt is Format.MARKDOWN:
        print("\n".join(markdown.table_lines(["bot", *map(name_text, names)], lines)))
        return
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for k, column in enumerate(["bot", *map(name_text, names)]):  # as the crosstable's, long names fold
        table.add_column(column, justify="left" if k == 0 else "right", overflow="fold")
    for line in lines:
        table.add_row(*line)
    out.print(table)
    out.print(PAIRS_LEGEND, style="dim")
    note = few_sets_note(max((row.sets for row in rows), default=0))
    if note is not None:
        out.print(note, style="dim")


def render_collusion(rows: list[CollusionRow], names: list[str], fmt: Format, title: str) -> None:
    """Print the collusion matrix (row: the bot present, column: the bot lifted); JSON and CSV list the pairs."""
    if fmt is Format.JSON:
        print(json.dumps([row.to_json() for row in rows], indent=1))
    elif fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(list(rows[0].to_json()) if rows else [])
        writer.writerows(["" if value is None else value for value in row.to_json().values()] for row in rows)
        print(buffer.getvalue(), end="")
    else:
        cell = {(row.a, row.b): row.audit.cell for row in rows}
        header = ["present", *map(name_text, names)]
        lines = [[name_text(a), *("" if a == b else cell[a, b] for b in names)] for a in names]
        if fmt is Format.MARKDOWN:
            print("\n".join(markdown.table_lines(header, lines)))
        else:
            table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
            for k, column in enumerate(header):
                table.add_column(column, justify="left" if k == 0 else "right", overflow="fold")
            for line in lines:
                table.add_row(*line)
            out.print(table)
            out.print(COLLUSION_LEGEND, style="dim")
    for flag in collusion_flags(rows):
        (out if fmt is Format.TABLE else err).print(flag, style="yellow", markup=False)


NO_SETS = "each pair's duplicate score difference, which needs every deal played in every seating"
"""What a league without duplicate deals cannot give (``--pairs``, ``--collusion``, ``--until-separated``)."""


def collusion_flags(rows: list[CollusionRow]) -> list[str]:
    """A line for each ordered pair the collusion test flags."""
    return [
        f"collusion: {name_text(row.b)} scores {row.audit.estimate:+.1f} points a game more against the same field "
        f"with {name_text(row.a)} at the table (p {row.audit.p_value:.2g})"
        for row in rows
        if row.audit.flagged
    ]


def ratings_command(
    league: Annotated[Path | None, typer.Option(help="A league file: its database and name.")] = None,
    db: DatabaseOption = None,
    name: LeagueNameOption = None,
    format: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.TABLE,
    pairs: Annotated[
        bool, typer.Option("--pairs", help="The pairwise matrix of duplicate score differences instead.")
    ] = False,
    forfeits: ForfeitsOption = None,
    crosstable: Annotated[bool, typer.Option("--crosstable", help="Print each pair's head-to-head instead.")] = False,
    collusion: Annotated[
        bool, typer.Option("--collusion", help="Each bot's effect on each other's duplicate result instead.")
    ] = False,
) -> None:
    """The rating table of a league: Elo with 95% intervals, LOS, the figures and the memory audit beside.

    With --pairs, every pair's duplicate score difference with its 95% confidence sequence, corrected across
    the pairs, and LOS; with --crosstable, each pair's head-to-head; with --collusion, each bot's effect on
    each other's duplicate result."""
    from ..league.audit import memory_audit
    from ..league.collusion import collusion_table
    from ..league.pairs import pair_table
    from ..league.ratings import rating_table
    from ..league.submitted import versions_line

    if pairs + crosstable + collusion > 1:
        fail("--pairs, --crosstable and --collusion: give one of them")
    if league is not None and name is not None:
        fail("--name: only with --db (a league file names its league)")
    stored = read_league(league, db, name, "--league FILE")
    league_name, games, deal_key = name_text(stored.name), stored.games, stored.deal_key
    if (pairs or collusion) and stored.release.set_size == 1:
        option = "--pairs" if pairs else "--collusion"
        fail(f"{option}: the league deals no duplicate sets (duplicate = false), and it reads {NO_SETS}")
    policy = forfeits or stored.forfeits
    if crosstable:
        from ..league.ratings import counted
        from .crosstable import render_crosstable

        order = [row.name for row in rating_table(games, samples=0, with_skill=False, forfeits=policy)]
        title = f"{league_name}: {plural(len(games), 'game')}, head to head"
        render_crosstable(counted(games, policy), order, format, title)
        return
    if pairs:  # rows and columns in the order of the rating table
        names = [row.name for row in rating_table(games, samples=0, with_skill=False, forfeits=policy)]
        render_pairs(pair_table(games, names), names, format, f"{league_name}: {plural(len(games), 'game')}, pairs")
    elif collusion:
        names = [row.name for row in rating_table(games, samples=0, with_skill=False, forfeits=policy)]
        title = f"{league_name}: {plural(len(games), 'game')}, collusion"
        render_collusion(collusion_table(games, names), names, format, title)
    else:
        rows, audits = rating_table(games, forfeits=policy), memory_audit(games, stored.order)
        sets = len({game.set_id for game in games})
        render(rows, format, f"{league_name}: {len(games)} games", policy, sets, audits=audits)
    (out if format is Format.TABLE else err).print(deals_line(deal_key))
    versions = versions_line(games)
    if versions is not None:
        (out if format is Format.TABLE else err).print(versions, markup=False)


def deals_line(deal_key: DealKey | None) -> str:
    """What the table's games were dealt from: the commitment to a secret key, or public seeds."""
    if deal_key is None:
        return "deals: public (the league gives its seed)"
    from rage_sdk.deal import key_commitment

    revealed = f", key revealed: {deal_key.key.hex()}" if deal_key.revealed else ""
    return f"deals: secret, commitment {key_commitment(deal_key.key)}{revealed}"
