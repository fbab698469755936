"""A submission's build is bounded: killed when its time is up or its folder passes the disk limit,
its output kept to its last 64 KiB while it streams; in the sandbox and (``--no-sandbox``) without."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest
from rage_referee.sandbox import Sandbox, SandboxSettings
from rage_referee.submissions.build import MAX_LOG, build
from rage_referee.submissions.manifest import ManifestError
from rage_referee.submissions.store import Submission, store_submission

from tests.conftest import require, require_command

MiB = 1024 * 1024
FILL = "import itertools\nfor n in itertools.count():\n    open(f'f{n}', 'wb').write(bytes(1 << 20))\n"
CHATTER = "import sys\nfor _ in range(20_000):\n    sys.stdout.write('x' * 1000 + '\\n')\nprint('the end')\n"
SLOW = "import subprocess, time\nsubprocess.Popen(['sleep', '300'])\ntime.sleep(300)\n"


def stored(tmp_path: Path, script: str, build: str = "python build.py") -> Submission:
    folder = tmp_path / "bot"
    folder.mkdir(mode=0o755)
    (folder / "build.py").write_text(script)
    (folder / "rage-bot.toml").write_text(f'name = "b"\nruntime = "python"\nrun = "python bot.py"\nbuild = "{build}"\n')
    return store_submission(folder, tmp_path / "versions")


def sandbox() -> Sandbox:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each build as a user of its own)", "run the tests as root")
    return Sandbox.available(SandboxSettings(enabled=True, file_size_mb=8))


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandbox"])
def test_a_build_that_fills_the_disk_is_stopped_at_the_limit(tmp_path: Path, sandboxed: bool) -> None:
    tmp_path.chmod(0o755)
    submission = stored(tmp_path, FILL)
    started = time.monotonic()
    result = build(submission, sandbox() if sandboxed else None, seconds=60, max_bytes=8 * MiB)
    assert (result.ok, result.detail) == (False, "wrote past 8 MiB of files")
    assert time.monotonic() - started < 30  # stopped when it passed the limit, not at the time limit


def test_a_build_that_runs_too_long_is_killed_with_its_children(tmp_path: Path) -> None:
    submission = stored(tmp_path, SLOW)
    result = build(submission, None, seconds=1)
    assert (result.ok, result.detail) == (False, "timed out after 1 s")
    time.sleep(0.2)
    sleepers = [p for p in Path("/proc").glob("[0-9]*") if _cmdline(p) == "sleep 300" and _cwd(p) == submission.folder]
    assert not sleepers


def test_a_builds_output_is_kept_to_its_tail(tmp_path: Path) -> None:
    submission = stored(tmp_path, CHATTER)
    result = build(submission, None)
    assert result.ok and len(result.log.encode()) <= MAX_LOG and result.log.rstrip().endswith("the end")


def _cmdline(process: Path) -> str:
    try:
        return (process / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _cwd(process: Path) -> Path | None:
    try:
        return Path(os.readlink(process / "cwd"))
    except OSError:
        return None


REWRITE = (
    "from pathlib import Path\n"
    "manifest = Path('rage-bot.toml')\n"
    "manifest.unlink()\n"
    "manifest.write_text(manifest_text)\n"
    "Path('built.txt').write_text('a file of its own')\n"
)


@pytest.mark.parametrize("sandboxed", [False, True], ids=["plain", "sandbox"])
def test_a_build_that_rewrites_its_manifest_fails(tmp_path: Path, sandboxed: bool) -> None:
    tmp_path.chmod(0o755)
    other = 'name = "b"\nruntime = "command"\nrun = "/bin/sh -c evil"\n'
    submission = stored(tmp_path, f"manifest_text = {other!r}\n{REWRITE}")
    result = build(submission, sandbox() if sandboxed else None, seconds=60)
    assert (result.ok, result.detail) == (
        False,
        "changed rage-bot.toml, a file of the version: a build may only add files",
    )


def test_a_build_that_only_adds_files_is_built(tmp_path: Path) -> None:
    submission = stored(
        tmp_path, "from pathlib import Path\nPath('out').mkdir()\nPath('out/built.txt').write_text('x')\n"
    )
    assert build(submission, None).detail == "built"


def test_a_build_sees_its_own_files_only(tmp_path: Path) -> None:
    # the jail showed the folder of the first absolute file the command named: another bot's token, a deal key
    tmp_path.chmod(0o755)
    other = tmp_path / "other"
    other.mkdir(mode=0o755)
    (other / "ref.sqlite").write_text("the deal key of another league")
    (other / "ref.sqlite").chmod(0o644)
    submission = stored(
        tmp_path, "import sys\ntry:\n    print(open(sys.argv[1]).read())\nexcept OSError as e:\n    print(e)\n"
    )
    hostile = submission.manifest.model_copy(update={"build": f"python build.py {other / 'ref.sqlite'}"})
    result = build(replace(submission, manifest=hostile), sandbox(), seconds=60)
    assert result.ok and "No such file or directory" in result.log and "deal key" not in result.log


def test_a_build_naming_a_path_outside_its_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ManifestError) as refused:
        stored(tmp_path, "", build="python build.py /other/ref.sqlite")
    assert str(refused.value) == (
        "rage-bot.toml: build: names '/other/ref.sqlite', outside the bot's folder: a build sees its own files only"
    )
