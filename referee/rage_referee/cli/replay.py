"""``rage replay``: check a game record, or show it trick by trick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rage_sdk.actions import Play
from rage_sdk.cards import COLOUR_NAMES, TOKENS
from rage_sdk.errors import IllegalActionError
from rage_sdk.record import MalformedRecordError, brief, load_record
from rage_sdk.replay import ILLEGAL, MALFORMED, replay, verify
from rage_sdk.state import NO_TRUMP, GameState
from rich.table import Table
from rich.text import Text

from .common import err, out

app = typer.Typer(help="Check and read game records (rage-record/1).", no_args_is_help=True)

COLOUR_STYLES = {"r": "red", "o": "dark_orange", "y": "yellow", "g": "green", "b": "blue", "p": "magenta"}
RecordFile = Annotated[Path, typer.Argument(help="A rage-record/1 JSON file.", show_default=False)]


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Far above any game's record (a 10-player game of 100 rounds is a few MB); a file past it is refused unread."""


def _read(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        err.print(f"cannot read {path}: {error.strerror or error}", markup=False)
        raise typer.Exit(MALFORMED) from None
    if len(data) > MAX_RECORD_BYTES:
        err.print(f"malformed record: {path} is larger than {MAX_RECORD_BYTES // 2**20} MiB", markup=False)
        raise typer.Exit(MALFORMED)
    return data


@app.command("verify")
def verify_command(
    file: RecordFile,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON object.")] = False,
) -> None:
    """Replay a record under the rules: exit 0 legal, 1 a rule broken or a wrong result, 2 malformed."""
    verdict = verify(_read(file))
    if as_json:
        print(json.dumps(verdict.to_json()))
    if not verdict.ok:
        kind = "malformed record" if verdict.exit_code == MALFORMED else "illegal"
        err.print(f"{kind}: {verdict.message}", markup=False)
    elif not as_json:
        record = verdict.record
        assert record is not None
        first, last = record.first_round, record.first_round + len(record.rounds) - 1
        span = f"round {first}" if first == last else f"rounds {first}-{last}"
        standings = ", ".join(
            f"{brief(name)} {total} (place {place})"
            for name, total, place in zip(record.players, verdict.totals, verdict.places)
        )
        out.print(f"legal: {record.ruleset.describe()}, {len(record.players)} players, {span}", markup=False)
        out.print(f"totals: {standings}", markup=False)
    raise typer.Exit(verdict.exit_code)


def card_text(play: Play) -> Text:
    """A play as coloured text: ``g12``, ``wild=b``, ``change->r``."""
    card = play.card
    text = Text(card.token, style=COLOUR_STYLES[card.token[0]] if card.is_coloured else "bold")
    if play.color is not None:
        declared = play.color.letter + ("" if play.value is None else str(play.value))
        text.append(f"={declared}", style=COLOUR_STYLES[play.color.letter])
    if play.trump is not None:
        text.append(f"->{play.trump.letter}", style=COLOUR_STYLES[play.trump.letter])
    return text


def colour_text(colour: int) -> Text:
    if colour == NO_TRUMP:
        return Text("none", style="dim")
    return Text(COLOUR_NAMES[colour], style=COLOUR_STYLES["roygbp"[colour]])


def round_table(players: list[str], state: GameState) -> Table:
    """The round ``state`` has just finished: bids, each trick's cards and winner, the scores."""
    result = state.results[-1]
    turned = " ".join(TOKENS[card] for card in state.turned)
    title = Text.assemble(
        f"Round {result.round_number}: {result.cards} card{'s' * (result.cards != 1)}, "
        f"dealer {players[result.dealer]}, trump ",
        colour_text(result.trump),
        f" (turned up: {turned or 'nothing'})",
    )
    table = Table(title=title, title_justify="left")
    table.add_column("trick", justify="right")
    for name in players:
        table.add_column(Text(name), justify="right")
    table.add_column("trump")
    table.add_column("winner")
    table.add_row("bid", *map(str, result.bids), "", "", style="bold")
    for number, trick in enumerate(state.tricks, start=1):
        cells = [Text("") for _ in players]
        for order, (seat, play) in enumerate(trick.plays):
            cells[seat] = card_text(play) + Text(" *" if order == 0 else "", style="dim")
        table.add_row(str(number), *cells, colour_text(trick.trump), Text(players[trick.winner]))
    table.add_row("tricks", *map(str, result.tricks_won), "", "", style="bold")
    table.add_row("points", *map(str, result.points), "", "", style="bold")
    return table


@app.command("show")
def show_command(file: RecordFile) -> None:
    """Show a record trick by trick: trump, cards (* leads), winners, bids and round scores."""
    try:
        record = load_record(_read(file))
    except MalformedRecordError as error:
        err.print(f"malformed record: {brief(str(error))}", markup=False)
        raise typer.Exit(MALFORMED) from None
    names = [brief(name) for name in record.players]
    out.print(
        f"{record.ruleset.describe()}: {', '.join(f'{seat} {name}' for seat, name in enumerate(names))}", markup=False
    )
    try:
        state = replay(record, on_round=lambda state: out.print(round_table(names, state)))
    except IllegalActionError as error:
        err.print(f"illegal: {brief(str(error))}", markup=False)
        raise typer.Exit(ILLEGAL) from None
    totals = ", ".join(f"{name} {total}" for name, total in zip(names, state.totals))
    out.print(f"totals: {totals}", markup=False)
