"""``rage replay``: check a game record, show it (whole, or as one seat saw it), ask a bot about its decisions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..limits import MAX_RECORD_BYTES
from ..records.file import UnreadableFileError, read_regular
from .common import err, fail, out
from .errors import saying

if TYPE_CHECKING:
    from rage_sdk.record import GameRecord

app = typer.Typer(help="Check, read and question game records (rage-record/1).", no_args_is_help=True)
RecordFile = Annotated[Path, typer.Argument(help="A rage-record/1 JSON file.", show_default=False)]


def _read(path: Path) -> bytes:
    """The record file's bytes, or one line saying why it cannot be read (a FIFO, a device, too large) and exit 2."""
    from rage_sdk.replay import MALFORMED

    with saying({UnreadableFileError: (f"cannot read {path}: {{error}}", MALFORMED)}):
        return read_regular(path, MAX_RECORD_BYTES)


@app.command("verify")
def verify_command(
    file: RecordFile,
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as one JSON object.")] = False,
) -> None:
    """Replay a record under the rules: exit 0 legal, 1 a rule broken or a wrong result, 2 malformed."""
    from rage_sdk.replay import MALFORMED, verify

    from ..records.text import seat_names

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
            f"{name} {total} (place {place})"
            for name, total, place in zip(seat_names(record.players), verdict.totals, verdict.places)
        )
        out.print(f"legal: {record.ruleset.describe()}, {len(record.players)} players, {span}", markup=False)
        out.print(f"totals: {standings}", markup=False)
    raise typer.Exit(verdict.exit_code)


def _load(path: Path) -> tuple[GameRecord, dict[str, Any]]:
    """A well-formed record and its raw JSON (for what the record model leaves out: the faults), or exit 2."""
    from rage_sdk.record import MalformedRecordError, load_record
    from rage_sdk.replay import MALFORMED

    text = _read(path)
    with saying({MalformedRecordError: ("malformed record: {error}", MALFORMED)}, shortened=True):
        record = load_record(text)
    return record, json.loads(text)


def _seat(record: GameRecord, seat: int) -> int:
    if not 0 <= seat < len(record.players):
        fail(f"--seat: no seat {seat} among {len(record.players)} players (seats are 0-{len(record.players) - 1})")
    return seat


@app.command("show")
def show_command(
    file: RecordFile,
    seat: Annotated[
        int | None, typer.Option(help="Show the game as this seat saw it: decision by decision, nothing else.")
    ] = None,
) -> None:
    """Show a record: dealt hands, bids, each trick (* leads), faults (!), scores; or one seat's decisions."""
    from rage_sdk.errors import IllegalActionError
    from rage_sdk.replay import ILLEGAL

    from ..records.show import faults_of, game_story, seat_story

    record, data = _load(file)
    faults = faults_of(data)
    story = game_story(record, faults) if seat is None else seat_story(record, _seat(record, seat), faults)
    with saying({IllegalActionError: ("illegal: {error}", ILLEGAL)}, shortened=True):
        for part in story:
            out.print(part)


@app.command("ask")
def ask_command(
    file: RecordFile,
    bot: Annotated[
        str,
        typer.Argument(
            help="The bot to ask, as rage match takes it: a COMMAND, HOST:PORT or FILE.py:CLASS.", show_default=False
        ),
    ],
    seat: Annotated[int, typer.Option(help="Whose decisions to ask about.", show_default=False)],
    round_number: Annotated[
        int | None, typer.Option("--round", help="The decision's round (the game's number).")
    ] = None,
    trick: Annotated[int | None, typer.Option(help="The decision's trick in the round; 0 is the bid.")] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Ask every decision of the seat; list those that differ or fault.")
    ] = False,
    logs: Annotated[Path, typer.Option(help="Folder for a launched bot's stderr log.")] = Path("logs"),
) -> None:
    """Ask BOT what it plays at a recorded decision, with the exact view the seat had, beside what was played."""
    from rage_sdk.decisions import decisions
    from rage_sdk.replay import ILLEGAL, verify_record

    from ..records.ask import ask_bot, asked_spec
    from ..records.show import answers_table, faults_of
    from ..seats import HandshakeError

    record, data = _load(file)
    _seat(record, seat)
    if every == (round_number is not None or trick is not None):
        fail("give either --round R --trick T (0 for the bid) or --all")
    if not every and (round_number is None or trick is None):
        fail("--round and --trick go together: --round R --trick T (0 for the bid)")
    verdict = verify_record(record)
    if not verdict.ok:
        err.print(f"illegal: {verdict.message}")
        raise typer.Exit(ILLEGAL)
    which = {(d.round_number, d.trick) for d in decisions(record) if d.seat == seat}
    if not every and (round_number, trick) not in which:
        rounds = f"{record.first_round}-{record.first_round + len(record.rounds) - 1}"
        where = f"--round {round_number} --trick {trick}"
        fail(f"{where}: no decision of seat {seat} there (rounds {rounds}; trick 0 is the bid)")
    spec = asked_spec(bot)
    with saying({HandshakeError: (f"cannot start {bot}: {{error}}", 1), KeyboardInterrupt: ("stopped", 130)}):
        identity, answers = asyncio.run(
            ask_bot(record, spec, seat, lambda d: every or (d.round_number, d.trick) == (round_number, trick), logs)
        )
    shown = [answer for answer in answers if answer.verdict != "same"] if every else answers
    if shown:
        out.print(answers_table(record, identity.name, shown, faults_of(data)))
    if every:
        faulted = sum(answer.fault is not None for answer in answers)
        told = f"{len(answers)} decisions, {sum(answer.differs for answer in answers)} differ"
        out.print(f"{told}, {faulted} faulted" if faulted else told)
