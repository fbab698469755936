"""Who may take a seat in a contest: no bot run inside the referee where the sandbox is asked for, and no
process in two seats (one address registered or given twice)."""

from __future__ import annotations

from pathlib import Path

from league_helpers import GREEDY, RANDOM, flat, rage, write_league


def sandbox_league(folder: Path, bots: dict[str, str]) -> Path:
    return write_league(folder, players=2, games=2, bots=bots, tables="[sandbox]\nenabled = true")


def test_a_sandbox_league_refuses_a_bot_run_inside_the_referee(tmp_path: Path) -> None:
    league = sandbox_league(tmp_path, {"inside": GREEDY, "served": "python examples/random_bot.py"})
    result = rage("league", "run", league)
    assert result.exit_code == 2
    line = flat(result.output)
    assert "bots: bot 'inside':" in line and "would run inside the referee" in line
    assert "run the bot as a command instead" in line and "Traceback" not in line


def test_without_the_sandbox_a_bot_run_inside_the_referee_is_fine(tmp_path: Path) -> None:
    league = write_league(
        tmp_path, players=2, games=2, bots={"a": GREEDY, "b": RANDOM}, ruleset='preset = "amigo"\nrounds = [1]'
    )
    assert rage("league", "run", league, "--standings-every", "0").exit_code == 0
