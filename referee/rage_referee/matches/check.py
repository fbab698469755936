"""``rage bot check``: what a bot author runs before entering a contest."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rage_sdk.bot import HOOK_FAILURE
from rage_sdk.rules import Ruleset

from ..faults import Fault
from ..play.finished import FinishedGame
from ..play.ledger import NEVER_FORFEIT, FaultLedger
from ..play.spec import GameSpec, TimeControl
from ..runner import LocalRunner
from ..seats import BotHandle, BotKind, BotSpec, BotSpecError, HandshakeError, LocalConnection
from ..seats.log_tail import tail_lines
from ..text import bot_text, name_text, plural

#: One game per ruleset, between which every card kind and declaration comes up.
CHECK_RULESETS = (
    Ruleset.of("amigo"),
    Ruleset.of("fundex", bidding="secret"),
    Ruleset.of("waddingtons", bidding="hidden"),
    Ruleset.of("amigo1985", first_action_of_kind_only=True, action_cards_anytime=True, plus_minus_one=True),
)
PLAYERS = 4
LOG_LINES = 12
"""How much of the end of the bot's own log a failed check shows."""
"""The fault limit of a check: every decision is asked, so every fault shows."""
MAX_TIMEOUTS = 10
"""Timeouts in a row after which a check asks the bot nothing more: a bot that hangs would have held the
check for a deadline per decision, over 1,000 of them (17 minutes at the default 1000 ms)."""


@dataclass(frozen=True)
class CheckLine:
    ok: bool
    text: str
    """Plain text (a bot's words in it made printable); no console markup."""


@dataclass
class CheckReport:
    lines: list[CheckLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)

    def add(self, ok: bool, text: str) -> None:
        self.lines.append(CheckLine(ok, text))


@dataclass(frozen=True)
class SeenFault:
    """A fault and the check game it came in."""

    game: int
    ruleset: Ruleset
    fault: Fault

    def describe(self) -> str:
        f = self.fault
        moment = "bid" if f.trick == 0 else f"trick {f.trick}"
        where = f"game {self.game} ({self.ruleset.describe()}), decision {f.decision}, round {f.round} {moment}"
        return f"{where}: {f.detail}"


async def check_bot(spec: BotSpec, decision_ms: int = 1000, log_dir: Path = Path("logs")) -> CheckReport:
    """Greet the bot, then play a game per check ruleset with the bot in every seat, through the runner
    that plays every other game (:class:`~rage_referee.runner.LocalRunner`).

    A bot the referee launches writes its stderr to ``log_dir``; the log is kept, and a failed
    check shows its last lines.
    """
    report = CheckReport()
    runner = LocalRunner([spec], FaultLedger(NEVER_FORFEIT, max_timeouts=MAX_TIMEOUTS), log_dir=log_dir)
    own_log: tuple[Path, int] | None = None
    try:
        async with runner:
            _greeted(report, runner.handles[spec.name])
            own_log = _own_log(runner.handles[spec.name])
            results: list[FinishedGame] = []
            await runner.run(check_games(spec.name, decision_ms), results.append)
        for result in results:
            report.add(not result.figures.faults, _game_line(result, decision_ms))
        _fault_lines(
            report, [SeenFault(r.index, CHECK_RULESETS[r.index], f) for r in results for f in r.figures.faults]
        )
        report.add(*_kinds_line(results))
    except (BotSpecError, HandshakeError) as error:  # raised by the runner's start, before any game
        report.add(False, f"handshake: {bot_text(str(error).removeprefix(f'{spec.name}: '), 2000)}")
    if own_log is not None:
        _hook_lines(report, *own_log)
    handle = getattr(runner, "handles", {}).get(spec.name)
    if not report.ok and handle is not None and handle.process is not None and handle.process.log_path.is_file():
        _log_lines(report, handle.process.log_path, handle.process.first_launched_at or 0)
    return report


def _greeted(report: CheckReport, handle: BotHandle) -> None:
    """The handshake's line, and where the bot's log goes."""
    identity = handle.identity
    assert identity is not None, "a started bot has greeted"
    report.add(True, f"handshake: {name_text(identity.name)} {name_text(identity.version)}, protocol 1")
    if handle.process is not None:
        report.add(True, f"the bot's stderr goes to {handle.process.log_path}")
    elif handle.spec.kind is BotKind.ADDRESS:
        report.add(True, f"the bot serves at {handle.spec.target}: its log is wherever it writes one")
    elif isinstance(handle.connection, LocalConnection) and handle.connection.failures is not None:
        report.add(True, f"the bot runs in the referee's process: its errors go to {handle.connection.failures.path}")


def _own_log(handle: BotHandle) -> tuple[Path, int] | None:
    """Where the bot's own failures go, and from which byte this check's are: a launched bot's stderr, or an
    in-process bot's log; none for a bot at an address (its log is its own)."""
    if handle.process is not None:
        return handle.process.log_path, handle.process.first_launched_at or 0
    if isinstance(handle.connection, LocalConnection) and handle.connection.failures is not None:
        path = handle.connection.failures.path
        return path, path.stat().st_size if path.is_file() else 0
    return None


def check_games(name: str, decision_ms: int) -> list[GameSpec]:
    """One game per check ruleset, bot ``name`` in every seat, never forfeited however many faults."""
    time = TimeControl(decision_ms=decision_ms, bank_ms=0, max_faults=NEVER_FORFEIT)
    return [
        GameSpec(number, rules, (name,) * PLAYERS, seed=number, time=time)
        for number, rules in enumerate(CHECK_RULESETS)
    ]


def _game_line(result: FinishedGame, decision_ms: int) -> str:
    """A game's decisions and slowest answer, a decision that timed out counting as the time waited for it."""
    timeouts = sum(fault.kind == "timeout" for fault in result.figures.faults)
    slowest = f"slowest {result.slowest_ms:.0f} ms" + (f" with {timeouts} timed out" if timeouts else "")
    rules = CHECK_RULESETS[result.index].describe()
    line = f"game {result.index}, {rules}: {result.decisions} decisions, {slowest}"
    line += f" (deadline {decision_ms} ms)"
    return line + (f", {plural(len(result.figures.faults), 'fault')}" if result.figures.faults else "")


def _fault_lines(report: CheckReport, faults: list[SeenFault]) -> None:
    """Every distinct kind of fault: how many, the first of them in full and the game and decision of the next."""
    by_kind: defaultdict[str, list[SeenFault]] = defaultdict(list)
    for seen in faults:
        by_kind[seen.fault.kind.value].append(seen)
    for kind, of_kind in by_kind.items():
        report.add(False, f"  {kind} x{len(of_kind)}: {of_kind[0].describe()}")
        for other in of_kind[1:3]:
            report.add(False, f"    also {other.describe()}")
        if len(of_kind) > 3:
            report.add(False, f"    and {len(of_kind) - 3} more")


def _hook_lines(report: CheckReport, path: Path, since: int) -> None:
    """Each optional hook that raised in this check (the SDK tells it in the log, :data:`~rage_sdk.bot.HOOK_FAILURE`):
    how often, and its first error. The bot plays on past it, so no game counts it a fault."""
    failed: dict[str, tuple[int, str]] = {}
    if not path.is_file():
        return
    try:
        with path.open("rb") as log:
            log.seek(since)
            for raw in log:
                told = HOOK_FAILURE.match(raw.decode(errors="replace"))
                if told is not None:
                    count, first = failed.get(told["hook"], (0, told["error"]))
                    failed[told["hook"]] = (count + 1, first)
    except OSError:
        return  # told by the log's lines, which a failed check shows
    for hook, (count, first) in failed.items():
        times = plural(count, "time")
        report.add(False, f"{bot_text(hook, 40)}() raised {times} in the check's games, first {bot_text(first, 300)}")


def _log_lines(report: CheckReport, path: Path, since: int) -> None:
    """The end of what the bot wrote to its log (its stderr) in this check, from offset ``since``, made printable."""
    try:
        lines = [line for line in tail_lines(path, LOG_LINES * 2, since) if line.strip()][-LOG_LINES:]
    except OSError as error:
        report.add(False, f"the bot's log {path} cannot be read: {error.strerror or error}")
        return
    if not lines:
        report.add(False, f"the bot wrote nothing to its stderr ({path}) in this check")
        return
    report.add(False, f"the last {len(lines)} lines of the bot's stderr ({path}):")
    for line in lines:
        report.add(False, f"  | {bot_text(line, 200)}")


def _chosen_plays(record: dict[str, Any]) -> Iterator[dict[str, object]]:
    """The plays of ``record`` the bot chose: not those the referee played for it after a fault."""
    faulted = {(fault["round"], fault["trick"], fault["seat"]) for fault in record.get("faults", [])}
    players = len(record["players"])
    for number, round_ in enumerate(record["rounds"], start=record.get("first_round", 1)):
        for index, play in enumerate(round_["plays"]):
            if (number, index // players + 1, play["seat"]) not in faulted:
                yield play


def _kinds_line(results: list[FinishedGame]) -> tuple[bool, str]:
    """Whether the bot played any card of its own, and the line saying which kinds it chose."""
    played = {_kind(play) for result in results for play in _chosen_plays(result.record)}
    if not played:
        return False, "answered with: nothing of its own (the referee played every card for it)"
    missing = sorted(set(_ALL_KINDS) - played)
    kinds = ", ".join(sorted(played & set(_ALL_KINDS)))
    return True, f"answered with: {kinds}" + (f" (never chose: {', '.join(missing)})" if missing else "")


_ALL_KINDS = ("coloured", "wild", "wild with value", "notrump", "change", "change naming a colour", "plus5", "minus5")


def _kind(play: dict[str, object]) -> str:
    card = str(play["card"])
    if card == "wild":
        return "wild with value" if "value" in play else "wild"
    if card == "change":
        return "change naming a colour" if play.get("trump") else "change"
    return card if card in _ALL_KINDS else "coloured"
