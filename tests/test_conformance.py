"""The conformance kit agrees with ``rage replay verify`` on every case.

The kit's copy in ``tests/data/conformance`` always runs; the shared kit beside the project
(``../shared/conformance``) runs too when it is there, so its newer cases are checked as well.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KITS = [ROOT / "tests" / "data" / "conformance" / "run", ROOT.parent / "shared" / "conformance" / "run"]
RAGE = Path(sys.executable).with_name("rage")


@pytest.mark.parametrize("run", [kit for kit in KITS if kit.exists()], ids=lambda kit: str(kit.parents[1].name))
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
