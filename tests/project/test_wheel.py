"""The two wheels, built with pip as a user would: the SDK's (``rage-sdk``) alone serves a bot, and with the
referee's (``rage-arena``) gives a working ``rage`` with the bundled example bots.

The wheels are built with this environment's build tools from a copy of the source, the SDK's from a copy
of ``sdk/`` alone (as from its sdist). The referee's fresh environment takes the installed dependencies from
this one through a path file, so it needs no network; the SDK's installs its four dependencies with pip from
the index this machine's pip is set to use, so it holds nothing else.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from rage_referee.seats import free_port, stop_group, wait_healthy

from tests.conftest import HAS_C_COMPILER

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "demo", "*.so")
PIP = (sys.executable, "-m", "pip")
SDK_DEPENDENCIES = {"grpcio", "grpcio-health-checking", "protobuf", "pydantic"}
REFEREE_ONLY = {
    "rage-arena",
    "numpy",
    "scipy",
    "sqlalchemy",
    "rich",
    "typer",
    "starlette",
    "uvicorn",
    "jinja2",
    "choix",
}
"""Distributions of the referee's that a bot's environment must not hold."""


def run(*argv: str | Path, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    environment = os.environ | env
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=environment
    )


@dataclass(frozen=True)
class Wheels:
    sdk: Path
    referee: Path
    pure_sdk: Path
    """The SDK built with ``RAGE_PURE_PYTHON=1``."""


def build(source: Path, out: Path, **env: str) -> Path:
    """The one wheel pip builds of the project at ``source`` into ``out``."""
    built = run(*PIP, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", out, source, cwd=out.parent, **env)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    top = tmp_path_factory.mktemp("wheels")
    source = top / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=SKIP)
    sdk = top / "sdk-source"  # sdk/ alone, its links followed, as its sdist holds it: nothing of the repository above
    shutil.copytree(ROOT / "sdk", sdk, ignore=SKIP)
    made = Wheels(
        sdk=build(sdk, top / "sdk"),
        referee=build(source, top / "referee"),
        pure_sdk=build(sdk, top / "pure", RAGE_PURE_PYTHON="1"),
    )
    shutil.rmtree(source)  # nothing may come from the source trees now
    shutil.rmtree(sdk)
    return made


def requires(wheel: Path) -> set[str]:
    """The distribution names of a wheel's ``Requires-Dist`` that hold without an extra."""
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(metadata).decode())
    specs = [spec for spec in message.get_all("Requires-Dist", []) if "extra ==" not in spec]
    return {re.split(r"[<>=!~ \[;(]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}


def packages(wheel: Path) -> set[str]:
    """The top-level folders of a wheel's files, its ``.dist-info`` left out."""
    with zipfile.ZipFile(wheel) as archive:
        return {name.split("/")[0] for name in archive.namelist() if "/" in name} - {
            name.split("/")[0] for name in archive.namelist() if ".dist-info/" in name
        }


def compiled_files(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name for name in archive.namelist() if name.endswith(tuple(EXTENSION_SUFFIXES))}


def fresh_env(where: Path) -> Path:
    venv.create(where, with_pip=False)
    return where / "bin" / "python"


@pytest.mark.slow
def test_each_wheel_holds_its_package_and_declares_its_own_dependencies(wheels: Wheels) -> None:
    assert requires(wheels.sdk) == SDK_DEPENDENCIES
    assert packages(wheels.sdk) == {"rage_sdk"}
    for wheel in (wheels.sdk, wheels.pure_sdk):  # typed: a bot author's mypy reads the SDK's types
        with zipfile.ZipFile(wheel) as archive:
            assert "rage_sdk/py.typed" in archive.namelist(), wheel.name
    assert "rage-sdk" in requires(wheels.referee)
    assert {"numpy", "scipy", "sqlalchemy"} <= requires(wheels.referee)
    assert packages(wheels.referee) == {"rage_referee"}


@pytest.mark.slow
def test_the_pure_build_holds_the_same_modules_without_the_compiled_ones(wheels: Wheels) -> None:
    def files(wheel: Path) -> set[str]:
        with zipfile.ZipFile(wheel) as archive:
            return {name for name in archive.namelist() if ".dist-info/" not in name}

    assert wheels.pure_sdk.name.endswith("-py3-none-any.whl"), wheels.pure_sdk.name
    compiled = compiled_files(wheels.sdk)
    assert compiled or not HAS_C_COMPILER, "a C compiler is here but the SDK's wheel holds no compiled module"
    assert files(wheels.pure_sdk) == files(wheels.sdk) - compiled


@pytest.mark.slow
def test_building_a_wheel_leaves_the_source_trees_compiled_modules_alone(tmp_path: Path) -> None:
    """A checkout's editable install keeps its compiled modules in ``sdk/rage_sdk``: building the pure wheel
    from there, as the install guide says, must not turn that install pure."""
    sdk = tmp_path / "sdk"
    shutil.copytree(ROOT / "sdk", sdk, ignore=SKIP)
    compiled = sdk / "rage_sdk" / f"cards{EXTENSION_SUFFIXES[0]}"
    compiled.write_bytes(b"an editable install's compiled module")
    wheel = build(sdk, tmp_path / "wheel", RAGE_PURE_PYTHON="1")
    assert compiled.read_bytes() == b"an editable install's compiled module"
    assert not compiled_files(wheel)


@pytest.mark.slow
def test_a_bot_served_from_the_sdk_wheel_alone_passes_the_check(wheels: Wheels, tmp_path: Path) -> None:
    python = fresh_env(tmp_path / "env")
    install = run(*PIP, "--python", python, "install", "--quiet", wheels.sdk, cwd=tmp_path)
    assert install.returncode == 0, install.stderr[-3000:]
    listed = run(
        python, "-c", "import importlib.metadata as m; print(*(d.name for d in m.distributions()))", cwd=tmp_path
    )
    installed = {name.lower().replace("_", "-") for name in listed.stdout.split()}
    assert {"rage-sdk", *SDK_DEPENDENCIES} <= installed
    assert not installed & REFEREE_ONLY, installed & REFEREE_ONLY
    simulate = run(
        python, "-c", "import rage_sdk.simulate, rage_sdk.compiled as c; print(c.is_compiled())", cwd=tmp_path
    )
    assert simulate.returncode == 0, simulate.stderr
    assert simulate.stdout.strip() == str(bool(compiled_files(wheels.sdk))), "the wheel's compiled modules run"

    port = free_port()
    served = subprocess.Popen(
        [python, "-m", "rage_sdk.examples.random_bot", "--port", str(port), "--host", "127.0.0.1"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        assert asyncio.run(wait_healthy(f"127.0.0.1:{port}", timeout=60)), "the bot did not start serving"
        rage = Path(sys.executable).with_name("rage")
        check = run(rage, "bot", "check", f"127.0.0.1:{port}", cwd=tmp_path)
    finally:
        stop_group(served, 2.0)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "passed every check" in check.stdout


@pytest.mark.slow
def test_installed_wheels_check_and_play_the_example_bots(wheels: Wheels, tmp_path: Path) -> None:
    env = tmp_path / "env"
    python = fresh_env(env)
    own_site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path)
    # Appended after the fresh site-packages: the dependencies are found there, and this project's
    # editable installs are not (their finders are loaded by .pth files, which a path entry does not run).
    Path(own_site.stdout.strip(), "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    install = run(*PIP, "--python", python, "install", "--quiet", "--no-deps", wheels.sdk, wheels.referee, cwd=tmp_path)
    assert install.returncode == 0, install.stderr[-2000:]

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
