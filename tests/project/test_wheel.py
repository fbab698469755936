"""A wheel installed with pip (not editable) gives a working ``rage`` with the bundled example bots.

The wheel is built from a copy of the source with this environment's build tools; the fresh
environment takes the installed dependencies from this one through a path file, so the test needs
no network, and the project itself comes only from the wheel.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "demo")


def run(*argv: str | Path, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_installed_wheel_checks_and_plays_the_example_bots(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=SKIP)
    env = tmp_path / "env"
    venv.create(env)
    python = env / "bin" / "python"
    own_site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path)
    # Appended after the fresh site-packages: the dependencies are found there, and this project's
    # editable install is not (its finder is loaded by a .pth file, which a path entry does not run).
    Path(own_site.stdout.strip(), "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    pip = (sys.executable, "-m", "pip")
    build = run(*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", tmp_path / "dist", ".", cwd=source)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("rage_arena-*.whl")
    install = run(*pip, "--python", python, "install", "--quiet", "--no-deps", wheel, cwd=tmp_path)
    assert install.returncode == 0, install.stderr[-2000:]
    shutil.rmtree(source)  # nothing may come from the source tree now

    where = run(python, "-c", "import rage_sdk.examples as e; print(e.HERE)", cwd=tmp_path)
    assert where.stdout.strip().startswith(str(env)), where
    rage = env / "bin" / "rage"
    check = run(rage, "bot", "check", "python -m rage_sdk.examples.heuristic_bot", cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "passed every check" in check.stdout
    bots = [
        "h=python -m rage_sdk.examples.heuristic_bot",
        "g=python -m rage_sdk.examples.greedy_bot",
        f"r={where.stdout.strip()}/random_bot.py:RandomBot",
    ]
    match = run(rage, "match", "--games", "2", *(f"--bot={bot}" for bot in bots), cwd=tmp_path)
    assert match.returncode == 0, match.stdout + match.stderr
    short = ("--matches", "1", "--games", "4", "--seconds", "0.1", "--leagues", "1")
    bench = run(rage, "bench", "league", *short, cwd=tmp_path)
    assert bench.returncode == 0, bench.stdout + bench.stderr
