"""``rage bot check``: what a bot author runs before entering a contest."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from rage_sdk.rules import Ruleset

from .bots import BotHandle, BotSpec, BotSpecError
from .connection import HandshakeError
from .game import GameSpec, TimeControl, play_game

#: One game per ruleset, between which every card kind and declaration comes up.
CHECK_RULESETS = (
    Ruleset.of("amigo"),
    Ruleset.of("fundex", bidding="secret"),
    Ruleset.of("waddingtons", bidding="hidden"),
    Ruleset.of("amigo1985", first_action_of_kind_only=True, action_cards_anytime=True, plus_minus_one=True),
)
PLAYERS = 4


@dataclass(frozen=True)
class CheckLine:
    ok: bool
    text: str


@dataclass
class CheckReport:
    lines: list[CheckLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)

    def add(self, ok: bool, text: str) -> None:
        self.lines.append(CheckLine(ok, text))


async def check_bot(spec: BotSpec, decision_ms: int = 1000) -> CheckReport:
    """Greet the bot, then play a game per check ruleset with the bot in every seat."""
    report = CheckReport()
    with tempfile.TemporaryDirectory() as logs:
        handle = BotHandle(spec, Path(logs))
        try:
            identity = await handle.start()
        except (BotSpecError, HandshakeError) as error:
            report.add(False, f"handshake: {error}")
            return report
        report.add(True, f"handshake: {identity.name} {identity.version}, protocol 1")
        played: set[str] = set()
        try:
            for number, rules in enumerate(CHECK_RULESETS):
                time = TimeControl(decision_ms=decision_ms, bank_ms=0, max_faults=10**9)
                game = GameSpec(number, rules, ("bot",) * PLAYERS, seed=number, time=time)
                result = await play_game(game, {"bot": handle})
                for round_ in result.record["rounds"]:
                    for play in round_["plays"]:
                        played.add(_kind(play))
                faults = [f"{f.kind.value} in round {f.round}, trick {f.trick}: {f.detail}" for f in result.faults]
                summary = (
                    f"{rules.describe()}: {result.decisions} decisions, slowest {result.slowest_ms:.0f} ms "
                    f"(deadline {decision_ms} ms)"
                )
                report.add(not faults, summary + ("" if not faults else f", {len(faults)} faults"))
                for fault in faults[:5]:
                    report.add(False, "  " + fault)
        finally:
            await handle.stop()
    missing = sorted(set(_ALL_KINDS) - played)
    kinds = ", ".join(sorted(played & set(_ALL_KINDS)))
    report.add(True, f"answered with: {kinds}" + (f" (never chose: {', '.join(missing)})" if missing else ""))
    return report


_ALL_KINDS = ("coloured", "wild", "wild with value", "notrump", "change", "change naming a colour", "plus5", "minus5")


def _kind(play: dict[str, object]) -> str:
    card = str(play["card"])
    if card == "wild":
        return "wild with value" if "value" in play else "wild"
    if card == "change":
        return "change naming a colour" if play.get("trump") else "change"
    return card if card in _ALL_KINDS else "coloured"
