"""Hypothesis strategies shared by the property and record tests: any preset, any table, options overridden."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from rage_sdk.rules import PRESETS, Ruleset

PRESET_NAMES = tuple(PRESETS)
MAX_PLAYERS = {name: Ruleset.of(name).max_players for name in PRESET_NAMES}

OPTION_VALUES: dict[str, list[Any]] = {
    "notrump_scope": ["trick", "round"],
    "change_mode": ["reveal", "choose"],
    "wild_tie": ["later_wins", "earlier_wins"],
    "wild_declares_value": [False, True],
    "action_cards_anytime": [False, True],
    "first_action_of_kind_only": [False, True],
    "sweep": ["none", "double_tricks", "double_round"],
    "sweep_in_one_card_round": [False, True],
    "tiebreak": ["none", "most_hits"],
    "points_per_trick": [0, 1, 2],
    "bid_hit": [10, 7, 20],
    "bid_zero_hit": [10, 5, 3],
    "bid_miss": [-5, 0, -3],
    "rounds": [[3, 2, 1], [1], [5, 1, 4]],
}
"""Values to draw for each option (``bidding`` and ``plus_minus_one`` are drawn together)."""


@st.composite
def rulesets_and_players(draw: st.DrawFn) -> tuple[Ruleset, int]:
    """A preset with some options overridden, and a player count in its range."""
    preset = draw(st.sampled_from(PRESET_NAMES))
    overrides: dict[str, Any] = {}
    for name, values in OPTION_VALUES.items():
        value = draw(st.one_of(st.none(), st.sampled_from(values)))
        if value is not None:
            overrides[name] = value
    overrides["bidding"] = draw(st.sampled_from(["open", "hidden", "secret"]))
    if overrides["bidding"] == "open":
        overrides["plus_minus_one"] = draw(st.booleans())
    return Ruleset.of(preset, **overrides), draw(st.integers(2, MAX_PLAYERS[preset]))
