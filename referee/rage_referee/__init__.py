"""Rage Arena referee: runs matches between bots, records and checks games, and the ``rage`` command."""

from rage_sdk.grpc_engine import choose_grpc_engine

choose_grpc_engine()  # gRPC reads its settings when first imported, so before any referee module imports it
