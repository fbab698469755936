"""The ``[runner]`` table of a league file: where its games are played.

::

    [runner]
    kind = "ray"          # or "local" (the default): this machine's event loop
    address = "auto"      # ray: "auto" (the cluster Ray finds), HOST:PORT or ray://HOST:PORT; none: a new one here
    workers = 8           # ray: worker processes, each playing `concurrency` games at once; none: one per CPU
    working_dir = "."     # ray: a folder shipped to every worker, where it runs the bots' commands
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..game import FaultLedger
from ..sandbox import Sandbox
from ..seats import BotSpec
from ..submissions.store import Submission
from .base import GameRunner, RunnerError, StartFailure
from .local import LocalRunner

MAX_WORKERS = 4096
_ADDRESS = re.compile(r"^(auto|(ray://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):\d{1,5})$")


def ray_available() -> bool:
    """Whether Ray is installed (the ``ray`` extra)."""
    return importlib.util.find_spec("ray") is not None


class RunnerKind(StrEnum):
    LOCAL = "local"
    RAY = "ray"


class RunnerSettings(BaseModel):
    """Which runner plays a league's games, and its settings (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    kind: RunnerKind = RunnerKind.LOCAL
    address: str | None = Field(None, description="the Ray cluster: auto, HOST:PORT or ray://HOST:PORT")
    workers: int | None = Field(None, ge=1, le=MAX_WORKERS, description="Ray worker processes")
    working_dir: str | None = Field(None, min_length=1, description="a folder Ray ships to every worker")

    @model_validator(mode="after")
    def _consistent(self) -> RunnerSettings:
        if self.kind is RunnerKind.LOCAL:
            for key in ("address", "workers", "working_dir"):
                if getattr(self, key) is not None:
                    raise ValueError(f'{key}: only for kind = "ray"')
        if self.address is not None and not _ADDRESS.match(self.address):
            raise ValueError(f"address: {self.address!r} is not auto, HOST:PORT or ray://HOST:PORT")
        return self

    @staticmethod
    def ray(address: str, settings: RunnerSettings | None = None) -> RunnerSettings:
        """``--ray ADDRESS``: the league's settings on Ray at ``address`` (``auto``: the cluster Ray finds)."""
        base = (settings or RunnerSettings()).model_dump(exclude={"kind", "address"})
        if settings is None or settings.kind is RunnerKind.LOCAL:
            base = {}
        return RunnerSettings.model_validate({**base, "kind": "ray", "address": address})

    def describe(self) -> str:
        if self.kind is RunnerKind.LOCAL:
            return "games on this machine"
        where = "a Ray of its own on this machine" if self.address is None else f"the Ray cluster at {self.address}"
        workers = "one worker per CPU" if self.workers is None else f"{self.workers} workers"
        return f"games on {where}, {workers}"

    def make(
        self,
        bots: Sequence[BotSpec],
        ledger: FaultLedger,
        concurrency: int,
        log_dir: Path,
        *,
        start_failure: StartFailure = StartFailure.RAISE,
        sandbox: Sandbox | None = None,
        submissions: Mapping[str, Submission] | None = None,
    ) -> GameRunner:
        """The runner these settings name; :class:`RunnerError` when it cannot run here."""
        if self.kind is RunnerKind.LOCAL:
            return LocalRunner(
                bots,
                ledger,
                concurrency,
                log_dir,
                start_failure=start_failure,
                sandbox=sandbox,
                submissions=submissions,
            )
        if sandbox is not None or submissions:
            raise RunnerError('the Ray runner runs no sandboxed or submitted bots yet: use [runner] kind = "local"')
        if not ray_available():
            raise RunnerError("the Ray runner needs Ray: pip install 'rage-arena[ray]'")
        from .ray import RayRunner

        runtime_env: dict[str, Any] | None = None if self.working_dir is None else {"working_dir": self.working_dir}
        return RayRunner(
            bots,
            ledger,
            concurrency,
            log_dir,
            start_failure=start_failure,
            address=self.address,
            workers=self.workers,
            runtime_env=runtime_env,
        )
