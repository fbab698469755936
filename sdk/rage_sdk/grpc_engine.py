"""Which gRPC I/O engine bots and the referee use: chosen by measurement, before gRPC starts.

grpcio 1.85 hands every read and write of a stream to its EventEngine's own threads by default.
With the engine that came before it, the thread that polls does the I/O itself, and on the
2-core machines this project is measured on that costs both ends of the bot stream clearly less
CPU per decision (``rage bench protocol``; ``proto/README.md`` gives the figures). The choice is
made through gRPC's documented ``GRPC_EXPERIMENTS`` variable, which gRPC reads when it is first
imported; only when the variable is not set, and only for the grpcio release it was measured on
(a later release may drop these experiments, and would log each name it does not know).
"""

from __future__ import annotations

import os
from importlib import metadata

VARIABLE = "GRPC_EXPERIMENTS"
EXPERIMENTS = "-event_engine_client,-event_engine_listener"
"""Client channels and listeners on the polling engine."""
MEASURED_ON = "1.85."
"""The grpcio release series the choice was measured on."""

_chosen = False


def choose_grpc_engine() -> None:
    """Select the measured engine unless ``GRPC_EXPERIMENTS`` is set; call before gRPC is imported."""
    global _chosen
    if VARIABLE in os.environ:
        return
    try:
        measured = metadata.version("grpcio").startswith(MEASURED_ON)
    except metadata.PackageNotFoundError:
        measured = False
    if measured:
        os.environ[VARIABLE] = EXPERIMENTS
        _chosen = True


def environment_for_child() -> dict[str, str]:
    """This process's environment without the engine choice made here (a user's own setting stays).

    A launched bot may be written in any language; SDK bots make the choice themselves.
    """
    return {name: value for name, value in os.environ.items() if not (_chosen and name == VARIABLE)}
