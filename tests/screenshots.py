"""``make screenshots``: play a small league, build its report, and write a PNG of each kind of page
(and of the live standings page of a hosted referee, as games finish).

python -m tests.screenshots OUT_DIR     # needs Debian's chromium (apt-get install chromium)
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from rage_referee.cli import app
from rage_referee.report.live import COOKIE
from typer.testing import CliRunner

from tests.helpers.report import CHROMIUM_ARGS, league_file, live_contest, served, stored

PAGES = {
    "standings": "index.html",
    "bot": "bots/raiser.html",
    "replay-organizer": "games/00004.html",
    "replay-seat": "games/00004.html#1",
}


def main(out: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("screenshots need a browser: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    runner = CliRunner()
    with tempfile.TemporaryDirectory() as scratch:
        file = league_file(Path(scratch))
        for args in (["league", "run", str(file)], ["league", "report", str(file), "--out", f"{scratch}/site"]):
            result = runner.invoke(app, args)
            if result.exit_code != 0:
                sys.exit(result.output)
        out.mkdir(parents=True, exist_ok=True)
        with served(Path(scratch) / "site") as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            for name, path in PAGES.items():
                page.goto(f"{base}/{path.split('#')[0]}")
                if "#" in path:
                    page.select_option("#view", path.split("#")[1])
                if path.startswith("games/"):
                    page.wait_for_selector("#board tbody tr")
                    for _ in range(40):
                        page.keyboard.press("ArrowRight")
                page.screenshot(path=str(out / f"{name}.png"), full_page=True)
                print(out / f"{name}.png")
            with live_contest(Path(scratch), stored(file), shown=10) as live:
                context = browser.new_context(viewport={"width": 1200, "height": 900})
                host = live.base.split("//")[1].split(":")[0]
                context.add_cookies([{"name": COOKIE, "value": live.admin, "domain": host, "path": "/"}])
                page = context.new_page()
                page.goto(f"{live.base}/leagues/cup/index.html")
                page.wait_for_function("document.body.dataset.following === 'yes'")
                for game in live.games[10:]:
                    live.finish(game)
                page.wait_for_function(
                    f"document.getElementById('games-count').textContent === '{len(live.games)} games'"
                )
                page.screenshot(path=str(out / "live.png"), full_page=True)
                print(out / "live.png")
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots"))
