"""Runners: one way to play games among bots, on this machine (:class:`LocalRunner`) or elsewhere."""

from .base import GameRunner, StartFailure
from .isolation import Isolation
from .local import LocalRunner

__all__ = ["GameRunner", "Isolation", "LocalRunner", "StartFailure"]
