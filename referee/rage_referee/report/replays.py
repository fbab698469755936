"""A game's replay as each viewer may see it: the organizer, a spectator, or one seat.

Every frame is one decision (a bid or a play) and what the viewer knows right after it. The spectator's
frames (what every seat sees: no hand, only the bids all seats see) are the base; a seat's view adds
an overlay built from :func:`rage_sdk.view_for` for that seat alone (its hand, the bids it sees), so
no card hidden from that seat is in its data at all; the organizer's overlay adds every hand and
bid. Frames list only what changed since the frame before (the viewer carries the rest forward,
hand by hand), so a game's replay, all views together, stays within a few times its record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rage_sdk import Bid, GameState, Play, view_for
from rage_sdk.actions import Action
from rage_sdk.cards import TOKENS, Colour
from rage_sdk.record import GameRecord
from rage_sdk.state import RoundResult, Trick
from rage_sdk.view import SeatView
from rage_sdk.walk import Step as WalkStep
from rage_sdk.walk import steps as walk

from .text import capped

ORGANIZER = "all"
SPECTATOR = "public"


def view_names(players: int) -> list[str]:
    """Every view of a game of ``players`` seats: the organizer, the spectator, then each seat."""
    return [ORGANIZER, SPECTATOR, *(str(seat) for seat in range(players))]


@dataclass(frozen=True)
class Step:
    """One decision of a replayed game, with the state right after it."""

    round_number: int
    dealer: int
    trick: int
    """0 for a bid."""
    seat: int
    action: Action
    state: GameState


def steps(record: GameRecord) -> Iterator[Step]:
    """Walk a legal record decision by decision (:func:`rage_sdk.walk.steps`), each with the state right after it.

    The walk gives the state before each decision, which is the state after the one before it;
    only a round's last play needs a copy, taken before the next round is dealt.

    :raises rage_sdk.IllegalActionError: the record breaks a rule.
    """
    ended: list[GameState] = []
    last: WalkStep | None = None
    for step in walk(record, on_round=lambda state: ended.append(state.copy())):
        if last is not None:
            yield _after(last, ended.pop() if ended else step.state)
        last = step
    if last is not None:
        yield _after(last, ended.pop())


def _after(step: WalkStep, state: GameState) -> Step:
    return Step(step.round_number, step.dealer, step.trick, step.seat, step.action, state)


def _letter(colour: Colour | None) -> str | None:
    return None if colour is None else colour.letter


def _plays(plays: Sequence[tuple[int, Play]]) -> list[list[Any]]:
    return [[seat, str(play)] for seat, play in plays]


def _table(step: Step, trick: Sequence[tuple[int, Play]], tricks: Sequence[Trick]) -> dict[str, Any]:
    """The cards on the table: the trick so far, or the trick this play finished with its winner."""
    if step.trick and not trick and tricks:
        last = tricks[-1]
        return {"table": _plays(last.plays), "winner": last.winner, "revealed": [card.token for card in last.revealed]}
    return {"table": _plays(trick), "winner": None, "revealed": []}


def _round_points(step: Step, results: Sequence[RoundResult]) -> list[int] | None:
    """The points of the round this decision finished, else ``None``."""
    if results and results[-1].round_number == step.round_number:
        return list(results[-1].points)
    return None


def _action_text(step: Step, bids: Sequence[int | None]) -> str:
    """The decision as a viewer who sees ``bids`` sees it: a bid it may not see is just "bids"."""
    if isinstance(step.action, Bid) and bids[step.seat] is None:
        return "bids"
    return str(step.action)


def _public_frame(step: Step, views: Sequence[SeatView]) -> dict[str, Any]:
    """What every seat sees (so a spectator too): no hand, and only the bids all seats see."""
    view = views[0]
    bids = [bid if all(other.bids[seat] is not None for other in views) else None for seat, bid in enumerate(view.bids)]
    return {
        "round": step.round_number,
        "cards": view.cards,
        "dealer": step.dealer,
        "trick": step.trick,
        "seat": step.seat,
        "action": _action_text(step, bids),
        "trump": _letter(view.trump),
        "turned": [card.token for card in view.turned],
        "bids": bids,
        "won": list(view.tricks_won),
        "totals": list(view.totals),
        "points": _round_points(step, view.results),
        "sizes": list(view.hand_sizes),
        "hands": {},
        **_table(step, view.trick, view.tricks),
    }


def _seat_overlay(step: Step, view: SeatView) -> dict[str, Any]:
    """What one seat sees beyond the public frame: its hand, and the bids its bidding mode shows it."""
    bids = list(view.bids)
    return {
        "hands": {str(view.seat): [card.token for card in view.hand]},
        "bids": bids,
        "action": _action_text(step, bids),
    }


def _organizer_overlay(step: Step) -> dict[str, Any]:
    state = step.state
    return {
        "hands": {str(seat): [TOKENS[c] for c in hand] for seat, hand in enumerate(state.hands)},
        "bids": list(state.bids),
        "action": str(step.action),
    }


def _fault_marks(faults: Sequence[Mapping[str, Any]]) -> dict[tuple[int, int, int], list[Mapping[str, Any]]]:
    marks: dict[tuple[int, int, int], list[Mapping[str, Any]]] = {}
    for fault in faults:
        try:
            key = (int(fault.get("seat", -1)), int(fault.get("round", 0)), int(fault.get("trick", 0)))
        except (TypeError, ValueError):
            continue
        marks.setdefault(key, []).append(fault)
    return marks


def _fault_json(fault: Mapping[str, Any], detailed: bool) -> dict[str, Any]:
    """A fault as a viewer sees it: its kind and the fallback played; the detail for its own seat only."""
    out: dict[str, Any] = {"kind": capped(fault.get("kind", "fault"), 40)}
    if detailed:
        out["detail"] = capped(fault.get("detail", ""))
        out["fallback"] = capped(fault.get("fallback", ""), 40)
    return out


def _delta(frame: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    """What changed since ``previous``; of ``hands``, only the hands that changed."""
    changed = {key: value for key, value in frame.items() if previous.get(key) != value}
    if "hands" in changed and "hands" in previous:
        old = previous["hands"]
        changed["hands"] = {seat: cards for seat, cards in frame["hands"].items() if old.get(seat) != cards}
    return changed


def replay_views(
    record: GameRecord, faults: Sequence[Mapping[str, Any]] = (), only: Sequence[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Each view's replay (by :func:`view_names`, or just those in ``only``): players and frames.

    The spectator's frames are the base of every view: the organizer's and each seat's frames are
    overlays on them (``"base": "public"``) holding only what that viewer sees beyond, so a seat's
    data holds its own hand and no other. Each frame holds only what changed since the one before;
    a frame with a fault at its decision has ``faults`` (the detail only in the organizer's overlay
    and in the overlay of the seat at fault).

    :raises rage_sdk.IllegalActionError: the record breaks a rule.
    """
    players = len(record.players)
    names = [name for name in view_names(players) if only is None or name in only]
    marks = _fault_marks(faults)
    frames: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    last: dict[str, dict[str, Any]] = {name: {} for name in names}
    tricks: list[list[Any]] = []
    state = None
    for step in steps(record):
        state = step.state
        if (trick := finished_trick(step)) is not None:
            tricks.append(trick)
        views = [view_for(step.state, seat) for seat in range(players)]
        marked = marks.get((step.seat, step.round_number, step.trick), [])
        for name in names:
            if name == SPECTATOR:
                frame = _public_frame(step, views)
            elif name == ORGANIZER:
                frame = _organizer_overlay(step)
            else:
                frame = _seat_overlay(step, views[int(name)])
            detailed = name in (ORGANIZER, str(step.seat))
            frame["faults"] = [_fault_json(fault, detailed) for fault in marked]
            frames[name].append(_delta(frame, last[name]))
            last[name] = frame
    players_shown = [capped(player, 60) for player in record.players]
    return {
        name: {"view": name, "players": players_shown, "frames": frames[name]}
        | ({"game": game_summary(record, tricks, state)} if name == SPECTATOR else {"base": SPECTATOR})
        for name in names
    }


def finished_trick(step: Step) -> list[Any] | None:
    """The trick ``step`` finished, as the summary lists it: round, trick, the seat that led, each seat's card in
    order, the winner; none when the step finished no trick."""
    state = step.state
    if not (step.trick and not state.trick and state.tricks):
        return None
    last = state.tricks[-1]
    return [step.round_number, step.trick, last.leader, _plays(last.plays), last.winner]


def game_summary(record: GameRecord, tricks: list[list[Any]], state: GameState | None) -> dict[str, Any]:
    """What every viewer may see of the game once it is over: its ruleset, every trick
    (:func:`finished_trick`) and, from its final ``state``, the totals and places."""
    totals, places, _ = state.outcome() if state is not None else ((), (), ())
    return {"ruleset": record.ruleset.describe(), "tricks": tricks, "totals": list(totals), "places": list(places)}
