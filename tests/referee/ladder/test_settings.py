"""The ``[ladder]`` table: defaults, and one line naming the key that is wrong."""

from __future__ import annotations

import pytest
from rage_referee.ladder.settings import LadderSettings, LadderSettingsError, ladder_settings


def test_an_empty_table_takes_the_defaults() -> None:
    settings = ladder_settings({})
    assert settings == LadderSettings()
    assert (settings.concurrency, settings.placement_sets, settings.active_versions) == (1, 5, 1)
    assert settings.owners_apart is True
    assert settings.window > 0 and settings.window_growth > 1


def test_keys_are_read() -> None:
    settings = ladder_settings({"concurrency": 3, "window": 2, "window_growth": 1.5, "owners_apart": False})
    assert (settings.concurrency, settings.window, settings.window_growth, settings.owners_apart) == (
        3,
        2.0,
        1.5,
        False,
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"concurency": 2}, "ladder: unknown setting 'concurency' (did you mean concurrency?)"),
        ({"concurrency": 0}, "ladder.concurrency: Input should be greater than or equal to 1"),
        ({"concurrency": "2"}, 'ladder.concurrency: Input should be a valid integer, not "2"'),
        ({"window": 0}, "ladder.window: Input should be greater than 0"),
        ({"window": "wide"}, "ladder.window: Input should be a valid number"),
        ({"window_growth": 1}, "ladder.window_growth: Input should be greater than 1"),
        ({"owners_apart": "yes"}, "ladder.owners_apart: Input should be a valid boolean"),
        ({"active_versions": 0}, "ladder.active_versions: Input should be greater than or equal to 1"),
        ("fast", "ladder: Input should be a valid dictionary"),
    ],
)
def test_a_wrong_key_is_named_in_one_line(table: object, message: str) -> None:
    with pytest.raises(LadderSettingsError) as error:
        ladder_settings(table)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)
