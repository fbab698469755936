"""The ``[runner]`` table of a league file: where its games are played.

::

    [runner]
    kind = "ray"          # or "local" (the default): this machine's event loop
    address = "auto"      # ray: "auto" (the cluster Ray finds), HOST:PORT or ray://HOST:PORT; none: a new one here
    workers = 8           # ray: worker processes, each playing `concurrency` games at once; none: one per CPU
    working_dir = "."     # ray: a folder shipped to every worker, where it runs the bots' commands
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Unpack

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from ..limits import MAX_WORKERS
from ..play.ledger import FaultLedger
from ..seats import BotSpec
from .base import GameRunner, RunnerError, RunnerOptions
from .local import LocalRunner

_ADDRESS = re.compile(r"^(auto|(ray://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):\d{1,5})$")


def ray_available() -> bool:
    """Whether Ray is installed (the ``ray`` extra)."""
    return importlib.util.find_spec("ray") is not None


def require_ray() -> None:
    """:class:`RunnerError` saying how to install Ray, when it is not."""
    if not ray_available():
        raise RunnerError("the Ray runner needs Ray: pip install 'rage-arena[ray]'")


class RunnerKind(StrEnum):
    LOCAL = "local"
    RAY = "ray"


class RunnerSettings(BaseModel):
    """Which runner plays a league's games, and its settings (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: RunnerKind = RunnerKind.LOCAL
    address: str | None = Field(None, description="the Ray cluster: auto, HOST:PORT or ray://HOST:PORT")
    workers: StrictInt | None = Field(None, ge=1, le=MAX_WORKERS, description="Ray worker processes")
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
    def ray(address: str, settings: RunnerSettings | None = None, workers: int | None = None) -> RunnerSettings:
        """``--ray ADDRESS``: the league's settings on Ray at ``address`` (``auto``: the cluster Ray finds),
        with ``workers`` worker processes when given (``--ray-workers``)."""
        base = (settings or RunnerSettings()).model_dump(exclude={"kind", "address"})
        if settings is None or settings.kind is RunnerKind.LOCAL:
            base = {}
        if workers is not None:
            base["workers"] = workers
        return RunnerSettings.model_validate({**base, "kind": "ray", "address": address})

    def one_worker(self) -> RunnerSettings:
        """These settings with one Ray worker (locally: as they are), for games that play one after another."""
        if self.kind is RunnerKind.LOCAL:
            return self
        return self.model_copy(update={"workers": 1})

    def describe(self) -> str:
        if self.kind is RunnerKind.LOCAL:
            return "games on this machine"
        where = "a Ray of its own on this machine" if self.address is None else f"the Ray cluster at {self.address}"
        workers = "one worker per CPU" if self.workers is None else f"{self.workers} workers"
        return f"games on {where}, {workers}"

    def make(self, bots: Sequence[BotSpec], ledger: FaultLedger, **options: Unpack[RunnerOptions]) -> GameRunner:
        """The runner these settings name; :class:`RunnerError` when it cannot run here."""
        if self.kind is RunnerKind.LOCAL:
            return LocalRunner(bots, ledger, **options)
        require_ray()
        from .ray import RayRunner

        env = self.runtime_env()
        return RayRunner(bots, ledger, address=self.address, workers=self.workers, runtime_env=env, **options)

    def session(self) -> contextlib.AbstractContextManager[None]:
        """For a process that makes many runners (the hosted referee): connected to Ray while the block
        runs (nothing to do locally); :class:`RunnerError` in one line when it cannot connect."""
        if self.kind is RunnerKind.LOCAL:
            return contextlib.nullcontext()
        require_ray()
        from .ray import session

        return session(self.address, self.runtime_env())

    def runtime_env(self) -> dict[str, Any] | None:
        """What Ray ships to every worker: the ``working_dir``, if any."""
        return None if self.working_dir is None else {"working_dir": self.working_dir}


LOCAL = RunnerSettings()
"""Games on this machine (the default)."""
