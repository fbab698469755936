"""``rage bench search``: worlds and playout decisions per second beside the engine and the baseline."""

from __future__ import annotations

import json

from rage_sdk.compiled import is_compiled

from tests.referee.cli.test_cli import rage


def test_bench_search_json() -> None:
    result = rage("bench", "search", "--seconds", "0.2", "--json", "--players", "3")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["players"] == 3
    for name in ("worlds", "playouts", "engine", "baseline"):
        assert figures[name]["decisions_per_s"] > 0, name


def test_bench_search_refuses_a_table_it_cannot_seat() -> None:
    result = rage("bench", "search", "--seconds", "0.2", "--players", "11")
    assert result.exit_code == 2
    assert "--players" in result.output


def test_bench_engine_and_search_say_which_engine_build_they_measured() -> None:
    for command in (["engine", "--ruleset", "amigo"], ["search"]):
        result = rage("bench", *command, "--seconds", "0.1", "--json", "--players", "3")
        assert result.exit_code == 0, result.output
        figures = json.loads(result.stdout)
        assert figures["compiled"] is is_compiled(), command
        assert figures["baseline"]["decisions_per_s"] > 0, command
