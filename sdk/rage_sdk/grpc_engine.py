"""Which gRPC I/O engine bots and the referee use: chosen by measurement, before gRPC starts.

grpcio 1.85 hands every read and write of a stream to its EventEngine's own threads by default.
With the engine that came before it, the thread that polls does the I/O itself, and on the
2-core machines this project is measured on that costs both ends of the bot stream clearly less
CPU per decision (``rage bench protocol``; ``proto/README.md`` gives the figures). The choice is
made through gRPC's documented ``GRPC_EXPERIMENTS`` variable, and only when it is not set.
"""

from __future__ import annotations

import os

EXPERIMENTS = "-event_engine_client,-event_engine_listener"
"""Client channels and listeners on the polling engine."""


def choose_grpc_engine() -> None:
    """Select the measured engine unless ``GRPC_EXPERIMENTS`` is set; call before any channel or server."""
    os.environ.setdefault("GRPC_EXPERIMENTS", EXPERIMENTS)
