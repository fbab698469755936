"""What ``rage replay show`` prints: a record round by round, or the game as one seat saw it.

The whole game shows every dealt hand, the bids, each trick and the scores, with a ``!`` where the
referee charged a fault and played the fallback. One seat's game is built from the views
:func:`rage_sdk.view.view_for` gave that seat (:mod:`rage_sdk.decisions`), so it shows nothing
the seat could not see: its hand, the cards turned up and played, the bids it was shown, the
scores; its legal actions, its choice, its time, and its own faults.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rage_sdk.cards import CARDS, Card
from rage_sdk.decisions import Decision, decisions
from rage_sdk.errors import IllegalActionError
from rage_sdk.record import GameRecord
from rage_sdk.replay import replay
from rage_sdk.state import GameState
from rage_sdk.view import SeatView, view_for
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..faults import Fault
from ..limits import MAX_GAMES
from ..text import bot_text, name_text
from .text import action_text, card_text, cards_text, colour_text, legal_text, seat_names, trick_text

if TYPE_CHECKING:
    from .ask import Answer

FAULT_STYLE = "bold red"
MAX_DETAIL = 160
"""Characters shown of a fault's detail (a bot's own error text among them)."""


def faults_of(data: dict[str, Any]) -> list[Fault]:
    """The faults a referee wrote into a record (``"faults"``), skipping any entry not shaped like one."""
    found = []
    entries = data.get("faults")
    for entry in entries if isinstance(entries, list) else []:
        with contextlib.suppress(ValueError):
            found.append(Fault.from_json(entry))
    return found


def fault_text(fault: Fault, names: Sequence[str]) -> Text:
    """A fault's line; ``names``: the seats' as :func:`~rage_referee.records.text.seat_names` shows them."""
    where = f"round {fault.round}, " + ("bid" if fault.trick == 0 else f"trick {fault.trick}")
    name = names[fault.seat] if 0 <= fault.seat < len(names) else f"seat {fault.seat}"
    return Text(
        f"! {where}: {name} {fault.kind.value}: {bot_text(fault.detail, MAX_DETAIL)}; "
        f"the referee played {bot_text(fault.fallback)}",
        style=FAULT_STYLE,
    )


# ------------------------------------------------------------------ the whole game
def game_header(record: GameRecord) -> Text:
    """The ruleset, the seats (with the bots' announced names and versions) and the rest of ``meta``."""
    meta = record.meta or {}
    listed = meta.get("bots")
    bots: list[Any] = listed if isinstance(listed, list) else []
    seats = []
    for seat, name in enumerate(record.players):
        label = f"{seat} {name_text(name)}"
        bot = bots[seat] if seat < len(bots) and isinstance(bots[seat], dict) else {}
        if isinstance(bot.get("name"), str):
            version = bot.get("version")
            label += f" ({name_text(bot['name'])}" + (f" {name_text(version)})" if isinstance(version, str) else ")")
        seats.append(label)
    header = Text(f"{record.ruleset.describe()}: {', '.join(seats)}")
    facts = [f"{kind} {name_text(str(meta[kind]))}" for kind in ("league", "match") if kind in meta]
    facts += [
        f"{key} {meta[key]}" for key in ("game", "set") if type(meta.get(key)) is int and 0 <= meta[key] < MAX_GAMES
    ]
    time = meta.get("time")
    if isinstance(time, dict) and type(time.get("decision_ms")) is int and type(time.get("bank_ms")) is int:
        facts.append(f"{time['decision_ms']} ms a decision, bank {time['bank_ms']} ms")
    if isinstance(meta.get("date"), str):
        facts.append(bot_text(meta["date"]))
    if facts:
        header.append("\n" + ", ".join(facts), style="dim")
    return header


def round_table(names: Sequence[str], state: GameState, hands: Sequence[Sequence[str]], faults: list[Fault]) -> Table:
    """The round ``state`` has just finished: dealt hands, bids, each trick's cards and winner, the scores; ``names``
    the seats' as :func:`~rage_referee.records.text.seat_names` shows them.

    ``!`` marks a bid or card the referee played in place of a seat after a fault.
    """
    result = state.results[-1]
    turned = " ".join(CARDS[card].token for card in state.turned)
    title = Text.assemble(
        f"Round {result.round_number}: {result.cards} card{'s' * (result.cards != 1)}, "
        f"dealer {names[result.dealer]}, trump ",
        colour_text(result.trump),
        f" (turned up: {turned or 'nothing'})",
    )
    marked = {(fault.trick, fault.seat) for fault in faults if fault.round == result.round_number}
    mark = Text("!", style=FAULT_STYLE)
    table = Table(title=title, title_justify="left")
    table.add_column("trick", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    table.add_column("trump")
    table.add_column("winner")
    dealt = [cards_text(sorted((Card.of(token) for token in hand), key=lambda card: card.id)) for hand in hands]
    table.add_row("hand", *dealt, "", "")
    bids = [Text(str(bid)) + (mark if (0, seat) in marked else Text("")) for seat, bid in enumerate(result.bids)]
    table.add_row("bid", *bids, "", "", style="bold")
    for number, trick in enumerate(state.tricks, start=1):
        cells = [Text("") for _ in names]
        for order, (seat, play) in enumerate(trick.plays):
            cells[seat] = card_text(play) + Text(" *" if order == 0 else "", style="dim")
            if (number, seat) in marked:
                cells[seat] += mark
        table.add_row(str(number), *cells, colour_text(trick.trump), names[trick.winner])
    table.add_row("tricks", *map(str, result.tricks_won), "", "", style="bold")
    table.add_row("points", *map(str, result.points), "", "", style="bold")
    return table


def game_story(record: GameRecord, faults: list[Fault]) -> Iterator[RenderableType]:
    """The whole game: a table per round, each followed by its faults, then the totals.

    :raises rage_sdk.errors.IllegalActionError: at the first rule the record breaks (after the rounds before it).
    """
    yield game_header(record)
    names = seat_names(record.players)
    tables: list[RenderableType] = []
    index = 0

    def finished(state: GameState) -> None:
        nonlocal index
        number = state.results[-1].round_number
        tables.append(round_table(names, state, record.rounds[index].hands, faults))
        tables.extend(fault_text(fault, names) for fault in faults if fault.round == number)
        index += 1

    try:
        state = replay(record, on_round=finished)
    except IllegalActionError:
        yield from tables  # the rounds before the rule broken
        raise
    totals, places, hits = state.outcome()
    yield summary_line(record, names, totals, places)
    yield from tables
    yield final_table(names, totals, places, hits)
    yield Text(f"totals: {', '.join(f'{name} {total}' for name, total in zip(names, totals))}")


def summary_line(record: GameRecord, names: Sequence[str], totals: Sequence[int], places: Sequence[int]) -> Text:
    """The game in one line: ruleset, players, the winner (or winners, tied) and the scores."""
    winners = [name for name, place in zip(names, places) if place == 1]
    scores = ", ".join(f"{name} {total}" for name, total in zip(names, totals))
    won = f"winner{'s' * (len(winners) > 1)} {' and '.join(winners)}"
    return Text(f"{record.ruleset.describe()}; {', '.join(names)}; {won}; scores {scores}", style="bold")


def final_table(names: Sequence[str], totals: Sequence[int], places: Sequence[int], hits: Sequence[int]) -> Table:
    """The final scores, best first: place, seat, bot, score and the rounds each bid exactly."""
    table = Table(title="Final scores", title_justify="left")
    for column in ("place", "seat", "bot", "score", "bids hit"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for seat in sorted(range(len(names)), key=lambda seat: (places[seat], seat)):
        table.add_row(str(places[seat]), str(seat), names[seat], str(totals[seat]), str(hits[seat]))
    return table


# ------------------------------------------------------------------ one seat's game
@dataclass
class _SeatRound:
    """One round as the seat saw it, filled in decision by decision."""

    round_number: int
    table: Table
    tricks_shown: int = 0


def _round_title(view: SeatView, names: Sequence[str]) -> Text:
    return Text.assemble(
        f"Round {view.round_number}: {view.cards} card{'s' * (view.cards != 1)}, dealer {names[view.dealer]}, trump ",
        colour_text(view.trump),
        f" (turned up: {' '.join(card.token for card in view.turned) or 'nothing'})",
    )


def _seat_table(view: SeatView, names: Sequence[str]) -> Table:
    table = Table(title=_round_title(view, names), title_justify="left")
    for column in ("decision", "hand", "seen", "legal", "chose"):
        table.add_column(column)
    table.add_column("ms", justify="right")
    return table


def _finished_tricks(part: _SeatRound, view: SeatView, names: Sequence[str]) -> None:
    """Rows for the tricks finished since the seat last looked."""
    for number, trick in enumerate(view.tricks[part.tricks_shown :], start=part.tricks_shown + 1):
        winner = Text(f" won by {names[trick.winner]}", style="dim")
        part.table.add_row(f"trick {number}", "", trick_text(trick.plays, names) + winner, "", "", "", style="dim")
    part.tricks_shown = len(view.tricks)


def seen_text(view: SeatView, names: Sequence[str]) -> Text:
    """What the seat saw besides its hand when it decided: the bids it was shown, and the trick so far."""
    if not view.trick:
        shown = [f"{names[seat]} {'?' if bid is None else bid}" for seat, bid in enumerate(view.bids)]
        text = Text("bids: " + ", ".join(shown))
        if view.tricks or view.trick or any(view.tricks_won):
            text.append(f"; tricks won {' '.join(map(str, view.tricks_won))}")
        return text
    trump = "none" if view.trump is None else view.trump.name.lower()
    return trick_text(view.trick, names) + Text(f"; trump {trump}")


def decision_row(decision: Decision, names: Sequence[str], fault: Fault | None) -> list[Text]:
    """One decision's row: which, the hand, what else it saw, the legal actions, the choice, the time; ``names``
    the seats' as :func:`~rage_referee.records.text.seat_names` shows them."""
    view = decision.view
    which = Text("bid" if decision.is_bid else f"trick {decision.trick}")
    chose = action_text(decision.action)
    if fault is not None:
        chose += Text(f" ! {fault.kind.value}: {bot_text(fault.detail, MAX_DETAIL)} (fallback)", style=FAULT_STYLE)
    ms = Text("" if decision.ms is None else str(decision.ms))
    return [which, cards_text(view.hand), seen_text(view, names), legal_text(view.legal_actions), chose, ms]


def _round_end(view: SeatView, names: Sequence[str]) -> Text:
    result = view.results[-1]
    points = ", ".join(f"{name} {p}" for name, p in zip(names, result.points))
    totals = ", ".join(f"{name} {t}" for name, t in zip(names, view.totals))
    return Text(f"round {result.round_number}: bids {list(result.bids)}, points {points}; totals {totals}")


def seat_story(record: GameRecord, seat: int, faults: list[Fault]) -> Iterator[RenderableType]:
    """The game as ``seat`` saw it, a table per round with a row per decision, built from its views only.

    :raises rage_sdk.errors.IllegalActionError: at the first rule the record breaks.
    """
    names = seat_names(record.players)
    yield Text(f"{record.ruleset.describe()}: the game as seat {seat} ({name_text(record.players[seat])}) saw it")
    own = {(fault.round, fault.trick): fault for fault in faults if fault.seat == seat}
    ends: dict[int, SeatView] = {}  # what it saw as each round ended, by round number

    def ended(state: GameState) -> None:
        ends[state.results[-1].round_number] = view_for(state, seat)

    replay(record, on_round=ended)
    part: _SeatRound | None = None
    for decision in decisions(record):
        if decision.seat != seat:
            continue
        view = decision.view
        if part is None or part.round_number != view.round_number:
            if part is not None:
                yield from _close(part, ends[part.round_number], names)
            part = _SeatRound(view.round_number, _seat_table(view, names))
        _finished_tricks(part, view, names)
        part.table.add_row(*decision_row(decision, names, own.get((decision.round_number, decision.trick))))
    if part is not None:
        yield from _close(part, ends[part.round_number], names)


def _close(part: _SeatRound, end: SeatView, names: Sequence[str]) -> Iterator[RenderableType]:
    _finished_tricks(part, end, names)
    yield part.table
    yield _round_end(end, names)


# ------------------------------------------------------------------ a bot asked again
VERDICT_STYLES = {"same": "dim", "differs": "bold yellow", "faulted": FAULT_STYLE}


def answers_table(record: GameRecord, bot: str, answers: Sequence[Answer], faults: list[Fault]) -> Table:
    """Decisions put to ``bot`` again: what the seat saw, what it played then (``!``: a fallback), what it plays now."""
    table = Table(title=Text(f"{name_text(bot)} asked again"), title_justify="left")
    for column in ("decision", "hand", "seen", "legal", "recorded", "ms", name_text(bot), "ms", ""):
        table.add_column(column, justify="right" if column == "ms" else "left")
    names = seat_names(record.players)
    for answer in answers:
        decision = answer.decision
        then = next((f for f in faults if (f.seat, f.round, f.trick) == _place(decision)), None)
        which, hand, seen, legal, recorded, ms = decision_row(decision, names, then)
        now = action_text(answer.action)
        if answer.fault is not None:
            detail = bot_text(answer.fault.detail, MAX_DETAIL)
            now += Text(f" ! {answer.fault.kind.value}: {detail}", style=FAULT_STYLE)
        verdict = Text(answer.verdict, style=VERDICT_STYLES[answer.verdict])
        where = Text(f"round {decision.round_number} ") + which
        table.add_row(where, hand, seen, legal, recorded, ms, now, str(answer.ms), verdict)
    return table


def _place(decision: Decision) -> tuple[int, int, int]:
    return decision.seat, decision.round_number, decision.trick
