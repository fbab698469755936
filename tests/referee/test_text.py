"""Text from a bot, before it is printed or stored: capped, control characters escaped."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rage_referee.text import BOT_TEXT_LIMIT, NAME_LIMIT, bot_text, name_text


def test_plain_text_is_kept() -> None:
    assert bot_text("RuntimeError: no legal bid (round 3)") == "RuntimeError: no legal bid (round 3)"


def test_control_and_format_characters_are_escaped() -> None:
    assert bot_text("a\x1b[31mred\nline\r\t\x07\u202eevil\u2028") == "a\\x1b[31mred\\nline\\r\\t\\x07\\u202eevil\\u2028"


def test_long_text_is_cut_with_a_note_of_how_much() -> None:
    text = bot_text("x" * 100_000)
    assert text == "x" * BOT_TEXT_LIMIT + f"… ({100_000 - BOT_TEXT_LIMIT:,} more characters cut)"


def test_escapes_count_towards_the_limit() -> None:
    text = bot_text("\x1b" * 1000, limit=10)
    assert text.startswith("\\x1b\\x1b…") and "998 more characters cut" in text


@given(st.text())
def test_any_text_comes_out_short_and_printable(text: str) -> None:
    shown = bot_text(text)
    assert len(shown) <= BOT_TEXT_LIMIT + 40
    assert shown.isprintable()


def test_a_name_is_shown_escaped_and_cut_to_its_limit_with_an_ellipsis() -> None:
    assert name_text("plain") == "plain"
    assert name_text("n" * NAME_LIMIT) == "n" * NAME_LIMIT
    assert name_text("n" * (NAME_LIMIT + 1)) == "n" * (NAME_LIMIT - 1) + "…"
    assert name_text("ab\x1b[31m", 6) == "ab…"  # an escape is never cut in half
    assert name_text("a\x1bb", 6) == "a\\x1bb"
    assert len(name_text("\x1b" * 10_000)) <= NAME_LIMIT
