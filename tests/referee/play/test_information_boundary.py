"""What each seat is told, against rules.md "Information: what a seat may ever see".

Every piece the referee hands a bot (game start, event, decision request, game end) is captured
together with the referee's own game state at that moment, over full games of every preset in
every bidding mode. Then, for every piece: no card of another seat's hand or of the face-down pile
appears in any field (every field of every message is walked, and a field nobody classified
fails the test); bids show up only when the bidding mode allows; a round's start shows the seat
its own dealt hand; a decision request carries exactly :func:`rage_sdk.view.view_for`. What the
bot receives is exactly these pieces, and over gRPC exactly what it receives in-process.
"""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest
import rage_referee.play.game
from google.protobuf.message import Message
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import MAX_SEATS, play_game
from rage_referee.play.meta import game_part
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.seats import Answer, BotHandle, BotSpec, Key, LocalConnection, load_bot_class
from rage_sdk import Bot, Play, wire
from rage_sdk.actions import CHANGE_COLOUR_BASE, WILD_COLOUR_BASE
from rage_sdk.bot import BotFactory, BotRunner
from rage_sdk.cards import CARDS, CHANGE, NUM_COLOURED, WILD, card_id, colour_code
from rage_sdk.engine_events import EVERYONE
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.rules import Bidding, Ruleset
from rage_sdk.state import GameState, Phase
from rage_sdk.view import SeatView, view_for

from tests.helpers.bots import read_dump

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots"
RANDOM = f"{ROOT}/examples/random_bot.py:RandomBot"
HEURISTIC = f"{ROOT}/examples/heuristic_bot.py:HeuristicBot"
FIRST_LEGAL = f"{BOTS}/botbase.py:FirstLegalBot"
RAISER = f"{BOTS}/raiser.py:RaiserBot"

# Fields of the protocol's messages by what they hold. A field in none of these fails the walk: a new
# field must be classified here before it can carry anything past these tests.
CARD_FIELDS = {"hand", "turned"}
PLAY_FIELDS = {"trick_plays", "play"}
OTHER_FIELDS = {
    "game", "seat", "players", "ruleset", "first_round", "decision_ms", "bank_ms", "round", "cards", "dealer",
    "trump", "bid", "bids", "winner", "tricks_won", "points", "totals", "places", "kind", "detail", "seq",
    "time_ms", "hand_sizes", "trick", "lead", "trick_leader", "index",
}  # fmt: skip
# The legal actions of a request: play codes (of cards in the seat's own hand) or bids.
LEGAL = "legal"
# A request tells the seat its time left (time_ms, bank_ms), and a decision slower than decision_ms
# draws on the bank: with the usual second, a bot held up by a loaded machine would be told a smaller
# bank from then on. A deadline no held-up bot reaches keeps what a seat is told the same in every run.
UNHURRIED = TimeControl(decision_ms=60_000, bank_ms=10_000, max_faults=10**6)


def card_of_play(code: int) -> int:
    """The card a play code plays."""
    if code < CHANGE_COLOUR_BASE:
        return code
    return CHANGE if code < WILD_COLOUR_BASE else WILD


def walk(message: Message, where: str = "") -> Iterator[tuple[str, str, int | str]]:
    """Every scalar of ``message`` and its sub-messages, set or not: (path, field name, value)."""
    for field in message.DESCRIPTOR.fields:
        path = f"{where}.{field.name}" if where else field.name
        value = getattr(message, field.name)
        if field.message_type is not None:
            if field.is_repeated:
                for index, item in enumerate(value):
                    yield from walk(item, f"{path}[{index}]")
            elif message.HasField(field.name):
                yield from walk(value, path)
        elif field.is_repeated:
            for item in value:
                yield path, field.name, item
        else:
            yield path, field.name, value


def cards_in(message: Message) -> tuple[Counter[int], list[int], list[str]]:
    """The cards ``message`` names outside its legal actions, the cards its legal plays name, and fields
    nobody classified."""
    named: Counter[int] = Counter()
    legal: list[int] = []
    unknown = []
    playing = isinstance(message, pb.DecisionRequest) and message.kind == pb.DECISION_KIND_PLAY
    for path, name, value in walk(message):
        if name in CARD_FIELDS:
            named[int(value)] += 1
        elif name in PLAY_FIELDS:
            named[card_of_play(int(value))] += 1
        elif name == LEGAL:
            if playing:
                legal.append(card_of_play(int(value)))
        elif name not in OTHER_FIELDS:
            unknown.append(path)
    return named, legal, unknown


# ------------------------------------------------------------------ capture
class TrackedState(GameState):
    """The referee's game state, made reachable for the capture (the referee builds it by this name)."""

    current: ClassVar[GameState | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        TrackedState.current = self


@dataclass(frozen=True)
class Snapshot:
    """The referee's state when it handed a seat something."""

    round: int
    phase: Phase
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    turned: tuple[int, ...]
    played: tuple[int, ...]
    """This round's cards played so far."""
    bids: tuple[int | None, ...]
    view: SeatView | None
    """The seat's view, taken for decision requests."""


def snapshot(seat: int, with_view: bool) -> Snapshot:
    state = TrackedState.current
    assert state is not None
    played = [play.card.id for trick in state.tricks for _, play in trick.plays]
    played += [play.card.id for _, play in state.trick]
    return Snapshot(
        state.round_number,
        state.phase,
        tuple(map(tuple, state.hands)),
        tuple(state.pile_cards()),
        tuple(state.turned),
        tuple(played),
        tuple(state.bids),
        view_for(state, seat) if with_view else None,
    )


@dataclass(frozen=True)
class Piece:
    """One thing handed to a seat: a ``start``, an ``event``, a ``request`` or an ``end``."""

    kind: str
    game: int
    body: Message
    at: Snapshot


class RecordingRunner(BotRunner):
    """The bot side: every GameMessage as the bot receives it."""

    def __init__(self, factory: BotFactory, received: list[pb.GameMessage]) -> None:
        super().__init__(factory)
        self.received = received

    def handle(self, messages: list[pb.GameMessage]) -> list[pb.Decision]:
        for message in messages:
            copy = pb.GameMessage()
            copy.CopyFrom(message)
            self.received.append(copy)
        return super().handle(messages)


def spying(bot_class: type[Bot], views: list[SeatView]) -> type[Bot]:
    """``bot_class``, keeping every view its bid() and play() are given."""

    class Spy(bot_class):  # type: ignore[valid-type,misc]
        def bid(self, view: SeatView) -> int:
            views.append(view)
            return int(super().bid(view))

        def play(self, view: SeatView) -> Play:
            views.append(view)
            result: Play = super().play(view)
            return result

    Spy.__name__ = bot_class.__name__
    return Spy


class RecordingConnection(LocalConnection):
    """An in-process bot whose every piece, every message it receives and every view it decides on are kept."""

    def __init__(self, bot_class: type[Bot], seat: int) -> None:
        self.views: list[SeatView] = []
        factory = spying(bot_class, self.views)
        super().__init__(factory)
        self.seat = seat
        self.pieces: list[Piece] = []
        self.received: list[pb.GameMessage] = []
        self.runner = RecordingRunner(factory, self.received)

    def _keep(self, kind: str, game: int, body: Message, at: Snapshot | None = None) -> None:
        copy = type(body)()
        copy.CopyFrom(body)
        self.pieces.append(Piece(kind, game, copy, at or snapshot(self.seat, with_view=kind == "request")))

    def _keep_message(self, message: pb.GameMessage) -> None:
        """Split a message into its pieces; each event keeps the state from when the referee made it."""
        game = message.game
        if message.HasField("start"):
            self._keep("start", game, message.start)
        for event in message.events:
            self._keep("event", game, event, TOLD[game].popleft())
        if message.HasField("request"):
            self._keep("request", game, message.request)
        if message.HasField("end"):
            self._keep("end", game, message.end)

    async def decide(self, message: bytes, key: Key, timeout: float | None) -> Answer:
        self._keep_message(pb.GameMessage.FromString(message))
        return await super().decide(message, key, timeout)

    def send(self, message: bytes) -> None:
        self._keep_message(pb.GameMessage.FromString(message))
        super().send(message)


TOLD: defaultdict[int, deque[Snapshot]] = defaultdict(deque)
"""The referee's state when it made each event, by wire game id, until the event goes out."""


def tracking_events(game_class: type) -> Any:
    """``tell`` of the referee's game, noting the state as each event is made for each seat it goes to."""
    tell = game_class.tell

    def tracked_tell(game: Any, events: Any) -> None:
        for event in events:
            seats = range(len(game.told)) if event.to == EVERYONE else [event.to]
            for seat in seats:
                TOLD[game.wire_id(seat)].append(snapshot(seat, with_view=False))
        tell(game, events)

    return tracked_tell


@dataclass
class Capture:
    result: FinishedGame
    connections: list[RecordingConnection]
    names: tuple[str, ...]


async def _capture(rules: Ruleset, targets: Sequence[str], seed: int, logs: Path) -> Capture:
    names = tuple(f"s{seat}" for seat in range(len(targets)))
    connections = [RecordingConnection(load_bot_class(target), seat) for seat, target in enumerate(targets)]
    handles = {}
    for name, target, connection in zip(names, targets, connections):
        handles[name] = BotHandle(BotSpec.of(name, target), logs, connection=connection)
        await connection.open()
    result = await play_game(GameSpec(seed, rules, names, seed, UNHURRIED), handles)
    return Capture(result, connections, names)


@pytest.fixture
def capture(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    monkeypatch.setattr(rage_referee.play.game, "GameState", TrackedState)
    monkeypatch.setattr(
        rage_referee.play.game.RefereedGame, "tell", tracking_events(rage_referee.play.game.RefereedGame)
    )
    TOLD.clear()

    def run(rules: Ruleset, targets: Sequence[str], seed: int = 5) -> Capture:
        return asyncio.run(_capture(rules, targets, seed, tmp_path))

    return run


# ------------------------------------------------------------------ the checks
def pieces_received(received: Sequence[pb.GameMessage]) -> list[tuple[str, int, Message]]:
    """The messages a bot received, split back into pieces in their order."""
    out: list[tuple[str, int, Message]] = []
    for message in received:
        if message.HasField("start"):
            out.append(("start", message.game, message.start))
        out += [("event", message.game, event) for event in message.events]
        if message.HasField("request"):
            out.append(("request", message.game, message.request))
        if message.HasField("end"):
            out.append(("end", message.game, message.end))
    return out


def expected_view(view: SeatView) -> dict[str, Any]:
    """A View message's fields as :func:`view_for` gives them."""
    return {
        "seat": view.seat,
        "round": view.round_number,
        "cards": view.cards,
        "dealer": view.dealer,
        "trump": colour_code(view.trump),
        "hand": [card.id for card in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "turned": [card.id for card in view.turned],
        "bids": [-1 if bid is None else bid for bid in view.bids],
        "trick": len(view.tricks) + 1 if view.phase is Phase.PLAY else 0,
        "lead": colour_code(view.lead),
        "trick_plays": [play.code for _, play in view.trick],
        "trick_leader": view.trick[0][0] if view.trick else view.seat,
        "tricks_won": list(view.tricks_won),
        "totals": list(view.totals),
    }


def visible_bids(piece: Piece, seat: int) -> dict[int, int]:
    """Bids of other seats that ``piece`` shows, by seat (a round's scores excepted)."""
    body = piece.body
    if isinstance(body, pb.DecisionRequest):
        return {other: bid for other, bid in enumerate(body.view.bids) if other != seat and bid >= 0}
    if isinstance(body, pb.Event):
        kind = body.WhichOneof("kind")
        if kind == "bid_made" and body.bid_made.seat != seat:
            return {body.bid_made.seat: body.bid_made.bid}
        if kind == "bids_shown":
            return {other: bid for other, bid in enumerate(body.bids_shown.bids) if other != seat}
    return {}


def problems(capture: Capture, seat: int, rules: Ruleset) -> list[str]:
    """Everything seat ``seat`` was handed that rules.md does not let it see (empty when all is well)."""
    found = []
    connection = capture.connections[seat]
    record_rounds = capture.result.record["rounds"]
    received = pieces_received(connection.received)
    handed = [(piece.kind, piece.game, piece.body) for piece in connection.pieces]
    if received != handed:
        found.append("the bot received something other than the pieces the referee handed it")
    requests = [index for index, piece in enumerate(connection.pieces) if piece.kind == "request"]
    if len(requests) != len(connection.views):
        found.append(f"seat {seat}: {len(requests)} requests, but the bot decided {len(connection.views)} times")
    bot_views = dict(zip(requests, connection.views))
    for index, piece in enumerate(connection.pieces):
        at, where = piece.at, f"seat {seat}, piece {index} ({piece.kind}, round {piece.at.round})"
        named, legal, unknown = cards_in(piece.body)
        if unknown:
            found.append(f"{where}: unclassified fields {unknown}")
        if named or legal:
            own = Counter(at.hands[seat])
            knowable = own + Counter(at.turned) + Counter(at.played)
            hidden = {card for other, hand in enumerate(at.hands) if other != seat for card in hand} | set(at.pile)
            if leaked := sorted((set(named) | set(legal)) & {card for card in hidden if card < NUM_COLOURED}):
                found.append(f"{where}: names cards of another hand or the pile {leaked}")
            if over := sorted(card for card, count in named.items() if count > knowable[card]):
                found.append(f"{where}: names more copies than it can know of {over}")
            if stray := sorted(card for card in legal if card not in own):
                found.append(f"{where}: legal plays of cards not in its hand {stray}")
        bids = visible_bids(piece, seat)
        if rules.bidding is Bidding.SECRET and bids:
            found.append(f"{where}: secret bidding, but shows bids {bids}")
        if rules.bidding is Bidding.HIDDEN and bids and None in at.bids:
            found.append(f"{where}: hidden bidding, but shows bids {bids} before all are made")
        if any(at.bids[other] != bid for other, bid in bids.items()):
            found.append(f"{where}: shows bids {bids} that were not made")
        body = piece.body
        if isinstance(body, pb.Event) and body.WhichOneof("kind") == "round_started":
            dealt = sorted(card_id(text) for text in record_rounds[body.round_started.round - 1]["hands"][seat])
            if sorted(body.round_started.hand) != dealt or list(body.round_started.hand) != list(at.hands[seat]):
                found.append(f"{where}: the round's hand is not the seat's dealt hand")
        if isinstance(body, pb.DecisionRequest):
            assert at.view is not None
            got = {name: getattr(body.view, name) for name in expected_view(at.view)}
            got = {name: list(value) if not isinstance(value, int) else value for name, value in got.items()}
            if got != expected_view(at.view):
                found.append(f"{where}: the request's view is not view_for's")
            if {field.name for field in body.view.DESCRIPTOR.fields} != set(got):
                found.append(f"{where}: the View message has fields view_for does not give")
            if list(body.legal) != [wire.action_code(action) for action in at.view.legal_actions]:
                found.append(f"{where}: the legal actions are not view_for's")
            if bot_views.get(index) != at.view:
                found.append(f"{where}: the bot decided on a view other than view_for's")
        if isinstance(body, pb.GameStart) and body.seat != seat:
            found.append(f"{where}: started as seat {body.seat}")
        if isinstance(body, pb.GameEnd):
            own_faults = [(f.kind.value, f.round, f.trick) for f in capture.result.figures.faults if f.seat == seat]
            if [(f.kind, f.round, f.trick) for f in body.faults] != own_faults:
                found.append(f"{where}: the game end shows faults other than the seat's own")
    return found


def bid_events(capture: Capture, seat: int) -> Counter[str]:
    """How many bid_made events of its own and of others, and bids_shown events, a seat was told."""
    counts: Counter[str] = Counter()
    for piece in capture.connections[seat].pieces:
        if isinstance(piece.body, pb.Event):
            kind = piece.body.WhichOneof("kind")
            if kind == "bid_made":
                counts["own" if piece.body.bid_made.seat == seat else "other"] += 1
            elif kind == "bids_shown":
                counts["shown"] += 1
    return counts


# ------------------------------------------------------------------ tests
TABLES = {
    # preset: (overrides, seats) - ten seats leave amigo a pile of twelve cards, so reveals run it dry.
    "amigo": ({}, [RANDOM, HEURISTIC, RANDOM, RANDOM, FIRST_LEGAL, RANDOM, HEURISTIC, RANDOM, RANDOM, RAISER]),
    "fundex": ({}, [RANDOM, HEURISTIC, RAISER]),
    "waddingtons": ({"sweep": "double_tricks"}, [RANDOM, HEURISTIC, RANDOM, RANDOM, RAISER]),
    "amigo1985": (
        {"first_action_of_kind_only": True, "action_cards_anytime": True},
        [RANDOM, RANDOM, HEURISTIC, RAISER],
    ),
}


@pytest.mark.parametrize("bidding", ["open", "hidden", "secret"])
@pytest.mark.parametrize("preset", list(TABLES))
def test_every_seat_sees_only_what_it_may(preset: str, bidding: str, capture: Any) -> None:
    overrides, targets = TABLES[preset]
    if preset == "amigo1985" and bidding == "open":
        overrides = {**overrides, "plus_minus_one": True}
    rules = Ruleset.of(preset, bidding=bidding, **overrides)
    captured = capture(rules, targets)
    players, result = len(targets), captured.result
    rounds = len(rules.rounds)
    figures = result.figures
    assert figures.rounds == rounds and figures.faults and {f.seat for f in figures.faults} == {players - 1}
    for seat in range(players):
        assert problems(captured, seat, rules) == []
    # The pieces were worth checking: cards, requests and bids reached every seat.
    for seat, connection in enumerate(captured.connections):
        pieces = connection.pieces
        assert sum(sum(cards_in(piece.body)[0].values()) for piece in pieces) > 100
        requests = sum(piece.kind == "request" for piece in pieces)
        assert requests == rounds + sum(rules.rounds)
        counts = bid_events(captured, seat)
        own = rounds
        if rules.bidding is Bidding.OPEN:
            assert counts == {"own": own, "other": own * (players - 1)}
        elif rules.bidding is Bidding.HIDDEN:
            assert counts == {"own": own, "shown": rounds}
        else:
            assert counts == {"own": own}


def test_the_checks_catch_leaks(capture: Any) -> None:
    """Each kind of leak, planted in a clean capture, is reported."""
    rules = Ruleset.of("fundex", bidding="hidden")
    captured = capture(rules, [RANDOM, HEURISTIC, FIRST_LEGAL])
    assert problems(captured, 0, rules) == []
    pieces = captured.connections[0].pieces

    def planted(index: int, change: Any, mode: Bidding = Bidding.HIDDEN) -> list[str]:
        body = type(pieces[index].body)()
        body.CopyFrom(pieces[index].body)
        change(body, pieces[index].at)
        original = list(pieces)
        pieces[index] = replace(pieces[index], body=body)
        captured.connections[0].received.clear()  # compare the pieces alone
        try:
            return [p for p in problems(captured, 0, rules.model_copy(update={"bidding": mode})) if "received" not in p]
        finally:
            pieces[:] = original

    requests = [i for i, p in enumerate(pieces) if p.kind == "request" and p.at.phase is Phase.PLAY]
    bidding = [i for i, p in enumerate(pieces) if p.kind == "request" and p.at.phase is Phase.BID]
    plays = [i for i, p in enumerate(pieces) if p.kind == "event" and p.body.WhichOneof("kind") == "card_played"]

    def other_card(body: pb.DecisionRequest, at: Snapshot) -> None:
        body.view.hand.append(next(card for card in at.hands[1] if card < NUM_COLOURED))

    def pile_card(body: pb.Event, at: Snapshot) -> None:
        body.card_played.turned.append(next(card for card in at.pile if card < NUM_COLOURED))

    def pile_play(body: pb.DecisionRequest, at: Snapshot) -> None:
        body.view.trick_plays.append(next(card for card in at.pile if card < NUM_COLOURED))

    def peek_bid(body: pb.DecisionRequest, at: Snapshot) -> None:
        body.view.bids[2] = 0

    assert any("another hand or the pile" in p for p in planted(requests[5], other_card))
    assert any("another hand or the pile" in p for p in planted(plays[5], pile_card))
    assert any("another hand or the pile" in p for p in planted(requests[7], pile_play))
    first_bidder = next(i for i in bidding if pieces[i].body.view.seat == 0 and None in pieces[i].at.bids)
    assert any("before all are made" in p for p in planted(first_bidder, peek_bid))
    assert any("secret bidding" in p for p in planted(requests[5], lambda body, at: None, Bidding.SECRET))
    views = captured.connections[0].views
    clean = views[3]
    views[3] = replace(clean, hand=(*clean.hand, CARDS[pieces[requests[5]].at.hands[1][0]]))
    assert any("a view other than view_for's" in p for p in problems(captured, 0, rules))
    views[3] = clean


# ------------------------------------------------------------------ over gRPC
async def _remote_capture(rules: Ruleset, dump: Path, logs: Path) -> FinishedGame:
    # The recorder is held up once past the usual deadline of a second, as a loaded machine may hold it.
    command = shlex.join([sys.executable, str(BOTS / "recorder.py"), "--dump", str(dump), "--stall-ms", "1200"])
    names = ("s0", "s1", "s2", "s3")
    targets = [command, RANDOM, HEURISTIC, RANDOM]
    handles = {name: BotHandle(BotSpec.of(name, target), logs) for name, target in zip(names, targets)}
    try:
        await asyncio.gather(*(handle.start() for handle in handles.values()))
        result = await play_game(GameSpec(5, rules, names, 5, UNHURRIED), handles)
        # Let the game's end reach the bot before its stream is closed.
        deadline = time.monotonic() + 5
        while not any(m.HasField("end") for m in read_dump(dump)) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    finally:
        for handle in handles.values():
            await handle.stop()
    return result


def test_grpc_bot_receives_exactly_the_in_process_messages(capture: Any, tmp_path: Path) -> None:
    rules = Ruleset.of("waddingtons", bidding="secret")
    local = capture(rules, [FIRST_LEGAL, RANDOM, HEURISTIC, RANDOM])
    assert all(problems(local, seat, rules) == [] for seat in range(4))
    dump = tmp_path / "dump.bin"
    remote = asyncio.run(_remote_capture(rules, dump, tmp_path))
    assert json.dumps(game_part(remote.record)) == json.dumps(game_part(local.result.record))
    over_grpc = read_dump(dump)
    in_process = local.connections[0].received
    assert over_grpc == in_process
    assert [m.game for m in over_grpc] == [5 * MAX_SEATS] * len(over_grpc)
    assert sum(m.HasField("request") for m in over_grpc) == len(rules.rounds) + sum(rules.rounds)
    assert over_grpc[-1].HasField("end")
    # Nothing rides along: a request is a view of a hand of at most ten cards and a few public lists.
    for message in over_grpc:
        if message.HasField("request"):
            assert message.request.ByteSize() < 300
    assert max(message.ByteSize() for message in over_grpc) < 1500


def test_a_dump_read_while_the_bot_writes_it_holds_only_whole_messages(tmp_path: Path) -> None:
    """The wait for the game's end reads the dump as the recorder appends to it: half a message is left for later."""
    messages = [pb.GameMessage(game=1, start=pb.GameStart(seat=2, decision_ms=1000)), pb.GameMessage(end=pb.GameEnd())]
    frames = [len(m.SerializeToString()).to_bytes(4, "big") + m.SerializeToString() for m in messages]
    dump = tmp_path / "dump.bin"
    for cut in range(sum(map(len, frames)) + 1):
        dump.write_bytes(b"".join(frames)[:cut])
        whole = 0 if cut < len(frames[0]) else 1 if cut < len(frames[0]) + len(frames[1]) else 2
        assert read_dump(dump) == messages[:whole], cut
