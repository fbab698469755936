"""The documentation site: it builds with ``mkdocs build --strict`` (no broken link or reference), its
generated references hold the code's names, and the tutorial's commands run as written, in order, in a
fresh folder beside a copy of the example bots."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "NO_MKDOCS_2_WARNING": "1"}


def tutorial_pages() -> list[Path]:
    """The tutorial's pages, in the order of the site's navigation."""
    nav = re.findall(r"^\s*- [^:]+: (tutorial/[\w-]+\.md)$", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)
    assert nav, "mkdocs.yml's nav has no tutorial"
    return [ROOT / "docs" / page for page in nav]


def tutorial_steps(page: Path) -> list[tuple[str, str]]:
    """Each step of ``page`` in order: ("file", NAME + newline + text) for a python block with a
    ``title``, the file the tutorial has the reader save; ("command", LINE) for each line of a sh or
    console block (a console line's ``$ `` taken off, its output lines left out)."""
    steps: list[tuple[str, str]] = []
    for info, body in re.findall(r"^```(\w+[^\n]*)\n(.*?)^```", page.read_text(), re.MULTILINE | re.DOTALL):
        kind = info.split()[0]
        title = re.search(r'title="([^"]+)"', info)
        if kind == "python" and title:
            steps.append(("file", f"{title[1]}\n{body}"))
        elif kind in ("sh", "console"):
            for line in body.splitlines():
                if kind == "console":
                    if not line.startswith("$ "):
                        continue
                    line = line[2:]
                if line.strip() and not line.lstrip().startswith("#"):
                    steps.append(("command", line))
    return steps


@pytest.mark.slow
def test_the_site_builds_strictly_with_the_codes_references(tmp_path: Path) -> None:
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    cli = (site / "reference" / "cli" / "index.html").read_text()
    for command in ("rage league run", "rage bot check", "rage referee serve", "rage replay ask"):
        assert f"<code>{command}</code>" in cli, f"the CLI reference has no {command}"
    assert "--until-separated" in cli
    api = (site / "reference" / "sdk-api" / "index.html").read_text()
    for name in ("rage_sdk.view.SeatView.hand", "rage_sdk.view.SeatView.trump", "rage_sdk.bot.Bot.play"):
        assert f'id="{name}"' in api, f"the SDK API has no {name}"
    protocol = (site / "reference" / "protocol" / "index.html").read_text()
    assert "The Rage bot protocol" in protocol
    assert not list(site.rglob("*.py")) and not list(site.rglob("__pycache__")), "the site publishes its build hooks"


@pytest.mark.slow
def test_the_tutorial_runs_as_written(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("node_modules"))
    ran = 0
    for page in tutorial_pages():
        for kind, step in tutorial_steps(page):
            if kind == "file":
                name, text = step.split("\n", 1)
                (tmp_path / name).write_text(text)
                continue
            done = subprocess.run(
                ["bash", "-c", step], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300
            )
            assert done.returncode == 0, (
                f"{page.name}: {step}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            )
            ran += 1
    assert ran >= 8, f"the tutorial runs only {ran} commands"
