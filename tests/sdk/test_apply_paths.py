"""apply()'s inline checks (coloured cards, action cards, bids) agree with the violation walk and the general path."""

from __future__ import annotations

import random

import pytest
from rage_sdk.actions import BIDS, PLAYS, Action, Bid
from rage_sdk.errors import IllegalActionError
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState, Phase


def _picture(state: GameState) -> tuple[object, ...]:
    return (
        state.hands,
        state.trick,
        state.lead,
        state.to_move,
        state.tricks_won,
        state.bids,
        state.phase,
        state.trump,
        state.turned,
        state.tricks,
    )


def _general(state: GameState, action: Action) -> GameState:
    """The state after ``action`` taken by the general path (the one action cards take)."""
    twin = state.copy()
    if isinstance(action, Bid):
        twin._bid(action.tricks)
    else:
        twin._play(action)  # type: ignore[arg-type]
    return twin


@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons"])
@pytest.mark.parametrize("seed", range(3))
def test_inline_checks_agree_with_violation(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    state = GameState(Ruleset.of(preset), 4)
    while not state.is_terminal():
        if state.phase is Phase.DEAL:
            state.deal_seeded(seed)
            continue
        tries: list[Action] = list(PLAYS) if state.phase is Phase.PLAY else list(BIDS[: state.cards + 2])
        for action in tries:
            reason = state.violation(action)
            twin = state.copy()
            if reason is None:
                twin.apply(action)
                assert _picture(twin) == _picture(_general(state, action)), action
            else:
                with pytest.raises(IllegalActionError, match="seat"):
                    twin.apply(action)
                assert _picture(twin) == _picture(state), action
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons"])
def test_no_events_asked_plays_the_same_game(preset: str) -> None:
    """``events=False`` builds no events, and leaves the state, its record and the outcome as with events."""
    rules, rng = Ruleset.of(preset), random.Random(5)
    told, quiet = GameState(rules, 4), GameState(rules, 4)
    while not told.is_terminal():
        if told.phase is Phase.DEAL:
            assert told.deal_seeded(7) and quiet.deal_seeded(7, events=False) == ()
            continue
        action = rng.choice(told.legal_actions())
        assert told.apply(action) and quiet.apply(action, events=False) == ()
        assert _picture(quiet) == _picture(told)
    assert (quiet.results, quiet.logs, quiet.outcome()) == (told.results, told.logs, told.outcome())


def test_no_events_asked_still_checks() -> None:
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(1, events=False)
    with pytest.raises(IllegalActionError, match="seat"):
        state.apply(BIDS[state.cards + 1], events=False)


@pytest.mark.parametrize(
    ("action", "seat", "message"),
    [
        (0, None, "an action is a Bid or a Play, not the int 0 (a bid of 0 is Bid.of(0))"),
        ("r5", None, "an action is a Bid or a Play, not the str 'r5' (a play of it is Play.of('r5'))"),
        (None, None, "an action is a Bid or a Play, not None"),
        (Bid.of(0), "1", "seat is a seat number, 0 to 2, not '1'"),
        (Bid.of(0), True, "seat is a seat number, 0 to 2, not True"),
    ],
)
def test_apply_and_its_checks_name_what_is_no_action_or_no_seat(action: object, seat: object, message: str) -> None:
    """The same TypeError in both builds: the compiled one said 'union[Bid, Play] object expected; got int', the
    pure one 'seat 1 must bid, not 0' for apply, and is_legal(0) was a silent False."""
    state = GameState(Ruleset.of("amigo", rounds=[3]), 3)
    state.deal_seeded(1)
    checks = [lambda: state.apply(action, seat), lambda: state.violation(action, seat)]
    if seat is None:
        checks.append(lambda: state.is_legal(action))
    for check in checks:
        with pytest.raises(TypeError) as raised:
            check()
        assert str(raised.value) == message
