"""The conformance kit agrees with ``rage replay verify`` on every case.

The kit's copy in ``tests/data/conformance`` always runs; the shared kit beside the project
(``../shared/conformance``) runs too when it is there and differs from the copy, so its newer
cases are checked as well.
"""

from __future__ import annotations

import filecmp
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPY = ROOT / "tests" / "data" / "conformance"
SHARED = ROOT.parent / "shared" / "conformance"


def same_tree(a: Path, b: Path) -> bool:
    """Whether folders ``a`` and ``b`` hold the same files with the same contents."""
    compared = filecmp.dircmp(a, b)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, differ, errors = filecmp.cmpfiles(a, b, compared.common_files, shallow=False)
    return not differ and not errors and all(same_tree(a / sub, b / sub) for sub in compared.common_dirs)


def kits() -> list[Path]:
    """The runs to check: the copy's, and the shared kit's when its runner or cases are not the copy's."""
    shared = SHARED / "run"
    if not shared.exists():
        return [COPY / "run"]
    if filecmp.cmp(COPY / "run", shared, shallow=False) and same_tree(COPY / "cases", SHARED / "cases"):
        return [COPY / "run"]
    return [COPY / "run", shared]


KITS = kits()
RAGE = Path(sys.executable).with_name("rage")


@pytest.mark.slow
@pytest.mark.parametrize("run", KITS, ids=lambda kit: str(kit.parents[1].name))
def test_conformance_kit(run: Path) -> None:
    command = [str(RAGE)] if RAGE.exists() else [sys.executable, "-m", "rage_referee"]
    proc = subprocess.run(
        [sys.executable, str(run), "--cmd", shlex.join(command)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    summary = re.search(r"conformance \(public\): (\d+)/(\d+) cases agree", proc.stdout)
    assert summary, f"no summary line in:\n{proc.stdout}\n{proc.stderr}"
    agreed, total = map(int, summary.groups())
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert agreed == total > 0
