"""``rage replay verify`` on hostile input (``spec/record.md``, "Settled details"): exit 0, 1 or 2 with
one short line, never a traceback.

- encodings: a record is UTF-8; a byte-order mark, UTF-16/32 or a lone surrogate is malformed (exit 2);
- numbers: an integer literal past what the checker holds is malformed, one line;
- short messages: thousands of extra cards, a 4,000-digit bid or a 100 KB token are counted and cut;
- ``result``: a key present with ``null`` is compared and disagrees (``rounds`` as ``totals``);
  ``result: null`` is no result; a ``result.rounds`` of another length disagrees; an entry that is
  not an object is malformed;
- printing: text from the record (a card token, a name) is never read as terminal markup.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rage_referee.cli import app
from rage_sdk.record import record_of
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState
from typer.testing import CliRunner

from tests.helpers.cli import one_line, rage
from tests.helpers.files import fifo, without_waiting
from tests.sdk.test_record import game_record, play_game

runner = CliRunner()
LONGEST_MESSAGE = 300


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return game_record(Ruleset.of("amigo", rounds=[3, 2]), 3, seed=7)


def verify_file(tmp_path: Path, content: bytes | str | dict[str, Any]) -> tuple[int, str]:
    """Run ``rage replay verify`` on ``content``: the exit code and the one line it printed."""
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode("utf-8", errors="surrogatepass")
    path = tmp_path / "record.json"
    path.write_bytes(content)
    result = runner.invoke(app, ["replay", "verify", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    if result.exit_code:
        assert len(lines) == 1, result.output[:2000]
        assert len(lines[0]) <= LONGEST_MESSAGE, lines[0][:2000]
    return result.exit_code, result.output.strip()


def changed(record: dict[str, Any], **result: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(record))
    data["result"] = data["result"] | result if result else None
    return data


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_record_that_is_not_utf8_is_malformed(tmp_path: Path, record: dict[str, Any], encoding: str) -> None:
    code, message = verify_file(tmp_path, json.dumps(record).encode(encoding))
    assert code == 2
    assert "not UTF-8" in message


def test_invalid_utf8_is_malformed(tmp_path: Path, record: dict[str, Any]) -> None:
    data = json.dumps(record).encode().replace(b'"P0"', b'"P\xc3"', 1)
    code, message = verify_file(tmp_path, data)
    assert (code, "not UTF-8" in message) == (2, True)


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "x\\udc00y", "\\ud83d"])
def test_a_lone_surrogate_is_malformed(tmp_path: Path, record: dict[str, Any], escape: str) -> None:
    text = json.dumps(record).replace('"P0"', f'"{escape}"', 1)
    code, message = verify_file(tmp_path, text)
    assert code == 2
    assert "not UTF-8" in message and "surrogate" in message


def test_a_surrogate_pair_is_fine(tmp_path: Path, record: dict[str, Any]) -> None:
    text = json.dumps(record).replace('"P0"', '"\\ud83d\\ude00"', 1)  # one emoji, escaped as a pair
    assert verify_file(tmp_path, text)[0] == 0


# --------------------------------------------------------------------------- numbers and short messages


@pytest.mark.parametrize("where", ["bid", "meta"])
def test_an_integer_of_thousands_of_digits_is_malformed(tmp_path: Path, record: dict[str, Any], where: str) -> None:
    text = json.dumps(record | {"meta": {"n": 0}})
    huge = "9" * 5000
    text = (
        text.replace('"bids": [', f'"bids": [{huge}, ', 1) if where == "bid" else text.replace('"n": 0', f'"n": {huge}')
    )
    code, message = verify_file(tmp_path, text)
    assert code == 2
    assert "bad JSON" in message and "digits" in message


def test_thousands_of_extra_cards_are_counted(tmp_path: Path, record: dict[str, Any]) -> None:
    data = json.loads(json.dumps(record))
    data["rounds"][0]["pile"] += ["b1"] * 5000
    code, message = verify_file(tmp_path, data)
    assert code == 2
    assert "extra 5000 cards (b1, b1, b1, b1, b1, ... and 4995 more)" in message


def test_a_huge_bid_is_quoted_short(tmp_path: Path, record: dict[str, Any]) -> None:
    data = json.loads(json.dumps(record))
    data["rounds"][0]["bids"][1] = 10**4000
    code, message = verify_file(tmp_path, data)
    assert code == 1
    assert "seat 1 bid 1000" in message and "characters) but a bid must be 0..3" in message


def test_a_huge_token_is_quoted_short(tmp_path: Path, record: dict[str, Any]) -> None:
    data = json.loads(json.dumps(record))
    data["rounds"][0]["pile"][0] = "x" * 100_000
    code, message = verify_file(tmp_path, data)
    assert code == 2
    assert "rounds[0].pile[0]: unknown card token" in message


@pytest.mark.parametrize("token", ["[/x]", "[bold]b1", "\x1b[31mred"])
def test_a_token_is_printed_as_text_not_markup(tmp_path: Path, record: dict[str, Any], token: str) -> None:
    data = json.loads(json.dumps(record))
    data["rounds"][0]["pile"][0] = token
    code, message = verify_file(tmp_path, data)
    assert code == 2
    assert "\x1b" not in message
    assert token.replace("\x1b", "\\x1b") in message


# --------------------------------------------------------------------------- result


@pytest.mark.parametrize("key", ["rounds", "totals", "places"])
def test_a_result_key_present_with_null_disagrees(tmp_path: Path, record: dict[str, Any], key: str) -> None:
    code, message = verify_file(tmp_path, changed(record, **{key: None}))
    assert code == 1
    assert "result disagrees" in message and key in message


@pytest.mark.parametrize("key", ["trump", "trick_winners", "tricks_won", "points", "bids"])
def test_a_round_result_key_present_with_null_disagrees(tmp_path: Path, record: dict[str, Any], key: str) -> None:
    """Every key the spec compares in ``result.rounds[]`` (the replay has a trump in each round here)."""
    data = changed(record)
    data["result"] = {"rounds": [{}, {key: None}]}
    code, message = verify_file(tmp_path, data)
    assert code == 1
    assert message.startswith(f"illegal: result disagrees: round 2 {key}: record says null, replay gives "), message


def test_a_null_result_is_no_result(tmp_path: Path, record: dict[str, Any]) -> None:
    assert verify_file(tmp_path, changed(record))[0] == 0


@pytest.mark.parametrize("length", [0, 1, 3])
def test_result_rounds_of_another_length_disagree(tmp_path: Path, record: dict[str, Any], length: int) -> None:
    code, message = verify_file(tmp_path, changed(record, rounds=[{}] * length))
    assert code == 1
    assert f"record says {length} rounds, replay has 2 rounds" in message


@pytest.mark.parametrize("entry", [None, 1, "round", [1, 2]])
def test_a_result_round_that_is_not_an_object_is_malformed(tmp_path: Path, record: dict[str, Any], entry: Any) -> None:
    code, message = verify_file(tmp_path, changed(record, rounds=[{}, entry]))
    assert code == 2
    assert "result.rounds[1]: must be an object" in message


def test_result_rounds_not_an_array_is_malformed(tmp_path: Path, record: dict[str, Any]) -> None:
    code, message = verify_file(tmp_path, changed(record, rounds="all of them"))
    assert (code, "result.rounds" in message) == (2, True)


# --------------------------------------------------------------------------- fuzz: mangled bytes


@pytest.fixture(scope="module")
def record_bytes() -> bytes:
    state = play_game(GameState(Ruleset.of("fundex", rounds=[2, 1]), 3), 3, 4)
    return json.dumps(record_of(state, ["A", "B", "C"]).to_json()).encode()


MANGLINGS = st.one_of(
    st.tuples(st.just("cut"), st.integers(0, 10_000)),
    st.tuples(st.just("byte"), st.integers(0, 10_000), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10_000), st.sampled_from(["9" * 4400, "\\ud800", "[/]", "\x00", "-"])),
    st.tuples(st.just("encode"), st.sampled_from(["utf-16", "utf-32", "utf-8-sig", "latin-1"])),
)


def mangle(data: bytes, how: tuple[Any, ...]) -> bytes:
    kind, *args = how
    if kind == "cut":
        return data[: args[0] % (len(data) + 1)]
    if kind == "byte":
        at = args[0] % len(data)
        return data[:at] + bytes([args[1]]) + data[at + 1 :]
    if kind == "insert":
        at = args[0] % len(data)
        return data[:at] + args[1].encode("utf-8", errors="surrogatepass") + data[at:]
    text = data.decode("utf-8", errors="surrogateescape").replace('"A"', '"Ä"')
    # latin-1 cannot hold every character (a byte-order mark an earlier utf-8-sig put in): those become "?"
    return text.encode(args[0], errors="replace" if args[0] == "latin-1" else "surrogatepass")


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(manglings=st.lists(MANGLINGS, min_size=1, max_size=3))
def test_mangled_records_get_an_exit_code_and_one_line(
    tmp_path: Path, record_bytes: bytes, manglings: list[tuple[Any, ...]]
) -> None:
    data = record_bytes
    for how in manglings:
        data = mangle(data, how) or b" "
    code, _ = verify_file(tmp_path, data)
    assert code in (0, 1, 2)


def test_a_file_past_the_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rage_referee.cli import replay as replay_cli

    monkeypatch.setattr(replay_cli, "MAX_RECORD_BYTES", 1024)
    (tmp_path / "big.json").write_bytes(b" " * 1025)
    result = rage("replay", "verify", tmp_path / "big.json")
    assert result.exit_code == 2
    assert one_line(result.output) == f"cannot read {tmp_path / 'big.json'}: larger than 1,024 bytes"


@pytest.mark.parametrize("command", ["verify", "show"])
def test_a_fifo_or_a_device_is_refused_unread(tmp_path: Path, command: str) -> None:
    """A reader of a FIFO waits for a writer for good, one of /dev/zero reads for ever."""
    pipe = fifo(tmp_path / "game.json")
    result = without_waiting(lambda: rage("replay", command, pipe), pipe)
    assert result.exit_code == 2
    assert one_line(result.output) == f"cannot read {pipe}: not a regular file (a FIFO)"
    result = rage("replay", command, "/dev/zero")
    assert result.exit_code == 2 and one_line(result.output) == "cannot read /dev/zero: not a regular file (a device)"
    result = rage("replay", command, tmp_path)
    assert result.exit_code == 2 and one_line(result.output) == f"cannot read {tmp_path}: not a regular file (a folder)"


# --------------------------------------------------------------------------- JSON that RFC 8259 does not allow


@pytest.mark.parametrize(
    ("place", "where"),
    [
        ('"bids": [9, 9, 9], "bids":', 'rounds[0] names the key "bids"'),
        ('"format": "x", "format":', 'the record names the key "format"'),
        ('"seat": 5, "seat":', 'rounds[0].plays[0] names the key "seat"'),
    ],
)
def test_a_key_given_twice_is_malformed_naming_where(
    tmp_path: Path, record: dict[str, Any], place: str, where: str
) -> None:
    key = place.split(":")[0]
    text = json.dumps(record).replace(f"{key}:", place, 1)
    code, line = verify_file(tmp_path, text)
    assert code == 2
    assert where in line and "twice" in line


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.parametrize("field", ["totals", "meta"])
def test_a_number_json_does_not_have_is_malformed(
    tmp_path: Path, record: dict[str, Any], number: str, field: str
) -> None:
    data = changed(record, totals=[0, 0, 0]) if field == "totals" else record | {"meta": {"x": 0}}
    text = json.dumps(data).replace(
        '"totals": [0, 0, 0]' if field == "totals" else '"x": 0',
        f'"{field}": {number}' if field == "totals" else f'"x": {number}',
        1,
    )
    code, line = verify_file(tmp_path, text)
    assert code == 2, line
    assert "bad JSON" in line and number.lstrip("-") in line


def test_a_key_given_twice_inside_a_long_key_is_named_in_a_short_line(tmp_path: Path, record: dict[str, Any]) -> None:
    text = json.dumps(record | {"meta": {"a " * 50_000: {"x": 1}}}).replace('"x": 1', '"x": 1, "x": 2')
    code, line = verify_file(tmp_path, text)
    assert code == 2 and line.endswith('names the key "x" twice'), line[:300]
