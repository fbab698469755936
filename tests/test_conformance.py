"""The public conformance kit (``../shared/conformance``) agrees with ``rage replay verify`` on every case."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / ".." / "shared"
RUN = Path(__file__).parents[1] / ".." / "shared" / "conformance" / "run"
RAGE = Path(sys.executable).with_name("rage")


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared/ directory (spec and conformance kit) is not here")
def test_public_conformance_kit() -> None:
    assert RUN.exists(), f"{RUN} is missing"
    command = [str(RAGE)] if RAGE.exists() else [sys.executable, "-m", "rage_referee"]
    proc = subprocess.run(
        [sys.executable, str(RUN), "--cmd", shlex.join(command)],
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
